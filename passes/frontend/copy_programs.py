"""Programs that only move data: paged copies and copies through the compute unit.

Run by `construct-three-stage-pipeline` on each program before it collects compute ops (README
Decisions 56-57):

* `split_paged_copies`: a load stored unchanged, one side through an indirect access tile whose
  subscripts split a variable `v` by pages, `v floordiv K` and `v mod K` (the RFC's paged KV
  cache: `X[ind(Idx[b, t floordiv 64]), h, t mod 64, d]`), is copied one page at a time: an
  `scf.for %p` over `extent(v) / K` pages in which `v` ranges over one page (`v -> K * p + v`:
  `v floordiv K` is the captured `%p`, `v mod K` is `v`), and the other side's tile starts
  `K * p` further along the dimension `v` enumerates. Every subscript is then linear, which is
  what the gather/scatter split (`indirect_access.py`) takes.
* `copies_through_compute`: a load stored unchanged (and used by nothing else) gets an identity `linalg.generic` between
  them, so the program is the load/compute/store pipeline every program is: the data passes
  through the compute unit, which is how the pipeline reaches a unit that can write the
  destination (DDR to DDR has no direct route on the shipped devices).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.passes.frontend.indirect_access import box_extents, box_set, paged_terms


def _stored_loads(function: Operation) -> list[tuple[ktdp.LoadOp, ktdp.StoreOp]]:
    """(load, store) pairs where the store stores the load's result as it is."""
    pairs = []
    for op in function.walk():
        if isinstance(op, ktdp.StoreOp) and isinstance(op.data_tile.owner, ktdp.LoadOp):
            pairs.append((op.data_tile.owner, op))
    return pairs


# ---------------------------------------------------------------------------
# Paged copies
# ---------------------------------------------------------------------------


def split_paged_copies(function: Operation) -> None:
    for load, store in _stored_loads(function):
        if len(list(load.result.uses)) != 1:
            continue
        tiles = [load.access_tile.owner, store.access_tile.owner]
        indirect = [t for t in tiles if isinstance(t, ktdp.ConstructIndirectAccessTileOp)]
        direct = [t for t in tiles if isinstance(t, ktdp.ConstructAccessTileOp)]
        if len(indirect) != 1 or len(direct) != 1:
            continue
        page = _page_split(indirect[0])
        if page is not None:
            _copy_by_pages(load, store, indirect[0], direct[0], *page)


def _page_split(tile: ktdp.ConstructIndirectAccessTileOp) -> tuple[int, int] | None:
    """(variable, K) when the tile's subscripts use `v floordiv K` / `v mod K` of one variable
    whose extent is a multiple of K; None when they use no such term."""
    found = paged_terms(tile)
    if not found:
        return None
    if len(found) > 1:
        pages = ", ".join(f"variable {v} by {k}" for v, k in sorted(found))
        raise error(tile, f"the subscripts of this indirect access tile split more than one variable into pages "
                          f"({pages}); a paged copy splits one")
    variable, size = found.pop()
    order = tile.variables_space_order.data  # type: ignore[union-attr]
    if order != AffineMap.identity(order.num_dims):
        raise error(tile, "the variables_space_order of an indirect access tile must be the identity")
    extents = box_extents(tile.variables_space_set.data, tile, "variables_space_set")  # type: ignore[union-attr]
    if size <= 0 or extents[variable] % size:
        raise error(tile, f"variable {variable} ranges over {extents[variable]} values, not a whole number of "
                          f"pages of {size}: a paged copy needs whole pages")
    return variable, size


def _paged_expr(expr: AffineExpr, captured: int, variable: int, size: int, outer: list[int]) -> AffineExpr:
    """`expr` over (captured..., p, outer captured..., variables...): `v = size * p + v`, and an
    outer variable `u` is its captured loop value plus `u` (now of extent 1)."""
    shift = 1 + len(outer)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = expr.lhs
        if isinstance(lhs, AffineDimExpr) and lhs.position == captured + variable and \
                expr.rhs == AffineConstantExpr(size):
            if expr.kind == AffineBinaryOpKind.FloorDiv:
                return AffineExpr.dimension(captured)
            if expr.kind == AffineBinaryOpKind.Mod:
                return AffineExpr.dimension(captured + variable + shift)
        return AffineBinaryOpExpr(expr.kind, _paged_expr(expr.lhs, captured, variable, size, outer),
                                  _paged_expr(expr.rhs, captured, variable, size, outer))
    if isinstance(expr, AffineDimExpr):
        position = expr.position
        if position < captured:
            return expr
        i = position - captured
        moved = AffineExpr.dimension(position + shift)
        if i == variable:
            return AffineExpr.dimension(captured) * size + moved
        if i in outer:
            return AffineExpr.dimension(captured + 1 + outer.index(i)) + moved
        return moved
    return expr


def _copy_by_pages(load: ktdp.LoadOp, store: ktdp.StoreOp, tile: ktdp.ConstructIndirectAccessTileOp,
                   other: ktdp.ConstructAccessTileOp, variable: int, size: int) -> None:
    """Rewrite the copy as a loop nest over pages. A gather loops over the pages only; a scatter
    also over the variables enumerated before the paged one, so the writes keep their order
    (a page index repeated in the block table: the last write wins, as in the original)."""
    extents = box_extents(tile.variables_space_set.data, tile, "variables_space_set")  # type: ignore[union-attr]
    outer = [] if tile is load.access_tile.owner else list(range(variable))
    page_extents = list(extents)
    page_extents[variable] = size
    for u in outer:
        page_extents[u] = 1
    # the loop nest, where the store was: outer variables first, the pages innermost
    insert_at = InsertPoint.before(store)
    ivs: list[SSAValue] = []
    body: Block | None = None
    for trip in [extents[u] for u in outer] + [extents[variable] // size]:
        bounds = [arith.ConstantOp(IntegerAttr(n, IndexType())) for n in (0, trip, 1)]
        body = Block([scf.YieldOp()], arg_types=[IndexType()])
        loop = scf.ForOp(bounds[0].result, bounds[1].result, bounds[2].result, [], Region(body))
        for op in (*bounds, loop):
            op.location = store.location
            Rewriter.insert_op(op, insert_at)
        insert_at = InsertPoint.before(body.last_op)
        ivs.append(body.args[0])
    assert body is not None
    page, outer_ivs = ivs[-1], ivs[:-1]
    new_ops: list[Operation] = []
    # the indirect tile over one page
    captured = len(tile.captured_variables)
    maps = [AffineMap(a.data.num_dims + 1 + len(outer), a.data.num_symbols,  # type: ignore[union-attr]
                      tuple(_paged_expr(e, captured, variable, size, outer)
                            for e in a.data.results))  # type: ignore[union-attr]
            for a in tile.per_dim_subscript_maps.data]
    paged_tile = ktdp.ConstructIndirectAccessTileOp(
        ktdp.AccessTileType(page_extents), tile.base, tile.subscript_kinds(), maps, list(tile.indirect_memrefs),
        [*tile.captured_variables, page, *outer_ivs], box_set(page_extents), AffineMap.identity(len(page_extents)),
        list(tile.symbol_operands))
    new_ops.append(paged_tile)
    # the direct tile, moved along the view dimensions those variables enumerate
    order = other.access_tile_order.data if other.access_tile_order is not None else \
        AffineMap.identity(len(page_extents))
    dims = [e.position for e in order.results if isinstance(e, AffineDimExpr)]
    if len(dims) != len(page_extents):
        raise error(other, "access_tile_order of a paged copy's other tile must be a permutation")
    view_extents = box_extents(other.access_tile_set.data, other, "access_tile_set")  # type: ignore[union-attr]
    base_map = other.base_map.data
    results = list(base_map.results)
    n = base_map.num_dims
    view_extents[dims[variable]] = size
    results[dims[variable]] = results[dims[variable]] + AffineExpr.dimension(n) * size
    for k, u in enumerate(outer):
        view_extents[dims[u]] = 1
        results[dims[u]] = results[dims[u]] + AffineExpr.dimension(n + 1 + k)
    page_map = AffineMap(n + 1 + len(outer), base_map.num_symbols, tuple(results))
    paged_other = ktdp.ConstructAccessTileOp(
        ktdp.AccessTileType(page_extents), other.base, page_map, [*other.indices, page, *outer_ivs],
        box_set(view_extents), order, list(other.symbol_operands))
    new_ops.append(paged_other)
    tiles = {tile: paged_tile.result, other: paged_other.result}
    data_type = load.result.type
    assert isinstance(data_type, TensorType)
    paged_load = ktdp.LoadOp(tiles[load.access_tile.owner], TensorType(data_type.element_type, page_extents))
    paged_store = ktdp.StoreOp(paged_load.result, tiles[store.access_tile.owner])
    new_ops += [paged_load, paged_store]
    for op, like in zip(new_ops, [tile, other, load, store]):
        op.location = like.location
    for op in new_ops:
        Rewriter.insert_op(op, insert_at)
    for op in (store, load):
        Rewriter.erase_op(op)
    for op in (tile, other):
        if not op.result.uses:
            Rewriter.erase_op(op)


# ---------------------------------------------------------------------------
# Copies through the compute unit
# ---------------------------------------------------------------------------


def copies_through_compute(function: Operation) -> None:
    for load, store in _stored_loads(function):
        if len(list(load.result.uses)) != 1:
            continue  # also read by compute: the pipeline's own error says what to store
        data_type = load.result.type
        assert isinstance(data_type, TensorType)
        rank = data_type.get_num_dims()
        empty = tensor.EmptyOp([], data_type)
        body = Block(arg_types=[data_type.element_type] * 2)
        body.add_op(YieldOp(body.args[0]))
        identity = AffineMap.identity(rank)
        copy = GenericOp([load.result], [empty.tensor], Region(body), [AffineMapAttr(identity)] * 2,
                         [IteratorTypeAttr.parallel()] * rank, [data_type])
        for op in (empty, copy):
            op.location = store.location
            Rewriter.insert_op(op, InsertPoint.before(store))
        store.operands[0] = copy.results[0]
