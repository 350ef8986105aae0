"""Distributed views resolved into their parts (`resolve-distributed-views`, README Decision 53):
the reference computes the same bytes before and after the rewrite, and the compiled schedule
of a distributed copy matches the reference on spyre and on the ring device, also when a part
lives in another tile's scratchpad (Decision 93)."""

from __future__ import annotations

import numpy as np
import pytest

from dfsched.interp.ktir import make_inputs, parse_module, run_kernel
from dfsched.passes.frontend.resolve_distributed_views import ResolveDistributedViews
from dfsched.tools.run import main
from unit_helpers import box, index_constants

# A 64x32 tensor in two 32x32 halves by rows (rows 32..63 first in memory), copied to B by
# 16x32 tiles in a loop, plus one tile straddling both halves (rows 24..39), copied to C.
KERNEL = f"""
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#bottom = affine_set<(d0, d1)[s0] : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#whole = {box(64, 32)}
#rows16 = {box(16, 32)}
""" + """#order = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @split_copy() attributes {grid = [1]} {
""" + index_constants(0, 16, 24, 32, 64) + """
    %top_at = arith.constant 2048 : index
    %bottom_at = arith.constant 0 : index
    %b_at = arith.constant 4096 : index
    %c_at = arith.constant 8192 : index
    %top = ktdp.construct_memory_view %top_at, sizes: [32, %c32], strides: [%c32, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x?xf16>
    %bottom = ktdp.construct_memory_view %bottom_at, sizes: [32, %c32], strides: [%c32, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x?xf16>
    %a = ktdp.construct_distributed_memory_view (%top, %bottom : memref<32x?xf16>, memref<32x?xf16>) : memref<64x?xf16>
    %b = ktdp.construct_memory_view %b_at, sizes: [64, 32], strides: [32, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %c = ktdp.construct_memory_view %c_at, sizes: [64, 32], strides: [32, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    scf.for %row = %c0 to %c64 step %c16 {
      %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #rows16, access_tile_order = #order} : memref<64x?xf16> -> !ktdp.access_tile<16x32xindex>
      %tb = ktdp.construct_access_tile %b[%row, %c0] {access_tile_set = #rows16, access_tile_order = #order} : memref<64x32xf16> -> !ktdp.access_tile<16x32xindex>
      %x = ktdp.load %ta : <16x32xindex> -> tensor<16x32xf16>
      ktdp.store %x, %tb : tensor<16x32xf16>, <16x32xindex>
    }
    %ts = ktdp.construct_access_tile %a[%c24, %c0] {access_tile_set = #rows16, access_tile_order = #order} : memref<64x?xf16> -> !ktdp.access_tile<16x32xindex>
    %tc = ktdp.construct_access_tile %c[%c24, %c0] {access_tile_set = #rows16, access_tile_order = #order} : memref<64x32xf16> -> !ktdp.access_tile<16x32xindex>
    %y = ktdp.load %ts : <16x32xindex> -> tensor<16x32xf16>
    ktdp.store %y, %tc : tensor<16x32xf16>, <16x32xindex>
    return
  }
}
"""


def test_resolved_kernel_computes_the_same_bytes():
    original = parse_module(KERNEL, "split_copy.mlir")
    resolved = parse_module(KERNEL, "split_copy.mlir")
    ResolveDistributedViews().apply(None, resolved)  # type: ignore[arg-type]
    text = str(resolved)
    assert "construct_distributed_memory_view" not in text and "scf.for" not in text
    assert text.count("ktdp.store") == 6  # 4 loop tiles, each in one half; the straddling tile in two
    for seed in (0, 1):
        inputs = make_inputs(original, seed=seed)
        expected, actual = run_kernel(original, inputs), run_kernel(resolved, inputs)
        assert expected.keys() == actual.keys()
        for key in expected:
            np.testing.assert_array_equal(actual[key], expected[key], err_msg=key)


OTHER_TILE = KERNEL.replace("grid = [1]", "grid = [2]").replace(
    "memory_space = #ktdp.memory_space<global>} : memref<32x?xf16>\n    %bottom",
    "memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x?xf16>\n    %bottom")


@pytest.mark.parametrize("device, text", [("spyre", KERNEL), ("ring4", OTHER_TILE)], ids=["spyre", "ring4-ct_id"])
def test_distributed_copy_checks_on_the_device(tmp_path, capsys, device, text):
    """On ring4 the top half lives in tile 1's scratchpad (Decision 93: data an earlier kernel
    left at byte 2048, input `ct_local@2048`): both tiles copy it over the ring and store the
    same B and C (identical bytes: no race), and no buffer of the schedule lands on it."""
    kernel = tmp_path / "split_copy.mlir"
    kernel.write_text(text)
    code = main([str(kernel), "--check", "--device", device])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "simulated cycles:" in out and "OK:" in out


def test_unresolvable_view_is_refused_with_the_reason(tmp_path, capsys):
    """A part in the scratchpad of a tile outside the grid: the reference refuses to run it
    (`ktir-legality-check` would too, `ktir-legality-check/distributed-views.mlir`)."""
    kernel = tmp_path / "other_tile.mlir"
    kernel.write_text(OTHER_TILE.replace("ct_id = 1", "ct_id = 2"))
    assert main([str(kernel), "--check", "--device", "ring4"]) == 1
    err = capsys.readouterr().err
    assert "other_tile.mlir:18:12: error: 'ktdp.construct_memory_view' op ct_id = 2 names no compute tile of the " \
           "grid [2]" in err
