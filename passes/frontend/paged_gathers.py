"""A paged gather that feeds compute keeps the page a dimension of its own (README Decision 89;
run by `compute-group-extraction` after paged copies are split).

A gather through a block table that splits a variable into pages,

    %keys = ktdp.load %pool[ind(%table[%t floordiv 4]), (%t mod 4), (%d)] : tensor<12x16xf16>

picks one list entry per page and a row in it; the address-list transfer moves whole rows at
one entry plus a stride per variable, and `t mod 4` is no stride. Written with the page and the
position in it as two variables (`t = 4 p + u`) the same gather is `ind(%table[%p]), (%u), (%d)`,
a tile of one more dimension (`3x4x16`), which the split takes. This rewrite makes that tile and
carries the extra dimension through everything computed from the load: a linalg op reading the
split dimension through a loop dimension `n` gets `n` split into two loop dimensions of the same
kind (its maps read both where they read `n`), element-wise ops work on the split shapes, and a
splat, fill or empty operand is rebuilt at the split shape. A reduction over `n` reduces both,
so values after it are unchanged. Only when every op reached is one of those (no store of a
split value, no `linalg.index`, no other operand indexed by `n`) is anything rewritten;
otherwise the gather stays and `construct-three-stage-pipeline` refuses it, naming the split.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.compat import op_name
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_attr
from dfsched.passes.frontend.indirect_access import box_extents, paged_terms
from dfsched.passes.frontend.linalg_generalize import (
    generic_form,
    is_elementwise_on_tensors,
    is_linalg_compute,
    make_generic,
    maps_and_iterators,
)
from dfsched.passes.frontend.utils import box_set


@dataclass
class PagedSplit:
    """Values split at one dimension (`split`: value -> dimension), the linalg ops whose loop
    dimension is split (`loops`: op -> dimension) and the element-wise ops on split values."""

    size: dict[Operation, int] = field(default_factory=dict)  # load -> page size K
    split: dict[SSAValue, int] = field(default_factory=dict)
    loops: dict[Operation, int] = field(default_factory=dict)
    elementwise: set[Operation] = field(default_factory=set)
    page: int = 0  # the page size all split values share


def split_paged_gathers(root: Operation) -> None:
    """Rewrite the paged gathers under `root` that feed compute, when everything computed from
    them can carry the page dimension (all of them, or none)."""
    plan = PagedSplit()
    for load in [op for op in root.walk() if isinstance(op, ktdp.LoadOp)]:
        tile = load.operands[0].owner
        if not isinstance(tile, ktdp.ConstructIndirectAccessTileOp):
            continue
        found = paged_terms(tile, page_numbers_only=True)
        if not found:
            continue
        if len(found) != 1 or not _tile_splits(tile, *next(iter(found))):
            return
        variable, size = next(iter(found))
        if plan.page not in (0, size):
            return
        plan.page = size
        plan.size[load] = size
        plan.split[load.results[0]] = variable
    if not plan.size or not _close(plan):
        return
    _apply(plan, root)


# ---------------------------------------------------------------------------
# Planning
# ---------------------------------------------------------------------------


def _tile_splits(tile: ktdp.ConstructIndirectAccessTileOp, variable: int, size: int) -> bool:
    """The tile enumerates its variables in order, `variable` over whole pages."""
    order, space = tile.variables_space_order, tile.variables_space_set
    if order is None or space is None or order.data != AffineMap.identity(order.data.num_dims):
        return False
    extents = box_extents(space.data, tile, "variables_space_set")  # type: ignore[union-attr]
    return size > 0 and extents[variable] % size == 0


def _close(plan: PagedSplit) -> bool:
    """Follow the split values to every op computed from them; False if one cannot carry it."""
    work = list(plan.split)
    while work:
        value = work.pop()
        for use in list(value.uses):
            op = use.operation
            if op in plan.loops or op in plan.elementwise:
                continue
            if is_elementwise_on_tensors(op):
                plan.elementwise.add(op)
                result, dim = op.results[0], plan.split[value]
            elif is_linalg_compute(op) and len(op.results) == 1 and op.regions:
                found = _loop_dim(op, use.index, plan.split[value])
                if found is None:
                    return False
                plan.loops[op] = found
                maps = maps_and_iterators(op)[0]  # type: ignore[index]
                out = [i for i, r in enumerate(maps[-1].results) if r == AffineDimExpr(found)]
                result, dim = op.results[0], (out[0] if out else None)
            else:
                return False
            if dim is not None and result not in plan.split:
                plan.split[result] = dim
                work.append(result)
    return all(_operands_fit(plan, op) for op in [*plan.loops, *plan.elementwise])


def _loop_dim(op: Operation, index: int, dim: int) -> int | None:
    found = maps_and_iterators(op)
    if found is None or any(op_name(inner) == "linalg.index" for inner in op.regions[0].walk()):
        return None
    result = found[0][index].results[dim]
    return result.position if isinstance(result, AffineDimExpr) else None


def _operands_fit(plan: PagedSplit, op: Operation) -> bool:
    """Every operand that reads the split dimension is split there, or a uniform value that can
    be rebuilt split; no operand reads it through another expression."""
    if op in plan.elementwise:
        dims = {plan.split.get(v) for v in op.operands}
        return len(dims - {None}) == 1 and all(v in plan.split or _uniform(v) for v in op.operands)
    n = plan.loops[op]
    maps = maps_and_iterators(op)[0]  # type: ignore[index]
    for value, amap in zip(op.operands, maps):
        for position, result in enumerate(amap.results):
            if result == AffineDimExpr(n):
                if plan.split.get(value) != position and not _uniform(value):
                    return False
            elif AffineDimExpr(n) in result.dfs():
                return False
    return True


def _uniform(value: SSAValue) -> bool:
    owner = value.owner if isinstance(value, OpResult) else None
    attr = constant_attr(value)
    return isinstance(owner, tensor.EmptyOp | FillOp | tensor.SplatOp) or \
        (isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat())


# ---------------------------------------------------------------------------
# Rewriting
# ---------------------------------------------------------------------------


def _apply(plan: PagedSplit, root: Operation) -> None:
    """Rebuild the planned ops in program order, then erase the old ones, last first."""
    mapping: dict[SSAValue, SSAValue] = {}
    ordered = [op for op in root.walk() if op in plan.size or op in plan.loops or op in plan.elementwise]
    for op in ordered:
        if op in plan.size:
            new_tile = _split_tile(op.operands[0].owner, plan.split[op.results[0]], plan.size[op])
            Rewriter.insert_op(new_tile, InsertPoint.before(op))
            new = ktdp.LoadOp(new_tile.results[0], _split_type(op.results[0].type, plan.split[op.results[0]],
                                                                plan.page))
        elif op in plan.elementwise:
            dim = plan.split[op.results[0]]
            operands = [_split_operand(v, dim, plan, mapping, op) for v in op.operands]
            new = type(op).create(operands=operands, result_types=[_split_type(op.results[0].type, dim, plan.page)],
                                  properties=dict(op.properties), attributes=dict(op.attributes))
        else:
            new = _split_linalg(op, plan, mapping)
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
        mapping[op.results[0]] = new.results[0]
        if op.results[0] not in plan.split:  # reduced over the pages: the same value as before
            op.results[0].replace_all_uses_with(new.results[0])
    for op in reversed(ordered):
        tile = op.operands[0].owner if op in plan.size else None
        Rewriter.erase_op(op)
        if tile is not None and not tile.results[0].uses:
            Rewriter.erase_op(tile)


def _split_type(shaped: TensorType, dim: int, size: int) -> TensorType:
    shape = list(shaped.get_shape())
    return TensorType(shaped.element_type, shape[:dim] + [shape[dim] // size, size] + shape[dim + 1:])


def _split_operand(value: SSAValue, dim: int | None, plan: PagedSplit, mapping, before: Operation) -> SSAValue:
    if value in mapping:
        return mapping[value]
    if dim is None or not isinstance(value.type, TensorType):
        return value
    shaped = _split_type(value.type, dim, plan.page)
    owner = value.owner
    if isinstance(owner, tensor.EmptyOp):
        new = tensor.EmptyOp([], shaped)
    elif isinstance(owner, FillOp):
        empty = tensor.EmptyOp([], shaped)
        Rewriter.insert_op(empty, InsertPoint.before(before))
        new = FillOp([owner.inputs[0]], [empty.results[0]], [shaped])
    elif isinstance(owner, tensor.SplatOp):
        new = tensor.SplatOp(owner.input, [], shaped)
    else:
        attr = constant_attr(value)
        assert isinstance(attr, DenseIntOrFPElementsAttr)
        new = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(shaped, [attr.get_values()[0]]))
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new.results[0]


def _split_linalg(op: Operation, plan: PagedSplit, mapping) -> Operation:
    """`op` with loop dimension n split into (n, n + 1), the later dimensions shifted."""
    n = plan.loops[op]
    maps, iterators = maps_and_iterators(op)  # type: ignore[misc]
    new_maps, operands = [], []
    for value, amap in zip(op.operands, maps):
        results: list[AffineExpr] = []
        split_at = None
        for position, result in enumerate(amap.results):
            if result == AffineDimExpr(n):
                results += [AffineExpr.dimension(n), AffineExpr.dimension(n + 1)]
                split_at = position
            else:
                results.append(_shift(result, n))
        new_maps.append(AffineMap(amap.num_dims + 1, 0, tuple(results)))
        operands.append(_split_operand(value, split_at, plan, mapping, op))
    new_iterators = iterators[:n + 1] + [iterators[n]] + iterators[n + 1:]
    generic = op if op_name(op) == "linalg.generic" else generic_form(op, None)
    assert generic is not None
    out = plan.split.get(op.results[0])
    result_type = _split_type(op.results[0].type, out, plan.page) if out is not None else op.results[0].type
    body = generic.regions[0].clone()
    if generic is not op:
        generic.erase()
    count = len(op.operands) - 1
    return make_generic(None, operands[:count], operands[count:], body, new_maps, new_iterators, [result_type])


def _shift(expr: AffineExpr, n: int) -> AffineExpr:
    if isinstance(expr, AffineDimExpr):
        return AffineExpr.dimension(expr.position + 1) if expr.position > n else expr
    if isinstance(expr, AffineBinaryOpExpr):
        return AffineBinaryOpExpr(expr.kind, _shift(expr.lhs, n), _shift(expr.rhs, n))
    return expr


def _split_tile(tile: ktdp.ConstructIndirectAccessTileOp, variable: int, size: int) -> Operation:
    """The tile with `variable` `v` as two, `v = size * p + u`: `v floordiv size` is `p`,
    `v mod size` is `u`, `v` itself `size * p + u`."""
    captured = len(tile.captured_variables)
    extents = box_extents(tile.variables_space_set.data, tile, "variables_space_set")  # type: ignore[union-attr]
    extents = extents[:variable] + [extents[variable] // size, size] + extents[variable + 1:]
    at = captured + variable

    def rewrite(expr: AffineExpr) -> AffineExpr:
        if isinstance(expr, AffineBinaryOpExpr):
            if isinstance(expr.lhs, AffineDimExpr) and expr.lhs.position == at and \
                    expr.rhs == AffineConstantExpr(size):
                if expr.kind == AffineBinaryOpKind.FloorDiv:
                    return AffineExpr.dimension(at)
                if expr.kind == AffineBinaryOpKind.Mod:
                    return AffineExpr.dimension(at + 1)
            return AffineBinaryOpExpr(expr.kind, rewrite(expr.lhs), rewrite(expr.rhs))
        if isinstance(expr, AffineDimExpr):
            if expr.position == at:
                return AffineExpr.dimension(at) * size + AffineExpr.dimension(at + 1)
            return AffineExpr.dimension(expr.position + 1) if expr.position > at else expr
        return expr

    maps = [AffineMap(m.data.num_dims + 1, 0, tuple(rewrite(e) for e in m.data.results))  # type: ignore[union-attr]
            for m in tile.per_dim_subscript_maps.data]
    shape = list(tile.result.type.get_shape())
    shape = shape[:variable] + [shape[variable] // size, size] + shape[variable + 1:]
    new = ktdp.ConstructIndirectAccessTileOp(
        ktdp.AccessTileType(shape, tile.result.type.element_type), tile.base, tile.subscript_kinds(), maps,
        list(tile.indirect_memrefs), list(tile.captured_variables), box_set(extents),
        AffineMap.identity(len(extents)), list(tile.symbol_operands))
    new.location = tile.location
    return new
