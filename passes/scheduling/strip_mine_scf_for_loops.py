"""`strip-mine-scf-for-loops`: split single loops into a block loop and an inner loop
(`docs/passes.md#strip-mine-scf-for-loops`; for tests, not in the pipeline).

Each strip-mined loop keeps running over its range, now stepping by `step * size`; its body
moves into a new inner loop `iv .. minsi(ub, iv + step*size)` by the original step, which
inherits the loop's `loop_type` (MLIR's `tile` on one loop, `tiling_utils.strip_mine_sink`).

* **static** (`strip-mine-size=N`; only the first entry is read): every `scf.for`, nested ones
  included, is strip-mined on its own, inner loops first, with an `arith.constant N` made
  before it. With `normalize-loops` (default) only the new inner loop is normalized (QUIRK kept
  from upstream: the block loop keeps its step). A size below 1 is the error "Strip-mine size
  must be positive: N".
* **dynamic** (no size): every strip-mining candidate of the loop-tiling analysis (a single
  loop, parallel or not, with no `scf.for` around it and no loop perfectly nested in it) gets
  its own `ktdf.tiling.reserve_size` right before it, is strip-mined with it and, with
  `normalize-loops`, both loops are normalized.

Loops carrying `iter_args` or counting over integers rather than `index` are not strip-mined
(static mode reports them, dynamic mode skips them).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from dfsched.diagnostics import error
from dfsched.passes.scheduling.tiling_utils import (
    LoopTilingAnalysis,
    Strategy,
    index_constant_before,
    loops_post_order,
    normalize_loops,
    propagate_loop_type,
    reserve_size_before,
    tile,
    untileable_reason,
)

PASS = "strip-mine-scf-for-loops"


@dataclass(frozen=True)
class StripMineSCFForLoops(ModulePass):
    """Strip-mine single loops into a block loop and an inner loop (for tests)."""

    name = "strip-mine-scf-for-loops"

    strip_mine_size: tuple[int, ...] = ()
    """Static size (only the first entry is used; testing); empty: dynamic mode."""
    normalize_loops: bool = True
    """Normalize the strip-mined loops (static mode: the inner loop only)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strip_mine_size:
            self.run_static(op)
        else:
            self.run_dynamic(op)

    def run_static(self, root: Operation) -> None:
        size = self.strip_mine_size[0]
        if size <= 0:
            raise error(root, f"Strip-mine size must be positive: {size}")
        loops = loops_post_order(root)
        for loop in loops:
            reason = untileable_reason([loop])
            if reason:
                raise error(loop, f"{PASS}: {reason} cannot be strip-mined")
        for loop in loops:
            inner = strip_mine(loop, index_constant_before(size, loop))
            if self.normalize_loops:
                normalize_loops([inner])

    def run_dynamic(self, root: Operation) -> None:
        analysis = LoopTilingAnalysis.of(root)
        candidates = [loop for loop in loops_post_order(root)
                      if analysis.is_candidate(loop, Strategy.STRIP_MINING) and not untileable_reason([loop])]
        for loop in candidates:
            inner = strip_mine(loop, reserve_size_before(loop, analysis.metadata[loop]))
            if self.normalize_loops:
                normalize_loops([loop, inner])
            analysis.invalidate([loop])


def strip_mine(loop: scf.ForOp, size: SSAValue) -> scf.ForOp:
    """Strip-mine one loop by `size`; returns the new inner loop."""
    (inner,) = tile([loop], [size], loop)
    propagate_loop_type([loop], [inner])
    return inner
