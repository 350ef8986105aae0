"""Lane-wide reductions (Decision 65, `passes/lane_wide.py`): which reductions step lane-wide and
what the tile cost model charges for the lane combine. The IR forms are pinned by lit tests
(`reduction-loop-exposure/lane-wide.mlir`, `pipeline/lane-wide-reduction.mlir`); the schedules
are checked by execution (`examples/rmsnorm_decode.mlir` in `test_dfsched_run.py`)."""

from __future__ import annotations

from pathlib import Path

from dfsched.arch.loading import load_device
from dfsched.passes.lane_wide import is_lane_combine, lane_width
from dfsched.passes.scheduling.tile_cost_model import TileCostModel
from dfsched.tools.opt import DfschedOptMain

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
    assert widths == {"four_rows": [16], "one_row_of_48": [16], "not_commutative": [], "rows_fill_the_lanes": []}


def test_cost_model_charges_log2_rounds_for_the_lane_combine():
    """4 rows x 16 lanes: 4 rounds of shuffle + add, the pick of each row's lane 0 and the body's op."""
    module = _scheduled(_cases()["four_rows"])
    (combine,) = [op for op in module.walk() if is_lane_combine(op)]
    model = TileCostModel(module, load_device("sample"), lambda value, env: None)
    assert model.compute(combine, "SFU") == 2 * 4 + 2
