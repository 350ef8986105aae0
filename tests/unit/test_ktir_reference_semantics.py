"""The reference interpreter's semantics decisions: accumulation type, masks, empty inits,
scratchpad-resident inputs (arguments and constant addresses), identical stores, index/data overlaps (README, Decisions).

Every kernel here is written for the test (never taken from the public KTIR corpus).
"""

from __future__ import annotations

import numpy as np
import pytest

from dfsched.arch.loading import load_device
from dfsched.diagnostics import DiagnosticError
from dfsched.interp.ktir import call_function, make_inputs, parse_module, run, run_kernel
from dfsched.tools.run import device_accumulation
from unit_helpers import box, index_constants, kernel, kernel_with_inputs, run_main, tile, view

LOCAL = "#ktdp.memory_space<ct_local>"


# ---------------------------------------------------------------------------------------
# reductions: max/min, accumulation type
# ---------------------------------------------------------------------------------------

MAX_MIN = """
func.func @mm(%x: tensor<3x40xf16>, %i: tensor<3x40xi32>) -> (tensor<3xf16>, tensor<3xf16>, tensor<40xi32>) {
  %ninf = arith.constant 0xFC00 : f16
  %pinf = arith.constant 0x7C00 : f16
  %e = tensor.empty() : tensor<3xf16>
  %lo = linalg.fill ins(%ninf : f16) outs(%e : tensor<3xf16>) -> tensor<3xf16>
  %hi = linalg.fill ins(%pinf : f16) outs(%e : tensor<3xf16>) -> tensor<3xf16>
  %mx = linalg.reduce { arith.maxnumf } ins(%x : tensor<3x40xf16>) outs(%lo : tensor<3xf16>) dimensions = [1]
  %mn = linalg.reduce ins(%x : tensor<3x40xf16>) outs(%hi : tensor<3xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %m = arith.minimumf %in, %acc : f16
      linalg.yield %m : f16
    }
  %z = arith.constant -1000 : i32
  %ei = tensor.empty() : tensor<40xi32>
  %zi = linalg.fill ins(%z : i32) outs(%ei : tensor<40xi32>) -> tensor<40xi32>
  %cm = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>],
                        iterator_types = ["reduction", "parallel"]}
      ins(%i : tensor<3x40xi32>) outs(%zi : tensor<40xi32>) {
    ^bb0(%v: i32, %acc: i32):
      %m = arith.maxsi %acc, %v : i32
      linalg.yield %m : i32
  } -> tensor<40xi32>
  return %mx, %mn, %cm : tensor<3xf16>, tensor<3xf16>, tensor<40xi32>
}
"""


def test_max_and_min_reductions():
    rng = np.random.default_rng(1)
    x = rng.uniform(-5, 5, (3, 40)).astype(np.float16)
    i = rng.integers(-50, 50, (3, 40)).astype(np.int32)
    mx, mn, cm = call_function(parse_module(MAX_MIN), "mm", x, i)
    np.testing.assert_array_equal(mx, x.max(axis=1))
    np.testing.assert_array_equal(mn, x.min(axis=1))
    np.testing.assert_array_equal(cm, i.max(axis=0))


ONES_SUM = """
func.func @s(%x: tensor<1x4096xf16>) -> tensor<1xf16> {
  %z = arith.constant 0.0 : f16
  %init = tensor.splat %z : tensor<1xf16>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<1x4096xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  return %r : tensor<1xf16>
}
"""


def test_reductions_accumulate_in_f32_without_a_device_and_as_declared_with_one():
    m = parse_module(ONES_SUM)
    ones = np.ones((1, 4096), np.float16)
    # an f32 accumulator counts past 2048; an f16 one stalls there (2048 + 1 rounds to 2048)
    assert call_function(m, "s", ones)[0][0] == 4096
    assert call_function(m, "s", ones, accumulate="f16")[0][0] == 2048
    assert call_function(m, "s", ones, accumulate=None)[0][0] == 2048  # the output's own type
    # spyre declares f32; the sample device declares nothing (its output type, f16)
    assert load_device("spyre").accumulation_type == device_accumulation("spyre") == "f32"
    assert device_accumulation("sample") is None and device_accumulation(None) is None


def test_contraction_products_are_exact_in_the_accumulation_type():
    text = """
func.func @mm(%a: tensor<2x3xf16>, %b: tensor<3x2xf16>) -> tensor<2x2xf16> {
  %e = tensor.empty() : tensor<2x2xf16>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf16>, tensor<3x2xf16>) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}
"""
    a = np.full((2, 3), 1 + 2.0**-10, np.float16)  # a * a rounds in f16, not in f32
    b = np.full((3, 2), 1 + 2.0**-10, np.float16)
    got = call_function(parse_module(text), "mm", a, b)[0]
    exact = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(got, exact)


def test_unknown_accumulation_type_is_refused():
    with pytest.raises(ValueError, match="accumulate"):
        call_function(parse_module(ONES_SUM), "s", np.ones((1, 4096), np.float16), accumulate="bf16")


def test_device_accumulation_attribute_must_name_a_float_type(tmp_path):
    from dfsched.arch.loading import shipped_devices

    text = shipped_devices()["spyre"].read_text()
    assert "{accumulate = f32}" in text
    bad = tmp_path / "bad.mlir"
    bad.write_text(text.replace("{accumulate = f32}", "{accumulate = i32}"))
    with pytest.raises(DiagnosticError) as exc:
        load_device(str(bad))
    assert "accumulate" in exc.value.diagnostic.message and exc.value.diagnostic.line is not None


def test_arch_show_prints_the_accumulation_type(capsys):
    from dfsched.tools.arch_cli import main as arch_main

    assert arch_main(["show", "spyre"]) == 0
    assert "compute accumulate f32" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------
# tensor.empty inits, collapse_shape
# ---------------------------------------------------------------------------------------

EMPTY_INIT = (
    "%c0 = arith.constant 0 : index\n"
    + view("va", "A", (4, 8), (8, 1)) + "\n"
    + view("vc", "C", (4,), (1,)) + "\n"
    + tile("ta", "va", (4, 8), ["%c0", "%c0"], (4, 8)) + "\n"
    + tile("tc", "vc", (4,), ["%c0"], (4,)) + "\n"
    + "%a = ktdp.load %ta : <4x8xindex> -> tensor<4x8xf16>\n"
    + "%e = tensor.empty() : tensor<4xf16>\n"
    + "%r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf16>) outs(%e : tensor<4xf16>) dimensions = [1]\n"
    + "ktdp.store %r, %tc : tensor<4xf16>, <4xindex>"
)


def test_reduction_into_tensor_empty_starts_from_zero_with_a_warning():
    m = parse_module(kernel("%A: index, %C: index", EMPTY_INIT), name="empty.mlir")
    inputs = make_inputs(m, seed=2)
    result = run(m, inputs)
    np.testing.assert_array_equal(result.outputs["C"], inputs["A"].astype(np.float32).sum(axis=1).astype(np.float16))
    (warning,) = result.warnings
    assert warning.severity == "warning" and warning.file == "empty.mlir" and warning.line == 9
    assert "'linalg.reduce'" in warning.message and "tensor.empty()" in warning.message and "zero" in warning.message


def test_dfsched_run_prints_the_empty_init_warning(capsys, tmp_path):
    path = tmp_path / "empty.mlir"
    path.write_text(kernel("%A: index, %C: index", EMPTY_INIT))
    code, out, err = run_main(capsys, path)
    assert code == 0 and "C: shape [4]" in out
    assert f"{path}:9:" in err and "warning: 'linalg.reduce' reduces into tensor.empty()" in err


def test_collapse_shape_with_reassociation_groups():
    text = """
func.func @cs(%x: tensor<2x3x4xf16>) -> (tensor<6x4xf16>, tensor<24xf16>) {
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf16> into tensor<6x4xf16>
  %b = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x4xf16> into tensor<24xf16>
  return %a, %b : tensor<6x4xf16>, tensor<24xf16>
}
"""
    x = np.arange(24, dtype=np.float16).reshape(2, 3, 4)
    a, b = call_function(parse_module(text), "cs", x)
    np.testing.assert_array_equal(a, x.reshape(6, 4))
    np.testing.assert_array_equal(b, x.reshape(24))


# ---------------------------------------------------------------------------------------
# masked accesses, --strict-bounds
# ---------------------------------------------------------------------------------------

# a 6-element view read and written through 8-element tiles (Triton's masked tail)
MASKED = (
    "%c0 = arith.constant 0 : index\n"
    + view("va", "A", (8,), (1,), cset=box(6)) + "\n"
    + view("vc", "C", (8,), (1,), cset=box(6)) + "\n"
    + tile("ta", "va", (8,), ["%c0"], (8,)) + "\n"
    + tile("tc", "vc", (8,), ["%c0"], (8,)) + "\n"
    + "%a = ktdp.load %ta : <8xindex> -> tensor<8xf16>\n"
    + "%one = arith.constant dense<1.0> : tensor<8xf16>\n"
    + "%s = arith.addf %a, %one : tensor<8xf16>\n"
    + "ktdp.store %s, %tc : tensor<8xf16>, <8xindex>"
)


def test_accesses_outside_the_coordinate_set_are_masked_by_default():
    m, inputs = kernel_with_inputs("%A: index, %C: index", MASKED, seed=3)
    inputs["C"] = np.full(8, 7.0, np.float16)
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["C"][:6], inputs["A"][:6] + np.float16(1))
    np.testing.assert_array_equal(out["C"][6:], [7.0, 7.0])  # stores outside the set are dropped


def test_strict_bounds_makes_a_masked_access_a_located_error(capsys, tmp_path):
    path = tmp_path / "masked.mlir"
    path.write_text(kernel("%A: index, %C: index", MASKED))
    code, out, err = run_main(capsys, path, "--strict-bounds")
    assert code == 1 and "Traceback" not in err
    assert f"{path}:7:" in err and "outside the view's coordinate_set" in err
    assert run_main(capsys, path)[0] == 0


# ---------------------------------------------------------------------------------------
# races, overlaps
# ---------------------------------------------------------------------------------------


def test_tiles_storing_identical_values_to_one_place_do_not_race():
    body = "\n".join([
        "%c0 = arith.constant 0 : index",
        view("vc", "C", (4,), (1,)),
        tile("tc", "vc", (4,), ["%c0"], (4,)),
        "%z = arith.constant dense<3.0> : tensor<4xf16>",
        "ktdp.store %z, %tc : tensor<4xf16>, <4xindex>",
    ])
    out = run_kernel(parse_module(kernel("%C: index", body, grid=(3,))), {})
    np.testing.assert_array_equal(out["C"], np.full(4, 3.0, np.float16))


def test_index_and_data_views_sharing_memory_are_refused_naming_both():
    body = "\n".join([
        index_constants(0, 8, indent=""),
        view("vx", "c0", (4, 4), (4, 1)),
        view("vi", "c8", (4, 4), (4, 1), elt="i32"),
        tile("ti", "vi", (4, 4), ["%c0", "%c0"], (4, 4), elt="i32"),
        "%i = ktdp.load %ti : <4x4xindex> -> tensor<4x4xi32>",
    ])
    m = parse_module(kernel("", body), name="overlap.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {}, unit="element")
    diag = exc.value.diagnostic
    assert diag.file == "overlap.mlir" and diag.line == 5
    assert "integer view of element addresses [8, 23] overlaps the float view of [0, 15]" in diag.message
    assert diag.notes[0].line == 4 and "[0, 15]" in diag.notes[0].message


# ---------------------------------------------------------------------------------------
# scratchpad-resident inputs
# ---------------------------------------------------------------------------------------

# Z[tile] = X (in the tile's scratchpad, left there by an earlier kernel) + Y[tile]
SCRATCHPAD_INPUT = "\n".join([
    index_constants(0, 64, indent=""),
    "%id = ktdp.get_compute_tile_id : index",
    "%off = arith.muli %id, %c64 : index",
    view("vx", "X", (64,), (1,), space=LOCAL),
    view("vy", "Y", (128,), (1,)),
    view("vz", "Z", (128,), (1,)),
    tile("tx", "vx", (64,), ["%c0"], (64,)),
    tile("ty", "vy", (128,), ["%off"], (64,)),
    tile("tz", "vz", (128,), ["%off"], (64,)),
    "%x = ktdp.load %tx : <64xindex> -> tensor<64xf16>",
    "%y = ktdp.load %ty : <64xindex> -> tensor<64xf16>",
    "%s = arith.addf %x, %y : tensor<64xf16>",
    "ktdp.store %s, %tz : tensor<64xf16>, <64xindex>",
])


def test_scratchpad_resident_argument_is_an_input_per_compute_tile():
    m, inputs = kernel_with_inputs("%X: index, %Y: index, %Z: index", SCRATCHPAD_INPUT, grid=(2,), seed=4)
    assert inputs["X"].shape == (2, 64)  # one row per compute tile's scratchpad
    out = run_kernel(m, inputs)
    np.testing.assert_array_equal(out["Z"], (inputs["X"] + inputs["Y"].reshape(2, 64)).reshape(128))
    np.testing.assert_array_equal(out["X"], inputs["X"])  # saved like a global buffer
    with pytest.raises(ValueError, match=r"give shape \[2, 64\]"):
        run_kernel(m, {**inputs, "X": inputs["X"][0]})


def test_scratchpad_data_at_a_constant_address_is_an_input_per_compute_tile():
    """Decision 93: a scratchpad view at a constant address reads data an earlier kernel left
    there, one row per tile (`ct_local@<address>`); `ct_id = 1` reads tile 1's row from every
    tile, a view without `ct_id` the running tile's."""
    body = "\n".join([
        index_constants(0, 256, 4096, 64, indent=""),
        "%id = ktdp.get_compute_tile_id : index",
        "%off = arith.muli %id, %c64 : index",
        view("v1", "c256", (64,), (1,), space="#ktdp.memory_space<ct_local, ct_id = 1>"),
        view("mine", "c256", (64,), (1,), space=LOCAL),
        view("vz", "c4096", (128,), (1,)),
        tile("t1", "v1", (64,), ["%c0"], (64,)),
        tile("tm", "mine", (64,), ["%c0"], (64,)),
        tile("tz", "vz", (128,), ["%off"], (64,)),
        "%x = ktdp.load %t1 : <64xindex> -> tensor<64xf16>",
        "%y = ktdp.load %tm : <64xindex> -> tensor<64xf16>",
        "%s = arith.subf %x, %y : tensor<64xf16>",
        "ktdp.store %s, %tz : tensor<64xf16>, <64xindex>",
    ])
    m, inputs = kernel_with_inputs("", body, grid=(2,), seed=3)
    assert inputs["ct_local@256"].shape == (2, 64)
    out = run_kernel(m, inputs)
    rows = inputs["ct_local@256"]
    np.testing.assert_array_equal(out["@4096"], np.concatenate([rows[1] - rows[0], rows[1] - rows[1]]))


@pytest.mark.parametrize("device", ["sample", "quad_corelet", "spyre"])
def test_scratchpad_resident_input_checks_through_the_schedule(capsys, tmp_path, device):
    """To the end: the DataflowIR simulator seeds every tile's scratchpad where the reference
    does, and address assignment keeps the staging buffers off that data."""
    path = tmp_path / "resident.mlir"
    path.write_text(kernel("%X: index, %Y: index, %Z: index", SCRATCHPAD_INPUT, grid=(2,)))
    code, out, err = run_main(capsys, path, "--check", "--device", device)
    assert code == 0 and "MISMATCH" not in out and "Traceback" not in err, out + err
    assert "wrap-program-dfir" in out and "DataflowIR simulator" in out


def test_simulator_seeds_and_saves_scratchpad_resident_buffers(tmp_path):
    from dfsched.interp.dataflow import simulate
    from dfsched.tools.dataflow_compile import compile_to_dfir

    path = tmp_path / "resident.mlir"
    path.write_text(kernel("%X: index, %Y: index, %Z: index", SCRATCHPAD_INPUT, grid=(2,)))
    m = parse_module(path.read_text())
    inputs = make_inputs(m, seed=5)
    reference = run(m, inputs)
    dfir = compile_to_dfir(path, device="sample")
    result = simulate(dfir, inputs, "sample", layout=reference.layout)
    np.testing.assert_array_equal(result.outputs["X"], inputs["X"])  # one row per tile, as given
    np.testing.assert_array_equal(result.outputs["Z"], reference.outputs["Z"])
    with pytest.raises(ValueError, match=r"give shape \[2, 64\]"):
        simulate(dfir, {**inputs, "X": inputs["X"][0]}, "sample", layout=reference.layout)


def test_buffers_beyond_max_elements_are_refused_at_their_view():
    m = parse_module(kernel("%A: index, %C: index", MASKED), name="big.mlir")
    with pytest.raises(DiagnosticError) as exc:
        run_kernel(m, {}, max_elements=10)  # A and C hold 8 elements each
    diag = exc.value.diagnostic
    assert diag.file == "big.mlir" and diag.line == 3 and "max_elements" in diag.message
    assert run_kernel(m, {}, max_elements=16)["C"].shape == (8,)


def test_run_binds_scalar_arguments_by_name():
    body = "\n".join([
        "%c0 = arith.constant 0 : index",
        view("va", "A", (8,), (1,)),
        view("vc", "C", (8,), (1,)),
        tile("ta", "va", (8,), ["%c0"], (8,)),
        tile("tc", "vc", (8,), ["%c0"], (8,)),
        "%a = ktdp.load %ta : <8xindex> -> tensor<8xf16>",
        "%k8 = tensor.splat %k : tensor<8xf16>",
        "%s = arith.addf %a, %k8 : tensor<8xf16>",
        "ktdp.store %s, %tc : tensor<8xf16>, <8xindex>",
    ])
    m, inputs = kernel_with_inputs("%A: index, %C: index, %k: f16", body, seed=5)
    out = run(m, {"A": inputs["A"]}, scalars={"k": 2.0}).outputs
    np.testing.assert_array_equal(out["C"], inputs["A"] + np.float16(2.0))
    with pytest.raises(ValueError, match="neither buffers nor scalar arguments"):
        run(m, {"A": inputs["A"]}, scalars={"kk": 2.0})
