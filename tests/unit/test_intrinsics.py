"""Every `spyreop` intrinsic against an independent numpy/math expression.

Each intrinsic is checked three ways: the numeric function in `interp.intrinsics`, the op
run by the interpreter on scalars (`call_function`), and the op inside a vectorised
`linalg.generic` body over tensors. The expected values are computed here in float64
with Python's `math` and rounded once to the result type.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dfsched.diagnostics import DiagnosticError
from dfsched.interp import intrinsics as I
from dfsched.interp.dtypes import df16_from_bits, df16_to_bits, element_type, round_df16
from dfsched.interp.ktir import call_function, parse_module
from dfsched.interp.memory import Memory

from xdsl.dialects.builtin import f16, f32

F16 = element_type(f16)
F32 = element_type(f32)

X = np.array([-6.0, -2.5, -1.0, -0.3, 0.0, 0.2, 0.7, 1.0, 2.25, 5.0, 9.5], dtype=np.float64)
POS = np.array([0.01, 0.25, 0.5, 1.0, 1.5, 3.0, 10.0, 100.0], dtype=np.float64)


def each(fn, *arrays):
    return np.array([fn(*vals) for vals in zip(*arrays)], dtype=np.float64)


def phi(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


UNARY = {
    "exp": (I.exp, lambda x: math.exp(x), X),
    "gelu": (I.gelu, lambda x: x * phi(x), X),
    "sigmoid": (I.sigmoid, lambda x: 1.0 / (1.0 + math.exp(-x)), X),
    "silu": (I.silu, lambda x: x / (1.0 + math.exp(-x)), X),
    "sqrt": (I.sqrt, math.sqrt, POS),
    "rsqrt": (I.rsqrt, lambda x: 1.0 / math.sqrt(x), POS),
    "reciprocal": (I.reciprocal, lambda x: 1.0 / x, np.concatenate([POS, -POS])),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("et", [F16, F32], ids=["f16", "f32"])
def test_unary_functions(name, et):
    fn, ref, xs = UNARY[name]
    x = xs.astype(et.dtype)
    got = fn(x, et)
    assert got.dtype == et.dtype
    np.testing.assert_array_equal(got, each(ref, x.astype(np.float64)).astype(et.dtype))


def scalar_func(op_line: str, args: str, result: str = "f16") -> str:
    return f"func.func @f({args}) -> {result} {{\n  %r = {op_line}\n  return %r : {result}\n}}\n"


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_on_scalars(name):
    _, ref, xs = UNARY[name]
    m = parse_module(scalar_func(f"spyreop.{name} %x : f16", "%x: f16"))
    for v in xs.astype(np.float16):
        (got,) = call_function(m, "f", v)
        assert got.dtype == np.float16
        assert got == np.float16(ref(float(v))), (name, v)


def generic_unary(name: str, n: int) -> str:
    return f"""
#id = affine_map<(d0) -> (d0)>
func.func @g(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%x : tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) {{
    ^bb0(%in: f32, %out: f32):
      %v = spyreop.{name} %in : f32
      linalg.yield %v : f32
  }} -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""


@pytest.mark.parametrize("name", sorted(set(UNARY) - {"gelu"}))  # gelu is f16/df16 only
def test_unary_ops_vectorised_in_generic(name):
    _, ref, xs = UNARY[name]
    x = xs.astype(np.float32)
    (got,) = call_function(parse_module(generic_unary(name, len(x))), "g", x)
    np.testing.assert_array_equal(got, each(ref, x.astype(np.float64)).astype(np.float32))


def test_realdiv():
    a = np.array([1.0, -3.0, 7.5, 0.1], np.float16)
    b = np.array([3.0, 0.7, -2.0, 0.3], np.float16)
    expect = (a.astype(np.float64) / b.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(I.realdiv(a, b, F16), expect)
    m = parse_module(scalar_func("spyreop.realdiv %a, %b : f16", "%a: f16, %b: f16"))
    for x, y, e in zip(a, b, expect):
        assert call_function(m, "f", x, y) == (e,)


def test_softplus_with_threshold():
    beta, threshold = 2.0, 3.0
    x = np.array([-4.0, -0.5, 0.0, 1.0, 1.5, 1.6, 4.0], np.float16)

    def ref(v):
        return v if beta * v > threshold else math.log1p(math.exp(beta * v)) / beta

    expect = each(ref, x.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(I.softplus(x, beta, threshold, F16), expect)
    m = parse_module(scalar_func("spyreop.softplus %x beta 2.000000e+00 threshold 3.000000e+00 : f16", "%x: f16"))
    for v, e in zip(x, expect):
        assert call_function(m, "f", v) == (e,)


COMPARE_REF = {
    "equal": lambda a, b: a == b,
    "notequal": lambda a, b: a != b,
    "greaterthan": lambda a, b: a > b,
    "greaterequal": lambda a, b: a >= b,
    "lesserthan": lambda a, b: a < b,
    "lesserequal": lambda a, b: a <= b,
}


@pytest.mark.parametrize("pred", I.COMPARE_PREDICATES)
def test_compare_is_ordered(pred):
    a = np.array([1.0, 2.0, 3.0, np.nan, 1.0, np.nan], np.float16)
    b = np.array([2.0, 2.0, 1.0, 1.0, np.nan, np.nan], np.float16)
    expect = np.array(
        [1.0 if (not (math.isnan(x) or math.isnan(y)) and COMPARE_REF[pred](float(x), float(y))) else 0.0 for x, y in zip(a, b)],
        np.float16,
    )
    np.testing.assert_array_equal(I.compare(pred, a, b, F16), expect)
    m = parse_module(scalar_func(f"spyreop.compare <{pred}> %a, %b : f16", "%a: f16, %b: f16"))
    for x, y, e in zip(a, b, expect):
        assert call_function(m, "f", x, y) == (e,)


def test_select_takes_true_where_condition_is_nonzero():
    c = np.array([0.0, 1.0, -2.0, 0.5, np.nan], np.float16)
    t = np.array([1, 2, 3, 4, 5], np.float16)
    f = np.array([-1, -2, -3, -4, -5], np.float16)
    expect = np.array([-1, 2, 3, 4, 5], np.float16)  # NaN != 0
    np.testing.assert_array_equal(I.select(c, t, f, F16), expect)
    m = parse_module(scalar_func("spyreop.select %c, %t, %f : f16", "%c: f16, %t: f16, %f: f16"))
    for args, e in zip(zip(c, t, f), expect):
        assert call_function(m, "f", *args) == (e,)


def test_constant():
    m = parse_module(scalar_func("spyreop.constant 1.500000e+00 : f16", ""))
    (v,) = call_function(m, "f")
    assert v == np.float16(1.5) and v.dtype == np.float16


def test_fixed_width_integer_intrinsics_wrap():
    src = """
    func.func @f(%a: i32, %b: i32, %c: i64, %d: i64) -> (i32, i32, i64, i32) {
      %s = spyreop.addi32toi32 %a, %b
      %p = spyreop.muli32toi32 %a, %b
      %s64 = spyreop.addi64toi64 %c, %d
      %addr = spyreop.idx32toaddr %a base %b stride %a
      return %s, %p, %s64, %addr : i32, i32, i64, i32
    }
    """
    m = parse_module(src)

    def wrap(v, bits):
        return ((v + 2 ** (bits - 1)) % 2**bits) - 2 ** (bits - 1)

    for a, b, c, d in [(3, 4, 5, 6), (2**31 - 1, 1, 2**63 - 1, 1), (-70000, 70000, -(2**63), -1)]:
        s, p, s64, addr = call_function(m, "f", a, b, c, d)
        assert s == wrap(a + b, 32) and p == wrap(a * b, 32)
        assert s64 == wrap(c + d, 64) and addr == wrap(b + a * a, 32)


# ---------------------------------------------------------------------------------------
# the normalisation blocks
# ---------------------------------------------------------------------------------------


def test_exx2_and_layernormscale_on_scalars():
    m = parse_module(
        """
        func.func @f(%x: f32, %y: f32) -> (f32, f32, !spyreop.fp32_fused, !spyreop.fp32_fused, f32, f32, f32) {
          %m, %sq = spyreop.exx2 %x : f32
          %p = spyreop.exx2_fused %x : f32 -> !spyreop.fp32_fused
          %z = spyreop.exx2_zeromean_fused %x : f32 -> !spyreop.fp32_fused
          %s = spyreop.layernormscale %x squares %y : f32
          %s2 = spyreop.layernormscale_fused %p : !spyreop.fp32_fused -> f32
          %n = spyreop.layernormnorm %x squares %y scale %x weight %y bias %x : f32
          return %m, %sq, %p, %z, %s, %s2, %n : f32, f32, !spyreop.fp32_fused, !spyreop.fp32_fused, f32, f32, f32
        }
        """
    )
    x, y = np.float32(0.75), np.float32(2.5)
    mean, sq, pair, zero_mean, scale, scale_fused, norm = call_function(m, "f", x, y)
    assert (mean, sq) == (np.float32(0.75), np.float32(0.5625))
    assert pair == np.complex64(0.75 + 0.5625j) and zero_mean == np.complex64(0.5625j)
    eps = I.LAYERNORM_EPS
    assert scale == np.float32(1.0 / math.sqrt(2.5 - 0.75**2 + eps))
    assert scale_fused == np.float32(1.0 / math.sqrt(0.5625 - 0.5625 + eps))
    assert norm == np.float32((0.75 - 2.5) * 0.75 * 2.5 + 0.75)


LAYERNORM = """
#x = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @ln(%x: tensor<4x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<4x!spyreop.fp32_fused>, tensor<4xf32>, tensor<4x16xf32>, tensor<4x!spyreop.fp32_fused>) {
  %e = tensor.empty() : tensor<4x!spyreop.fp32_fused>
  %pair = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x!spyreop.fp32_fused>) {
    ^bb0(%in: f32, %out: !spyreop.fp32_fused):
      %p = spyreop.exx2_fused %in : f32 -> !spyreop.fp32_fused
      linalg.yield %p : !spyreop.fp32_fused
  } -> tensor<4x!spyreop.fp32_fused>
  %e1 = tensor.empty() : tensor<4xf32>
  %scale = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%pair : tensor<4x!spyreop.fp32_fused>) outs(%e1 : tensor<4xf32>) {
    ^bb0(%in: !spyreop.fp32_fused, %out: f32):
      %s = spyreop.layernormscale_fused %in : !spyreop.fp32_fused -> f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %mean = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%e1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m, %sq = spyreop.exx2 %in : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#x, #row, #row, #col, #col, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %scale, %w, %b : tensor<4x16xf32>, tensor<4xf32>, tensor<4xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %m: f32, %s: f32, %wt: f32, %bs: f32, %out: f32):
      %v = spyreop.layernormnorm %in squares %m scale %s weight %wt bias %bs : f32
      linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %zm = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x!spyreop.fp32_fused>) {
    ^bb0(%in: f32, %out: !spyreop.fp32_fused):
      %p = spyreop.exx2_zeromean_fused %in : f32 -> !spyreop.fp32_fused
      linalg.yield %p : !spyreop.fp32_fused
  } -> tensor<4x!spyreop.fp32_fused>
  return %pair, %scale, %y, %zm : tensor<4x!spyreop.fp32_fused>, tensor<4xf32>, tensor<4x16xf32>, tensor<4x!spyreop.fp32_fused>
}
"""


def test_layernorm_chain_matches_numpy_layernorm():
    rng = np.random.default_rng(0)
    x = rng.normal(1.0, 2.0, (4, 16)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, 16).astype(np.float32)
    b = rng.normal(size=16).astype(np.float32)
    pair, scale, y, zm = call_function(parse_module(LAYERNORM), "ln", x, w, b)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1)
    msq = (x64 * x64).mean(axis=1)
    np.testing.assert_allclose(pair.real, mean, rtol=1e-6)
    np.testing.assert_allclose(pair.imag, msq, rtol=1e-6)
    np.testing.assert_allclose(zm.real, 0.0)
    np.testing.assert_allclose(zm.imag, msq, rtol=1e-6)
    np.testing.assert_allclose(scale, 1.0 / np.sqrt(x64.var(axis=1) + I.LAYERNORM_EPS), rtol=1e-4)
    ref = (x64 - mean[:, None]) / np.sqrt(x64.var(axis=1)[:, None] + I.LAYERNORM_EPS) * w + b
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------------------------------
# slice reduction
# ---------------------------------------------------------------------------------------

SLICE = """
func.func @s(%x: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>) {
  %a = spyreop.slice_reduction %x {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<8xf16> -> tensor<8xf16>
  %b = spyreop.slice_reduction %x {reduction_kind = #spyreop.reduction_kind<max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<8xf16> -> tensor<8xf16>
  return %a, %b : tensor<8xf16>, tensor<8xf16>
}
"""


def test_slice_reduction_needs_and_uses_the_slice_width():
    m = parse_module(SLICE, name="slice.mlir")
    x = np.array([1, 2, 3, 4, 10, 1, 30, 2], np.float16)
    with pytest.raises(DiagnosticError, match="slice width"):
        call_function(m, "s", x)
    a, b = call_function(m, "s", x, slice_width=4)
    np.testing.assert_array_equal(a, np.array([10, 2, 3, 4, 43, 1, 30, 2], np.float16))
    np.testing.assert_array_equal(b, np.array([10, 2, 30, 4, 10, 1, 30, 2], np.float16))


@pytest.mark.parametrize(
    "kind,expect",
    [("add", 10.0), ("sub", 1 - 2 - 3 - 4), ("max", 4.0), ("min", 1.0), ("mul", 24.0), ("abs_max", 4.0)],
)
def test_slice_reduction_kinds(kind, expect):
    x = np.array([1, 2, 3, 4], np.float16)
    out = I.slice_reduction(x, kind, "in_slice", 4, F16)
    assert out[0] == np.float16(expect) and list(out[1:]) == [2, 3, 4]


# ---------------------------------------------------------------------------------------
# DLFloat16 and fused pairs in memory
# ---------------------------------------------------------------------------------------


def test_df16_rounding_and_encoding():
    one = 1.0
    ulp = 2.0**-9
    assert round_df16(one + ulp / 2) == one  # tie to even
    assert round_df16(one + 3 * ulp / 2) == one + 2 * ulp  # tie to even (up)
    assert round_df16(one + 0.6 * ulp) == one + ulp
    assert round_df16(2.0**-40) == 0.0 and math.isinf(round_df16(2.0**40))
    values = round_df16(np.array([0.0, 1.0, -3.5, 1234.5, 2.0**-30, 2.0**32, -(2.0**-20)]))
    np.testing.assert_array_equal(df16_from_bits(df16_to_bits(values)), values)
    assert df16_to_bits(np.float32(1.0)) == (31 << 9)


def test_df16_ops_round_to_df16():
    m = parse_module(scalar_func("spyreop.realdiv %a, %b : !spyreop.df16", "%a: !spyreop.df16, %b: !spyreop.df16", "!spyreop.df16"))
    (r,) = call_function(m, "f", 1.0, 3.0)
    assert r == round_df16(1.0 / 3.0) and r != np.float32(1.0 / 3.0)


def test_fused_pair_reads_back_its_mean_through_an_f16_view():
    fused = element_type(parse_module("func.func @f(%p: !spyreop.fp16_fused) {\n return\n}\n").body.block.first_op.args[0].type)
    for unit in ("element", "byte"):
        mem = Memory("m", unit)
        mem.write(np.array([0]), np.complex64(1.5 + 2.25j), fused)
        assert mem.read(np.array([0]), fused)[0] == np.complex64(1.5 + 2.25j)
        assert mem.read(np.array([0]), F16)[0] == np.float16(1.5)
