"""`--check` on f16 accumulation: the reference summed in the schedule's order (Decision 112).

A device that accumulates reductions in f16 (one that declares no wider type: `sample`)
rounds every step of a sum, so a sum of thousands of terms depends on their order: the
kernel's (a chunk loop of element-wise sums, then a row reduction), the fold's (Decisions
44/60: one reduction over the range) and the vector unit's (Decision 65: L lanes, then a
halving tree). Two such orders differ by more than any tolerance that would still see a
dropped or doubled term (a sequential f16 sum of 4096 squares of about 0.3 stalls where its
half ulp passes the terms), so the check compares equal arithmetic instead:

* the *order reference* runs the kernel the scheduler schedules, its accumulation loops
  folded (`fold-accumulation-loops`), in the device's accumulation type, each reduction in
  the order the schedule chose for it: the lanes of its `dfsched.lane_wide` mark, found by
  the reduction's location in the IR the passes produced (`Options.reduction_lanes`);
* the fold is checked where order does not matter: the kernel and its folded form, both
  accumulating in f32, agree within the reduction tolerance (else there is no order
  reference, and the check says why);
* a pass whose outputs are not those of the reference is run again with those lanes (if its
  IR still holds a reduction they apply to) and must equal the order reference bit for bit.

A contraction on a matrix unit (Decision 42) accumulates each step in the unit's type and
rounds it once: not modelled here, so a kernel that has one keeps the reduction tolerance.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from dfsched.diagnostics import location_of
from dfsched.dialects.linalg_ext import lane_width
from dfsched.passes.contraction import matrix_tile


def narrow_accumulation(accumulate: str | None) -> bool:
    """Whether reductions into f16 accumulate in f16 (`Options.accumulate`)."""
    return accumulate in (None, "f16")


def lane_marks(module) -> dict[tuple, int]:
    """{location: L} of the ops `module` marks `dfsched.lane_wide`."""
    found = {}
    for op in module.walk():
        lanes = lane_width(op)
        if lanes is not None:
            found[location_of(op)] = lanes
    return found


def matrix_steps(module) -> bool:
    """Whether `module` runs a contraction on a matrix unit (`dfsched.matrix_tile`, Decision 42):
    each step accumulates in the unit's type and rounds once, an order the order reference
    does not model (the reduction tolerance applies to such kernels)."""
    return any(matrix_tile(op) is not None for op in module.walk())


def unmarked_linalg(module) -> bool:
    """Whether `module` holds a linalg op without a lane mark: only such a module can
    `needs_lanes` (the check keeps the IR of no other pass for the order reference)."""
    return any(op.name.startswith("linalg.") and lane_width(op) is None for op in module.walk())


def needs_lanes(module, lanes: dict[tuple, int]) -> bool:
    """Whether `module` holds an unmarked reduction at a location of `lanes` (running it with
    `reduction_lanes` then sums that reduction in the schedule's order)."""
    for op in module.walk():
        if op.name.startswith("linalg.") and lane_width(op) is None and location_of(op) in lanes:
            return True
    return False


@dataclasses.dataclass
class OrderReference:
    outputs: dict[str, Any] | None  # None: no order reference (see `note`)
    note: str


def order_reference(module, inputs, *, fold: Callable, run: Callable, lanes: dict[tuple, int],
                    compare: Callable) -> OrderReference:
    """The order reference of `module` (the kernel after the front door).

    `fold(module)` folds its accumulation loops in place; `run(module, **options)` runs the
    reference interpreter and returns the outputs compared (all, or the tiles checked);
    `compare(expected, actual)` is the checker's tolerant comparison ("exact", "tolerance" or
    "mismatch", problems)."""
    folded = module.clone()
    fold(folded)
    what = "accumulation loops folded, " if str(folded) != str(module) else ""
    if what:
        status, problems = compare(run(module, accumulate="f32"), run(folded, accumulate="f32"))
        if status == "mismatch":
            return OrderReference(None, "no reference in the schedule's order: the kernel and its folded "
                                        "accumulation loops differ even in f32 (" + "; ".join(problems[:1]) + ")")
        what = "accumulation loops folded (equal to the kernel in f32 accumulation), "
    order = "lanes: " + ", ".join(f"L = {n}" for n in sorted(set(lanes.values()))) if lanes else "terms in order"
    outputs = run(folded, reduction_lanes=dict(lanes))
    return OrderReference(outputs, f"f16 accumulation: passes not equal to the reference are compared with it "
                                   f"summed in the schedule's order ({what}{order})")
