"""The KTIR reference interpreter's kernel arguments (per-tile offsets, scalars, runtime
arguments, calls) and its fast paths, checked against the general ones."""

from __future__ import annotations

import numpy as np
import pytest

from dfsched.interp.ktir import call_function, kernel_layout, make_inputs, parse_module, run, run_kernel
from test_ktir_interp_ops import GUARDED_DIVISION
from unit_helpers import index_constants, kernel, kernel_with_inputs, tile, view


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
            index_constants(0, 1, indent=""),
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
    m, inputs = kernel_with_inputs("%X: !ktdp.runtime_arg<index>, %Y: index, %r: !ktdp.runtime_arg<index, upperbound=4>", body, seed=15)
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
