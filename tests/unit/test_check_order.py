"""`--check` on f16 accumulation (Decision 112, `tools/check_order.py`): a pass whose outputs
are not the reference's is compared, bit for bit, with the reference summed in the order the
schedule chose (the kernel's accumulation loops folded, each reduction in the lanes of its
`dfsched.lane_wide` mark). The two kernels are small copies of the corpus cases that
mismatched on `sample`: rmsnorm_4core_4x1's 1024-term f16 row sum feeding rsqrt and
matmul_fwd_ktir's K = 2048 f16 accumulation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import UnitAttr

from dfsched.interp import schedule
from dfsched.interp.ktir import load_module, make_inputs, run
from dfsched.interp.schedule import reduction_tolerance
from dfsched.tools import check_order
from dfsched.tools.run import SharedArrays, check_kernel

KERNELS = Path(__file__).parent / "kernels"
EXAMPLES = Path(__file__).parents[2] / "examples"
IN_ORDER = "exact in the schedule's f16 order"


def _rows(report) -> dict[str, object]:
    return {row.name: row for row in report.rows}


def test_f16_row_sum_feeding_rsqrt_equals_the_reference_in_the_schedules_lanes():
    """The folded 4096-term sum, read in order, stalls about 3% low in f16 (0.05 off at the
    outputs, over the 8-ulp tolerance: the old check's MISMATCH); the schedule sums in 64
    lanes: every pass from the fold on (run in those lanes where the IR has no mark yet) equals
    the reference summed that way, the DataflowIR simulator's too."""
    report = check_kernel(str(KERNELS / "f16_rms_chunked.mlir"), device="sample")
    assert not report.failed, report.table()
    assert "L = 64" in report.order_note and "accumulation loops folded" in report.order_note
    rows = _rows(report)
    assert rows["ensure-device-declaration"].verdict.status == "exact"
    for name in ("compute-group-extraction", "reduction-loop-exposure", "map-reduction-partials", "wrap-program-dfir"):
        assert rows[name].verdict.message == IN_ORDER, name
    # one arithmetic from the fold to the simulator: one distance to the kernel's own order
    assert rows["compute-group-extraction"].verdict.max_error == rows["wrap-program-dfir"].verdict.max_error > 0
    assert all(row.verdict is None or row.verdict.outputs is None for row in report.rows), "outputs dropped"


def test_rows_keep_one_array_per_distinct_content():
    """The outputs rows keep until the order check are every global buffer, mostly the same
    bytes from pass to pass: equal arrays (bit for bit, -0.0 and NaN payloads included) are
    kept once, different ones each."""
    shared = SharedArrays()
    a = np.arange(6, dtype=np.float16).reshape(2, 3)
    first = shared.share({"x": a, "n": 3})
    again = shared.share({"x": a.copy(), "n": 3})
    assert again["x"] is first["x"] is a and again["n"] == 3
    signed = a.copy()
    signed[0, 0] = -0.0  # equal as numbers, not as bits
    assert shared.share({"x": signed})["x"] is signed
    assert shared.share({"x": a.astype(np.float32)})["x"] is not a


def test_f16_k2048_matmul_equals_the_reference_with_its_k_loop_folded():
    """The kernel adds 16 chunk products of 128 terms; the vector unit steps all of K in
    order: 0.3 apart at outputs of about 10 (tolerance 0.06), equal once the loop is folded."""
    report = check_kernel(str(KERNELS / "f16_matmul_k2048.mlir"), device="sample")
    assert not report.failed, report.table()
    assert "terms in order" in report.order_note
    rows = _rows(report)
    assert rows["wrap-program-dfir"].verdict.message == IN_ORDER
    assert rows["wrap-program-dfir"].verdict.max_error > reduction_tolerance(report.reference_outputs["@81920"])


def test_a_dropped_term_is_caught_although_within_the_old_tolerance(monkeypatch):
    """A schedule whose row sum lacks one term (simulated: the DataflowIR simulator's runs see
    that input element as 0) is a MISMATCH, while its distance to the reference stays within
    the 8-ulp tolerance the check used to accept."""
    original = schedule.check_dataflow
    a = make_inputs(load_module(EXAMPLES / "row_sum_chunked.mlir"), 0)["@0"]
    term = int(np.flatnonzero((np.abs(a[1]) > 0.1) & (np.abs(a[1]) < 0.2))[0])  # below 8 ulps of the sums

    def dropping(module, inputs, reference, device, **kwargs):
        broken = dict(inputs, **{"@0": a.copy()})
        broken["@0"][1, term] = 0  # the simulated schedule never adds this term of row 1
        verdict = original(module, broken, reference, device, **kwargs)
        outputs = dict(verdict.outputs, **{"@0": a})  # the input buffer as it was: only the sum tells
        return schedule._compare(reference.outputs, outputs, True, verdict.stats, "dataflow")  # noqa: SLF001

    monkeypatch.setattr(schedule, "check_dataflow", dropping)
    report = check_kernel(str(EXAMPLES / "row_sum_chunked.mlir"), device="sample")
    rows = _rows(report)
    dataflow = rows["wrap-program-dfir"].verdict
    assert dataflow.status == "mismatch" and "not equal to the reference in the schedule's f16 order" in dataflow.message
    assert "@4096: 1 of 8 elements differ, first at [1]" in dataflow.message and "@0" not in dataflow.message
    assert dataflow.max_error <= reduction_tolerance(report.reference_outputs["@4096"])
    assert rows["address-assignment"].verdict.ok  # the ScheduleIR runs saw every term


def test_no_order_reference_when_the_fold_changes_the_sum():
    """The fold is checked in f32 accumulation, where order hardly matters: a folded kernel
    that sums something else gives no order reference, and the note says why."""
    kernel = load_module(KERNELS / "f16_rms_chunked.mlir")
    inputs = make_inputs(kernel, 0)
    folded_marker = {}

    def fold(module):
        folded_marker["module"] = module

    def outputs(module, **options):
        result = dict(run(module, inputs, **options).outputs)
        if module is folded_marker.get("module"):
            result["@16384"] = result["@16384"] * np.float16(2)
        return result

    changed = check_order.order_reference(kernel, inputs, fold=fold, run=outputs, lanes={},
                                          compare=lambda e, a: schedule.output_differences(e, a, True))
    # an unchanged fold: no f32 check, the reference in order
    assert changed.outputs is not None and "folded" not in changed.note

    def rewriting_fold(module):  # changes the IR (so the fold is checked) and, by `outputs`, the sum
        fold(module)
        module.attributes["dfsched.test_folded"] = UnitAttr()

    refused = check_order.order_reference(kernel, inputs, fold=rewriting_fold, run=outputs, lanes={},
                                          compare=lambda e, a: schedule.output_differences(e, a, True))
    assert refused.outputs is None
    assert "differ even in f32" in refused.note and "@16384" in refused.note
