"""Loops whose bounds depend on the compute tile id, rewritten to count from zero (README
Decision 52).

Triton kernels hand each compute tile its own rows: `scf.for %row = %pid * 64 to %pid * 64 + 64`
(RMSNorm), `scf.for %row = %pid to 8 step 2` (every other row). Such a loop stays in the
orchestrator, which runs once for all tiles, so its bounds cannot read the tile id. When every
tile of the grid runs the same number of iterations, the loop is rewritten to
`scf.for %i = 0 to trips * step step step` with `%row = lb + %i` at the top of its body: the
tile id moves into the programs, which compute their own row. Each tile's bounds are evaluated
by `value_bounds` with the tile id fixed. A loop whose trip count differs between tiles is left
as it is (the scheduler reports the tile id where it cannot run it).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int
from dfsched.passes.value_bounds import ValueBounds


def normalize_tile_dependent_loops(root: Operation) -> None:
    for loop in [op for op in root.walk() if isinstance(op, scf.ForOp)]:
        trips = _uniform_trip_count(loop)
        if trips is not None:
            _count_from_zero(loop, trips)


def _uniform_trip_count(loop: scf.ForOp) -> int | None:
    """The trip count every tile of the grid runs, when the bounds read the tile id."""
    step = constant_int(loop.step)
    tile_ids = _tile_ids(loop.lb) | _tile_ids(loop.ub)
    tiles = _grid_size(loop)
    if step is None or step <= 0 or not tile_ids or tiles is None:
        return None
    counts = set()
    for tile in range(tiles):
        bounds = ValueBounds({})
        for tile_id in tile_ids:
            bounds.memo[tile_id] = (tile, tile)
        (lb, lb_high), (ub, ub_high) = bounds.of(loop.lb), bounds.of(loop.ub)
        if lb is None or ub is None or lb != lb_high or ub != ub_high:
            return None
        counts.add(max(0, math.ceil((ub - lb) / step)))
    return counts.pop() if len(counts) == 1 else None


def _tile_ids(value: SSAValue, depth: int = 0) -> set[SSAValue]:
    owner = value.owner if isinstance(value, OpResult) else None
    if owner is None or depth > 32:
        return set()
    if isinstance(owner, ktdp.GetComputeTileIdOp):
        return {value}
    found: set[SSAValue] = set()
    for operand in owner.operands:
        found |= _tile_ids(operand, depth + 1)
    return found


def _grid_size(loop: Operation) -> int | None:
    """The number of tiles of the kernel's grid, when at most one of its dimensions exceeds 1
    (the tile id is then that dimension's index)."""
    func = loop.parent_op()
    while func is not None and "grid" not in func.attributes:
        func = func.parent_op()
    grid = func.attributes.get("grid") if func is not None else None
    sizes = [e.value.data for e in grid.data] if isinstance(grid, ArrayAttr) else \
        list(grid.get_values()) if grid is not None and hasattr(grid, "get_values") else None
    if not sizes or sum(1 for s in sizes if s > 1) > 1:
        return None
    return math.prod(sizes)


def _count_from_zero(loop: scf.ForOp, trips: int) -> None:
    step = constant_int(loop.step)
    assert step is not None
    index = loop.lb.type
    zero = arith.ConstantOp(IntegerAttr(0, index))
    end = arith.ConstantOp(IntegerAttr(trips * step, index))
    for op in (zero, end):
        op.location = loop.location
        Rewriter.insert_op(op, InsertPoint.before(loop))
    start = loop.lb
    loop.operands = [zero.result, end.result, *loop.operands[2:]]
    iv = loop.body.block.args[0]
    uses = list(iv.uses)
    row = arith.AddiOp(start, iv)
    row.location = loop.location
    Rewriter.insert_op(row, InsertPoint.at_start(loop.body.block))
    for use in uses:
        use.operation.operands[use.index] = row.result
