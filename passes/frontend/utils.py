"""Small IR helpers shared by the frontend passes.

* `blocks_post_order`: MLIR's `walk<PostOrder>(Block*)` order (nested blocks first).
* `values_used_by`: operands plus values an op's regions capture from above.
* `box_set`: the integer set of a box from 0, `{(d...) | 0 <= d_i < shape_i}`.
* `erase_dead_ops`: MLIR's region DCE for structured IR (side-effect-free ops with no live
  user disappear), treating linalg ops on tensors as side-effect free as MLIR does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineSet

from dfsched.compat import op_name


def dialect_of(op: Operation) -> str:
    return op_name(op).split(".", 1)[0]


def blocks_post_order(op: Operation) -> Iterator[Block]:
    """Every block nested in `op`, each after the blocks nested in its ops (MLIR post-order)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from blocks_post_order(inner)
            yield block


def values_used_by(op: Operation) -> list[SSAValue]:
    """`op`'s operands, then the values its regions use but do not define, in IR order."""
    used = list(op.operands)
    if not op.regions:
        return used
    seen = set(used)
    for inner in op.walk():
        if inner is op:
            continue
        for value in inner.operands:
            if value in seen or is_defined_inside(value, op):
                continue
            seen.add(value)
            used.append(value)
    return used


def is_defined_inside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is a result or block argument strictly inside `op`'s regions."""
    owner = value.owner
    candidate = owner.parent_op() if isinstance(owner, Block) else owner.parent_op()
    while candidate is not None:
        if candidate is op:
            return True
        candidate = candidate.parent_op()
    return False


def enclosing_op(op: Operation, name: str) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and op_name(parent) != name:
        parent = parent.parent_op()
    return parent


# ---------------------------------------------------------------------------
# Dead code
# ---------------------------------------------------------------------------


def erase_dead_ops(root: Operation, skip: frozenset[str] = frozenset({"ktdf_arch.device"})) -> None:
    """Erase the ops nested in `root` that have no observable effect and no live user.

    Liveness as MLIR's `runRegionDCE`: an op is live when it could have an effect, or
    when a live op uses one of its results. Symbols and terminators are always live.
    Ops named in `skip` (devices: their resources are descriptions, not code) are left
    alone with everything inside them.
    """
    live: set[Operation] = set()
    changed = True
    while changed:
        changed = False
        for op in _ops_reverse(root, skip):
            if op in live:
                continue
            if not would_be_trivially_dead(op) or any(
                use.operation in live for result in op.results for use in result.uses
            ):
                live.add(op)
                changed = True
    for op in list(_ops_reverse(root, skip)):
        if op not in live and op.parent is not None:
            # Ops nested in a dead op go with it.
            if any(a not in live for a in _ancestors_below(op, root)):
                continue
            op.parent.erase_op(op, safe_erase=False)


def _ops_reverse(root: Operation, skip: frozenset[str]) -> Iterator[Operation]:
    """Nested ops of `root`, innermost regions first, each block's ops last to first."""
    for region in root.regions:
        for block in reversed(region.blocks):
            for op in reversed(list(block.ops)):
                if op_name(op) not in skip:
                    yield from _ops_reverse(op, skip)
                yield op


def _ancestors_below(op: Operation, root: Operation) -> list[Operation]:
    out = []
    parent = op.parent_op()
    while parent is not None and parent is not root:
        out.append(parent)
        parent = parent.parent_op()
    return out


def would_be_trivially_dead(op: Operation) -> bool:
    """MLIR's `wouldOpBeTriviallyDead`: dead as soon as its results are unused."""
    from xdsl.traits import IsTerminator, SymbolOpInterface

    if op.has_trait(IsTerminator, value_if_unregistered=False):
        return False
    if op.has_trait(SymbolOpInterface, value_if_unregistered=False) or op_name(op) == "builtin.module":
        return False
    return has_no_observable_effect(op)


def has_no_observable_effect(op: Operation) -> bool:
    """Only reads, or allocations of its own values (MLIR: trivially-dead effects)."""
    from xdsl.traits import MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect

    if op.name == "builtin.unregistered":
        return False
    if is_linalg_on_tensors(op):
        return True
    traits = op.get_traits_of_type(MemoryEffect)
    if not traits:
        return False
    for trait in traits:
        if isinstance(trait, RecursiveMemoryEffect) or trait is RecursiveMemoryEffect:
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.ops:
                        if not has_no_observable_effect(inner):
                            return False
            continue
        effects = trait.get_effects(op)
        if effects is None:
            return False
        for effect in effects:
            if effect.kind == MemoryEffectKind.READ:
                continue
            if effect.kind == MemoryEffectKind.ALLOC and isinstance(effect.value, SSAValue) \
                    and effect.value.owner is op:
                continue
            return False
    return True


def is_linalg_on_tensors(op: Operation) -> bool:
    """linalg ops touching no memref have no memory effects in MLIR (xDSL gives them none)."""
    from xdsl.dialects.builtin import MemRefType

    if dialect_of(op) != "linalg" or op_name(op) == "linalg.yield":
        return False
    return not any(isinstance(v.type, MemRefType) for v in op.operands)


def box_set(shape: Sequence[int]) -> AffineSet:
    """{(d...) | 0 <= d_i < shape_i}: an access tile's or a view's set of a box from 0."""
    constraints = []
    for i, extent in enumerate(shape):
        d = AffineExpr.dimension(i)
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d, AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, AffineExpr.constant(extent - 1) - d,
                                                AffineExpr.constant(0)))
    return AffineSet(len(shape), 0, tuple(constraints))
