"""`normalize-scf-for-loops`: every `scf.for` counts from 0 by 1 (`docs/passes.md#normalize-scf-for-loops`).

For each `scf.for` (post-order, so inner loops first) whose lower bound is not the constant 0
or whose step is not the constant 1:

1. the new upper bound is `(ub - lb) ceildiv step`, composed and folded the way MLIR's
   `makeComposedFoldedAffineApply` does (an `arith.constant` when the bounds are constants, an
   `affine.apply` otherwise); the new bound, a constant 0 and a constant 1 are created right
   before the loop (in that order: lower bound, upper bound, step);
2. the induction variable's uses are replaced by `affine.apply (d0 * step + lb)` of it
   (constants folded into the map), created at the start of the body;
3. every `affine.apply` in the loop body is then sunk: one copy right before each of its users,
   the original erased;
4. finally every `ktdf.data_transfer` with a source or destination map has the `affine.apply`
   results among its indices composed into the map (MLIR's `fullyComposeAffineMapAndOperands`).
   Indices that are not `affine.apply` results stay as they are.

Loops over integer (not index) types are normalized with `arith` ops instead, as MLIR does.
The dead constants and `affine.apply` ops this leaves behind are for `canonicalize` to remove.

Where this differs from upstream: a composed transfer map whose operands include values that are
valid affine symbols (for example a function argument) keeps them as dimensions, since
`ktdf.data_transfer` maps take dimensions only (upstream would produce a map its own verifier
rejects).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects.affine_subscripts import affine_add, affine_ceildiv, affine_mul, affine_sub
from dfsched.passes.cleanup import affine_utils as au
from dfsched.passes.cleanup.patterns import new_apply
from dfsched.passes.scheduling.tiling_utils import loops_post_order
from dfsched.passes.scheduling.tiling_utils import set_transfer_side


def _insert_before(op: Operation, anchor: Operation) -> Operation:
    Rewriter.insert_op(op, InsertPoint.before(anchor))
    return op


def _constant(value: int, type_, anchor: Operation) -> SSAValue:
    return _insert_before(arith.ConstantOp(IntegerAttr(value, type_)), anchor).results[0]


def _value_of(folded, type_, anchor: Operation) -> SSAValue:
    """MLIR's `getValueOrCreateConstantIndexOp`: an existing value, or a constant built before `anchor`."""
    if isinstance(folded, int):
        return _constant(folded, type_, anchor)
    return folded


def composed_folded_apply(amap: AffineMap, operands: list[SSAValue], anchor: Operation) -> SSAValue | int:
    """`makeComposedFoldedAffineApply`: an int, an existing value, or a new `affine.apply` before `anchor`."""
    amap, operands, folded = au.make_composed_folded_apply(amap, operands)
    if folded is not None:
        return folded
    return _insert_before(new_apply(amap, operands), anchor).results[0]


def normalized_upper_bound(loop: scf.ForOp) -> SSAValue | int:
    """`(ub - lb) ceildiv step`, computed before `loop`."""
    lb, ub, step = loop.lb, loop.ub, loop.step
    if isinstance(lb.type, IndexType):
        s0, s1, s2 = AffineSymExpr(0), AffineSymExpr(1), AffineSymExpr(2)
        amap = AffineMap(0, 3, (affine_ceildiv(affine_sub(s1, s0), s2),))
        return composed_folded_apply(amap, [lb, ub, step], loop)
    # Integer-typed loops: arith ops, folded when their operands are constants.
    lo, hi, st = au.constant_int(lb), au.constant_int(ub), au.constant_int(step)
    diff: SSAValue | int = ub
    if lo != 0:
        if lo is not None and hi is not None:
            diff = hi - lo
        else:
            diff = _insert_before(arith.SubiOp(ub, lb), loop).results[0]
    if st == 1:
        return diff
    if isinstance(diff, int) and st is not None and st != 0:
        return -((-diff) // st)
    diff_value = _value_of(diff, lb.type, loop)
    return _insert_before(arith.CeilDivSIOp(diff_value, step), loop).results[0]


def denormalize_induction_variable(loop: scf.ForOp, lb: SSAValue, step: SSAValue) -> None:
    """Uses of the induction variable become `iv * step + lb` (built at the start of the body)."""
    iv = loop.body.block.args[0]
    body = loop.body.block
    first = body.first_op
    assert first is not None
    if isinstance(iv.type, IndexType):
        d0, s0, s1 = AffineDimExpr(0), AffineSymExpr(0), AffineSymExpr(1)
        amap = AffineMap(1, 2, (affine_add(affine_mul(d0, s1), s0),))
        folded = composed_folded_apply(amap, [iv, lb, step], first)
        value = _value_of(folded, IndexType(), first)
        preserved = {value.owner} if au.constant_int(lb) != 0 or au.constant_int(step) != 1 else set()
    else:
        value, preserved = iv, set()
        if au.constant_int(step) != 1:
            value = _insert_before(arith.MuliOp(iv, step), first).results[0]
            preserved.add(value.owner)
        if au.constant_int(lb) != 0:
            value = _insert_before(arith.AddiOp(value, lb), first).results[0]
            preserved.add(value.owner)
    if value is iv:
        return
    iv.replace_uses_with_if(value, lambda use: use.operation not in preserved)


def sink_affine_applies(loop: scf.ForOp) -> None:
    """Each `affine.apply` in the body gets one copy right before each user; the original goes."""
    from xdsl.dialects import affine as xaffine

    applies = [op for op in loop.body.walk() if isinstance(op, xaffine.ApplyOp)]
    for apply in applies:
        uses = [use for use in apply.results[0].uses]
        if not uses:
            continue
        for use in uses:
            clone = apply.clone()
            Rewriter.insert_op(clone, InsertPoint.before(use.operation))
            use.operation.operands[use.index] = clone.results[0]
        Rewriter.erase_op(apply)


def normalize_loop(loop: scf.ForOp) -> bool:
    """Normalize one loop; False when it already counts from 0 by 1."""
    lb, step = loop.lb, loop.step
    if au.constant_int(lb) == 0 and au.constant_int(step) == 1:
        return False
    type_ = lb.type
    new_ub = normalized_upper_bound(loop)
    new_lb_value = _constant(0, type_, loop)
    new_ub_value = _value_of(new_ub, type_, loop)
    new_step_value = _constant(1, type_, loop)
    loop.operands[0] = new_lb_value
    loop.operands[1] = new_ub_value
    loop.operands[2] = new_step_value
    denormalize_induction_variable(loop, lb, step)
    sink_affine_applies(loop)
    return True


def compose_transfer_maps(root: Operation) -> None:
    """Fold the `affine.apply` results among each transfer's indices into its maps."""
    from dfsched.dialects.ktdf import DataTransferOp

    for transfer in [op for op in root.walk() if isinstance(op, DataTransferOp)]:
        for side in ("source", "dest"):
            attr = transfer.properties.get(f"{side}_map")
            if not isinstance(attr, AffineMapAttr):
                continue
            indices = transfer.source_indices if side == "source" else transfer.dest_indices
            amap, operands = au.fully_compose_map_and_operands(attr.data, list(indices))
            amap, operands = au.demote_symbols_to_dims(amap, operands)
            if amap == attr.data and len(operands) == len(indices) and all(a is b for a, b in zip(operands, indices)):
                continue
            set_transfer_side(transfer, side, amap, operands)


@dataclass(frozen=True)
class NormalizeSCFForLoops(ModulePass):
    """Rewrite every scf.for to count from 0 by 1, rebuilding its IV uses with affine.apply."""

    name = "normalize-scf-for-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in loops_post_order(op):
            normalize_loop(loop)
        compose_transfer_maps(op)
