"""MLIR's `applyPatternsGreedily`, as the frontend passes call it.

Upstream's `construct-three-stage-pipeline` (elementwise arith/math to `linalg.generic`)
and `ktdfarch-apply-patterns` (the device's PDL patterns) both hand a function to MLIR's
greedy driver with its default configuration. The driver does more than apply the
patterns, and it does it even when no pattern matches (the sample device has none):
constants are uniqued and moved to the front of the function, dead ops are erased, ops
are folded, and all of this repeats until nothing changes.

The project's one implementation of that driver is `dfsched.passes.cleanup.greedy` (the
engine of `canonicalize`); this module runs it the way `applyPatternsGreedily` does
outside the canonicalizer: bottom-up worklist, op folders (including the ktdf ops whose
folders dfsched writes as patterns), the given patterns. On top it adds a rewrite budget,
so a pattern that keeps matching what it produced is a located error instead of a hang,
and non-convergence within the iteration limit is an error too.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from dfsched.diagnostics import error

MAX_ITERATIONS = 10
NOT_CONVERGED = "greedy pattern application did not converge (a pattern keeps matching what it produced)"


def apply_patterns_greedily(
    root: Operation, ctx: Context | None, patterns: Sequence[RewritePattern] = (), max_iterations: int = MAX_ITERATIONS
) -> None:
    """Run MLIR's greedy driver with `patterns` on the regions of `root` (a function)."""
    from dfsched.passes.cleanup.greedy import GreedyConfig
    from dfsched.passes.cleanup.greedy import apply_patterns_greedily as drive
    from dfsched.passes.cleanup.patterns import fold, folder_patterns

    if not root.regions or not root.regions[0].blocks:
        return
    budget = _Budget(root, 1000 + 100 * sum(1 for _ in root.walk()))
    wrapped = [_Counted(p, budget) for p in patterns]

    def patterns_for(op: Operation) -> Sequence[RewritePattern]:
        return (*folder_patterns(op), *wrapped)

    config = GreedyConfig(top_down=False, max_iterations=max_iterations)
    if not drive(root, patterns_for, fold, config):
        raise error(root, NOT_CONVERGED)


def constant_value(op: Operation) -> Attribute | None:
    """The value of a constant op (only `arith.constant` is uniqued and folded to)."""
    if isinstance(op, arith.ConstantOp):
        return op.value
    return None


class _Budget:
    def __init__(self, root: Operation, rewrites: int):
        self.root = root
        self.left = rewrites

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise error(self.root, NOT_CONVERGED)


class _Counted(RewritePattern):
    """A pattern whose successful rewrites draw on the budget; new ops inherit the location
    of the op they rewrite, so later diagnostics point somewhere useful."""

    def __init__(self, pattern: RewritePattern, budget: _Budget):
        self.pattern = pattern
        self.budget = budget

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        inserted: list[Operation] = []
        rewriter.operation_insertion_handler.append(inserted.append)
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        finally:
            rewriter.operation_insertion_handler.remove(inserted.append)
        if rewriter.has_done_action:
            self.budget.spend()
            for new in inserted:
                if not isinstance(new.location, FileLineColLoc):
                    new.location = op.location


__all__ = ["apply_patterns_greedily", "constant_value"]
