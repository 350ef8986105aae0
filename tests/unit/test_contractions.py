"""Contractions on a matrix unit and on the vector lanes (README, Decisions: matrix units).

Every contraction example passes `dfsched-run --check` on the devices with a matrix unit
(spyre, matrix_unit) as it does on sample and quad_corelet (`test_dfsched_run.py`), its
DataflowIR carrying matrix-unit steps exactly where the device declares one; the mixed
f16 -> f32 kernel runs where a unit declares f32 (matrix_unit's matrix unit, quad_corelet's
f32 lanes) and is the located lanes error elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dfsched.tools.opt import main as opt_main
from dfsched.tools.run import main as run_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MIXED = ROOT / "tests" / "unit" / "kernels" / "matmul_mixed.mlir"
CONTRACTIONS = ["matmul.mlir", "batch_matmul.mlir", "matmul_transpose_b.mlir", "qk_transpose.mlir"]


def _compile(capsys, path: Path, device: str) -> tuple[int, str, str]:
    code = opt_main([str(path), "--device", device, "-ktir-to-dfir"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _check(capsys, path: Path, device: str, *extra: str) -> int:
    code = run_main([str(path), "--check", "--device", device, *extra])
    out = capsys.readouterr().out
    assert code == 0 and "MISMATCH" not in out and "ERROR" not in out, out
    cycles = re.search(r"simulated cycles: (\d+) \(wrap-program-dfir", out)
    assert cycles, out
    return int(cycles.group(1))


@pytest.mark.parametrize("kernel", CONTRACTIONS)
def test_matrix_unit_steps_only_where_declared(capsys, kernel):
    for device, expected in (("spyre", True), ("matrix_unit", True), ("sample", False)):
        code, out, err = _compile(capsys, EXAMPLES / kernel, device)
        assert code == 0, err
        assert ("dfsched.matrix_tile" in out) is expected, device
        assert ("binary_operator mul" in out) is not expected, device  # the vector fallback's multiply


@pytest.mark.parametrize("device", ["spyre", "matrix_unit"])
@pytest.mark.parametrize("kernel", CONTRACTIONS)
def test_contractions_check_on_matrix_units(capsys, kernel, device):
    """Two sampled tiles of each (the first and the last; the examples other than matmul have two)."""
    _check(capsys, EXAMPLES / kernel, device, "--tiles", "2")


@pytest.mark.slow
@pytest.mark.parametrize("device", ["spyre", "matrix_unit"])
def test_matmul_checks_every_tile_on_matrix_units(capsys, device):
    """All 16 tiles of examples/matmul.mlir (opt-in: `pytest -m slow`); the same passes and
    engines run on two of them in `test_contractions_check_on_matrix_units`."""
    _check(capsys, EXAMPLES / "matmul.mlir", device)


@pytest.mark.parametrize("device", ["matrix_unit", "quad_corelet"])
def test_mixed_precision_checks_where_f32_is_declared(capsys, device):
    _check(capsys, MIXED, device)


@pytest.mark.parametrize("device, unit", [("sample", "SFU"), ("spyre", "PE")])
def test_mixed_precision_without_f32_is_a_located_error(capsys, device, unit):
    code, out, err = _compile(capsys, MIXED, device)
    assert code == 1 and not out
    assert f"matmul_mixed.mlir:29:16: error: exec_unit '{unit}' declares no SIMD lanes for element type f32" in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_matrix_unit_is_faster_than_the_vector_fallback(capsys, tmp_path):
    """The same device without its feature.matrix runs examples/matmul.mlir on the vector lanes:
    correct, and slower (opt-in: `pytest -m slow`; a performance claim: the default run checks
    both paths for correctness, `test_contractions_check_on_matrix_units` and
    `test_dfsched_run.py::test_check_passes_on_every_example` on the sample device's lanes)."""
    spyre = (ROOT / "arch" / "devices" / "spyre.mlir").read_text()
    without = re.sub(r",\n\s*ktdf_arch.feature.matrix = \{[^\n]*\}", "", spyre)
    assert without != spyre
    (tmp_path / "spyre_vector.mlir").write_text(without)
    # two of the 16 tiles, the same in both runs (every tile: test_contractions_check_on_matrix_units)
    matrix = _check(capsys, EXAMPLES / "matmul.mlir", "spyre", "--tiles", "2")
    vector = _check(capsys, EXAMPLES / "matmul.mlir", str(tmp_path / "spyre_vector.mlir"), "--tiles", "2")
    assert matrix < vector


def test_cost_model_times_a_matrix_step_by_cycles_per_tile():
    """tile-size-selection's model costs a marked contraction step as the simulator does:
    cycles_per_tile per unit tile it covers (matrix_unit: 4x8x4 in 2 cycles), plus loading and
    storing its accumulator in register memory."""
    from dfsched.arch.intrinsics import MATRIX_TILE
    from dfsched.arch.loading import load_device
    from dfsched.passes.contraction import mark
    from dfsched.passes.scheduling.tile_cost_model import TileCostModel
    from dfsched.tools.opt import DfschedOptMain

    source = ROOT / "tests" / "lit" / "reduction-loop-exposure" / "matrix-unit.mlir"
    tool = DfschedOptMain(["--device=matrix_unit", "-p", "reduction-loop-exposure,map-reduction-partials"])
    module = tool.parse(str(source), source.read_text())
    for request, instance in tool.build_passes():
        tool.apply_pass(module, request, instance)
    (step,) = [op for op in module.walk() if MATRIX_TILE in op.attributes]
    model = TileCostModel(module, load_device("matrix_unit"), lambda value, env: None)
    accumulator = model.buffer_traffic(step, "MXU")
    assert accumulator == 2  # the accumulator's vector load and store (one access each)
    assert model.compute(step, "MXU") == 2 + accumulator  # a 2x8x4 step: one unit tile
    mark(step, (8, 16, 8))
    assert model.compute(step, "MXU") == 2 * 2 * 2 * 2 + accumulator  # 2 x 2 x 2 unit tiles


def test_matrix_block_is_the_most_reuse_that_fits_the_registers():
    """`block_sizes` (Decision 72): whole unit tiles dividing the extents, the most unit tiles per
    streamed operand whose double-buffered accumulator fits, the wider N on a tie; no capacity
    declared or nothing bigger fitting: one unit tile."""
    from dfsched.passes.contraction import accumulator_block_bytes, block_sizes

    f32_and_f16_copy = accumulator_block_bytes("f32", "f16")
    assert f32_and_f16_copy == 6 and accumulator_block_bytes("f32", "f32") == 4
    assert block_sizes(1024, 1024, (8, 8), f32_and_f16_copy, 16384) == (32, 32)  # spyre
    assert block_sizes(64, 64, (4, 8), f32_and_f16_copy, 2048) == (8, 16)  # matrix_unit
    assert block_sizes(4, 64, (8, 8), f32_and_f16_copy, 16384) == (4, 64)  # M limited by the rows
    assert block_sizes(6, 12, (4, 8), f32_and_f16_copy, 2048) == (6, 12)  # units 3 and 6
    assert block_sizes(64, 64, (8, 8), f32_and_f16_copy, None) == (8, 8)
    assert block_sizes(64, 64, (8, 8), f32_and_f16_copy, 100) == (8, 8)


def test_attention_checks_on_the_matrix_unit(capsys):
    """examples/attention.mlir (QK^T, scale, softmax, PV in one program) on spyre: both
    contractions on the matrix unit, the softmax on the vector lanes between them; two sampled
    tiles (sample and quad_corelet check it in test_dfsched_run.py's every-example test)."""
    code, out, err = _compile(capsys, EXAMPLES / "attention.mlir", "spyre")
    assert code == 0, err
    assert out.count("dfsched.matrix_tile") == 2
    _check(capsys, EXAMPLES / "attention.mlir", "spyre", "--tiles", "2")


@pytest.mark.parametrize("device", ["sample", "spyre"])
def test_product_of_two_contractions_feeds_a_third(capsys, device):
    """`gate * up` of two contractions' results read by a down projection
    (tests/unit/kernels/gate_times_up.mlir, one tile): on the vector lanes and on the matrix
    unit (the IR is pinned by construct-three-stage-pipeline/product-of-contractions.mlir)."""
    _check(capsys, ROOT / "tests" / "unit" / "kernels" / "gate_times_up.mlir", device)
