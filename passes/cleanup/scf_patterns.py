"""MLIR's canonicalization patterns of `scf.for` and `scf.if` (SCF.cpp), where xDSL differs.

`scf.for`:
* `SimplifyTrivialLoops`: a loop that runs zero times is replaced by its init values; one that
  runs once by its body with the induction variable set to the lower bound; one of more trips
  whose body only yields values defined outside it by those values. (xDSL's own patterns also
  move constants in front of the loop, which MLIR does not: constants go to the entry block.)
* `ForOpIterArgsFolder`: iter_args that are yielded unchanged, whose init is what is yielded, or
  that nobody uses (inside or out) are dropped; two iter_args with the same init and yield merge.

`scf.if` (added to xDSL's `IfPropagateConstantCondition`):
* `RemoveUnusedIfResults`, `RemoveEmptyElseBranch` and `IfConditionPropagation` (uses of the
  condition inside a branch become `true`/`false`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.passes.cleanup import affine_utils as au



def inline_block_before(rewriter: PatternRewriter, block, anchor: Operation, args: Sequence[SSAValue]) -> None:
    """MLIR's `inlineBlockBefore`, with its notifications (uses of the arguments, moved ops)."""
    for arg, value in zip(block.args, args, strict=True):
        rewriter.replace_all_uses_with(arg, value)
    moved = list(block.ops)
    rewriter.inline_block(block, InsertPoint.before(anchor))
    for op in moved:
        rewriter.handle_operation_insertion(op)


def replace_op_with_region(rewriter: PatternRewriter, op: Operation, args: Sequence[SSAValue]) -> None:
    """Replace `op` by the body of its single-block region, its results by the terminator's operands."""
    block = op.regions[0].blocks[0]
    terminator = block.last_op
    assert terminator is not None
    results = list(terminator.operands)
    inline_block_before(rewriter, block, op, args)
    rewriter.replace(op, [], results)
    rewriter.erase(terminator)


def _const_diff(lb: SSAValue, ub: SSAValue) -> int | None:
    """ub - lb when both are constants, or when ub is `arith.addi` of lb and a constant."""
    lo, hi = au.constant_int(lb), au.constant_int(ub)
    if lo is not None and hi is not None:
        return hi - lo
    owner = ub.owner
    if isinstance(owner, Operation) and owner.name == "arith.addi":
        a, b = owner.operands
        if a is lb and (c := au.constant_int(b)) is not None:
            return c
        if b is lb and (c := au.constant_int(a)) is not None:
            return c
    return None


class SimplifyTrivialLoops(RewritePattern):
    """Zero-trip loops vanish, one-trip loops are inlined, empty loops forward their inits."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if op.lb is op.ub:
            rewriter.replace(op, [], list(op.iter_args))
            return
        diff = _const_diff(op.lb, op.ub)
        if diff is None:
            return
        if diff <= 0:
            rewriter.replace(op, [], list(op.iter_args))
            return
        step = au.constant_int(op.step)
        if step is None:
            return
        if step >= diff:
            replace_op_with_region(rewriter, op, [op.lb, *op.iter_args])
            return
        block = op.body.block
        if block.first_op is not block.last_op:
            return
        terminator = block.last_op
        if terminator is None:
            return
        yielded = list(terminator.operands)
        if any(_defined_in(v, op) for v in yielded):
            return
        rewriter.replace(op, [], yielded)


def _defined_in(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    if isinstance(owner, Operation):
        return op.is_ancestor(owner)
    parent = owner.parent_op()
    return parent is not None and op.is_ancestor(parent)


class ForOpIterArgsFolder(RewritePattern):
    """Drop forwarded or unused iter_args; merge iter_args with the same init and yield."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not op.iter_args:
            return
        block = op.body.block
        terminator = block.last_op
        if terminator is None:
            return
        args = list(block.args[1:])
        inits = list(op.iter_args)
        results = list(op.results)
        yielded = list(terminator.operands)
        keep: list[bool] = []
        transfer: list[SSAValue | None] = []
        replacement: list[SSAValue | None] = []
        seen: dict[tuple[SSAValue, SSAValue], tuple[SSAValue, SSAValue]] = {}
        changed = False
        for init, arg, result, value in zip(inits, args, results, yielded):
            if value is arg or value is init or (not arg.uses and not result.uses):
                changed = True
                keep.append(False)
                transfer.append(init)
                replacement.append(init)
                continue
            if (init, value) in seen:
                changed = True
                same_arg, same_result = seen[(init, value)]
                rewriter.replace_all_uses_with(arg, same_arg)
                rewriter.replace_all_uses_with(result, same_result)
                keep.append(False)
                transfer.append(init)
                replacement.append(init)
                continue
            seen[(init, value)] = (arg, result)
            keep.append(True)
            transfer.append(None)
            replacement.append(None)
        if not changed:
            return
        kept_inits = [v for v, k in zip(inits, keep) if k]
        new_block = Block(arg_types=[block.args[0].type, *(v.type for v in kept_inits)])
        new_loop = type(op)(op.lb, op.ub, op.step, kept_inits, Region(new_block))
        new_loop.attributes.update(op.attributes)
        rewriter.insert(new_loop, InsertPoint.before(op))
        new_args = iter(new_block.args[1:])
        new_results = iter(new_loop.results)
        for i, kept in enumerate(keep):
            if kept:
                transfer[i] = next(new_args)
                replacement[i] = next(new_results)
        moved = list(block.ops)
        for old_arg, value in zip(block.args, [new_block.args[0], *transfer]):
            rewriter.replace_all_uses_with(old_arg, value)
        Rewriter.inline_block(block, InsertPoint.at_end(new_block))
        for moved_op in moved:
            rewriter.handle_operation_insertion(moved_op)
        rewriter.insert(scf.YieldOp(*[v for v, k in zip(yielded, keep) if k]), InsertPoint.before(terminator))
        rewriter.erase(terminator)
        rewriter.replace(op, [], replacement)


# ---------------------------------------------------------------------------
# scf.if
# ---------------------------------------------------------------------------


class RemoveUnusedIfResults(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        used = [r for r in op.results if r.uses]
        if len(used) == len(op.results):
            return
        new_if = type(op)(op.cond, [r.type for r in used], Region(Block()), Region(Block()))
        new_if.attributes.update(op.attributes)
        rewriter.insert(new_if, InsertPoint.before(op))
        for old_region, new_region in zip(op.regions, new_if.regions):
            old_block = old_region.blocks[0]
            moved = list(old_block.ops)
            Rewriter.inline_block(old_block, InsertPoint.at_end(new_region.blocks[0]))
            for moved_op in moved:
                rewriter.handle_operation_insertion(moved_op)
            terminator = new_region.blocks[0].last_op
            assert terminator is not None
            terminator.operands = [terminator.operands[r.index] for r in used]
            rewriter.notify_op_modified(terminator)
        replacement: list[SSAValue | None] = [None] * len(op.results)
        for new_result, old in zip(new_if.results, used):
            replacement[old.index] = new_result
        rewriter.replace(op, [], replacement)


class RemoveEmptyElseBranch(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if op.results or not op.false_region.blocks:
            return
        else_block = op.false_region.blocks[0]
        if else_block.first_op is not else_block.last_op:
            return
        new_if = type(op)(op.cond, [], rewriter.move_region_contents_to_new_regions(op.true_region), None)
        new_if.attributes.update(op.attributes)
        rewriter.insert(new_if, InsertPoint.before(op))
        rewriter.erase(op)


class IfConditionPropagation(RewritePattern):
    """Inside the then (else) branch the condition is known to be true (false)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        cond = op.cond
        if au.constant_attr(cond) is not None:
            return
        constants: dict[bool, SSAValue] = {}
        for use in list(cond.uses):
            user = use.operation
            for region, truth in ((op.true_region, True), (op.false_region, False)):
                if not region.blocks or not region.is_ancestor(user):
                    continue
                if truth not in constants:
                    constant = arith.ConstantOp(IntegerAttr(1 if truth else 0, i1))
                    rewriter.insert(constant, InsertPoint.before(op))
                    constants[truth] = constant.result
                user.operands[use.index] = constants[truth]
                rewriter.notify_op_modified(user)


SCF_FOR_PATTERNS: tuple[RewritePattern, ...] = (ForOpIterArgsFolder(), SimplifyTrivialLoops())
SCF_IF_PATTERNS: tuple[RewritePattern, ...] = (RemoveUnusedIfResults(), RemoveEmptyElseBranch(),
                                               IfConditionPropagation())
