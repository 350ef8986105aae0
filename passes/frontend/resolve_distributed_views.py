"""`resolve-distributed-views`: send every access of a distributed view to the parts that own it.

See `docs/passes.md#resolve-distributed-views`. `ktdp.construct_distributed_memory_view` makes
one logical tensor of several views (its *parts*); each coordinate lives in the part whose
`coordinate_set` holds it, at the coordinate minus that set's lower corner. The scheduler knows
plain views only, so this front-door pass, once `--bind` made the extents constants:

1. unrolls the `scf.for` loops (constant bounds, no `iter_args`) around an access tile of a
   distributed view whose position is not constant yet, at most `MAX_UNROLLED` copies a loop;
2. gives each part a plain view of its own bytes indexed from 0 (the part's view with its
   `coordinate_set` moved to the origin);
3. rewrites each access tile of the distributed view: a tile inside one part becomes the same
   tile over that part's view; a tile spanning several parts that is only loaded and stored
   whole (a copy) becomes one load and one store per part it meets, each a box of the tile.

A distributed view it cannot resolve stays, and `ktir-legality-check` refuses it with the reason
`why_unresolved` gives: parts that are not plain views, whose sets are not boxes or depend on
run-time values, that overlap, or that live in the scratchpad of a compute tile outside the grid
(`ct_id`); tiles at run-time positions, that reach coordinates no part holds, or that span
parts and feed anything but a store. A part in a scratchpad (a kernel argument's, or at a
constant address `address-assignment` keeps clear; `ct_id = N`: tile N's, which the other tiles
read over the core links) is a plain view like any other.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import AffineSetAttr, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineExpr, AffineMap, AffineSet
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int
from dfsched.dialects.ktdp_inter_tile import linear_form
from dfsched.passes.frontend.utils import box_set
from dfsched.passes.walk import ancestors

MAX_UNROLLED = 64
"""Copies of loop bodies the pass makes in a function (all loops together) to give a distributed
view's tiles constant positions."""

Box = tuple[tuple[int, int], ...]  # inclusive (lo, hi) per dimension


@dataclass(frozen=True)
class ResolveDistributedViews(ModulePass):
    """Rewrite accesses of distributed views into accesses of their parts."""

    name = "resolve-distributed-views"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            views = _distributed_views(function)
            if not views or any(isinstance(_parts(v, grid_size(function)), str) for v in views):
                continue  # left for ktir-legality-check to refuse, with the reason: nothing to unroll for
            from dfsched.passes.cleanup.canonicalize import canonicalize  # only for kernels that need it
            if any([merge_strided_parts(v, grid_size(function)) for v in views]):  # every one
                views = _distributed_views(function)
            if _unroll_loops_around(views):
                canonicalize(function)
                views = _distributed_views(function)
            resolved = False
            for view in views:
                if why_unresolved(view) is None:
                    _resolve(view)
                    resolved = True
            if resolved:
                make_views_static(function)
                canonicalize(function)


# ---------------------------------------------------------------------------------------
# what a distributed view is made of
# ---------------------------------------------------------------------------------------


@dataclass
class Part:
    view: ktdp.ConstructMemoryViewOp
    box: Box  # the global coordinates it holds


def why_unresolved(view: ktdp.ConstructDistributedMemoryViewOp) -> str | None:
    """Why `view` cannot be resolved into plain views (None: it can)."""
    function = view.parent_op()
    while function is not None and not isinstance(function, func.FuncOp):
        function = function.parent_op()
    parts = _parts(view, grid_size(function))
    if isinstance(parts, str):
        return parts
    for use in list(view.result.uses):
        tile = use.operation
        if not isinstance(tile, ktdp.ConstructAccessTileOp):
            return f"the view is used by '{tile.name}', not by an access tile"
        reason = _pieces(tile, parts)
        if isinstance(reason, str):
            return reason
    return None


def _parts(view: ktdp.ConstructDistributedMemoryViewOp, tiles: int) -> list[Part] | str:
    parts: list[Part] = []
    for index, operand in enumerate(view.operands):
        part = operand.owner
        if not isinstance(part, ktdp.ConstructMemoryViewOp):
            return f"part #{index} is not built by ktdp.construct_memory_view"
        space = part.properties.get("memory_space")
        if space is None:
            return f"part #{index} has no memory_space"
        ct_id = getattr(getattr(space, "ct_id", None), "data", -1)
        if ct_id >= tiles:
            return (f"part #{index} lives in compute tile {ct_id}'s scratchpad (ct_id = {ct_id}), but the grid has "
                    f"{tiles} tile(s)")
        the_set = part.properties.get("coordinate_set")
        if not isinstance(the_set, AffineSetAttr):
            return f"part #{index} has no coordinate_set"
        symbols = [constant_int(v) for v in part.sizes[: the_set.data.num_symbols]]
        if None in symbols or len(symbols) < the_set.data.num_symbols:
            return (f"part #{index}'s coordinate_set depends on a value known only at run time "
                    "(bind it with --bind NAME=VALUE)")
        box = set_box(the_set.data, symbols)  # type: ignore[arg-type]
        if box is None:
            return f"part #{index}'s coordinate_set is not a box of constant bounds"
        for earlier, other in enumerate(parts):
            if _intersect(box, other.box) is not None:
                return f"parts #{earlier} and #{index} hold common coordinates"
        parts.append(Part(part, box))
    return parts


def set_box(the_set: AffineSet, symbols: Sequence[int]) -> Box | None:
    """The inclusive bounds of `the_set` when each constraint bounds one dimension (a box)."""
    bounds = set_bounds(the_set, symbols)
    if bounds is None or any(l is None or h is None or l > h for l, h in bounds):
        return None
    return tuple(bounds)  # type: ignore[arg-type]


def set_bounds(the_set: AffineSet, symbols: Sequence[int]) -> list[tuple[int | None, int | None]] | None:
    """The inclusive bounds per dimension of `the_set` (None at an end no constraint bounds)
    when each constraint bounds one dimension, else None."""
    lo: list[int | None] = [None] * the_set.num_dims
    hi: list[int | None] = [None] * the_set.num_dims
    for constraint in the_set.constraints:
        row = linear_form(constraint.lhs - constraint.rhs, the_set.num_dims, the_set.num_symbols)
        dims = [d for d in range(the_set.num_dims) if row is not None and row[d]]
        if row is None or len(dims) != 1:
            return None
        d, a = dims[0], row[dims[0]]
        rest = row[-1] + sum(c * s for c, s in zip(row[the_set.num_dims:-1], symbols))
        kind = constraint.kind.value
        if kind == "<=":
            a, rest = -a, -rest
        # a * x + rest >= 0 (or == 0)
        if a > 0 or kind == "==":
            bound = -((rest if a > 0 else -rest) // abs(a))  # ceil(-rest / a)
            lo[d] = bound if lo[d] is None else max(lo[d], bound)  # type: ignore[type-var]
        if a < 0 or kind == "==":
            bound = (rest if a < 0 else -rest) // abs(a)  # floor(rest / -a)
            hi[d] = bound if hi[d] is None else min(hi[d], bound)  # type: ignore[type-var]
    return list(zip(lo, hi))


def _intersect(a: Box, b: Box) -> Box | None:
    out = tuple((max(x[0], y[0]), min(x[1], y[1])) for x, y in zip(a, b))
    return None if any(l > h for l, h in out) else out


def _volume(box: Box) -> int:
    count = 1
    for lo, hi in box:
        count *= hi - lo + 1
    return count


# ---------------------------------------------------------------------------------------
# parts that are one strided view
# ---------------------------------------------------------------------------------------


def merge_strided_parts(view: ktdp.ConstructDistributedMemoryViewOp, tiles: int) -> bool:
    """Replace `view` by one plain view when its parts are one strided view cut into boxes: all in
    global memory, one element type, the same static strides, boxes that fill the box from 0
    they span (the distributed view's shape), and each part starting where that view holds its lower corner (its start, minus
    its corner times the strides, in bytes, is the same base for all: a constant, or one value
    plus a constant). Its tiles may then sit anywhere, at positions known only per tile (the
    column halves of a row-sharded tensor, `rmsnorm_4core_2x2`). Whether it did."""
    parts = _parts(view, tiles)
    if isinstance(parts, str) or not parts:
        return False
    first = parts[0].view
    element = first.result.type.get_element_type()  # type: ignore[union-attr]
    width = getattr(element, "bitwidth", None)
    strides = _static_values(first.get_static_strides(), first.strides)
    if width is None or width % 8 or strides is None:
        return False
    bases = set()
    for part in parts:
        space = part.view.properties.get("memory_space")
        if getattr(getattr(space, "kind", None), "data", "global") != "global" or \
                getattr(getattr(space, "ct_id", None), "data", -1) >= 0:
            return False
        if part.view.result.type.get_element_type() != element or \
                _static_values(part.view.get_static_strides(), part.view.strides) != strides:
            return False
        start = _value_plus_constant(part.view.offset)
        if start is None:
            return False
        corner = sum(lo * stride for (lo, _), stride in zip(part.box, strides)) * (width // 8)
        bases.add((start[0], start[1] - corner))
    span = tuple((min(p.box[d][0] for p in parts), max(p.box[d][1] for p in parts)) for d in range(len(strides)))
    if len(bases) != 1 or any(lo != 0 for lo, _ in span) or sum(_volume(p.box) for p in parts) != _volume(span) \
            or [hi + 1 for _, hi in span] != list(view.result.type.get_shape()):  # type: ignore[union-attr]
        return False
    (root, displacement), = bases
    if displacement < 0:
        return False
    offset = arith.ConstantOp(IntegerAttr(displacement, IndexType()))
    new_ops: list[Operation] = [] if root is not None and displacement == 0 else [offset]
    base = root if root is not None and displacement == 0 else offset.result
    if root is not None and displacement:
        add = arith.AddiOp(root, offset.result)
        new_ops.append(add)
        base = add.result
    sizes = [hi + 1 for _, hi in span]
    merged = ktdp.ConstructMemoryViewOp(base, sizes, strides, MemRefType(element, sizes),
                                        first.properties["memory_space"], box_set(sizes))
    new_ops.append(merged)
    for op in new_ops:
        op.location = view.location
        Rewriter.insert_op(op, InsertPoint.before(view))
    view.result.replace_all_uses_with(merged.result)
    Rewriter.erase_op(view)
    for part in parts:
        if not part.view.result.uses:
            Rewriter.erase_op(part.view)
    return True


def _value_plus_constant(value: SSAValue) -> tuple[SSAValue | None, int] | None:
    """(v, c) when `value` is the constant c (v None), a value v (c = 0) or `arith.addi` of them."""
    constant = constant_int(value)
    if constant is not None:
        return None, constant
    owner = value.owner
    if isinstance(owner, arith.AddiOp):
        for a, b in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            c = constant_int(b)
            if c is not None and constant_int(a) is None:
                return a, c
        return None
    return value, 0


# ---------------------------------------------------------------------------------------
# access tiles
# ---------------------------------------------------------------------------------------


def tile_box(tile: ktdp.ConstructAccessTileOp) -> Box | str:
    """The global coordinates a direct access tile covers (a box at a constant position)."""
    indices = [constant_int(v) for v in tile.indices]
    symbols = [constant_int(v) for v in tile.symbol_operands]
    if None in indices or None in symbols:
        return ("the access tile's position is a value known only at run time (the compute tile id, a kernel "
                "argument --bind could fix, or a loop whose trip count is not constant)")
    order = tile.access_tile_order.data  # type: ignore[union-attr]
    the_set = tile.access_tile_set.data  # type: ignore[union-attr]
    if order != AffineMap.identity(order.num_dims):
        return "the access tile's access_tile_order is not the identity"
    extents = set_box(the_set, [])
    if the_set.num_symbols or extents is None or any(lo != 0 for lo, _ in extents):
        return "the access tile's access_tile_set is not a box from 0 of constant bounds"
    start = tile.base_map.data.eval(indices, symbols)  # type: ignore[arg-type]
    return tuple((s, s + hi) for s, (_, hi) in zip(start, extents))


@dataclass
class Piece:
    part: Part
    box: Box


def _pieces(tile: ktdp.ConstructAccessTileOp, parts: list[Part]) -> list[Piece] | str:
    box = tile_box(tile)
    if isinstance(box, str):
        return box
    pieces = [Piece(p, b) for p in parts if (b := _intersect(box, p.box)) is not None]
    if sum(_volume(p.box) for p in pieces) != _volume(box):
        return f"the access tile reaches coordinates no part of the distributed view holds (tile {_show(box)})"
    if len(pieces) == 1:
        return pieces
    for use in tile.result.uses:
        load = use.operation
        if not isinstance(load, ktdp.LoadOp):
            return (f"an access tile spanning {len(pieces)} parts of a distributed view is only loaded (and copied); "
                    f"this one is used by '{load.name}'")
        reason = _copy_target(load, box)
        if reason is not None:
            return reason
    return pieces


def _copy_target(load: ktdp.LoadOp, box: Box) -> str | None:
    """Why the loaded tile is not only stored whole through a plain view's tile of its shape."""
    uses = list(load.result.uses)
    store = uses[0].operation if len(uses) == 1 else None
    if not isinstance(store, ktdp.StoreOp) or store.data_tile is not load.result:
        return ("a tile spanning several parts of a distributed view can only be copied (stored as loaded, "
                "once); here it feeds " + (f"'{store.name}'" if store is not None else f"{len(uses)} users"))
    target = store.access_tile.owner
    if not isinstance(target, ktdp.ConstructAccessTileOp) or isinstance(
            target.base.owner, ktdp.ConstructDistributedMemoryViewOp):
        return "the copy of a tile spanning several parts must store through a plain view's access tile"
    target_box = tile_box(target)
    if isinstance(target_box, str):
        return target_box
    if [hi - lo for lo, hi in target_box] != [hi - lo for lo, hi in box]:
        return "the copy of a tile spanning several parts must store a tile of the same shape"
    return None


def _show(box: Box) -> str:
    return "[" + ", ".join(f"{lo}..{hi}" for lo, hi in box) + "]"


# ---------------------------------------------------------------------------------------
# rewriting
# ---------------------------------------------------------------------------------------


def _resolve(view: ktdp.ConstructDistributedMemoryViewOp) -> None:
    function = view.parent_op()
    while not isinstance(function, func.FuncOp):
        function = function.parent_op()  # type: ignore[union-attr]
    parts = _parts(view, grid_size(function))
    assert not isinstance(parts, str)
    local_views: dict[int, ktdp.ConstructMemoryViewOp] = {}
    for use in list(view.result.uses):
        tile = use.operation
        assert isinstance(tile, ktdp.ConstructAccessTileOp)
        pieces = _pieces(tile, parts)
        assert not isinstance(pieces, str)
        if len(pieces) == 1:
            local = _local_view(pieces[0].part, local_views, view)
            new = _tile_over(local, pieces[0].part, pieces[0].box, tile, tile.result.type)
            Rewriter.replace_op(tile, new, [new[-1].result])
            continue
        box = tile_box(tile)
        for load_use in list(tile.result.uses):
            load = load_use.operation
            store = next(iter(load.result.uses)).operation
            target = store.access_tile.owner
            target_box = tile_box(target)
            for piece in pieces:
                local = _local_view(piece.part, local_views, view)
                shape = [hi - lo + 1 for lo, hi in piece.box]
                tile_type = ktdp.AccessTileType(shape)
                source = _tile_over(local, piece.part, piece.box, tile, tile_type)
                shifted = tuple((t[0] + p[0] - b[0], t[0] + p[1] - b[0])
                                for t, p, b in zip(target_box, piece.box, box))  # type: ignore[arg-type]
                dest = _tile_at(target.base, shifted, target, tile_type)
                data = ktdp.LoadOp(source[-1].result, _tensor_type(shape, load.result.type))
                write = ktdp.StoreOp(data.result, dest[-1].result)
                for new_op in [*source, *dest, data, write]:
                    new_op.location = store.location
                    Rewriter.insert_op(new_op, InsertPoint.before(store))
            Rewriter.erase_op(store)
            Rewriter.erase_op(load)
            if not target.result.uses:
                Rewriter.erase_op(target)
        Rewriter.erase_op(tile)
    if not view.result.uses:
        Rewriter.erase_op(view)
        for part in parts:
            if not part.view.result.uses:
                Rewriter.erase_op(part.view)


def _local_view(part: Part, cache: dict[int, ktdp.ConstructMemoryViewOp], anchor: Operation) -> ktdp.ConstructMemoryViewOp:
    """The part's bytes as a plain view indexed from 0 (its coordinate_set moved to the origin)."""
    key = id(part.view)
    if key not in cache:
        local = static_view(part.view, box_set([hi - lo + 1 for lo, hi in part.box]))
        assert local is not None  # _parts checked its sizes are constants
        Rewriter.insert_op(local, InsertPoint.before(anchor))
        cache[key] = local
    return cache[key]


def static_view(view: ktdp.ConstructMemoryViewOp, coordinate_set: AffineSet | None = None) -> ktdp.ConstructMemoryViewOp | None:
    """`view` with its constant dynamic sizes and strides made static (its coordinate_set's
    symbols, which bind to the dynamic sizes, replaced by their values), or None when one is
    not a constant. The scheduler derives strides from static shapes only."""
    sizes = _static_values(view.get_static_sizes(), view.sizes)
    strides = _static_values(view.get_static_strides(), view.strides)
    if sizes is None or strides is None:
        return None
    if coordinate_set is None:
        the_set = view.properties["coordinate_set"].data  # type: ignore[union-attr]
        dynamic = [constant_int(v) for v in view.sizes][: the_set.num_symbols]
        values = [AffineExpr.constant(v) for v in dynamic]  # type: ignore[arg-type]
        dims = [AffineExpr.dimension(d) for d in range(the_set.num_dims)]
        coordinate_set = AffineSet(the_set.num_dims, 0, tuple(
            AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, values),
                                 c.rhs.replace_dims_and_symbols(dims, values)) for c in the_set.constraints))
    element = view.result.type.get_element_type()  # type: ignore[union-attr]
    static = ktdp.ConstructMemoryViewOp(view.offset, sizes, strides, MemRefType(element, sizes),
                                        view.properties["memory_space"], coordinate_set)
    static.location = view.location
    return static


def make_views_static(function: Operation) -> None:
    """Every plain view of `function` whose dynamic sizes and strides are constants, made static."""
    for view in [o for o in function.walk() if isinstance(o, ktdp.ConstructMemoryViewOp)]:
        if not view.sizes and not view.strides:
            continue
        has_set = isinstance(view.properties.get("coordinate_set"), AffineSetAttr)
        static = static_view(view) if has_set and "memory_space" in view.properties else None
        if static is not None:
            Rewriter.replace_op(view, static, [static.result])


def _static_values(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int] | None:
    values, rest = [], iter(dynamic)
    for value in static:
        if value == ktdp.DYNAMIC:
            value = constant_int(next(rest))
            if value is None:
                return None
        values.append(value)
    return values


def _tile_over(local: Operation, part: Part, piece: Box, tile: Operation, tile_type) -> list[Operation]:
    """An access tile of `piece` (global coordinates) over `part`'s local view."""
    return _tile_at(local.results[0], tuple((lo - p[0], hi - p[0]) for (lo, hi), p in zip(piece, part.box)),
                    tile, tile_type)


def _tile_at(base: SSAValue, box: Box, like: Operation, tile_type) -> list[Operation]:
    """Constants for `box`'s corner and an access tile of its shape over `base`."""
    corner = [arith.ConstantOp(IntegerAttr(lo, IndexType())) for lo, _ in box]
    rank = len(box)
    tile = ktdp.ConstructAccessTileOp(
        tile_type, base, AffineMap.identity(rank), [c.result for c in corner],
        box_set([hi - lo + 1 for lo, hi in box]), AffineMap.identity(rank))
    for op in [*corner, tile]:
        op.location = like.location
    return [*corner, tile]


def _tensor_type(shape: list[int], like):
    from xdsl.dialects.builtin import TensorType

    return TensorType(like.get_element_type(), shape)


# ---------------------------------------------------------------------------------------
# loops
# ---------------------------------------------------------------------------------------


def _distributed_views(function: Operation) -> list[ktdp.ConstructDistributedMemoryViewOp]:
    return [o for o in function.walk() if isinstance(o, ktdp.ConstructDistributedMemoryViewOp)]


def grid_size(function: Operation | None) -> int:
    grid = function.attributes.get("grid") if function is not None else None
    count = 1
    for extent in getattr(grid, "data", ()):
        if isinstance(extent, IntegerAttr):
            count *= max(1, extent.value.data)
    return count


def _unroll_loops_around(views: list[ktdp.ConstructDistributedMemoryViewOp]) -> bool:
    """Unroll the loops around tiles of `views` at positions not yet constant, outermost first
    (the copies of an outer loop hold the inner ones); whether any was."""
    copies = 0
    while True:
        made = 0
        for loop in _loops_around_unplaced_tiles(views):
            made = _unroll(loop, MAX_UNROLLED - copies)
            if made:
                break
        if not made:
            return copies > 0
        copies += made


def _loops_around_unplaced_tiles(views: list[ktdp.ConstructDistributedMemoryViewOp]) -> list[scf.ForOp]:
    loops: list[scf.ForOp] = []
    for view in views:
        for use in view.result.uses:
            tile = use.operation
            if not isinstance(tile, ktdp.ConstructAccessTileOp) or not isinstance(tile_box(tile), str):
                continue
            parent = tile.parent_op()
            while parent is not None and not isinstance(parent, func.FuncOp):
                if isinstance(parent, scf.ForOp) and parent not in loops:
                    loops.append(parent)
                parent = parent.parent_op()
    return sorted(loops, key=_depth)


def _depth(op: Operation) -> int:
    return sum(1 for _ in ancestors(op))


def _unroll(loop: scf.ForOp, budget: int) -> int:
    """Replace `loop` by a copy of its body per iteration; the copies made (0: left alone)."""
    if loop.parent is None or loop.iter_args or loop.results:
        return 0
    bounds = [constant_int(v) for v in (loop.lb, loop.ub, loop.step)]
    if None in bounds or bounds[2] <= 0:  # type: ignore[operator]
        return 0
    values = range(*bounds)  # type: ignore[arg-type]
    if not values or len(values) > budget:
        return 0
    body = loop.body.block
    for value in values:
        iv = arith.ConstantOp(IntegerAttr(value, IndexType()))
        iv.location = loop.location
        Rewriter.insert_op(iv, InsertPoint.before(loop))
        mapping: dict[SSAValue, SSAValue] = {body.args[0]: iv.result}
        for op in itertools.takewhile(lambda o: not isinstance(o, scf.YieldOp), body.ops):
            Rewriter.insert_op(op.clone(value_mapper=mapping), InsertPoint.before(loop))
    Rewriter.erase_op(loop)
    return len(values)


__all__ = ["ResolveDistributedViews", "why_unresolved", "set_box", "set_bounds", "MAX_UNROLLED"]
