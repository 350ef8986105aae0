"""`dfsched-run --check --tiles N`: a sample of the compute tiles, when the tiles do not communicate.

The sampled check runs every engine on the same few tiles and compares them with what those
tiles wrote in the reference run; kernels whose tiles communicate (inter-tile ops, another
tile's scratchpad) or share output bytes are checked on every tile, and the output says why.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dfsched.interp import ktir, tile_sample
from dfsched.interp.schedule import check_schedule
from unit_helpers import run_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# two tiles add their rows; each also keeps its sum in tile 0's scratchpad (ct_id = 0)
SHARED_SCRATCHPAD = """
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @keep_in_tile0() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %c_address = arith.constant 4096 : index
    %row = ktdp.get_compute_tile_id : index
    %a = ktdp.construct_memory_view %a_address, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %keep = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2x64xf16>
    %ta = ktdp.construct_access_tile %a[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %c[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tk = ktdp.construct_access_tile %keep[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %x, %tk : tensor<1x64xf16>, <1x64xindex>
    ktdp.store %x, %tc : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
"""


def test_sampled_tiles_are_first_last_and_seeded_others():
    picked = tile_sample.sampled_tiles(32, 5, seed=0)
    assert len(picked) == 5 and len(set(picked)) == 5
    assert picked[0] == 0 and picked[-1] == 31 and list(picked) == sorted(picked)
    assert tile_sample.sampled_tiles(32, 5, seed=0) == picked
    assert tile_sample.sampled_tiles(32, 5, seed=1) != picked
    assert tile_sample.sampled_tiles(32, 1, seed=0) == (0,)
    assert tile_sample.sampled_tiles(32, 2, seed=0) == (0, 31)
    assert tile_sample.sampled_tiles(4, 9, seed=0) == (0, 1, 2, 3)


def test_check_samples_independent_tiles(capsys):
    code, out, err = run_main(capsys, EXAMPLES / "row_sum.mlir", "--check", "--tiles", "3")
    assert code == 0 and "error" not in err, out + err  # (row_sum's tensor.empty() init warns)
    lines = out.splitlines()
    assert lines[1].startswith("checking 3 of 32 tiles (0, ") and lines[1].endswith(
        "31; seed 0): the tiles do not communicate"), lines[1]
    assert lines[2].startswith("f16 accumulation: ")  # sample sums in f16: held to the schedule's order (Decision 112)
    assert lines[3].split() == ["#", "pass", "status", "max", "error"]
    assert "MISMATCH" not in out and "ERROR" not in out
    assert "(DataflowIR simulator)" in out  # the simulator ran the sample too


def test_sampled_reference_holds_only_the_sampled_tiles_outputs():
    """The engines' outputs on a sample equal the sampled reference, not the full one."""
    module = ktir.load_module(EXAMPLES / "row_sum.mlir")
    inputs = ktir.make_inputs(module, 0)
    reference = ktir.run(module, inputs)
    chosen = (0, 7, 31)
    assert tile_sample.why_all_tiles(module, reference) is None
    sampled = tile_sample.sampled_outputs(reference, inputs, chosen)
    from dataclasses import replace

    verdict = check_schedule(module, inputs, replace(reference, outputs=sampled), tiles=chosen)
    assert verdict.status == "exact", verdict.message
    # against the full reference the same run misses the other tiles' rows
    assert check_schedule(module, inputs, reference, tiles=chosen).status == "mismatch"
    # the row sums: the sampled tiles' rows as computed, the others as they were before the run
    (key,) = [k for k in sampled if not np.array_equal(reference.outputs[k], inputs[k])]
    got, full, before = (a.reshape(32, -1) for a in (sampled[key], reference.outputs[key], inputs[key]))
    for t in range(32):
        assert np.array_equal(got[t], full[t] if t in chosen else before[t]), t
    assert not np.array_equal(full[1], before[1])


def test_tiles_that_reach_another_scratchpad_are_all_checked(capsys, tmp_path):
    kernel = tmp_path / "keep_in_tile0.mlir"
    kernel.write_text(SHARED_SCRATCHPAD)
    code, out, err = run_main(capsys, kernel, "--check", "--tiles", "1")
    assert "Traceback" not in out + err
    assert out.splitlines()[1] == ("checking all 2 tiles, not 1: a tile reaches another tile's scratchpad "
                                   "('ktdp.construct_memory_view' with ct_id = 0)"), out


def rows_over_grid(grid: int) -> str:
    """`rmsnorm_rows_uneven` (7 rows, `for row = tile to 7 step 3`) over a grid of `grid` tiles:
    from 4 tiles on, tiles t and t + 3 both normalise row t + 3 (identical bytes, no race)."""
    return (EXAMPLES / "rmsnorm_rows_uneven.mlir").read_text().replace("grid = [3]", f"grid = [{grid}]")


def test_inter_tile_ops_mean_every_tile():
    module = ktir.load_module(EXAMPLES / "add_2tile.mlir")
    reference = ktir.run(module, ktir.make_inputs(module, 0))
    assert tile_sample.why_all_tiles(module, reference) is None
    inter = ktir.parse_module(Path(__file__).resolve().parents[1].joinpath(
        "lit", "dialects", "ktdp", "inter-tile.mlir").read_text())
    assert tile_sample.why_all_tiles(inter, reference).startswith("the kernel holds inter-tile ops ('ktdp.inter_tile_")


@pytest.mark.parametrize("grid, note", [
    (3, "checking 2 of 3 tiles (0, 2; seed 0): the tiles do not communicate"),  # each row on one tile
    (7, "checking all 7 tiles, not 2: compute tiles 0 and 3 write the same output bytes "
        "(address 1216 of the global memory)"),  # row 3 (Y + 3 * 64 bytes), on tiles 0 and 3
])
def test_tiles_writing_the_same_bytes_are_all_checked(capsys, tmp_path, grid, note):
    """Identical writes are no race (Decision 25), but the sampled reference keeps a byte's last
    writer only: a sample holding an earlier one alone (tile 0 for row 3 at grid 7) was compared
    with the input bytes there, a false MISMATCH. Such tiles share outputs (Decision 119). Two
    passes suffice to show the verdict."""
    kernel = tmp_path / f"rows{grid}.mlir"
    kernel.write_text(rows_over_grid(grid))
    code, out, err = run_main(capsys, kernel, "--check", "--tiles", "2", "--passes", "ensure-device-declaration")
    assert code == 0 and "MISMATCH" not in out, out + err
    assert out.splitlines()[1] == note, out


def test_grid_no_larger_than_the_sample_is_checked_whole(capsys):
    code, out, err = run_main(capsys, EXAMPLES / "add_2tile.mlir", "--check", "--tiles", "5")
    assert code == 0, out + err
    assert out.splitlines()[1] == "checking all 2 tile(s): --tiles 5 covers the grid"


@pytest.mark.parametrize("argv, message", [
    (["--check", "--tiles", "0"], "--tiles must be a positive integer, not '0'"),
    (["--check", "--tiles", "-2"], "--tiles must be a positive integer, not '-2'"),
    (["--check", "--tiles", "some"], "--tiles must be a positive integer, not 'some'"),
    (["--tiles", "2"], "--tiles samples the tiles of --check; add --check"),
])
def test_bad_tiles_values_are_clear_errors(capsys, argv, message):
    code, out, err = run_main(capsys, EXAMPLES / "row_sum.mlir", *argv)
    assert code == 1 and not out
    assert err.strip() == f"dfsched-run: error: {message}"
