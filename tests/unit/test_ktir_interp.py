"""The KTIR reference interpreter against numpy expressions written independently.

Small hand-written kernels cover the memory model (views, strides, access-tile sets and
orders, scratchpads, races, address units), control flow, linalg (vectorised bodies,
sequential reductions, named ops), arith/math semantics and located errors; the kernels
in `examples/` are checked against what each one says it computes.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.ktir import (
    call_function,
    kernel_layout,
    load_module,
    make_inputs,
    parse_module,
    run,
    run_kernel,
)
from unit_helpers import box

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

GLOBAL = "#ktdp.memory_space<global>"


def ident(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def view(name: str, base: str, sizes, strides, elt: str = "f16", space: str = GLOBAL, cset: str | None = None) -> str:
    shape = "x".join(str(s) for s in sizes)
    cset = cset or box(*sizes)
    return (
        f"%{name} = ktdp.construct_memory_view %{base}, sizes: {list(sizes)}, strides: {list(strides)} "
        f"{{coordinate_set = {cset}, memory_space = {space}}} : memref<{shape}x{elt}>"
    )


def tile(name: str, v: str, vshape, idx, tshape, elt: str = "f16", tset: str | None = None, order: str | None = None) -> str:
    vs = "x".join(str(s) for s in vshape)
    ts = "x".join(str(s) for s in tshape)
    tset = tset or box(*tshape)
    order = order or ident(len(tshape))
    return (
        f"%{name} = ktdp.construct_access_tile %{v}[{', '.join(idx)}] "
        f"{{access_tile_order = {order}, access_tile_set = {tset}}} : memref<{vs}x{elt}> -> !ktdp.access_tile<{ts}xindex>"
    )


def kernel(args: str, body: str, grid=(1,), name: str = "k") -> str:
    g = ", ".join(str(d) for d in grid)
    return f"func.func @{name}({args}) attributes {{grid = [{g}]}} {{\n{body}\n  return\n}}\n"


def f16_seq_sum(x: np.ndarray, axis: int, init=0.0) -> np.ndarray:
    """Sum along `axis` one element at a time, rounding to f16 after every addition."""
    x = np.moveaxis(np.asarray(x, np.float16), axis, -1)
    acc = np.full(x.shape[:-1], init, dtype=np.float16)
    for k in range(x.shape[-1]):
        acc = (acc.astype(np.float32) + x[..., k].astype(np.float32)).astype(np.float16)
    return acc


# ---------------------------------------------------------------------------------------
# elementwise kernels over a grid
# ---------------------------------------------------------------------------------------

ADD_ARGS = kernel(
    "%A: index, %B: index, %C: index",
    "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%c2 = arith.constant 2 : index",
            "%id = ktdp.get_compute_tile_id : index",
            "%row = arith.muli %id, %c2 : index",
            view("va", "A", (8, 16), (16, 1)),
            view("vb", "B", (8, 16), (16, 1)),
            view("vc", "C", (8, 16), (16, 1)),
            tile("ta", "va", (8, 16), ["%row", "%c0"], (2, 16)),
            tile("tb", "vb", (8, 16), ["%row", "%c0"], (2, 16)),
            tile("tc", "vc", (8, 16), ["%row", "%c0"], (2, 16)),
            "%a = ktdp.load %ta : <2x16xindex> -> tensor<2x16xf16>",
            "%b = ktdp.load %tb : <2x16xindex> -> tensor<2x16xf16>",
            "%e = tensor.empty() : tensor<2x16xf16>",
            "%s = linalg.add ins(%a, %b : tensor<2x16xf16>, tensor<2x16xf16>) outs(%e : tensor<2x16xf16>) -> tensor<2x16xf16>",
            "ktdp.store %s, %tc : tensor<2x16xf16>, <2x16xindex>",
        ]
    ),
    grid=(4,),
    name="add",
)


def test_add_over_grid_with_argument_buffers():
    m = parse_module(ADD_ARGS)
    inputs = make_inputs(m, seed=3)
    assert set(inputs) == {"A", "B", "C"}
    assert inputs["A"].shape == (8, 16) and inputs["A"].dtype == np.float16
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["C"], inputs["A"] + inputs["B"])
    np.testing.assert_array_equal(out["A"], inputs["A"])  # inputs untouched


def test_layout_places_argument_buffers_apart_and_aligned():
    layout = kernel_layout(parse_module(ADD_ARGS))
    bufs = layout.by_key()
    assert [b.key for b in layout.buffers] == ["A", "B", "C"]
    spans = sorted((b.address, b.end) for b in bufs.values())
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))
    assert all(b.address % 64 == 0 for b in bufs.values())
    assert bufs["A"].length == 8 * 16 * 2  # bytes, by default
    assert kernel_layout(parse_module(ADD_ARGS), unit="element").by_key()["A"].length == 8 * 16


def test_make_inputs_is_seeded():
    m = parse_module(ADD_ARGS)
    a, b, c = make_inputs(m, 1), make_inputs(m, 1), make_inputs(m, 2)
    np.testing.assert_array_equal(a["A"], b["A"])
    assert not np.array_equal(a["A"], c["A"])


def test_element_addressing_gives_the_same_result():
    m = parse_module(ADD_ARGS)
    inputs = make_inputs(m, seed=5, unit="element")
    out = run_kernel(m, inputs, unit="element")
    np.testing.assert_array_equal(out["C"], inputs["A"] + inputs["B"])


CONST_ADDR = kernel(
    "",
    "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%a0 = arith.constant 1000 : index",
            "%b0 = arith.constant 2048 : index",
            "%id = ktdp.get_compute_tile_id : index",
            view("va", "a0", (4, 6), (6, 1), elt="f32"),
            view("vb", "b0", (4, 6), (6, 1), elt="f32"),
            tile("ta", "va", (4, 6), ["%id", "%c0"], (1, 6), elt="f32"),
            tile("tb", "vb", (4, 6), ["%id", "%c0"], (1, 6), elt="f32"),
            "%a = ktdp.load %ta : <1x6xindex> -> tensor<1x6xf32>",
            "%e = tensor.empty() : tensor<1x6xf32>",
            "%x = linalg.exp ins(%a : tensor<1x6xf32>) outs(%e : tensor<1x6xf32>) -> tensor<1x6xf32>",
            "ktdp.store %x, %tb : tensor<1x6xf32>, <1x6xindex>",
        ]
    ),
    grid=(4,),
)


def test_constant_addresses_are_kept_and_keyed_by_address():
    m = parse_module(CONST_ADDR)
    layout = kernel_layout(m)
    assert {b.key: (b.address, b.length) for b in layout.buffers} == {"@1000": (1000, 96), "@2048": (2048, 96)}
    inputs = make_inputs(m, seed=0)
    out = run_kernel(m, inputs)
    np.testing.assert_allclose(out["@2048"], np.exp(inputs["@1000"].astype(np.float64)).astype(np.float32), rtol=1e-6)


def test_buffers_that_overlap_in_the_address_unit_merge():
    # 1000 + 24 f32 elements overlaps 1024 when addresses are bytes, not when they are elements
    m = parse_module(CONST_ADDR.replace("constant 2048 : index", "constant 1024 : index"))
    assert [(b.key, b.length) for b in kernel_layout(m).buffers] == [("@1000", 120)]
    assert [b.key for b in kernel_layout(m, unit="element").buffers] == ["@1000", "@1024"]


def test_unknown_input_key_is_an_api_error():
    m = parse_module(ADD_ARGS)
    with pytest.raises(ValueError, match="neither buffers nor scalar"):
        run_kernel(m, {"Z": np.zeros(3)})
    with pytest.raises(ValueError, match="elements"):
        run_kernel(m, {"A": np.zeros(3)})


# ---------------------------------------------------------------------------------------
# access tiles: sets and orders
# ---------------------------------------------------------------------------------------


def copy_kernel(src_tile: str, dst_tile: str, tshape, src_view=(6, 4), dst_view=(6, 4), dst_strides=None) -> str:
    ts = "x".join(str(s) for s in tshape)
    return kernel(
        "%X: index, %Y: index",
        "\n".join(
            [
                "%c0 = arith.constant 0 : index",
                "%c1 = arith.constant 1 : index",
                view("vx", "X", src_view, (src_view[1], 1)),
                view("vy", "Y", dst_view, dst_strides or (dst_view[1], 1)),
                src_tile,
                dst_tile,
                f"%d = ktdp.load %tx : <{ts}xindex> -> tensor<{ts}xf16>",
                f"ktdp.store %d, %ty : tensor<{ts}xf16>, <{ts}xindex>",
            ]
        ),
    )


def test_transposed_access_tile_order():
    order = "affine_map<(d0, d1) -> (d1, d0)>"
    src = tile("tx", "vx", (6, 4), ["%c0", "%c0"], (4, 6), tset=box(6, 4), order=order)
    dst = tile("ty", "vy", (4, 6), ["%c0", "%c0"], (4, 6))
    m = parse_module(copy_kernel(src, dst, (4, 6), dst_view=(4, 6)))
    inputs = make_inputs(m, seed=1)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"].T)


def test_access_tile_anchor_and_set_offsets():
    # rows 1..3, columns 2..3 of X, anchored at (1, 0) with a set starting at column 2
    tset = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 - 2 >= 0, -d1 + 3 >= 0)>"
    src = tile("tx", "vx", (6, 4), ["%c1", "%c0"], (3, 2), tset=tset)
    dst = tile("ty", "vy", (3, 2), ["%c0", "%c0"], (3, 2))
    m = parse_module(copy_kernel(src, dst, (3, 2), dst_view=(3, 2)))
    inputs = make_inputs(m, seed=2)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][1:4, 2:4])


def test_triangular_set_gives_a_masked_tile():
    tri = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>"
    src = tile("tx", "vx", (4, 4), ["%c0", "%c0"], (4, 4), tset=tri)
    dst = tile("ty", "vy", (4, 4), ["%c0", "%c0"], (4, 4), tset=tri)
    m = parse_module(copy_kernel(src, dst, (4, 4), src_view=(4, 4), dst_view=(4, 4)))
    inputs = make_inputs(m, seed=4)
    inputs["Y"] = np.full((4, 4), 7, np.float16)
    out = run_kernel(m, inputs)
    expect = np.where(np.tri(4, dtype=bool), inputs["X"], np.float16(7))
    np.testing.assert_array_equal(out["Y"], expect)


def test_strided_set_packs_its_points_in_order():
    # every other column of a 2x8 view, packed into a 2x4 tile
    evens = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d1 mod 2 == 0)>"
    src = tile("tx", "vx", (2, 8), ["%c0", "%c0"], (2, 4), tset=evens)
    dst = tile("ty", "vy", (2, 4), ["%c0", "%c0"], (2, 4))
    m = parse_module(copy_kernel(src, dst, (2, 4), src_view=(2, 8), dst_view=(2, 4)))
    inputs = make_inputs(m, seed=6)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][:, ::2])


def test_strided_view_column_major():
    # Y is viewed column-major: element (i, j) at i + 6 * j
    src = tile("tx", "vx", (6, 4), ["%c0", "%c0"], (6, 4))
    dst = tile("ty", "vy", (6, 4), ["%c0", "%c0"], (6, 4))
    m = parse_module(copy_kernel(src, dst, (6, 4), dst_strides=(1, 6)))
    inputs = make_inputs(m, seed=7)
    out = run_kernel(m, inputs)
    # Y's buffer is 24 flat slots holding X in column-major order
    np.testing.assert_array_equal(out["Y"].reshape(-1), inputs["X"].T.reshape(-1))


def test_symbolic_tile_set_and_dynamic_view_size():
    k = kernel(
        "%X: index, %Y: index, %n: index",
        "\n".join(
            [
                "%c0 = arith.constant 0 : index",
                "%vx = ktdp.construct_memory_view %X, sizes: [%n], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?xf32>",
                "%vy = ktdp.construct_memory_view %Y, sizes: [%n], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?xf32>",
                "%tx = ktdp.construct_access_tile %vx[%c0] symbols(%n) {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>} : memref<?xf32> -> !ktdp.access_tile<?xindex>",
                "%ty = ktdp.construct_access_tile %vy[%c0] symbols(%n) {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>} : memref<?xf32> -> !ktdp.access_tile<?xindex>",
                "%d = ktdp.load %tx : <?xindex> -> tensor<?xf32>",
                "%r = math.sqrt %d : tensor<?xf32>",
                "ktdp.store %r, %ty : tensor<?xf32>, <?xindex>",
            ]
        ),
    )
    m = parse_module(k)
    inputs = make_inputs(m, seed=0, scalars={"n": 10}, low=0.0, high=4.0)
    assert inputs["X"].shape == (10,) and int(inputs["n"]) == 10
    out = run_kernel(m, inputs)
    np.testing.assert_allclose(out["Y"], np.sqrt(inputs["X"].astype(np.float64)).astype(np.float32), rtol=1e-7)


# ---------------------------------------------------------------------------------------
# control flow
# ---------------------------------------------------------------------------------------


def test_scf_for_loop_over_rows_with_tiles_per_iteration():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%c1 = arith.constant 1 : index",
            "%c3 = arith.constant 3 : index",
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
    m = parse_module(kernel("%A: index, %C: index", body, grid=(2,)))
    inputs = make_inputs(m, seed=8)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["C"], inputs["A"] * inputs["A"])


def test_scf_for_iter_args_accumulate_in_f16():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%c1 = arith.constant 1 : index",
            "%c5 = arith.constant 5 : index",
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
    m = parse_module(kernel("%A: index, %C: index", body))
    inputs = make_inputs(m, seed=9)
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


# ---------------------------------------------------------------------------------------
# scratchpads, 2-D grids, races, errors
# ---------------------------------------------------------------------------------------

LOCAL = "#ktdp.memory_space<ct_local>"


def test_scratchpad_round_trip_and_2d_grid():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%c2 = arith.constant 2 : index",
            "%id:2 = ktdp.get_compute_tile_id : index, index",
            "%r = arith.muli %id#0, %c2 : index",
            "%col = arith.muli %id#1, %c2 : index",
            view("va", "A", (4, 6), (6, 1)),
            view("vc", "C", (4, 6), (6, 1)),
            view("vl", "c0", (2, 2), (2, 1), space=LOCAL),
            tile("ta", "va", (4, 6), ["%r", "%col"], (2, 2)),
            tile("tl", "vl", (2, 2), ["%c0", "%c0"], (2, 2)),
            tile("tc", "vc", (4, 6), ["%r", "%col"], (2, 2)),
            "%a = ktdp.load %ta : <2x2xindex> -> tensor<2x2xf16>",
            "%n = arith.negf %a : tensor<2x2xf16>",
            "ktdp.store %n, %tl : tensor<2x2xf16>, <2x2xindex>",
            "%back = ktdp.load %tl : <2x2xindex> -> tensor<2x2xf16>",
            "ktdp.store %back, %tc : tensor<2x2xf16>, <2x2xindex>",
        ]
    )
    m = parse_module(kernel("%A: index, %C: index", body, grid=(2, 3)))
    inputs = make_inputs(m, seed=10)
    result = run(m, inputs)
    np.testing.assert_array_equal(result.outputs["C"], -inputs["A"])
    assert sorted(result.scratchpads) == list(range(6))
    # tile (1, 2) is tile 5 row-major; its scratchpad holds -A[2:4, 4:6]
    np.testing.assert_array_equal(
        result.scratchpads[5].fetch(0, (2, 2), result.layout.buffers[0].element), -inputs["A"][2:4, 4:6]
    )


def test_tile_id_rank_must_match_grid():
    body = "%id = ktdp.get_compute_tile_id : index"
    m = parse_module(kernel("", body, grid=(2, 2)))
    with pytest.raises(DiagnosticError, match="grid"):
        run_kernel(m, {})


def test_overlapping_stores_from_two_tiles_are_a_race():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            view("vc", "C", (2, 4), (4, 1)),
            tile("tc", "vc", (2, 4), ["%c0", "%c0"], (1, 4)),
            # each tile stores its own id: the final value depends on the order
            "%id = ktdp.get_compute_tile_id : index",
            "%i = arith.index_cast %id : index to i64",
            "%f = arith.sitofp %i : i64 to f16",
            "%z = tensor.splat %f : tensor<1x4xf16>",
            "ktdp.store %z, %tc : tensor<1x4xf16>, <1x4xindex>",
        ]
    )
    m = parse_module(kernel("%C: index", body, grid=(2,)), name="race.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {})
    diag = exc.value.diagnostic
    assert "race" in diag.message and diag.file == "race.mlir" and diag.line is not None
    run_kernel(m, {}, check_races=False)  # the same kernel runs when races are not checked


def test_access_outside_a_view_is_a_located_error_or_masked():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%c3 = arith.constant 3 : index",
            view("va", "A", (4, 4), (4, 1)),
            view("vc", "C", (2, 4), (4, 1)),
            tile("ta", "va", (4, 4), ["%c3", "%c0"], (2, 4)),
            tile("tc", "vc", (2, 4), ["%c0", "%c0"], (2, 4)),
            "%a = ktdp.load %ta : <2x4xindex> -> tensor<2x4xf16>",
            "ktdp.store %a, %tc : tensor<2x4xf16>, <2x4xindex>",
        ]
    )
    text = kernel("%A: index, %C: index", body)
    m = parse_module(text, name="oob.mlir")
    inputs = make_inputs(m, seed=11)
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, inputs, out_of_bounds="error")
    diag = exc.value.diagnostic
    assert "outside" in diag.message
    load_line = next(i for i, line in enumerate(text.splitlines(), 1) if "ktdp.load" in line)
    assert (diag.file, diag.line) == ("oob.mlir", load_line)
    out = run_kernel(m, inputs, out_of_bounds="mask")
    np.testing.assert_array_equal(out["C"][0], inputs["A"][3])
    np.testing.assert_array_equal(out["C"][1], np.zeros(4, np.float16))


def test_unsupported_op_is_a_located_error():
    text = """
    func.func @k() attributes {grid = [1]} {
      %c = arith.constant 1 : i32
      %x = math.ctlz %c : i32
      return
    }
    """
    m = parse_module(text, name="unsup.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {})
    assert "does not support 'math.ctlz'" in exc.value.diagnostic.message
    assert exc.value.diagnostic.line == 4


def test_unregistered_op_is_a_located_error():
    from dfsched.compat import LocatingParser
    from dfsched.dialects import make_context

    text = 'func.func @k() attributes {grid = [1]} {\n  "foo.bar"() : () -> ()\n  return\n}\n'
    m = LocatingParser(make_context(allow_unregistered=True), text, "u.mlir").parse_module()
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {})
    assert "'foo.bar'" in exc.value.diagnostic.message and exc.value.diagnostic.line == 2


def test_division_by_zero_is_a_located_error():
    src = "func.func @d(%a: index) -> index {\n  %z = arith.constant 0 : index\n  %q = arith.divsi %a, %z : index\n  return %q : index\n}\n"
    with pytest.raises(DiagnosticError, match="division by zero"):
        call_function(parse_module(src), "d", 3)


# ---------------------------------------------------------------------------------------
# distributed and indirect access
# ---------------------------------------------------------------------------------------


def test_distributed_view_routes_coordinates_to_parts():
    left = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2 >= 0)>"
    right = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 3 >= 0, -d1 + 5 >= 0)>"
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            view("v0", "P", (4, 3), (3, 1), cset=left),
            view("v1", "Q", (4, 3), (3, 1), cset=right),
            "%d = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<4x3xf16>, memref<4x3xf16>) : memref<4x6xf16>",
            view("vy", "Y", (4, 6), (6, 1)),
            tile("td", "d", (4, 6), ["%c0", "%c0"], (4, 6)),
            tile("ty", "vy", (4, 6), ["%c0", "%c0"], (4, 6)),
            "%x = ktdp.load %td : <4x6xindex> -> tensor<4x6xf16>",
            "ktdp.store %x, %ty : tensor<4x6xf16>, <4x6xindex>",
        ]
    )
    m = parse_module(kernel("%P: index, %Q: index, %Y: index", body))
    inputs = make_inputs(m, seed=12)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], np.concatenate([inputs["P"], inputs["Q"]], axis=1))


def test_indirect_access_tile_gathers_rows():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            view("vx", "X", (8, 4), (4, 1)),
            view("vi", "I", (3,), (1,), elt="i32"),
            view("vy", "Y", (3, 4), (4, 1)),
            "%t = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %vx[ind(%vi[%m]), (%k)] "
            "{variables_space_order = affine_map<(d0, d1) -> (d0, d1)>, variables_space_set = "
            + box(3, 4)
            + "} : memref<8x4xf16>, memref<3xi32> -> !ktdp.access_tile<3x4xindex>",
            tile("ty", "vy", (3, 4), ["%c0", "%c0"], (3, 4)),
            "%x = ktdp.load %t : <3x4xindex> -> tensor<3x4xf16>",
            "ktdp.store %x, %ty : tensor<3x4xf16>, <3x4xindex>",
        ]
    )
    m = parse_module(kernel("%X: index, %I: index, %Y: index", body))
    inputs = make_inputs(m, seed=13)
    inputs["I"] = np.array([5, 0, 7], np.int32)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][[5, 0, 7]])


# ---------------------------------------------------------------------------------------
# the example kernels
# ---------------------------------------------------------------------------------------


# What each example says it computes, as numpy expressions over the buffers (keyed by
# their byte addresses). Every example must have an entry: a new example without one fails.


def _sigmoid_f16(x):
    return (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(np.float16)


def _loop_nest(i):
    a, b = i["@0"], i["@4096"]
    x, z = i["@8192"].copy(), i["@16384"].copy()
    x[:, :64] = a[:, :64] + b[:, :64]
    z[:, 64:] = a[:, 64:] - b[:, 64:]
    return {"@8192": x, "@12288": a * b, "@16384": z}


def _elementwise_ops(i):
    v, w = i["@0"], i["@1024"]
    erf = np.vectorize(lambda t: math.erf(float(t)), otypes=[np.float64])
    mx = np.fmax(np.log1p(np.sqrt(np.abs(v))), -erf(np.tanh(w)).astype(np.float16))  # maxnumf
    picked = np.where(v < w, np.minimum(mx, w), mx)
    return {"@2048": picked * np.float16(1 / math.sqrt(0.5)) / np.float16(0.5) - w}


def _rsqrt_f16(v):
    return (1.0 / np.sqrt(v.astype(np.float32))).astype(np.float16)


def _row_sum_f16(v):  # a reduction: accumulated in f32 (no device), rounded to f16 once
    return v.astype(np.float32).sum(axis=1).astype(np.float16)


def _softmax(x):
    e = np.exp(x - x.max(axis=1)[:, None])
    return e / _row_sum_f16(e)[:, None]


def _rmsnorm(i):
    x, w = i["@0"], i["@2048"]
    sums = (x.astype(np.float32) ** 2).sum(axis=1).astype(np.float16)  # the body runs in f32 too
    factors = _rsqrt_f16(sums / np.float16(64) + np.float16(1e-3))
    return {"@4096": x * factors[:, None] * w[None, :]}


def _rmsnorm_decode(i):
    x, w = i["@0"], i["@4096"]
    sums = (x.astype(np.float32) ** 2).sum(axis=1).astype(np.float16)
    factors = _rsqrt_f16(sums / np.float16(1024) + np.float16(1e-3))
    return {"@8192": x * factors[:, None] * w[None, :]}


def _layernorm(i):
    x, g, b = i["@0"], i["@2048"], i["@2176"]
    deviations = x - (_row_sum_f16(x) / np.float16(64))[:, None]
    factors = _rsqrt_f16(_row_sum_f16(deviations * deviations) / np.float16(64) + np.float16(1e-3))
    return {"@4096": deviations * factors[:, None] * g[None, :] + b[None, :]}


def _layernorm_triton(i):
    """Triton's layernorm as written: chunks of 16 summed element-wise in f16, then reduced."""
    x, w, b = i["@0"], i["@1024"], i["@2048"]

    def chunk_sums(v):
        acc = np.zeros((v.shape[0], 16), np.float16)
        for c in range(0, 64, 16):
            acc = acc + v[:, c:c + 16]
        return _row_sum_f16(acc)

    means = chunk_sums(x) / np.float16(64)
    deviations = x - means[:, None]
    rstds = _rsqrt_f16(chunk_sums(deviations * deviations) / np.float16(64) + np.float16(1e-3))
    return {"@3072": deviations * rstds[:, None] * w + b, "@4096": means, "@4112": rstds}


def _rmsnorm_rows_uneven(i):
    """Triton's RMSNorm as written: squares of 2 chunks of 16 summed element-wise in f16, then reduced."""
    x, w = i["@0"], i["@512"]
    squares = x * x
    rstds = _rsqrt_f16(_row_sum_f16(squares[:, :16] + squares[:, 16:]) / np.float16(32) + np.float16(1e-3))
    return {"@1024": x * rstds[:, None] * w}


def _gated_mlp(i):
    """SwiGLU: each contraction accumulated in f32 (no device) and rounded to f16 once, the gate in f16."""
    def matmul(a, b):
        return np.einsum("mk,kn->mn", a.astype(np.float32), b.astype(np.float32)).astype(np.float16)

    x = i["@0"]
    gate, up = matmul(x, i["@1024"]), matmul(x, i["@5120"])
    one = np.float16(1)
    hidden = gate * (one / (one + np.exp(-gate))) * up
    return {"@13312": x + matmul(hidden, i["@9216"])}


def _row_mean_scalar(i):
    """Each 16-column chunk reduced to an f16 scalar (in f32, no device) and added to an f16 sum."""
    x = i["@0"]
    total = np.zeros(x.shape[0], np.float16)
    for c in range(0, 64, 16):
        total = total + _row_sum_f16(x[:, c:c + 16])
    return {"@512": total / np.float16(64)}


def _sigmoid_by_exp(i):
    e = np.exp(i["@0"])
    return {"@4096": e / (np.float16(1) + e)}


def _chunked_matmul(a, b, chunk):
    """The K loop as written: each chunk's product in f32, rounded to f16, added in f16."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float16)
    for k in range(0, a.shape[1], chunk):
        acc = acc + np.einsum("mk,kn->mn", a[:, k:k + chunk].astype(np.float32),
                              b[k:k + chunk].astype(np.float32)).astype(np.float16)
    return acc


def _chunked_row_sum(a, chunk):
    """Each chunk reduced into the f16 running sums, accumulating in f32 (no device)."""
    acc = np.zeros(a.shape[0], np.float16)
    for c in range(0, a.shape[1], chunk):
        acc = (acc.astype(np.float32) + a[:, c:c + chunk].astype(np.float32).sum(axis=1)).astype(np.float16)
    return acc


def _attention(i):
    """Q K^T and P V accumulated in f32 (no device) and rounded once; scale and softmax in f16."""
    q, k, v = i["@0"], i["@512"], i["@2560"]
    scores = np.einsum("qd,kd->qk", q.astype(np.float32), k.astype(np.float32)).astype(np.float16)
    weights = _softmax(scores * np.float16(0.25))
    return {"@4608": np.einsum("qk,kd->qd", weights.astype(np.float32), v.astype(np.float32)).astype(np.float16)}


def _kv_cache_scatter(i):
    cache = i["@1056"].copy()
    for token, slot in enumerate(i["@1024"]):  # a slot named twice keeps the later token
        cache[slot] = i["@0"][token] * np.float16(0.125)
    return {"@1056": cache}


def _paged_kv_copy(i):
    pool, table = i["@0"], i["@1024"]
    t = np.arange(12)
    # out[s, t, h, :] = pool[table[s, t // 4], h, t % 4, :]
    return {"@1088": pool[table[:, t // 4], :, t % 4, :]}


def _paged_attention_decode(i):
    """The loop as written, page by page: running maximum, rescaled sum and accumulator (sums and
    contractions accumulated in f32 and rounded once, the rest in f16)."""
    q, k_pool, v_pool, table = i["@0"], i["@256"], i["@1280"], i["@2304"]
    f16, f32 = np.float16, np.float32
    out = np.empty_like(q)
    for s in range(2):
        rows = slice(4 * s, 4 * s + 4)
        maxima, sums, acc = np.full(4, -np.inf, f16), np.ones(4, f16), np.zeros((4, 16), f16)
        for j in range(3):
            k, v = k_pool[table[s, j]], v_pool[table[s, j]]
            scores = np.einsum("qd,kd->qk", q[rows].astype(f32), k.astype(f32)).astype(f16) * f16(0.25)
            new_maxima = np.maximum(maxima, scores.max(axis=1))
            exps = np.exp(scores - new_maxima[:, None])
            factors = np.exp(maxima - new_maxima)
            products = np.einsum("qk,kd->qd", exps.astype(f32), v.astype(f32))
            acc = ((acc * factors[:, None]).astype(f32) + products).astype(f16)
            sums = sums * factors + _row_sum_f16(exps)
            maxima = new_maxima
        out[rows] = acc / sums[:, None]
    return {"@2336": out}


def _ring_allreduce(i):
    """Each row times the column sums of all rows, summed from 0 in tile order in f16."""
    x = i["@0"]
    sums = np.zeros(x.shape[1], dtype=np.float16)
    for row in x:
        sums = sums + row
    return {"@2048": x * sums[None, :]}


def _ring_allreduce_rounds(i):
    """Three rounds of the 2x64 blocks' all-reduce (from 0, tile order) summed from 0, plus block 0, in f16."""
    blocks = i["@0"].reshape(4, 2, 64)
    sums = np.zeros((2, 64), dtype=np.float16)
    for block in blocks:
        sums = sums + block
    total = np.zeros((2, 64), dtype=np.float16)
    for _ in range(3):
        total = total + sums
    return {"@1024": total + blocks[0]}


EXAMPLE_EXPECTATIONS = {
    "add.mlir": lambda i: {"@24576": i["@0"] + i["@12288"]},
    "add_2tile.mlir": lambda i: {"@8192": i["@0"] + i["@4096"]},
    "attention.mlir": _attention,
    "elementwise_ops.mlir": _elementwise_ops,
    "embedding_gather.mlir": lambda i: {"@16512": i["@0"][i["@16384"]] * np.float16(8.0)},
    "kv_cache_scatter.mlir": _kv_cache_scatter,
    "paged_kv_copy.mlir": _paged_kv_copy,
    "paged_attention_decode.mlir": _paged_attention_decode,
    "gated_mlp.mlir": _gated_mlp,
    "fused_chain.mlir": lambda i: {"@12288": (i["@0"] + i["@4096"]) * i["@8192"]},
    "intrinsic.mlir": lambda i: {"@8192": _sigmoid_f16(i["@0"]) * i["@4096"]},
    "layernorm.mlir": _layernorm,
    "layernorm_triton.mlir": _layernorm_triton,
    "loop_nest.mlir": _loop_nest,
    # f32 accumulation without a device, rounded to f16 once (einsum: the reference's order)
    "matmul.mlir": lambda i: {"@32768": np.einsum("mk,kn->mn", i["@0"].astype(np.float32),
                                                   i["@16384"].astype(np.float32)).astype(np.float16)},
    "batch_matmul.mlir": lambda i: {"@4096": np.einsum("bmk,bkn->bmn", i["@0"].astype(np.float32),
                                                         i["@2048"].astype(np.float32)).astype(np.float16)},
    "matmul_transpose_b.mlir": lambda i: {"@2048": np.einsum("mk,nk->mn", i["@0"].astype(np.float32),
                                                              i["@1024"].astype(np.float32)).astype(np.float16)},
    "qk_transpose.mlir": lambda i: {"@2048": np.einsum("id,jd->ij", i["@0"].astype(np.float32),
                                                        i["@1024"].astype(np.float32)).astype(np.float16)},
    "matmul_kloop.mlir": lambda i: {"@9216": _chunked_matmul(i["@0"], i["@1024"], chunk=32)},
    "mul_args.mlir": lambda i: {"z_address": i["x_address"] * i["y_address"]},
    "row_bias.mlir": lambda i: {"@16384": i["@0"] + i["@12288"][None, :]},
    "ring_allreduce.mlir": _ring_allreduce,
    "ring_allreduce_rounds.mlir": _ring_allreduce_rounds,
    "rmsnorm.mlir": _rmsnorm,
    "rmsnorm_decode.mlir": _rmsnorm_decode,
    "rmsnorm_rows_uneven.mlir": _rmsnorm_rows_uneven,
    "row_bias_tiled.mlir": lambda i: {"@528384": i["@0"] + i["@524288"][None, :]},
    "sigmoid.mlir": _sigmoid_by_exp,
    "softmax.mlir": lambda i: {"@2048": _softmax(i["@0"])},
    "softmax_triton.mlir": lambda i: {"@512": _softmax(i["@0"])},
    "scale_rows_triton.mlir": lambda i: {"y_ptr": i["x_ptr"] * i["s_ptr"][0, 0]},
    "scale_by_first_row.mlir": lambda i: {"y_ptr": i["x_ptr"] * i["x_ptr"][0][None, :]},
    "row_sum.mlir": lambda i: {"@12288": i["@0"].astype(np.float32).sum(axis=1).astype(np.float16)},
    "row_mean_scalar.mlir": _row_mean_scalar,
    "row_sum_chunked.mlir": lambda i: {"@4096": _chunked_row_sum(i["@0"], chunk=64)},
}


def _example_paths():
    return sorted(EXAMPLES.glob("*.mlir")) if EXAMPLES.is_dir() else []


@pytest.mark.parametrize("path", _example_paths(), ids=lambda p: p.name)
def test_example_kernel_computes_what_it_says(path):
    assert path.name in EXAMPLE_EXPECTATIONS, f"no numpy expectation for examples/{path.name}"
    m = load_module(path)
    inputs = make_inputs(m, seed=0)
    outputs = run_kernel(m, inputs)
    expected = EXAMPLE_EXPECTATIONS[path.name](inputs)
    for key, value in expected.items():
        assert outputs[key].dtype == value.dtype, key
        np.testing.assert_array_equal(outputs[key], value, err_msg=key)
    # every other buffer is an input the kernel leaves alone
    for key in set(outputs) - set(expected):
        np.testing.assert_array_equal(outputs[key], inputs[key], err_msg=key)


# ---------------------------------------------------------------------------------------
# kernel arguments: per-tile offsets, scalars, runtime args, calls
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("unit,step", [("byte", 2), ("element", 1)])
def test_per_tile_views_at_argument_plus_offset_form_one_buffer(unit, step):
    # each tile views only its own 2x8 rows, at %A + 16 elements * id (no view covers the whole buffer)
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            f"%c16 = arith.constant {16 * step} : index",
            "%id = ktdp.get_compute_tile_id : index",
            "%off = arith.muli %id, %c16 : index",
            "%a0 = arith.addi %A, %off : index",
            "%c0b = arith.addi %off, %C : index",
            view("va", "a0", (2, 8), (8, 1)),
            view("vc", "c0b", (2, 8), (8, 1)),
            tile("ta", "va", (2, 8), ["%c0", "%c0"], (2, 8)),
            tile("tc", "vc", (2, 8), ["%c0", "%c0"], (2, 8)),
            "%a = ktdp.load %ta : <2x8xindex> -> tensor<2x8xf16>",
            "%e = tensor.empty() : tensor<2x8xf16>",
            "%s = linalg.sqrt ins(%a : tensor<2x8xf16>) outs(%e : tensor<2x8xf16>) -> tensor<2x8xf16>",
            "ktdp.store %s, %tc : tensor<2x8xf16>, <2x8xindex>",
        ]
    )
    m = parse_module(kernel("%A: index, %C: index", body, grid=(3,)))
    layout = kernel_layout(m, unit=unit)
    assert [(b.key, b.length, b.shape) for b in layout.buffers] == [("A", 48 * step, (48,)), ("C", 48 * step, (48,))]
    inputs = make_inputs(m, seed=14, low=0.0, high=9.0, unit=unit)
    out = run_kernel(m, inputs, unit=unit)
    np.testing.assert_array_equal(out["C"], np.sqrt(inputs["A"]))


def test_scalar_and_runtime_arguments():
    body = "\n".join(
        [
            "%c0 = arith.constant 0 : index",
            "%c1 = arith.constant 1 : index",
            "%rows = ktdp.runtime_arg_extract value from %r : <index, upperbound=4> -> index",
            "%ub = ktdp.runtime_arg_extract upperbound from %r : <index, upperbound=4> -> index",
            "%base = ktdp.runtime_arg_extract value from %X : <index> -> index",
            view("vx", "base", (4, 4), (4, 1)),
            view("vy", "Y", (4, 4), (4, 1)),
            "scf.for %i = %c0 to %rows step %c1 {",
            "  " + tile("tx", "vx", (4, 4), ["%i", "%c0"], (1, 4)),
            "  " + tile("ty", "vy", (4, 4), ["%i", "%c0"], (1, 4)),
            "  %x = ktdp.load %tx : <1x4xindex> -> tensor<1x4xf16>",
            "  %k = arith.index_cast %ub : index to i32",
            "  %kf = arith.sitofp %k : i32 to f16",
            "  %ks = tensor.splat %kf : tensor<1x4xf16>",
            "  %y = arith.mulf %x, %ks : tensor<1x4xf16>",
            "  ktdp.store %y, %ty : tensor<1x4xf16>, <1x4xindex>",
            "}",
        ]
    )
    m = parse_module(kernel("%X: !ktdp.runtime_arg<index>, %Y: index, %r: !ktdp.runtime_arg<index, upperbound=4>", body))
    inputs = make_inputs(m, seed=15)
    assert set(inputs) == {"X", "Y", "r"} and int(inputs["r"]) == 4  # default: the upper bound
    inputs["r"] = np.array(2)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Y"][:2], inputs["X"][:2] * np.float16(4))
    np.testing.assert_array_equal(out["Y"][2:], inputs["Y"][2:])


def test_kernel_calls_a_helper_function():
    src = """
    func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = arith.addf %x, %x : tensor<4xf32>
      return %y : tensor<4xf32>
    }
    func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {grid = [1]} {
      %y = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
    """
    m = parse_module(src)
    x = np.arange(4, dtype=np.float32)
    result = run(m, {"x": x})
    np.testing.assert_array_equal(result.returns[(0,)][0], 2 * x)


def test_tensor_based_tiles_dense_constants_and_vectorised_body_ops():
    text = """
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @m(%t: tensor<3x4xf32>) -> (tensor<4x3xf32>, tensor<2x3xi32>, tensor<3x4xf32>, tensor<3x4xf32>) {
      %c0 = arith.constant 0 : index
      %tile = ktdp.construct_access_tile %t[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d1, d0)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 3 >= 0)>} : tensor<3x4xf32> -> !ktdp.access_tile<4x3xindex>
      %x = ktdp.load %tile : <4x3xindex> -> tensor<4x3xf32>
      %d = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
      %e = tensor.empty() : tensor<3x4xf32>
      %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<3x4xf32>) {
      ^bb0(%out: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %c3 = arith.constant 3 : index
        %jj = arith.subi %c3, %j : index
        %v = tensor.extract %t[%i, %jj] : tensor<3x4xf32>
        linalg.yield %v : f32
      } -> tensor<3x4xf32>
      %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %c0i = arith.constant 0 : index
        %c1i = arith.constant 1 : index
        %c3i = arith.constant 3 : index
        %r = scf.for %k = %c0i to %c3i step %c1i iter_args(%a = %in) -> (f32) {
          %a2 = arith.mulf %a, %in : f32
          scf.yield %a2 : f32
        }
        linalg.yield %r : f32
      } -> tensor<3x4xf32>
      return %x, %d, %g, %h : tensor<4x3xf32>, tensor<2x3xi32>, tensor<3x4xf32>, tensor<3x4xf32>
    }
    """
    t = np.arange(12, dtype=np.float32).reshape(3, 4)
    x, d, g, h = call_function(parse_module(text), "m", t)
    np.testing.assert_array_equal(x, t.T)
    np.testing.assert_array_equal(d, np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    np.testing.assert_array_equal(g, t[:, ::-1])
    np.testing.assert_array_equal(h, t**4)


def test_compare_outputs_reports_differences():
    from dfsched.interp.ktir import compare_outputs

    a = {"C": np.array([1.0, np.nan, 3.0], np.float16), "@0": np.array([1, 2], np.int32)}
    assert compare_outputs(a, {k: v.copy() for k, v in a.items()}) == []
    b = {"C": np.array([1.0, np.nan, 3.5], np.float16), "@0": np.array([1, 2], np.int32)}
    (line,) = compare_outputs(a, b)
    assert line.startswith("C: 1 of 3 elements differ, first at [2]")
    assert compare_outputs(a, b, rtol=0.2) == []
    assert compare_outputs(a, {"C": a["C"]}) == ["@0: only in expected outputs"]


def test_call_function_checks_its_arguments():
    m = parse_module(GUARDED_DIVISION)
    with pytest.raises(ValueError, match="shape"):
        call_function(m, "safe_div", np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="takes 1 argument"):
        call_function(m, "safe_div")


# ---------------------------------------------------------------------------------------
# the fast paths agree with the general ones
# ---------------------------------------------------------------------------------------


def test_recursive_call_keeps_the_callers_values():
    """The value table is flat: a function re-entered while it runs must not clobber its caller's values."""
    m = parse_module(
        """
        func.func @fact(%n: index) -> index {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %done = arith.cmpi eq, %n, %c0 : index
          %r = scf.if %done -> (index) {
            scf.yield %c1 : index
          } else {
            %m = arith.subi %n, %c1 : index
            %sub = func.call @fact(%m) : (index) -> index
            %p = arith.muli %n, %sub : index
            scf.yield %p : index
          }
          func.return %r : index
        }
        """
    )
    assert call_function(m, "fact", 6) == (720,)


def test_compiled_affine_maps_evaluate_like_xdsl():
    import itertools

    from xdsl.ir.affine import AffineExpr, AffineMap

    from dfsched.interp.sets import compiled_map

    d0, d1, s0 = AffineExpr.dimension(0), AffineExpr.dimension(1), AffineExpr.symbol(0)
    amap = AffineMap(2, 1, (d0 * 1024 + d1, d0.ceil_div(3), d1 % 5 - s0, d0 // (-2), AffineExpr.constant(-7)))
    fn = compiled_map(amap)
    for a, b, c in itertools.product(range(-6, 7), range(-6, 7), range(-2, 3)):
        assert fn([a, b], [c]) == amap.eval([a, b], [c])
    with pytest.raises(AssertionError):
        fn([1], [0])
    grid = np.arange(4)
    np.testing.assert_array_equal(fn([grid, 2], [1])[0], amap.eval([grid, 2], [1])[0])


def test_integer_scalar_fast_path_matches_numpy():
    from xdsl.dialects.builtin import IndexType, IntegerType, Signedness

    from dfsched.interp import std_impl

    class Op:
        def __init__(self, t):
            self.results = [type("R", (), {"type": t})()]

    values = [0, 1, -1, 7, -7, 127, -128, 255, 2**31 - 1, -(2**31), 2**62, 2**63 - 1, -(2**63)]
    for t in (IndexType(), IntegerType(32), IntegerType(8), IntegerType(16, Signedness.UNSIGNED)):
        op = Op(t)
        for kind in ("add", "sub", "mul", "divs", "rems", "floordivs", "ceildivs", "divu", "remu", "ceildivu",
                     "maxs", "mins", "maxu", "minu", "and", "or", "xor"):
            run = std_impl._int_binary(kind)  # noqa: SLF001
            for a in values:
                for b in values:
                    try:
                        slow = run(None, None, op, (np.int64(a), np.int64(b)))
                    except ValueError as exc:
                        with pytest.raises(ValueError, match=str(exc)):
                            run(None, None, op, (a, b))
                        continue
                    fast = run(None, None, op, (a, b))
                    assert type(fast[0]) is type(slow[0]) and fast == slow, (t, kind, a, b)


@pytest.mark.parametrize("unit", ["byte", "element"])
def test_memory_runs_match_general_reads_and_writes(unit):
    from dfsched.interp.dtypes import element_type
    from dfsched.interp.memory import Memory, RaceError
    from xdsl.dialects.builtin import Float16Type

    et = element_type(Float16Type())
    start = Memory.PAGE - 6  # a run across a page boundary
    data = np.arange(20, dtype=np.float16)
    fast = Memory("fast", unit, track_races=True)
    slow = Memory("slow", unit, track_races=True)
    assert fast.write_run(start, data, et, data.size, tile=0)
    slow.write(slow.contiguous(start, data.size, et), data, et, 0)
    np.testing.assert_array_equal(fast.read_run(start - 4, 30, et, 0), slow.read(slow.contiguous(start - 4, 30, et), et, 0))
    # the same races, reported at the same address
    fast_read = pytest.raises(RaceError, fast.read_run, start, data.size, et, 1)
    slow_read = pytest.raises(RaceError, slow.read, slow.contiguous(start, data.size, et), et, 1)
    assert str(fast_read.value).replace("fast", "slow") == str(slow_read.value)
    fast_msg = pytest.raises(RaceError, fast.write_run, start + 2, data[:3], et, 3, 1)
    slow_msg = pytest.raises(RaceError, slow.write, slow.contiguous(start + 2, 3, et), data[:3], et, 1)
    assert str(fast_msg.value).replace("fast", "slow") == str(slow_msg.value)


@pytest.mark.parametrize("unit", ["byte", "element"])
def test_memory_accesses_over_a_chunk_match_one_piece(unit, monkeypatch):
    """Accesses of more than `CHUNK_ELEMENTS` go in chunks (bounded temporaries): the same
    values, the last of duplicate addresses wins, and a race is still found."""
    from dfsched.interp import memory
    from dfsched.interp.dtypes import element_type
    from dfsched.interp.memory import Memory, RaceError
    from xdsl.dialects.builtin import Float16Type

    et = element_type(Float16Type())
    step = 1 if unit == "element" else 2
    rng = np.random.default_rng(0)
    spread = rng.integers(0, 3 * Memory.PAGE // step, size=30) * step  # over three pages
    addresses = np.concatenate([spread, spread[:10]])  # the last ten repeat the first ten
    values = rng.standard_normal(40).astype(np.float16)
    whole = Memory("whole", unit, track_races=True)
    whole.write(addresses, values, et, 0)
    monkeypatch.setattr(memory, "CHUNK_ELEMENTS", 7)
    chunked = Memory("chunked", unit, track_races=True)
    chunked.write(addresses, values, et, 0)
    probe = np.arange(0, 3 * Memory.PAGE, 97 * step)
    np.testing.assert_array_equal(chunked.read(probe, et, 0), whole.read(probe, et, 0))
    np.testing.assert_array_equal(chunked.read(addresses.reshape(5, 8), et, 0), whole.read(addresses, et, 0).reshape(5, 8))
    with pytest.raises(RaceError, match="tile 1"):
        chunked.write(addresses[::-1], values + 1, et, 1)
