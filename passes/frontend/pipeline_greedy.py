"""MLIR's greedy pattern driver (`applyPatternsGreedily`), for passes that run one.

Upstream's `construct-three-stage-pipeline` (elementwise arith/math to `linalg.generic`)
and `ktdfarch-apply-patterns` (the device's PDL patterns) both hand a function to MLIR's
greedy driver. The driver does more than apply the patterns, and it does it even when no
pattern matches (the sample device has none):

* constants are uniqued per function and moved to the front of its entry block, the way
  `OperationFolder::insertKnownConstant` does it while the worklist is collected;
* ops whose results are unused and that have no effect are erased;
* ops with a folder are folded (new constants go to the front of the entry block,
  reusing an equal one when there is one);
* the patterns are tried on every op, new ops join the worklist;
* all of this repeats until an iteration changes nothing.

Worklist order is MLIR's default (bottom-up): ops are collected in post-order and popped
from the back. `apply_patterns_greedily` returns whether anything changed and raises a
located error if the rewrites do not converge.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import Rewriter

from dfsched.diagnostics import error
from dfsched.passes.frontend.utils import would_be_trivially_dead

MAX_ITERATIONS = 10


def apply_patterns_greedily(
    root: Operation, ctx: Context, patterns: Sequence[RewritePattern] = (), max_iterations: int = MAX_ITERATIONS
) -> bool:
    """Run the greedy driver on the regions of `root` (a function); True if the IR changed."""
    if not root.regions or not root.regions[0].blocks:
        return False
    changed_any = False
    for _ in range(max_iterations):
        driver = _Driver(root, ctx, patterns)
        if not driver.run():
            return changed_any
        changed_any = True
    raise error(root, f"greedy pattern application did not converge in {max_iterations} iterations")


def constant_value(op: Operation) -> Attribute | None:
    """The value of a constant-like op (only `arith.constant` folds to one here)."""
    if isinstance(op, arith.ConstantOp):
        return op.value
    return None


class _Driver:
    """One iteration: collect (uniquing constants), then drain the worklist."""

    def __init__(self, root: Operation, ctx: Context, patterns: Sequence[RewritePattern]):
        self.root = root
        self.ctx = ctx
        self.patterns = list(patterns)
        self.entry: Block = root.regions[0].blocks[0]
        self.constants: dict[tuple[Attribute, Attribute], Operation] = {}
        self.owned: set[Operation] = set()
        self.worklist: list[Operation] = []
        self.queued: set[Operation] = set()
        self.erased: set[Operation] = set()
        self.changed = False

    # -- collection --------------------------------------------------------
    def run(self) -> bool:
        for op in list(_post_order(self.root)):
            if op in self.erased:
                continue
            if constant_value(op) is not None and self._insert_known_constant(op):
                continue
            self._push(op)
        budget = 1000 + 100 * len(self.worklist)  # rewrites before we call it a loop
        while self.worklist:
            budget -= 1
            if budget < 0:
                raise error(self.root, "greedy pattern application did not converge (a pattern keeps matching "
                                       "what it produced)")
            op = self.worklist.pop()
            self.queued.discard(op)
            if op in self.erased or op.parent is None:
                continue
            self._process(op)
        return self.changed

    def _insert_known_constant(self, op: Operation) -> bool:
        """MLIR's `insertKnownConstant`; True when `op` was a duplicate and is gone."""
        key = (constant_value(op), op.results[0].type)
        existing = self.constants.get(key)
        if existing is not None and existing is not op:
            op.results[0].replace_all_uses_with(existing.results[0])
            self._erase(op)
            self.changed = True
            return True
        if op.parent_block() is not self.entry or (
            self.entry.first_op is not op and op.prev_op not in self.owned
        ):
            op.detach()
            _insert_at_front(self.entry, op)
        self.constants[key] = op
        self.owned.add(op)
        return False

    def _push(self, op: Operation) -> None:
        if op not in self.queued and op is not self.root:
            self.queued.add(op)
            self.worklist.append(op)

    # -- processing --------------------------------------------------------
    def _process(self, op: Operation) -> None:
        if all(not r.uses for r in op.results) and would_be_trivially_dead(op):
            operands = list(op.operands)
            self._erase(op)
            self.changed = True
            self._push_defs(operands)
            return
        if constant_value(op) is None and self._try_fold(op):
            return
        for pattern in self.patterns:
            rewriter = PatternRewriter(op)
            inserted: list[Operation] = []
            rewriter.operation_insertion_handler.append(inserted.append)
            removed: list[Operation] = []
            rewriter.operation_removal_handler.append(removed.append)
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                self.changed = True
                self.erased.update(removed)
                for new in inserted:
                    if not isinstance(new.location, FileLineColLoc):
                        new.location = op.location  # diagnostics on new ops point at what they replace
                    for nested in new.walk():
                        self._push(nested)
                if op.parent is not None and op not in removed:
                    self._push(op)
                return

    def _try_fold(self, op: Operation) -> bool:
        from xdsl.interfaces import HasFolderInterface

        if not isinstance(op, HasFolderInterface):
            return False
        try:
            folded = op.fold()
        except Exception:  # a folder that cannot handle this op: leave it
            return False
        if folded is None or len(folded) != len(op.results):
            return False
        replacements: list[SSAValue] = []
        for value, result in zip(folded, op.results):
            if isinstance(value, SSAValue):
                replacements.append(value)
                continue
            constant = self._constant_for(value, result.type)
            if constant is None:
                return False
            replacements.append(constant)
        if all(new is old for new, old in zip(replacements, op.results)):
            return False
        users = [use.operation for r in op.results for use in r.uses]
        operands = list(op.operands)
        for old, new in zip(op.results, replacements):
            old.replace_all_uses_with(new)
        self._erase(op)
        self.changed = True
        for user in users:
            self._push(user)
        self._push_defs(operands)
        return True

    def _constant_for(self, value: Attribute, type_: Attribute) -> SSAValue | None:
        """A uniqued constant at the front of the entry block (materialized if needed)."""
        key = (value, type_)
        existing = self.constants.get(key)
        if existing is not None:
            return existing.results[0]
        try:
            op = arith.ConstantOp(value, type_)  # type: ignore[arg-type]
        except Exception:
            return None
        _insert_at_front(self.entry, op)
        self.constants[key] = op
        self.owned.add(op)
        return op.results[0]

    def _push_defs(self, values: Sequence[SSAValue]) -> None:
        for value in values:
            owner = value.owner
            if isinstance(owner, Operation) and owner not in self.erased and owner.parent is not None:
                self._push(owner)

    def _erase(self, op: Operation) -> None:
        for nested in op.walk():
            self.erased.add(nested)
        Rewriter.erase_op(op, safe_erase=False)


def _insert_at_front(block: Block, op: Operation) -> None:
    first = block.first_op
    if first is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, first)


def _post_order(op: Operation):
    """Ops nested in `op` in MLIR's post-order (an op after everything inside it)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in list(block.ops):
                yield from _post_order(inner)
                yield inner

