"""`clip-bound-access-tiles`: views whose sizes `--bind` made constants become static, and an
element-wise kernel's access tiles that reach past such a view are clipped to it (Decision 103).

Triton sizes a view by a run-time argument (`memref<?xf32>`, `sizes: [%n]`, its coordinate
set bounded by a symbol) and reads it through a fixed tile that may reach past it: the
positions past the size are masked (Decision 23: loads read 0, stores are dropped). With
`--bind n_elements=256` the size is a constant, and this pass, run by the front door right
after `bind-kernel-arguments`:

1. gives every `ktdp.construct_memory_view` whose dynamic sizes are all constants those sizes
   statically (its memref type and `static_sizes`), with the coordinate set's symbols (bound
   left to right to the dynamic sizes) replaced by their values;
2. clips the access tiles that reach past a static view, when the kernel is element-wise over
   them: every tile is a full box anchored at constant indices, every value their loads give is
   read only by `arith`/`math` ops on tensors of the tile's shape (and `tensor.splat`s of that
   shape may join in), every such value ends in `ktdp.store`s through tiles of the same shape,
   and all those tiles clip to one shape. The tiles, the loaded tensors and every op between
   then take the clipped shape: the positions dropped are exactly those a masked load reads as 0
   and a masked store drops, and no element-wise result at one position depends on another.

Anything else is left as it was (a view of dynamic shape then meets Decision 91's refusal).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import AffineSetAttr, MemRefType, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from dfsched.dialects import ktdp
from dfsched.dialects.ktdp_types import AccessTileType
from dfsched.passes.frontend.resolve_distributed_views import make_views_static, tile_box
from dfsched.passes.frontend.utils import box_set


@dataclass(frozen=True)
class ClipBoundAccessTiles(ModulePass):
    """Make bound views static and clip element-wise kernels' tiles to them."""

    name = "clip-bound-access-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            make_views_static(function)
            clip_tiles(function)


def clip_tiles(function: func.FuncOp) -> None:
    """Step 2: clip the tiles of an element-wise kernel reaching past a static view."""
    tiles = [t for t in function.walk() if isinstance(t, ktdp.ConstructAccessTileOp)]
    clipped = {t: _clipped_shape(t) for t in tiles}
    if not any(shape is not None and shape != t.result.type.get_shape() for t, shape in clipped.items()):
        return
    if any(shape is None for shape in clipped.values()) or len(set(clipped.values())) != 1:
        return
    if len({t.result.type.get_shape() for t in tiles}) != 1:
        return
    shape = next(iter(clipped.values()))
    assert shape is not None
    values = _elementwise_closure(tiles)
    stored = [use.operation.operands[0] for t in tiles for use in t.result.uses if isinstance(use.operation, ktdp.StoreOp)]
    if values is None or any(v not in values for v in stored):
        return
    for tile in tiles:
        tile.properties["access_tile_set"] = AffineSetAttr(box_set(shape))
        Rewriter.replace_value_with_new_type(tile.result, AccessTileType(shape, tile.result.type.get_element_type()))
    for value in values:
        Rewriter.replace_value_with_new_type(value, TensorType(value.type.element_type, shape))


def _clipped_shape(tile: ktdp.ConstructAccessTileOp) -> tuple[int, ...] | None:
    """The tile's shape cut to its static view, None when the tile is not a box from 0 at a
    constant position (`tile_box`) over a view of static shape."""
    view_type = tile.base.type
    if not isinstance(view_type, MemRefType) or not isinstance(tile.result.type, AccessTileType) \
            or any(d < 0 for d in view_type.get_shape()):
        return None
    box = tile_box(tile)
    if isinstance(box, str) or len(box) != len(view_type.get_shape()):
        return None
    clipped = tuple(min(hi, extent - 1) - lo + 1 for (lo, hi), extent in zip(box, view_type.get_shape()))
    return clipped if all(c >= 1 for c in clipped) else None


def _elementwise_closure(tiles: list[ktdp.ConstructAccessTileOp]) -> list[SSAValue] | None:
    """Every tensor value between the tiles' loads and stores, when the kernel is element-wise
    over them (module docstring); None otherwise."""
    shape = tiles[0].result.type.get_shape()
    seen: list[SSAValue] = []
    work: list[SSAValue] = []
    for tile in tiles:
        for use in tile.result.uses:
            if isinstance(use.operation, ktdp.LoadOp):
                work.append(use.operation.results[0])
            elif not isinstance(use.operation, ktdp.StoreOp):
                return None
    while work:
        value = work.pop()
        if value in seen:
            continue
        if not isinstance(value.type, TensorType) or value.type.get_shape() != shape:
            return None
        seen.append(value)
        producer = value.owner
        if isinstance(producer, Operation) and _elementwise(producer):
            work.extend(v for v in producer.operands if isinstance(v.type, TensorType))
        for use in value.uses:
            user = use.operation
            if isinstance(user, ktdp.StoreOp):
                continue
            if not _elementwise(user):
                return None
            work.extend(user.results)
            work.extend(v for v in user.operands if isinstance(v.type, TensorType))
    return seen


def _elementwise(op: Operation) -> bool:
    if isinstance(op, ktdp.LoadOp | tensor.SplatOp):
        return True
    return op.dialect_name() in ("arith", "math") and bool(op.results) and \
        all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results))
