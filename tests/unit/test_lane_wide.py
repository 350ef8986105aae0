"""Lane-wide reductions (Decisions 65 and 94, `passes/lane_wide.py`): which reductions step
lane-wide, what the tile cost model charges for the lane combine, and a sum of squares over a
2x2 inter-tile split checked end to end. The IR forms are pinned by lit tests
(`reduction-loop-exposure/lane-wide.mlir`, `pipeline/lane-wide-reduction.mlir`); the schedules
are checked by execution (`examples/rmsnorm_decode.mlir` in `test_dfsched_run.py`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dfsched.arch.loading import load_device
from dfsched.passes.lane_wide import is_lane_combine, lane_width
from dfsched.passes.scheduling.tile_cost_model import TileCostModel
from dfsched.tools.opt import DfschedOptMain
from dfsched.tools.run import main

LIT = Path(__file__).parents[1] / "lit" / "reduction-loop-exposure" / "lane-wide.mlir"


def _scheduled(text: str):
    tool = DfschedOptMain(["--device=sample", "--reduction-loop-exposure", "--map-reduction-partials"])
    module = tool.parse(str(LIT), text)
    for request, instance in tool.build_passes():
        tool.apply_pass(module, request, instance)
    return module


def _cases() -> dict[str, str]:
    """Function name -> its split of the lit input."""
    parts = LIT.read_text().split("\n// -----\n")
    return {part.split("func.func @")[1].split("(")[0]: part for part in parts}


def test_few_rows_step_lane_wide_and_the_others_keep_columns():
    widths = {}
    for name, text in _cases().items():
        module = _scheduled(text)
        widths[name] = sorted({lane_width(op) for op in module.walk() if lane_width(op) is not None})
    assert widths == {"four_rows": [16], "four_rows_maxnum": [16], "one_row_of_48": [16], "square_read_twice": [16], "two_inputs": [16], "not_commutative": [],
                      "rows_fill_the_lanes": []}


def test_cost_model_charges_log2_rounds_for_the_lane_combine():
    """4 rows x 16 lanes: 4 rounds of shuffle + add, the pick of each row's lane 0 and the body's op."""
    module = _scheduled(_cases()["four_rows"])
    (combine,) = [op for op in module.walk() if is_lane_combine(op)]
    model = TileCostModel(module, load_device("sample"), lambda value, env: None)
    assert model.compute(combine, "SFU") == 2 * 4 + 2


# RMSNorm over 4 tiles in a 2x2 split (the shape of corpus rmsnorm_4core_2x2, written for this
# test): tile (r, c) sums the squares of row r's half c, the two halves' sums are all-reduced,
# and each tile scales its half by rsqrt(mean + eps) and W.
RMSNORM_2X2 = """
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vector = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#partners = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
module {
  func.func @rms_2x2(%X: index, %W: index, %Y: index) attributes {grid = [2, 2]} {
    %row, %col = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %start = arith.muli %col, %c128 : index
    %xv = ktdp.construct_memory_view %X, sizes: [2, 256], strides: [256, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
    %wv = ktdp.construct_memory_view %W, sizes: [1, 256], strides: [256, 1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
    %yv = ktdp.construct_memory_view %Y, sizes: [2, 256], strides: [256, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
    %tx = ktdp.construct_access_tile %xv[%row, %start] {access_tile_set = #block, access_tile_order = #id} : memref<2x256xf16> -> !ktdp.access_tile<1x128xindex>
    %tw = ktdp.construct_access_tile %wv[%c0, %start] {access_tile_set = #block, access_tile_order = #id} : memref<1x256xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %yv[%row, %start] {access_tile_set = #block, access_tile_order = #id} : memref<2x256xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %squares = arith.mulf %x, %x : tensor<1x128xf16>
    %zero = arith.constant 0.0 : f16
    %start_sum = tensor.splat %zero : tensor<1xf16>
    %half_sum = linalg.reduce { arith.addf } ins(%squares : tensor<1x128xf16>) outs(%start_sum : tensor<1xf16>) dimensions = [1]
    %future = ktdp.inter_tile_produce producer_tiles_per_group = #partners -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %half_sum : tensor<1xf16>
    }
    %empty = tensor.empty() : tensor<1xf16>
    %identity = linalg.fill ins(%zero : f16) outs(%empty : tensor<1xf16>) -> tensor<1xf16>
    %sum = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = #partners, identity(%identity : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
    ^bb0(%a: tensor<1xf16>, %b: tensor<1xf16>):
      %init = tensor.empty() : tensor<1xf16>
      %both = linalg.add ins(%a, %b : tensor<1xf16>, tensor<1xf16>) outs(%init : tensor<1xf16>) -> tensor<1xf16>
      ktdp.yield_reduced %both : tensor<1xf16>
    }
    %total = tensor.extract %sum[%c0] : tensor<1xf16>
    %n = arith.constant 256.0 : f16
    %eps = arith.constant 1.0e-5 : f16
    %mean = arith.divf %total, %n : f16
    %shifted = arith.addf %mean, %eps : f16
    %scale = math.rsqrt %shifted : f16
    %scales = tensor.splat %scale : tensor<1x128xf16>
    %w = ktdp.load %tw : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %normed = arith.mulf %x, %scales : tensor<1x128xf16>
    %y = arith.mulf %normed, %w : tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    return
  }
}
"""


def test_sum_of_squares_over_a_2x2_split_checks_on_ring4(tmp_path, capsys):
    """Decision 94: `x * x` fused into the reduction steps lane-wide. One column per step summed
    each half's 128 squares in f16 one at a time: after the first square (256) every 0.16 added
    rounds to the f16 grid at 256 (0.25), 4% high, and Y was 21 f16 ulps off the reference's f32
    sum. Lane-wide, each lane adds two squares. About 3 s idle: the only end-to-end check of the
    2x2 inter-tile shape with a sum of squares."""
    kernel = tmp_path / "rmsnorm_2x2.mlir"
    kernel.write_text(RMSNORM_2X2)
    x = np.full((2, 256), 0.4, np.float16)
    x[:, [0, 128]] = 16.0
    inputs = tmp_path / "inputs.npz"
    np.savez(inputs, **{"in/X": x})
    code = main([str(kernel), "--check", "--device", "ring4", "--inputs", str(inputs)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "MISMATCH" not in out and "OK:" in out
