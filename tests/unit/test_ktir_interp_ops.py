"""The KTIR reference interpreter's op semantics against numpy: control flow (`scf.for`,
`if`, `while`), linalg (sequential and f32 reductions, generic bodies, named ops) and
arith/math (integer semantics, comparisons, casts, f16 rounding)."""

from __future__ import annotations

import numpy as np

from dfsched.interp.ktir import call_function, parse_module, run_kernel
from unit_helpers import f16_seq_sum, index_constants, kernel_with_inputs, tile, view


# ---------------------------------------------------------------------------------------
# control flow
# ---------------------------------------------------------------------------------------


def test_scf_for_loop_over_rows_with_tiles_per_iteration():
    body = "\n".join(
        [
            index_constants(0, 1, 3, indent=""),
            "%id = ktdp.get_compute_tile_id : index",
            "%r0 = arith.muli %id, %c3 : index",
            view("va", "A", (6, 8), (8, 1)),
            view("vc", "C", (6, 8), (8, 1)),
            "scf.for %i = %c0 to %c3 step %c1 {",
            "  %r = arith.addi %r0, %i : index",
            "  " + tile("ta", "va", (6, 8), ["%r", "%c0"], (1, 8)),
            "  " + tile("tc", "vc", (6, 8), ["%r", "%c0"], (1, 8)),
            "  %a = ktdp.load %ta : <1x8xindex> -> tensor<1x8xf16>",
            "  %e = tensor.empty() : tensor<1x8xf16>",
            "  %s = linalg.mul ins(%a, %a : tensor<1x8xf16>, tensor<1x8xf16>) outs(%e : tensor<1x8xf16>) -> tensor<1x8xf16>",
            "  ktdp.store %s, %tc : tensor<1x8xf16>, <1x8xindex>",
            "}",
        ]
    )
    m, inputs = kernel_with_inputs("%A: index, %C: index", body, grid=(2,), seed=8)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["C"], inputs["A"] * inputs["A"])


def test_scf_for_iter_args_accumulate_in_f16():
    body = "\n".join(
        [
            index_constants(0, 1, 5, indent=""),
            view("va", "A", (5, 8), (8, 1)),
            view("vc", "C", (1, 8), (8, 1)),
            "%z = arith.constant dense<0.0> : tensor<1x8xf16>",
            "%acc = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %z) -> (tensor<1x8xf16>) {",
            "  " + tile("ta", "va", (5, 8), ["%i", "%c0"], (1, 8)),
            "  %a = ktdp.load %ta : <1x8xindex> -> tensor<1x8xf16>",
            "  %s = arith.addf %x, %a : tensor<1x8xf16>",
            "  scf.yield %s : tensor<1x8xf16>",
            "}",
            tile("tc", "vc", (1, 8), ["%c0", "%c0"], (1, 8)),
            "ktdp.store %acc, %tc : tensor<1x8xf16>, <1x8xindex>",
        ]
    )
    m, inputs = kernel_with_inputs("%A: index, %C: index", body, seed=9)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["C"][0], f16_seq_sum(inputs["A"], axis=0))


def test_scf_if_and_while_on_scalars():
    src = """
    func.func @f(%n: index) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %r:2 = scf.while (%i = %c0, %s = %c0) : (index, index) -> (index, index) {
        %go = arith.cmpi slt, %i, %n : index
        scf.condition(%go) %i, %s : index, index
      } do {
      ^bb0(%i2: index, %s2: index):
        %big = arith.cmpi sge, %i2, %c10 : index
        %t = scf.if %big -> (index) {
          scf.yield %c1 : index
        } else {
          scf.yield %i2 : index
        }
        %s3 = arith.addi %s2, %t : index
        %i3 = arith.addi %i2, %c1 : index
        scf.yield %i3, %s3 : index, index
      }
      return %r#1 : index
    }
    """
    m = parse_module(src)
    assert call_function(m, "f", 15) == (sum(range(10)) + 5,)


# ---------------------------------------------------------------------------------------
# linalg: reductions, generic bodies, named ops
# ---------------------------------------------------------------------------------------

ROW_SUM_REDUCE = """
func.func @rs(%x: tensor<4x33xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %e = tensor.empty() : tensor<4xf16>
  %r = linalg.reduce ins(%x : tensor<4x33xf16>) outs(%e : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %c = arith.constant 2.5 : f16
  %e2 = tensor.empty() : tensor<4xf16>
  %f = linalg.fill ins(%c : f16) outs(%e2 : tensor<4xf16>) -> tensor<4xf16>
  %r2 = linalg.reduce ins(%x : tensor<4x33xf16>) outs(%f : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  return %r, %r2 : tensor<4xf16>, tensor<4xf16>
}
"""


def test_reduce_in_f16_accumulates_sequentially():
    m = parse_module(ROW_SUM_REDUCE)
    x = (np.random.default_rng(0).uniform(0, 30, (4, 33))).astype(np.float16)
    r, r2 = call_function(m, "rs", x, accumulate="f16")
    np.testing.assert_array_equal(r, f16_seq_sum(x, axis=1))
    np.testing.assert_array_equal(r2, f16_seq_sum(x, axis=1, init=2.5))
    # sequential f16 accumulation differs from a float64 sum rounded once
    assert not np.array_equal(r, x.astype(np.float64).sum(axis=1).astype(np.float16))


def test_reduce_accumulates_in_f32_by_default_and_rounds_once():
    m = parse_module(ROW_SUM_REDUCE)
    x = (np.random.default_rng(0).uniform(0, 30, (4, 33))).astype(np.float16)
    r, r2 = call_function(m, "rs", x)
    np.testing.assert_array_equal(r, x.astype(np.float32).sum(axis=1).astype(np.float16))
    np.testing.assert_array_equal(r2, (np.float32(2.5) + x.astype(np.float32).sum(axis=1)).astype(np.float16))


GENERIC_REDUCTIONS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @g(%x: tensor<3x5xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %ninf = arith.constant -3.0e38 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x5xf32>) outs(%f : tensor<3xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
  } -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3xf32>
  %w = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x5xf32>) outs(%e2 : tensor<3xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %p = arith.mulf %in, %jf : f32
      %r = arith.addf %p, %acc : f32
      linalg.yield %r : f32
  } -> tensor<3xf32>
  return %m, %w : tensor<3xf32>, tensor<3xf32>
}
"""


def test_generic_reductions_with_index():
    m = parse_module(GENERIC_REDUCTIONS)
    x = np.random.default_rng(1).normal(size=(3, 5)).astype(np.float32)
    mx, w = call_function(m, "g", x)
    np.testing.assert_array_equal(mx, x.max(axis=1))
    expect = np.zeros(3, np.float32)
    for j in range(5):
        expect = (expect + x[:, j] * np.float32(j)).astype(np.float32)
    np.testing.assert_array_equal(w, expect)


RELU_WITH_IF = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @relu(%x: tensor<4x6xf16>, %b: tensor<6xf16>) -> tensor<4x6xf16> {
  %e = tensor.empty() : tensor<4x6xf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x6xf16>, tensor<6xf16>) outs(%e : tensor<4x6xf16>) {
    ^bb0(%in: f16, %bias: f16, %out: f16):
      %z = arith.constant 0.0 : f16
      %v = arith.addf %in, %bias : f16
      %pos = arith.cmpf ogt, %v, %z : f16
      %y = scf.if %pos -> (f16) {
        scf.yield %v : f16
      } else {
        scf.yield %z : f16
      }
      linalg.yield %y : f16
  } -> tensor<4x6xf16>
  return %r : tensor<4x6xf16>
}
"""


def test_generic_body_with_scf_if_on_elements_and_a_broadcast_operand():
    m = parse_module(RELU_WITH_IF)
    rng = np.random.default_rng(2)
    x = rng.normal(size=(4, 6)).astype(np.float16)
    b = rng.normal(size=6).astype(np.float16)
    (r,) = call_function(m, "relu", x, b)
    np.testing.assert_array_equal(r, np.maximum(x + b[None, :], np.float16(0)))


GUARDED_DIVISION = """
#id = affine_map<(d0) -> (d0)>
func.func @safe_div(%x: tensor<6xi32>) -> tensor<6xi32> {
  %e = tensor.empty() : tensor<6xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<6xi32>) outs(%e : tensor<6xi32>) {
    ^bb0(%in: i32, %out: i32):
      %z = arith.constant 0 : i32
      %c100 = arith.constant 100 : i32
      %nz = arith.cmpi ne, %in, %z : i32
      %q = scf.if %nz -> (i32) {
        %d = arith.divsi %c100, %in : i32
        scf.yield %d : i32
      } else {
        scf.yield %z : i32
      }
      linalg.yield %q : i32
  } -> tensor<6xi32>
  return %r : tensor<6xi32>
}
"""


def test_generic_body_that_cannot_run_on_arrays_runs_element_by_element():
    # running both branches over the whole array would divide by zero: the body falls back
    x = np.array([5, 0, -7, 3, 0, 100], np.int32)
    (r,) = call_function(parse_module(GUARDED_DIVISION), "safe_div", x)
    np.testing.assert_array_equal(r, np.array([20, 0, -14, 33, 0, 1], np.int32))


NAMED = """
func.func @named(%a: tensor<3x4xf16>, %b: tensor<3x4xf16>, %m: tensor<4x5xf16>) -> (tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<4x3xf16>, tensor<3x5xf16>, tensor<3x5xf32>, tensor<2x3x4xf16>) {
  %e = tensor.empty() : tensor<3x4xf16>
  %sub = linalg.sub ins(%a, %b : tensor<3x4xf16>, tensor<3x4xf16>) outs(%e : tensor<3x4xf16>) -> tensor<3x4xf16>
  %div = linalg.div ins(%a, %b : tensor<3x4xf16>, tensor<3x4xf16>) outs(%e : tensor<3x4xf16>) -> tensor<3x4xf16>
  %max = linalg.max ins(%a, %b : tensor<3x4xf16>, tensor<3x4xf16>) outs(%e : tensor<3x4xf16>) -> tensor<3x4xf16>
  %cp = linalg.copy ins(%a : tensor<3x4xf16>) outs(%e : tensor<3x4xf16>) -> tensor<3x4xf16>
  %et = tensor.empty() : tensor<4x3xf16>
  %tr = linalg.transpose ins(%a : tensor<3x4xf16>) outs(%et : tensor<4x3xf16>) permutation = [1, 0]
  %z16 = arith.constant 0.0 : f16
  %e5 = tensor.empty() : tensor<3x5xf16>
  %f5 = linalg.fill ins(%z16 : f16) outs(%e5 : tensor<3x5xf16>) -> tensor<3x5xf16>
  %mm = linalg.matmul ins(%a, %m : tensor<3x4xf16>, tensor<4x5xf16>) outs(%f5 : tensor<3x5xf16>) -> tensor<3x5xf16>
  %z32 = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<3x5xf32>
  %f32 = linalg.fill ins(%z32 : f32) outs(%e32 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %mm32 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %m : tensor<3x4xf16>, tensor<4x5xf16>) outs(%f32 : tensor<3x5xf32>) {
    ^bb0(%x: f16, %y: f16, %acc: f32):
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %p = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<3x5xf32>
  %eb = tensor.empty() : tensor<2x3x4xf16>
  %bc = linalg.broadcast ins(%a : tensor<3x4xf16>) outs(%eb : tensor<2x3x4xf16>) dimensions = [0]
  return %sub, %div, %max, %cp, %tr, %mm, %mm32, %bc : tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<4x3xf16>, tensor<3x5xf16>, tensor<3x5xf32>, tensor<2x3x4xf16>
}
"""


def test_named_linalg_ops():
    m = parse_module(NAMED)
    rng = np.random.default_rng(3)
    a = rng.uniform(1, 2, (3, 4)).astype(np.float16)
    b = rng.uniform(1, 2, (3, 4)).astype(np.float16)
    mm = rng.uniform(-1, 1, (4, 5)).astype(np.float16)
    sub, div, mx, cp, tr, mat, mat32, bc = call_function(m, "named", a, b, mm, accumulate="f16")
    np.testing.assert_array_equal(sub, a - b)
    np.testing.assert_array_equal(div, a / b)
    np.testing.assert_array_equal(mx, np.maximum(a, b))
    np.testing.assert_array_equal(cp, a)
    np.testing.assert_array_equal(tr, a.T)
    np.testing.assert_array_equal(bc, np.broadcast_to(a, (2, 3, 4)))
    # matmul: C[i, j] += A[i, k] * B[k, j] for k in order, rounding to the output type each step
    acc16 = np.zeros((3, 5), np.float16)
    acc32 = np.zeros((3, 5), np.float32)
    for k in range(4):
        acc16 = (acc16 + (a[:, k : k + 1] * mm[k : k + 1, :]).astype(np.float16)).astype(np.float16)
        acc32 = acc32 + a[:, k : k + 1].astype(np.float32) * mm[k : k + 1, :].astype(np.float32)
    np.testing.assert_array_equal(mat, acc16)
    np.testing.assert_array_equal(mat32, acc32)
    # accumulating in f32 (the default): exact products, f32 sums, one rounding to f16
    mat_f32acc = call_function(m, "named", a, b, mm)[5]
    np.testing.assert_array_equal(mat_f32acc, acc32.astype(np.float16))


# ---------------------------------------------------------------------------------------
# arith / math semantics
# ---------------------------------------------------------------------------------------

INT_OPS = """
func.func @ints(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i32, i32, i1, i1, i8, i64, i32) {
  %d = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  %fd = arith.floordivsi %a, %b : i32
  %cd = arith.ceildivsi %a, %b : i32
  %du = arith.divui %a, %b : i32
  %sh = arith.shrsi %a, %b : i32
  %shu = arith.shrui %a, %b : i32
  %slt = arith.cmpi slt, %a, %b : i32
  %ult = arith.cmpi ult, %a, %b : i32
  %t = arith.trunci %a : i32 to i8
  %x = arith.extsi %a : i32 to i64
  %m = arith.muli %a, %a : i32
  return %d, %r, %fd, %cd, %du, %sh, %shu, %slt, %ult, %t, %x, %m : i32, i32, i32, i32, i32, i32, i32, i1, i1, i8, i64, i32
}
"""


def test_integer_semantics():
    m = parse_module(INT_OPS)
    d, r, fd, cd, du, sh, shu, slt, ult, t, x, mul = call_function(m, "ints", -7, 2)
    assert (d, r, fd, cd) == (-3, -1, -4, -3)
    assert du == (2**32 - 7) // 2  # -7 read as unsigned 32-bit, halved (fits a positive i32)
    assert sh == -2 and shu == (2**32 - 7) >> 2
    assert slt is True and ult is False
    assert t == -7 and x == -7 and mul == 49
    (_, _, _, _, _, _, _, _, _, t2, _, m2) = call_function(m, "ints", 70000, 3)
    assert t2 == ((70000 + 128) % 256) - 128 and m2 == ((70000 * 70000 + 2**31) % 2**32) - 2**31


FLOAT_OPS = """
func.func @floats(%a: f16, %b: f16) -> (i1, i1, i1, f16, f32, f16, i32) {
  %olt = arith.cmpf olt, %a, %b : f16
  %ult = arith.cmpf ult, %a, %b : f16
  %une = arith.cmpf une, %a, %b : f16
  %mx = arith.maximumf %a, %b : f16
  %ext = arith.extf %a : f16 to f32
  %tanh = math.tanh %a : f16
  %i = arith.fptosi %a : f16 to i32
  return %olt, %ult, %une, %mx, %ext, %tanh, %i : i1, i1, i1, f16, f32, f16, i32
}
"""


def test_float_comparisons_and_casts():
    m = parse_module(FLOAT_OPS)
    olt, ult, une, mx, ext, tanh, i = call_function(m, "floats", np.float16(-2.75), np.float16(1.0))
    assert (olt, ult, une) == (True, True, True)
    assert mx == np.float16(1.0) and mx.dtype == np.float16
    assert ext == np.float32(-2.75) and tanh == np.float16(np.tanh(-2.75)) and i == -2
    olt, ult, une, mx, *_ = call_function(m, "floats", np.float16(np.nan), np.float16(1.0))
    assert (olt, ult, une) == (False, True, True) and np.isnan(mx)


def test_f16_elementwise_rounds_every_operation():
    src = """
    func.func @fma(%a: tensor<8xf16>, %b: tensor<8xf16>, %c: tensor<8xf16>) -> tensor<8xf16> {
      %p = arith.mulf %a, %b : tensor<8xf16>
      %s = arith.addf %p, %c : tensor<8xf16>
      return %s : tensor<8xf16>
    }
    """
    rng = np.random.default_rng(4)
    a, b, c = (rng.uniform(-10, 10, 8).astype(np.float16) for _ in range(3))
    (r,) = call_function(parse_module(src), "fma", a, b, c)
    np.testing.assert_array_equal(r, (a * b) + c)
    assert r.dtype == np.float16
