"""Schedules that reuse a scratchpad buffer across loop iterations must not race.

A kernel too big for the scratchpad is tiled into a loop around its pipeline. Without double
buffering, every iteration's load unit (MNILU) refills the same L1 buffers the scratchpad load
unit (L1LU) reads, and the L1 store unit (L1SU) refills the buffer the DMA store unit (MNISU)
drains: `ktdf-to-ktdflowering` must make the writer of iteration i+1 wait for the reader of
iteration i (a guarded write-after-read signal), else the simulator's race check fires and the
outputs are wrong. Double-buffered buffers alternate between two copies and need no such wait.

The kernel adds two 512 x 64 f16 matrices over 2 compute tiles (64 KiB per operand) on the
sample device shrunk to a 16 KiB L1, so each tile's 256 rows run as a loop of small tiles.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import scf

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.dataflow import check_against_reference
from dfsched.tools.dataflow_compile import compile_to_dfir
from dfsched.interp.ktir import load_module
from unit_helpers import box, index_constants

ROOT = Path(__file__).resolve().parents[2]

KERNEL = f"""
#whole = {box(512, 64)}
#half = {box(256, 64)}
""" + """#rows_first = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @small_rows_add() attributes {grid = [2]} {
""" + index_constants(0, 256, 65536, 131072) + """
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %c256 : index
    %a = ktdp.construct_memory_view %c0, sizes: [512, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512x64xf16>
    %b = ktdp.construct_memory_view %c65536, sizes: [512, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512x64xf16>
    %c = ktdp.construct_memory_view %c131072, sizes: [512, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512x64xf16>
    %a_rows = ktdp.construct_access_tile %a[%row, %c0] {
      access_tile_set = #half, access_tile_order = #rows_first
    } : memref<512x64xf16> -> !ktdp.access_tile<256x64xindex>
    %b_rows = ktdp.construct_access_tile %b[%row, %c0] {
      access_tile_set = #half, access_tile_order = #rows_first
    } : memref<512x64xf16> -> !ktdp.access_tile<256x64xindex>
    %c_rows = ktdp.construct_access_tile %c[%row, %c0] {
      access_tile_set = #half, access_tile_order = #rows_first
    } : memref<512x64xf16> -> !ktdp.access_tile<256x64xindex>
    %x = ktdp.load %a_rows : <256x64xindex> -> tensor<256x64xf16>
    %y = ktdp.load %b_rows : <256x64xindex> -> tensor<256x64xf16>
    %init = tensor.empty() : tensor<256x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<256x64xf16>, tensor<256x64xf16>)
                      outs(%init : tensor<256x64xf16>) -> tensor<256x64xf16>
    ktdp.store %sum, %c_rows : tensor<256x64xf16>, <256x64xindex>
    return
  }
}
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    """(kernel, device): the kernel above and the sample device with a 16 KiB L1."""
    tmp = tmp_path_factory.mktemp("races")
    sample = (ROOT / "arch" / "devices" / "sample_device.mlir").read_text()
    scratchpad = '#scratchpad = {kind = "L1", size = 1048576}'
    assert scratchpad in sample
    device = tmp / "small_l1.mlir"
    device.write_text(sample.replace(scratchpad, '#scratchpad = {kind = "L1", size = 16384}'))
    kernel = tmp / "small_rows_add.mlir"
    kernel.write_text(KERNEL)
    return kernel, device


@pytest.fixture(scope="module")
def single_buffered(files):
    kernel, device = files
    return compile_to_dfir(kernel, str(device), ["double-buffering"])


@pytest.fixture(scope="module")
def double_buffered(files):
    kernel, device = files
    return compile_to_dfir(kernel, str(device))


def _syncs(module) -> int:
    return sum(op.name == "dataflow.sync_send" for op in module.walk())


def _guarded_sync_ifs(module) -> list[scf.IfOp]:
    """The `scf.if`s holding nothing but syncs (and their peer lookups): the lowered guarded
    signals."""
    return [op for op in module.walk() if isinstance(op, scf.IfOp)
            and all(o.name in ("dataflow.sync_send", "dataflow.sync_recv", "scf.yield")
                    or o.name.startswith("uniform.") for o in op.true_region.block.ops)
            and any(o.name == "dataflow.sync_recv" for o in op.true_region.block.ops)]


def test_single_buffered_tile_loop_has_no_race(files, single_buffered):
    kernel_path, device = files
    # the tile loop runs more than once: the L1 buffers are reused, guarded signals order it
    assert _guarded_sync_ifs(single_buffered)
    result, differences = check_against_reference(load_module(kernel_path), single_buffered,
                                                  device=str(device), record_timeline=False)
    assert differences == []
    assert result.total_cycles > 0


def test_without_the_reuse_signals_the_simulator_sees_the_race(files, single_buffered):
    """The test above is sensitive: drop the guarded signals and the overwrite races."""
    kernel_path, device = files
    dfir = single_buffered.clone()
    for op in _guarded_sync_ifs(dfir):
        op.detach()
        op.erase()
    with pytest.raises(DiagnosticError, match=r"\(a race\)"):
        check_against_reference(load_module(kernel_path), dfir, device=str(device), record_timeline=False)


def test_double_buffered_tile_loop_unchanged_and_correct(files, single_buffered, double_buffered):
    """Double-buffered buffers get no write-after-read signal and still do not race."""
    kernel_path, device = files
    assert not _guarded_sync_ifs(double_buffered)
    assert _syncs(single_buffered) > _syncs(double_buffered)
    _, differences = check_against_reference(load_module(kernel_path), double_buffered,
                                              device=str(device), record_timeline=False)
    assert differences == []
