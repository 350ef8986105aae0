"""`subsume-linearize-index`: fold `ktdf.tiling.linearize_index` into the subscripts of
`ktdf.data_transfer` (`docs/passes.md#subsume-linearize-index`).

For every transfer, each side that has a subscript map (a memref side) and at least one index
computed by a `linearize_index` whose strides are all `arith.constant`s is rewritten:

1. each such index becomes `affine.apply (s0*d0 + s1*d1 + ...)(ivs)`, built right before the
   transfer;
2. those applies are composed into the side's map the way MLIR's
   `fullyComposeAffineMapAndOperands` does (constant operands fold into the map, repeated
   operands merge); symbols the composition leaves are turned back into dimensions, because
   transfer maps take dimensions only.

`from %A[%l]` with `%l = linearize_index [%t : %c12], [%p : %c1]` thus reads `from %A[%t * 12
+ %p]`. An index whose `linearize_index` has a non-constant stride is left as it is. Afterwards
every `linearize_index` without uses is erased, anywhere in the module, and so are the applies
of step 1 once composed (upstream leaves them dead; a dead apply would still count as a use of
a loop's induction variable for later passes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from dfsched.dialects import ktdf
from dfsched.dialects.affine_subscripts import affine_add, affine_mul
from dfsched.passes.cleanup import affine_utils as au
from dfsched.passes.cleanup.patterns import new_apply
from dfsched.passes.scheduling.tiling_utils import insert_before
from dfsched.passes.scheduling.tiling_utils import set_transfer_side

SIDES = ("source", "dest")


@dataclass(frozen=True)
class SubsumeLinearizeIndex(ModulePass):
    """Fold ktdf.tiling.linearize_index into the subscript maps of data transfers."""

    name = "subsume-linearize-index"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        transfers = [t for t in op.walk() if isinstance(t, ktdf.DataTransferOp)]
        for transfer in transfers:
            for side in SIDES:
                subsume_side(transfer, side)
        erase_dead_linearize_ops(op)
        expand_position_offsets(op)


def constant_strides(op: ktdf.TilingLinearizeIndexOp) -> list[int] | None:
    """The strides of `op` when every one is an `arith.constant`, else None."""
    values: list[int] = []
    for stride in op.strides:
        owner = stride.owner
        if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
            return None
        values.append(owner.value.value.data)
    return values


def foldable(value: SSAValue) -> ktdf.TilingLinearizeIndexOp | None:
    owner = value.owner
    if isinstance(owner, ktdf.TilingLinearizeIndexOp) and constant_strides(owner) is not None:
        return owner
    return None


def indices_of(transfer: ktdf.DataTransferOp, side: str) -> list[SSAValue]:
    return list(transfer.source_indices if side == "source" else transfer.dest_indices)


def subsume_side(transfer: ktdf.DataTransferOp, side: str) -> None:
    """Steps 1-2 on one side of one transfer (no-op without a map or a foldable index)."""
    map_attr = transfer.properties.get(f"{side}_map")
    indices = indices_of(transfer, side)
    if not isinstance(map_attr, AffineMapAttr) or not any(foldable(v) for v in indices):
        return
    applies: list[Operation] = []
    operands: list[SSAValue] = []
    for value in indices:
        linear = foldable(value)
        if linear is None:
            operands.append(value)
            continue
        apply = insert_before(new_apply(weighted_sum_map(linear), list(linear.ivs)), transfer, linear)
        applies.append(apply)
        operands.append(apply.results[0])
    amap, operands = au.fully_compose_map_and_operands(map_attr.data, operands)
    amap, operands = au.demote_symbols_to_dims(amap, operands)
    set_transfer_side(transfer, side, amap, operands)
    for apply in reversed(applies):
        if not apply.results[0].uses:
            Rewriter.erase_op(apply)


def weighted_sum_map(op: ktdf.TilingLinearizeIndexOp) -> AffineMap:
    """`(d0, ..., dn) -> (s0*d0 + ... + sn*dn)` for the constant strides of `op`."""
    strides = constant_strides(op)
    assert strides is not None
    expr: AffineExpr = AffineConstantExpr(0)
    for position, stride in enumerate(strides):
        expr = affine_add(expr, affine_mul(AffineDimExpr(position), AffineConstantExpr(stride)))
    return AffineMap(len(strides), 0, (expr,))


def expand_position_offsets(root: Operation) -> None:
    """A `linearize_index` (constant strides) read only by `arith` ops (a tile's position in a
    compute body, Decision 107) becomes the `affine.apply` of its weighted sum: no data transfer
    subsumes it, and DataflowIR has no ScheduleIR op."""
    for linear in [o for o in root.walk() if isinstance(o, ktdf.TilingLinearizeIndexOp)]:
        if constant_strides(linear) is not None and all(use.operation.name.startswith(("arith.", "affine."))
                                                        for use in linear.results[0].uses):
            apply = new_apply(weighted_sum_map(linear), list(linear.ivs))
            Rewriter.replace_op(linear, apply)


def erase_dead_linearize_ops(root: Operation) -> None:
    dead = [op for op in root.walk() if isinstance(op, ktdf.TilingLinearizeIndexOp) and not op.results[0].uses]
    for op in dead:
        Rewriter.erase_op(op)
