"""Values computed from the compute tile id, evaluated tile by tile, and host `scf.if`s on them.

The host (the orchestrator after `compute-group-extraction`) cannot read the tile id, so two
passes ask what such a value is on each tile of the grid: `tile-invariant-loop-bounds` (a row
loop's trip count, Decision 50) and `compute-group-extraction` (which tiles a *tile guard*, an
`scf.if` on the tile id, lets through, Decision 63). A guard becomes the grid of the programs
it holds. A program with `grid = [n0, ..., nk]` runs on the grid's first n0 * ... * nk tiles in
row-major order, each keeping its coordinates, so the tiles a guard lets through must be those:
a box of the shape `[1, ..., 1, r, d(j+1), ..., dk]` (`first_tiles_box`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int

MAX_TILES = 1 << 16  # a grid larger than this is not enumerated (its loops and guards are left alone)

Tile = tuple[int, ...]

_EVALUATORS: dict[type, Callable[[int, int], int | None]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b if a >= 0 and b > 0 else None,
    arith.RemUIOp: lambda a, b: a % b if a >= 0 and b > 0 else None,
    arith.CeilDivSIOp: lambda a, b: -(-a // b) if b > 0 else None,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
    arith.MinUIOp: lambda a, b: min(a, b) if a >= 0 and b >= 0 else None,
    arith.MaxUIOp: lambda a, b: max(a, b) if a >= 0 and b >= 0 else None,
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
}

# arith.cmpi predicates eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge (the unsigned ones on
# operands that are not negative, where they agree with the signed ones)
_COMPARISONS: dict[int, Callable[[int, int], bool]] = {
    0: lambda a, b: a == b, 1: lambda a, b: a != b,
    2: lambda a, b: a < b, 3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
    6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b, 9: lambda a, b: a >= b,
}


def grid_of(kernel: func.FuncOp) -> list[int] | None:
    """The kernel's grid when it is a well-formed one small enough to enumerate, else None
    (a malformed grid is reported by the passes that read it)."""
    grid = kernel.attributes.get("grid")
    if not isinstance(grid, ArrayAttr) or not grid.data:
        return None
    if not all(isinstance(d, IntegerAttr) and d.value.data > 0 for d in grid.data):
        return None
    dims = [d.value.data for d in grid.data]
    return dims if math.prod(dims) <= MAX_TILES else None


def tiles_of(grid: list[int]) -> Iterator[Tile]:
    """Every tile of `grid`, in row-major order."""
    return itertools.product(*(range(d) for d in grid))


def tile_name(tile: Tile) -> str:
    return str(tile[0]) if len(tile) == 1 else "(" + ", ".join(map(str, tile)) + ")"


def reads_tile_id(value: SSAValue) -> bool:
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        owner = current.owner
        if isinstance(owner, ktdp.GetComputeTileIdOp):
            return True
        if isinstance(owner, Operation):
            pending.extend(owner.operands)
    return False


def evaluate(value: SSAValue, tile: Tile) -> int | None:
    """The integer `value` has on `tile` (booleans as 0/1), or None when it is not known there."""
    constant = constant_int(value)
    if constant is not None:
        return constant
    owner = value.owner
    if isinstance(owner, ktdp.GetComputeTileIdOp):
        index = list(owner.results).index(value)
        return tile[index] if index < len(tile) else None
    if isinstance(owner, arith.SelectOp):
        condition = evaluate(owner.cond, tile)
        if condition is None:
            return None
        return evaluate(owner.lhs if condition else owner.rhs, tile)
    if isinstance(owner, arith.CmpiOp):
        lhs, rhs = (evaluate(o, tile) for o in owner.operands)
        predicate = owner.predicate.value.data
        compare = _COMPARISONS.get(predicate)
        if lhs is None or rhs is None or compare is None or (predicate >= 6 and min(lhs, rhs) < 0):
            return None
        return int(compare(lhs, rhs))
    operation = _EVALUATORS.get(type(owner))
    if operation is None:
        return None
    lhs, rhs = (evaluate(o, tile) for o in owner.operands)
    return None if lhs is None or rhs is None else operation(lhs, rhs)


def first_tiles_box(grid: list[int], active: set[Tile]) -> list[int] | None:
    """The grid `[1, ..., 1, r, d(j+1), ..., dk]` whose tiles are exactly `active`, when `active`
    is the first tiles of `grid` in row-major order and such a box; else None."""
    if not active:
        return None
    count = len(active)
    shape = list(grid)
    for j in range(len(grid)):
        inner = math.prod(grid[j + 1:])
        if count % inner == 0 and count // inner <= grid[j]:
            shape = [1] * j + [count // inner] + list(grid[j + 1:])
            break
    else:
        return None
    if math.prod(shape) != count or any(t not in active for t in tiles_of(shape)):
        return None
    return shape


def is_tile_guard(op: Operation) -> bool:
    """An `scf.if` without results whose condition reads the tile id."""
    return isinstance(op, scf.IfOp) and not op.results and reads_tile_id(op.cond)


def guard_tiles(guards: list[scf.IfOp], grid: list[int]) -> set[Tile]:
    """The tiles every guard of `guards` lets through (a located error on a guard whose
    condition is unknown on some tile)."""
    active = set()
    for tile in tiles_of(grid):
        for guard in guards:
            holds = evaluate(guard.cond, tile)
            if holds is None:
                raise error(guard, "this scf.if's condition depends on the compute tile id and cannot be "
                                   f"evaluated at tile {tile_name(tile)}, so the host cannot tell which tiles "
                                   "run its body")
            if not holds:
                break
        else:
            active.add(tile)
    return active


def enclosing_guards(op: Operation) -> list[scf.IfOp]:
    """The tile guards around `op`, innermost first."""
    out, parent = [], op.parent_op()
    while parent is not None:
        if is_tile_guard(parent):
            out.append(parent)
        parent = parent.parent_op()
    return out


__all__ = [
    "MAX_TILES", "enclosing_guards", "evaluate", "first_tiles_box", "grid_of", "guard_tiles",
    "is_tile_guard", "reads_tile_id", "tile_name", "tiles_of",
]
