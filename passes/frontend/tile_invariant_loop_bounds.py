"""`tile-invariant-loop-bounds`: a host loop whose bounds depend on the compute tile id counts
iterations instead, the tile id moving into its body (README Decisions 50 and 63).

Triton kernels spread rows over the grid with a loop that starts at the tile's own id:

    %t = ktdp.get_compute_tile_id : index
    scf.for %row = %t to %n_rows step %c32 { ...load row %row, compute, store... }

After `compute-group-extraction` the loop is host code (the orchestrator) and its body a
program every tile runs at once, so the host cannot know `%t`. With the bounds and step
evaluated at each tile id, every tile runs at least T iterations; the loop becomes

    scf.for %k = 0 to T step 1 { %row = lb + %k * step ; ... }

with `lb` and `step` the loop's own values: the group copies the tile id and the arithmetic into
its program, so each tile computes its row there (a per-unit value after lowering) and the host
passes only %k. When some tiles run more (1151 rows on 32 tiles: 36 on tiles 0-30, 35 on tile
31), each further iteration k follows as a copy of the body under a tile guard

    %row_k = lb + k * step ; scf.if (%row_k < ub) { ...the body at %row_k... }

which `compute-group-extraction` turns into programs on the tiles that run it (`tile_guards.py`):
they must be the grid's first tiles in row-major order. Only loops holding a `ktdp.load` or
`ktdp.store` without `iter_args` are rewritten. Diagnostics (located on the loop): the tiles
that run an iteration are not the grid's first ones, more than MAX_PEELED iterations differ
between tiles (both naming two tiles and their counts), or a bound cannot be evaluated at a tile
id while it depends on it. Reads no architecture facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.passes import ModulePass

from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import index_constant
from dfsched.passes.builder import Builder
from dfsched.passes.frontend.tile_guards import (
    Tile,
    evaluate,
    first_tiles_box,
    grid_of,
    reads_tile_id,
    tile_name,
    tiles_of,
)

MAX_PEELED = 8  # iterations only some tiles run, each a copy of the body under a tile guard


@dataclass(frozen=True)
class TileInvariantLoopBounds(ModulePass):
    """Rewrite host loops whose bounds depend on the tile id into loops over iteration numbers."""

    name = "tile-invariant-loop-bounds"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_invariant_loop_bounds(op)


def tile_invariant_loop_bounds(root: Operation) -> None:
    for kernel in [o for o in root.walk() if isinstance(o, func.FuncOp)]:
        grid = grid_of(kernel)
        if grid is None:
            continue  # no grid, a malformed one or one too large to enumerate: left as it is
        for loop in [o for o in kernel.walk() if isinstance(o, scf.ForOp)]:
            _rewrite(loop, grid)


def _rewrite(loop: scf.ForOp, grid: list[int]) -> None:
    if loop.iter_args or not _holds_memory_access(loop):
        return
    bounds = (loop.lb, loop.ub, loop.step)
    if not any(reads_tile_id(v) for v in bounds):
        return
    trips: dict[Tile, int] = {}
    for tile in tiles_of(grid):
        lb, ub, step = (evaluate(v, tile) for v in bounds)
        if lb is None or ub is None or step is None or step <= 0:
            raise error(loop, "the loop's bounds depend on the compute tile id and cannot be evaluated at "
                              f"tile {tile_name(tile)}, so the host cannot run it for every tile at once")
        trips[tile] = max(0, -(-(ub - lb) // step))
    everywhere, most = min(trips.values()), max(trips.values())
    _check_peelable(loop, grid, trips, everywhere, most)
    upper_bound = loop.ub
    _count_iterations(loop, everywhere)
    last: Operation = loop
    for k in range(everywhere, most):
        last = _guarded_iteration(loop, upper_bound, k, last)


def _check_peelable(loop: scf.ForOp, grid: list[int], trips: dict[Tile, int], everywhere: int, most: int) -> None:
    if everywhere == most:
        return
    fewest = next(t for t, n in trips.items() if n == everywhere)
    busiest = next(t for t, n in trips.items() if n == most)
    counts = (f"{everywhere} on tile {tile_name(fewest)}, {most} on tile {tile_name(busiest)}")
    if most - everywhere > MAX_PEELED:
        raise error(loop, "the loop's bounds depend on the compute tile id and its trip count differs by more "
                          f"than {MAX_PEELED} between tiles ({counts}), so the host cannot run it for every "
                          "tile at once")
    for k in range(everywhere, most):
        active = {t for t, n in trips.items() if n > k}
        if first_tiles_box(grid, active) is None:
            outside = next(t for t in tiles_of(grid) if t in active and first_tiles_box(grid, {t}) is None)
            raise error(loop, "the loop's bounds depend on the compute tile id and it runs a different number "
                              f"of iterations on different tiles ({counts}); the tiles that run iteration {k} "
                              f"(tile {tile_name(outside)} among them) are not the grid's first tiles, and "
                              "a program runs on the first tiles of the grid")


def _count_iterations(loop: scf.ForOp, trip_count: int) -> None:
    """`for %k = 0 to trip_count step 1`, the body computing its row as `lb + %k * step`."""
    body = loop.body.block
    at_start = Builder.at_start(body)
    iv = body.args[0]
    scaled = at_start.value(arith.MuliOp(iv, loop.step))
    row = at_start.value(arith.AddiOp(loop.lb, scaled))
    for use in list(iv.uses):
        if use.operation is not scaled.owner:
            use.operation.operands[use.index] = row
    before = Builder.before(loop)
    loop.operands[0] = before.value(index_constant(0))
    loop.operands[1] = before.value(index_constant(trip_count))
    loop.operands[2] = before.value(index_constant(1))


def _guarded_iteration(loop: scf.ForOp, upper_bound: SSAValue, k: int, previous: Operation) -> scf.IfOp:
    """Iteration `k` of the rewritten loop, after `previous`, run where its row is below the
    loop's original upper bound (the row arithmetic the body starts with: `_count_iterations`)."""
    body = loop.body.block
    scaled, row = body.ops.first, body.ops.first.next_op
    assert isinstance(scaled, arith.MuliOp) and isinstance(row, arith.AddiOp)
    after = Builder(InsertPoint.after(previous), location=loop.location)
    number = after.value(index_constant(k))
    guard_row = after.value(arith.AddiOp(row.lhs, after.value(arith.MuliOp(number, scaled.rhs))))
    holds = after.value(arith.CmpiOp(guard_row, upper_bound, "slt"))
    block = Block()
    mapping = {body.args[0]: number}
    for op in body.ops:
        if not isinstance(op, scf.YieldOp):
            block.add_op(op.clone(mapping))
    block.add_op(scf.YieldOp())
    guard = scf.IfOp(holds, [], [block])
    after.insert(guard)
    return guard


def _holds_memory_access(loop: Operation) -> bool:
    return any(isinstance(o, ktdp.LoadOp | ktdp.StoreOp) for o in loop.walk())


__all__ = ["TileInvariantLoopBounds", "tile_invariant_loop_bounds"]
