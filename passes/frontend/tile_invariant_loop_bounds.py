"""`tile-invariant-loop-bounds`: a host loop whose bounds depend on the compute tile id counts
iterations instead, the tile id moving into its body (README Decisions 50 and 68).

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
31), each further iteration k follows as a copy of the body under a branch on the tile id

    %row_k = lb + k * step ; scf.if (%row_k < ub) { ...the body at %row_k... }

whose programs launch on the cores where it holds (`ktdflowering-to-dfir`, Decision 64). When
some tile runs no iteration (more tiles than rows), the counted loop would run zero times: it is
erased and only the guarded copies remain; a loop that runs on no tile at all (constant bounds
included) is erased too. Either loop, left in place, would be the only caller of its programs,
and the canonicalizer would drop it and leave them called nowhere. Only loops holding a
`ktdp.load` or `ktdp.store` without `iter_args` are rewritten. Diagnostics
(located on the loop): trip counts more than MAX_PEELED apart (naming two tiles and their
counts), or a bound that cannot be evaluated at a tile id while it depends on it. Reads no
architecture facts.
"""

from __future__ import annotations

import itertools
import math

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dfsched.passes.tile_arith import evaluate_at_tile
from dfsched.passes.walk import values_feeding
from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import index_constant, trip_count
from dfsched.passes.builder import Builder
from dfsched.passes.device_pass import CallPass

MAX_PEELED = 8  # iterations only some tiles run, each a copy of the body under a branch on the tile id
MAX_TILES = 1 << 16  # a grid larger than this is not enumerated (the loop is left as it is)


def tile_invariant_loop_bounds(root: Operation) -> None:
    for kernel in [o for o in root.walk() if isinstance(o, func.FuncOp)]:
        grid = kernel_grid(kernel)
        if grid is None or math.prod(grid) > MAX_TILES:
            continue  # no grid, or a malformed one: the passes that read it report it
        for loop in [o for o in kernel.walk() if isinstance(o, scf.ForOp)]:
            if kernel.is_ancestor(loop):  # not in a loop erased before it
                _rewrite(loop, grid)


def _rewrite(loop: scf.ForOp, grid: list[int]) -> None:
    if loop.iter_args or not _holds_memory_access(loop):
        return
    bounds = (loop.lb, loop.ub, loop.step)
    if not any(_reads_tile_id(v) for v in bounds):
        if trip_count(*(evaluate_at_tile(v, (0,) * len(grid)) for v in bounds)) == 0:
            _erase(loop)  # runs on no tile: its programs would be called nowhere
        return
    trips: dict[tuple[int, ...], int] = {}
    for tile in itertools.product(*(range(d) for d in grid)):
        lb, ub, step = (evaluate_at_tile(v, tile) for v in bounds)
        if lb is None or ub is None or step is None or step <= 0:
            raise error(loop, "the loop's bounds depend on the compute tile id and cannot be evaluated at "
                              f"tile {_name(tile)}, so the host cannot run it for every tile at once")
        trips[tile] = trip_count(lb, ub, step)
    everywhere, most = min(trips.values()), max(trips.values())
    _check_peelable(loop, trips, everywhere, most)
    upper_bound = loop.ub
    _count_iterations(loop, everywhere)
    last: Operation = loop
    for k in range(everywhere, most):
        last = _guarded_iteration(loop, upper_bound, k, last)
    if everywhere == 0:
        _erase(loop)  # some tile runs no iteration: only the guarded copies remain


def _erase(loop: scf.ForOp) -> None:
    """Drop a loop without results that runs no iteration (its body's ops go with it)."""
    loop.detach()
    loop.erase()


def _check_peelable(loop: scf.ForOp, trips: dict[tuple[int, ...], int], everywhere: int, most: int) -> None:
    if most - everywhere <= MAX_PEELED:
        return
    fewest = next(t for t, n in trips.items() if n == everywhere)
    busiest = next(t for t, n in trips.items() if n == most)
    raise error(loop, "the loop's bounds depend on the compute tile id and its trip count differs by more than "
                      f"{MAX_PEELED} between tiles ({everywhere} on tile {_name(fewest)}, {most} on tile "
                      f"{_name(busiest)}), so the host cannot run it for every tile at once")


def _count_iterations(loop: scf.ForOp, trips: int) -> None:
    """`for %k = 0 to trips step 1`, the body computing its row as `lb + %k * step`."""
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
    loop.operands[1] = before.value(index_constant(trips))
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


def kernel_grid(kernel: Operation) -> list[int] | None:
    """The extents of `kernel`'s `grid` attribute (None when absent or not positive integers)."""
    grid = kernel.attributes.get("grid")
    if not isinstance(grid, ArrayAttr) or not grid.data:
        return None
    if not all(isinstance(d, IntegerAttr) and d.value.data > 0 for d in grid.data):
        return None
    return [d.value.data for d in grid.data]


def _name(tile: tuple[int, ...]) -> str:
    return str(tile[0]) if len(tile) == 1 else "(" + ", ".join(map(str, tile)) + ")"


def _holds_memory_access(loop: Operation) -> bool:
    return any(isinstance(o, ktdp.LoadOp | ktdp.StoreOp) for o in loop.walk())


def _reads_tile_id(value: SSAValue) -> bool:
    return any(isinstance(v.owner, ktdp.GetComputeTileIdOp) for v in values_feeding(value))


class TileInvariantLoopBounds(CallPass):
    """Rewrite host loops whose bounds depend on the tile id into loops over iteration numbers."""

    name = "tile-invariant-loop-bounds"
    run = staticmethod(tile_invariant_loop_bounds)


__all__ = ["TileInvariantLoopBounds", "tile_invariant_loop_bounds"]
