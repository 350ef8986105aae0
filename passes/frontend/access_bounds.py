"""Access tiles that reach past their view, per compute tile (`ktir-legality-check`).

KTIR masks an access outside a view's `coordinate_set` (or its sizes): loads read 0 and stores are
dropped (Decision 23). The scheduler's transfers are not masked: they move every position of the
access tile, so a tile that reaches past its view reads and writes other bytes, and tiles race.
The usual cause is a grid larger than the views cover (`grid = [4]` over a 2-row view indexed by
the tile id). Until masked transfers are scheduled, such a kernel is refused, located on the
access tile, naming the grid, the compute tiles, the dimension and the coordinates reached.

Only what can be shown is refused: bounds come from `passes/value_bounds.py` with each compute
tile's id in place (the kernel's grid, row-major), over constant-size views whose coordinate
set and access-tile set bound each dimension separately; anything else is left alone.
"""

from __future__ import annotations

import math

from xdsl.dialects import scf
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from dfsched.dialects.ktdp import DYNAMIC
from dfsched.diagnostics import error
from dfsched.passes.frontend.resolve_distributed_views import set_bounds
from dfsched.passes.frontend.tile_invariant_loop_bounds import kernel_grid
from dfsched.passes.value_bounds import Range, ValueBounds, expr_bounds

OUTSIDE = ("this access tile reaches outside its view on {who}: dimension {dim} reaches {low} to {high}, the "
           "view holds {first} to {last}; KTIR masks such accesses, the scheduled transfers cannot yet (they "
           "would read and write past the view)")
Span = tuple[int, int]


def check_access_tile_in_view(tile: Operation) -> None:
    """Raise, located on `tile`, when some compute tile's access reaches outside its view."""
    view = tile.operands[0].owner if tile.operands else None
    held = _view_span(view) if isinstance(view, Operation) else None
    offsets = _tile_offsets(tile)
    if held is None or offsets is None or len(offsets) != len(held):
        return
    grid = _grid_of(tile)
    reached = _reached(tile, offsets, _TileBounds())
    if reached is None or _inside(reached, held):
        return
    if grid is None:
        raise error(tile, _message("every compute tile", reached, held), notes=[(view, "the view")])
    tiles = math.prod(grid)
    bad = [t for t in _first_and_last(tiles, lambda t: _outside_for(tile, offsets, held, grid, t))]
    if not bad:
        return  # only the bounds over all tiles together reach outside, no tile on its own
    first, last = bad[0], bad[-1]
    spans = [_reached(tile, offsets, _TileBounds(_coordinates(t, grid))) for t in (first, last)]
    union = [(min(a[0], b[0]), max(a[1], b[1])) for a, b in zip(*spans)]  # type: ignore[arg-type]
    who = (f"compute tile {_name(first, grid)}" if first == last else
           f"compute tiles {_name(first, grid)} to {_name(last, grid)}") + f" of grid {list(grid)}"
    raise error(tile, _message(who, union, held), notes=[(view, "the view")])


def _message(who: str, reached: list[Span], held: list[Span]) -> str:
    for dim, ((low, high), (first, last)) in enumerate(zip(reached, held)):
        if low < first or high > last:
            return OUTSIDE.format(who=who, dim=dim, low=low, high=high, first=first, last=last)
    raise AssertionError("the access is inside the view")


def _view_span(view: Operation) -> list[Span] | None:
    """Per dimension, the coordinates a constant-size view holds: its sizes from the coordinate
    set's lower corner, within the set's bounds."""
    if view.name != "ktdp.construct_memory_view":
        return None
    sizes = list(view.get_static_sizes())  # type: ignore[attr-defined]
    if not sizes or DYNAMIC in sizes:
        return None
    the_set = view.properties.get("coordinate_set")
    bounds: list[tuple[int | None, int | None]] = [(None, None)] * len(sizes)
    if the_set is not None:
        data = getattr(the_set, "data", None)
        if data is None or data.num_symbols or data.num_dims != len(sizes):
            return None
        bounds = set_bounds(data, [])  # type: ignore[assignment]
        if bounds is None:
            return None
    spans = []
    for size, (low, high) in zip(sizes, bounds):
        corner = low or 0
        last = corner + size - 1 if high is None else min(high, corner + size - 1)
        spans.append((corner, last))
    return spans


def _tile_offsets(tile: Operation) -> list[Span] | None:
    """Per view dimension, the offsets from the anchor the access tile's points take (its set's
    bounds; an open end from the type's shape, as the reference enumerates it)."""
    if tile.name != "ktdp.construct_access_tile" or tile.symbol_operands:  # type: ignore[attr-defined]
        return None
    the_set = getattr(tile.properties.get("access_tile_set"), "data", None)
    shape = list(tile.results[0].type.get_shape())  # type: ignore[attr-defined]
    if the_set is None or the_set.num_symbols or DYNAMIC in shape:
        return None
    bounds = set_bounds(the_set, [])
    order = getattr(tile.properties.get("access_tile_order"), "data", None)
    if bounds is None or order is None:
        return None
    positions = [getattr(r, "position", None) for r in order.results]
    if sorted(p for p in positions if p is not None) != list(range(the_set.num_dims)) or len(shape) != len(positions):
        return None
    offsets = []
    for dim, (low, high) in enumerate(bounds):
        low = 0 if low is None else low
        high = low + shape[positions.index(dim)] - 1 if high is None else high
        if high < low:
            return None
        offsets.append((low, high))
    return offsets


def _reached(tile: Operation, offsets: list[Span], bounds: ValueBounds) -> list[Span] | None:
    """Per dimension, the coordinates the access tile's points reach (None when unbounded, or
    when a loop around it runs no iteration: the tile is never placed)."""
    if _in_loop_of_no_iteration(tile, bounds):
        return None
    amap = tile.base_map.data  # type: ignore[attr-defined]
    indices = [bounds.of(v) for v in tile.indices]  # type: ignore[attr-defined]
    dims, symbols = indices[: amap.num_dims], indices[amap.num_dims:]
    reached = []
    for expr, (low, high) in zip(amap.results, offsets):
        anchor = expr_bounds(expr, dims, symbols)
        if anchor[0] is None or anchor[1] is None:
            return None
        reached.append((anchor[0] + low, anchor[1] + high))
    return reached


def _in_loop_of_no_iteration(op: Operation, bounds: ValueBounds) -> bool:
    """Whether some `scf.for` around `op` provably runs no iteration (`lb >= ub` for every value
    the bounds allow; `for row = tile to 8 step 16` on tiles 8 and up)."""
    loop = op.parent_op()
    while loop is not None and "grid" not in loop.attributes:
        if isinstance(loop, scf.ForOp):
            low, high = bounds.of(loop.lb)[0], bounds.of(loop.ub)[1]
            if low is not None and high is not None and low >= high:
                return True
        loop = loop.parent_op()
    return False


def _inside(reached: list[Span], held: list[Span]) -> bool:
    return all(first <= low and high <= last for (low, high), (first, last) in zip(reached, held))


def _outside_for(tile: Operation, offsets: list[Span], held: list[Span], grid: list[int], t: int) -> bool:
    reached = _reached(tile, offsets, _TileBounds(_coordinates(t, grid)))
    return reached is not None and not _inside(reached, held)


SCAN = 1 << 17
"""Tiles tried from each end of the grid: a grid whose first `SCAN` tiles all stay inside (while
the bounds over all tiles do not) is left alone, so the check stays linear and bounded."""


def _first_and_last(count: int, bad) -> list[int]:
    """The first and the last of 0..count-1 for which `bad` holds, searching `SCAN` tiles from
    each end (the first alone when the last is farther from the end)."""
    first = next((t for t in range(min(count, SCAN)) if bad(t)), None)
    if first is None:
        return []
    last = next((t for t in range(count - 1, max(first, count - SCAN) - 1, -1) if t == first or bad(t)), first)
    return [first, last]


def _grid_of(op: Operation) -> list[int] | None:
    parent = op.parent_op()
    while parent is not None and "grid" not in parent.attributes:
        parent = parent.parent_op()
    return None if parent is None else kernel_grid(parent)


def _coordinates(t: int, grid: list[int]) -> tuple[int, ...]:
    """Tile `t`'s grid coordinates, row-major (the spec's numbering)."""
    coords = []
    for extent in reversed(grid):
        t, c = divmod(t, extent)
        coords.append(c)
    return tuple(reversed(coords))


def _name(t: int, grid: list[int]) -> str:
    return str(t) if len(grid) == 1 else f"{t} {_coordinates(t, grid)}"


class _TileBounds(ValueBounds):
    """Value bounds inside one compute tile (its ids constants; all tiles: None), with a loop
    variable's last value stepped (`for i = 0 to 128 step 64` ends at 64, not 127)."""

    def __init__(self, coordinates: tuple[int, ...] | None = None):
        super().__init__({})
        self.coordinates = coordinates

    def _compute(self, value: SSAValue) -> Range:
        if (self.coordinates is not None and isinstance(value, OpResult)
                and value.op.name == "ktdp.get_compute_tile_id"):
            coordinate = self.coordinates[value.index] if value.index < len(self.coordinates) else 0
            return (coordinate, coordinate)
        return super()._compute(value)

    def _block_argument(self, arg: BlockArgument) -> Range:
        low, high = super()._block_argument(arg)
        loop = arg.block.parent_op()
        if isinstance(loop, scf.ForOp) and arg.index == 0 and low is not None and high is not None:
            step = self.of(loop.step)
            if low == self.of(loop.lb)[1] and step[0] is not None and step[0] == step[1] and step[0] > 0:
                high = low + (high - low) // step[0] * step[0]
        return (low, high)


__all__ = ["check_access_tile_in_view", "OUTSIDE"]
