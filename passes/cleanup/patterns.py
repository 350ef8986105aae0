"""The rewrite patterns and folders of dfsched's `canonicalize` (MLIR's, where xDSL has none).

What MLIR's canonicalizer does at the points of the pipeline where it runs, and xDSL 0.74
does not, or does differently:

* `scf.for` / `scf.if`: MLIR's patterns, in `scf_patterns` (xDSL's `scf.for` patterns are
  replaced, since they also move constants in front of the loop).
* `affine.apply`: folded (a lone dim/symbol is its operand, constants fold) and simplified
  (composed with the `affine.apply` ops feeding it, constant operands folded into the map,
  operands deduplicated): `SimplifyAffineOp<AffineApplyOp>`.
* `affine.min`: folded (all-constant results give the smallest; a map whose results are partly
  constant is updated in place), composed and simplified, deduplicated, and turned into an
  `affine.apply` when it has one result.
* `memref.alloc`/`memref.alloca`: constant dynamic sizes become static, followed by a
  `memref.cast` back to the original type (`SimplifyAllocConst`); a buffer only stored into and
  deallocated is erased with those users (`SimplifyDeadAlloc`). Loads, stores, deallocs and
  copies read through a cast that only made a type more dynamic (`foldMemRefCast`).
* integer `arith` folds (`arith_folds`), and the constant-to-the-right operand order of
  commutative ops (MLIR's commutative trait fold).

Every other op contributes the patterns its `HasCanonicalizationPatternsTrait` declares
(xDSL's arith/memref/scf.if patterns, the ktdf folders and cleanups) and the folds of xDSL's
`HasFolderInterface`. `canonicalization_patterns(op)` and `fold(op)` are what the greedy driver
is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import affine as xaffine
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap, AffineSymExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait

from dfsched.passes.cleanup import affine_utils as au
from dfsched.passes.cleanup.greedy import IN_PLACE
from dfsched.passes.cleanup.scf_patterns import SCF_FOR_PATTERNS, SCF_IF_PATTERNS

# ---------------------------------------------------------------------------
# Building affine ops with the project's (MLIR) syntax
# ---------------------------------------------------------------------------


def new_apply(amap: AffineMap, operands: Sequence[SSAValue]) -> xaffine.ApplyOp:
    from dfsched.dialects.affine_ext import ApplyOp

    return ApplyOp(list(operands), AffineMapAttr(amap))


def new_min(amap: AffineMap, operands: Sequence[SSAValue]) -> xaffine.MinOp:
    from dfsched.dialects.affine_ext import MinOp

    return MinOp(list(operands), AffineMapAttr(amap))


def new_memref_cast(value: SSAValue, result_type: Attribute) -> Operation:
    from dfsched.dialects.memref_ext import CastOp

    return CastOp.build(operands=[value], result_types=[result_type])


# ---------------------------------------------------------------------------
# affine.apply / affine.min
# ---------------------------------------------------------------------------


def fold_affine_apply(op: xaffine.ApplyOp):
    folded = au.fold_apply(op.map.data, list(op.mapOperands))
    if folded is None:
        return None
    return [folded] if isinstance(folded, SSAValue) else [_index_attr(folded)]


def fold_affine_min(op: xaffine.MinOp):
    """`AffineMinOp::fold`: constant results fold, the smallest wins when all do."""
    operands = list(op.operands)
    amap = op.map.data
    folded_map, results = au.partial_constant_fold(amap, operands)
    if folded_map.num_symbols == 1 and folded_map.num_dims == 0 and folded_map.results == (AffineSymExpr(0),):
        return [operands[0]]
    if results is None:
        if folded_map == amap:
            return None
        op.properties["map"] = AffineMapAttr(folded_map)
        return IN_PLACE
    if not results:
        return None
    return [_index_attr(min(results))]


def _index_attr(value: int):
    from xdsl.dialects.builtin import IndexType, IntegerAttr

    return IntegerAttr(value, IndexType())


class SimplifyAffineOp(RewritePattern):
    """MLIR's `SimplifyAffineOp` on `affine.apply` and `affine.min`: the map and operands composed
    with feeding `affine.apply` ops, constant operands folded and duplicates merged."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xaffine.ApplyOp | xaffine.MinOp, rewriter: PatternRewriter) -> None:
        old_map, old_operands = op.map.data, list(op.operands)
        amap, operands = au.compose_map_and_operands(old_map, old_operands)
        amap, operands = au.canonicalize_map_and_operands(amap, operands)
        if amap != old_map or not _same_values(operands, old_operands):
            rewriter.replace(op, (new_apply if isinstance(op, xaffine.ApplyOp) else new_min)(amap, operands))


class SingleResultAffineMinToApply(RewritePattern):
    """`affine.min` of a one-result map is that result (CanonicalizeSingleResultAffineMinMaxOp)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xaffine.MinOp, rewriter: PatternRewriter) -> None:
        if len(op.map.data.results) != 1:
            return
        rewriter.replace(op, new_apply(op.map.data, list(op.operands)))


class DeduplicateAffineMinExpressions(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xaffine.MinOp, rewriter: PatternRewriter) -> None:
        amap = op.map.data
        unique = tuple(dict.fromkeys(amap.results))
        if len(unique) == len(amap.results):
            return
        rewriter.replace(op, new_min(AffineMap(amap.num_dims, amap.num_symbols, unique), list(op.operands)))


def _same_values(a: Sequence[SSAValue], b: Sequence[SSAValue]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


# ---------------------------------------------------------------------------
# memref.alloc
# ---------------------------------------------------------------------------


class StaticAllocConstSizes(RewritePattern):
    """Constant dynamic sizes become static dims; a `memref.cast` restores the original type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xmemref.AllocOp | xmemref.AllocaOp, rewriter: PatternRewriter) -> None:
        sizes = list(op.dynamic_sizes)
        constants = [au.constant_int(v) for v in sizes]
        if not any(c is not None and c >= 0 for c in constants):
            return
        old_type = op.memref.type
        assert isinstance(old_type, MemRefType)
        shape: list[int] = []
        kept: list[SSAValue] = []
        dynamic = iter(zip(sizes, constants))
        for dim in old_type.get_shape():
            if dim >= 0:
                shape.append(dim)
                continue
            value, constant = next(dynamic)
            if constant is not None and constant >= 0:
                shape.append(constant)
            else:
                shape.append(DYNAMIC_INDEX)
                kept.append(value)
        new_type = MemRefType(old_type.element_type, shape, old_type.layout, old_type.memory_space)
        new_alloc = type(op).build(
            operands=[kept, list(op.symbol_operands)],
            result_types=[new_type],
            properties={k: v for k, v in op.properties.items() if k != "operandSegmentSizes"},
            attributes=dict(op.attributes),
        )
        cast = new_memref_cast(new_alloc.results[0], old_type)
        rewriter.replace(op, [new_alloc, cast])


def _can_fold_cast_into_consumer(cast: Operation) -> bool:
    """MLIR's `memref::CastOp::canFoldIntoConsumerOp`: a cast that only forgets static facts."""
    source, dest = cast.operands[0].type, cast.results[0].type
    if not isinstance(source, MemRefType) or not isinstance(dest, MemRefType):
        return False
    if source.element_type != dest.element_type or source.memory_space != dest.memory_space:
        return False
    if len(source.get_shape()) != len(dest.get_shape()) or source.layout != dest.layout:
        return False
    return all(d < 0 or d == s for s, d in zip(source.get_shape(), dest.get_shape())) and \
        any(d < 0 <= s for s, d in zip(source.get_shape(), dest.get_shape()))


_CAST_FOLDING_USERS = frozenset({"memref.load", "memref.store", "memref.dealloc", "memref.copy"})


def fold_memref_cast_operands(op: Operation):
    """`foldMemRefCast`: a consumer reads through a cast that only made its type more dynamic."""
    if op.name not in _CAST_FOLDING_USERS:
        return None
    changed = False
    operands = list(op.operands)
    for i, value in enumerate(operands):
        owner = value.owner
        if isinstance(owner, Operation) and owner.name == "memref.cast" and _can_fold_cast_into_consumer(owner):
            operands[i] = owner.operands[0]
            changed = True
    if not changed:
        return None
    op.operands = operands
    return IN_PLACE


class SimplifyDeadAlloc(RewritePattern):
    """An allocation only deallocated or stored into is erased with those users (MLIR's pattern)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xmemref.AllocOp | xmemref.AllocaOp, rewriter: PatternRewriter) -> None:
        users = [use.operation for use in op.memref.uses]
        for user in users:
            if user.name == "memref.store":
                if user.operands[0] is op.memref:
                    return
            elif user.name != "memref.dealloc":
                return
        for user in dict.fromkeys(users):
            rewriter.erase(user)
        rewriter.erase(op)


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------

_OVERRIDES: dict[str, tuple[RewritePattern, ...]] = {
    # MLIR's patterns instead of xDSL's (which also move constants in front of loops).
    "scf.for": SCF_FOR_PATTERNS,
    # MLIR's SimplifyAllocConst and SimplifyDeadAlloc (xDSL's ElideUnusedAlloc is a special case).
    "memref.alloc": (StaticAllocConstSizes(), SimplifyDeadAlloc()),
    "memref.alloca": (StaticAllocConstSizes(), SimplifyDeadAlloc()),
}

_EXTRA: dict[str, tuple[RewritePattern, ...]] = {
    "scf.if": SCF_IF_PATTERNS,
    "affine.apply": (SimplifyAffineOp(),),
    "affine.min": (SingleResultAffineMinToApply(), DeduplicateAffineMinExpressions(), SimplifyAffineOp()),
}

_cache: dict[type[Operation], tuple[RewritePattern, ...]] = {}


def canonicalization_patterns(op: Operation) -> tuple[RewritePattern, ...]:
    """Every canonicalization pattern rooted at `op`'s kind, in a stable order."""
    kind = type(op)
    found = _cache.get(kind)
    if found is not None:
        return found
    if op.name in _OVERRIDES:
        found = _OVERRIDES[op.name]
    else:
        own: list[RewritePattern] = []
        if op.name != "builtin.unregistered":
            for trait in op.get_traits_of_type(HasCanonicalizationPatternsTrait):
                own.extend(trait.get_patterns(kind))
        found = tuple(own) + _EXTRA.get(op.name, ())
    _cache[kind] = found
    return found


# ktdf ops whose MLIR definition has a folder (dfsched implements them as patterns on the ops).
FOLDER_LIKE_PATTERN_OPS = frozenset({"ktdf.tiling.derive_size", "ktdf.buffer_phase", "ktdf.select_memref"})


def folder_patterns(op: Operation) -> tuple[RewritePattern, ...]:
    """The patterns that stand for MLIR fold hooks (run by every greedy driver, not only canonicalize)."""
    if op.name in FOLDER_LIKE_PATTERN_OPS:
        return canonicalization_patterns(op)
    return ()


# MLIR's commutative arith ops (xDSL marks only some of them `Commutative`).
COMMUTATIVE = frozenset({
    "arith.addi", "arith.muli", "arith.andi", "arith.ori", "arith.xori", "arith.maxsi", "arith.maxui",
    "arith.minsi", "arith.minui", "arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf",
    "arith.maxnumf", "arith.minnumf", "arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended",
})


def fold_commutative(op: Operation):
    """MLIR's `foldCommutative` trait fold: constant operands move to the end, in place."""
    if op.name not in COMMUTATIVE or len(op.operands) < 2:
        return None
    operands = list(op.operands)
    is_const = [au.constant_attr(v) is not None for v in operands]
    reordered = [v for v, c in zip(operands, is_const) if not c] + [v for v, c in zip(operands, is_const) if c]
    if all(a is b for a, b in zip(reordered, operands)):
        return None
    op.operands = reordered
    return IN_PLACE


_HAS_FOLDER: dict[type[Operation], bool] = {}
_AFFINE_FOLDER: dict[type[Operation], Callable | bool] = {}


def fold(op: Operation):
    """MLIR's `Operation::fold` for the ops dfsched knows how to fold (see greedy.FoldFor).

    The op's own folder first; when it fails, the commutative trait's operand reordering.
    """
    from dfsched.passes.cleanup.arith_folds import fold_arith

    kind = type(op)  # per-class answers: isinstance against xDSL's ABCs is slow
    affine = _AFFINE_FOLDER.get(kind)
    if affine is None:
        affine = _AFFINE_FOLDER[kind] = (fold_affine_apply if isinstance(op, xaffine.ApplyOp) else
                                         fold_affine_min if isinstance(op, xaffine.MinOp) else False)
    if affine:
        return affine(op)
    if op.name.startswith("arith."):
        folded = fold_arith(op)
        if folded is not None:
            return folded
    elif op.name.startswith("memref."):
        return fold_memref_cast_operands(op)
    has_folder = _HAS_FOLDER.get(kind)
    if has_folder is None:
        has_folder = _HAS_FOLDER[kind] = isinstance(op, HasFolderInterface)
    if has_folder and not _covered_by_arith_folds(op):
        try:
            folded = op.fold()
        except (ValueError, TypeError, ZeroDivisionError, AssertionError):
            folded = None
        if folded is not None and len(folded) == len(op.results):
            if not all(v is r for v, r in zip(folded, op.results)):
                return list(folded)
    return fold_commutative(op)


def _covered_by_arith_folds(op: Operation) -> bool:
    """Arith ops whose folds `arith_folds` implements (xDSL's folder is used for the others)."""
    from dfsched.passes.cleanup.arith_folds import handles

    return handles(op)
