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
from dfsched.interp.memory import MANY_TILES
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


def test_inter_tile_ops_and_shared_outputs_mean_every_tile():
    module = ktir.load_module(EXAMPLES / "add_2tile.mlir")
    reference = ktir.run(module, ktir.make_inputs(module, 0))
    assert tile_sample.why_all_tiles(module, reference) is None
    # a byte two tiles wrote (what the race tracking would record if it allowed it)
    number = min(reference.global_memory.races.pages)
    reference.global_memory.races.pages[number].writer[5] = MANY_TILES
    why = tile_sample.why_all_tiles(module, reference)
    assert why == f"two tiles write the same output bytes (address {(number << 12) + 5} of the global memory)"
    inter = ktir.parse_module(Path(__file__).resolve().parents[1].joinpath(
        "lit", "dialects", "ktdp", "inter-tile.mlir").read_text())
    assert tile_sample.why_all_tiles(inter, reference).startswith("the kernel holds inter-tile ops ('ktdp.inter_tile_")


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
