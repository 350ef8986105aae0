"""`tile-invariant-loop-bounds`: a host loop whose bounds depend on the compute tile id counts
iterations instead, the tile id moving into its body (README Decision 50).

Triton kernels spread rows over the grid with a loop that starts at the tile's own id:

    %t = ktdp.get_compute_tile_id : index
    scf.for %row = %t to %n_rows step %c32 { ...load row %row, compute, store... }

After `compute-group-extraction` the loop is host code (the orchestrator) and its body a
program every tile runs at once, so the host cannot know `%t`. When every tile of the grid runs
the same number of iterations T (bounds and step evaluated at each tile id), the loop becomes

    scf.for %k = 0 to T step 1 { %row = lb + %k * step ; ... }

with `lb` and `step` the loop's own values: the group copies the tile id and the arithmetic into
its program, so each tile computes its row there (a per-unit value after lowering) and the host
passes only %k. Only loops holding a `ktdp.load` or `ktdp.store` without `iter_args` are
rewritten. Diagnostics (located on the loop): the trip count differs between tiles (naming two
tiles and their counts), or a bound cannot be evaluated at a tile id while it depends on it.
Reads no architecture facts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from dfsched.passes.walk import values_feeding
from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int, index_constant
from dfsched.passes.builder import Builder

MAX_TILES = 1 << 16  # a grid larger than this is not enumerated (the loop is left as it is)

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
}

# arith.cmpi predicates eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge (the unsigned ones on
# operands that are not negative, where they agree with the signed ones)
_COMPARISONS: dict[int, Callable[[int, int], bool]] = {
    0: lambda a, b: a == b, 1: lambda a, b: a != b,
    2: lambda a, b: a < b, 3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
    6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b, 9: lambda a, b: a >= b,
}


@dataclass(frozen=True)
class TileInvariantLoopBounds(ModulePass):
    """Rewrite host loops whose bounds depend on the tile id into loops over iteration numbers."""

    name = "tile-invariant-loop-bounds"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_invariant_loop_bounds(op)


def tile_invariant_loop_bounds(root: Operation) -> None:
    for kernel in [o for o in root.walk() if isinstance(o, func.FuncOp)]:
        grid = _grid(kernel)
        if grid is None or math.prod(grid) > MAX_TILES:
            continue  # no grid, or a malformed one: the passes that read it report it
        coordinates = list(itertools.product(*(range(d) for d in grid)))
        for loop in [o for o in kernel.walk() if isinstance(o, scf.ForOp)]:
            _rewrite(loop, coordinates)


def _rewrite(loop: scf.ForOp, coordinates: list[tuple[int, ...]]) -> None:
    if loop.iter_args or not _holds_memory_access(loop):
        return
    bounds = (loop.lb, loop.ub, loop.step)
    if not any(_reads_tile_id(v) for v in bounds):
        return
    counts: dict[int, tuple[int, ...]] = {}
    for tile in coordinates:
        lb, ub, step = (_evaluate(v, tile) for v in bounds)
        if lb is None or ub is None or step is None or step <= 0:
            raise error(loop, "the loop's bounds depend on the compute tile id and cannot be evaluated at "
                              f"tile {_name(tile)}, so the host cannot run it for every tile at once")
        counts.setdefault(max(0, -(-(ub - lb) // step)), tile)
    if len(counts) > 1:
        (first, a), (second, b) = sorted(counts.items())[:2]
        raise error(loop, "the loop's bounds depend on the compute tile id and it runs a different number "
                          f"of iterations on different tiles ({first} on tile {_name(a)}, {second} on tile "
                          f"{_name(b)}), so the host cannot run it for every tile at once")
    (trip_count,) = counts
    body = loop.body.block
    at_start = Builder.at_start(body)
    lb, step = loop.lb, loop.step
    iv = body.args[0]
    scaled = at_start.value(arith.MuliOp(iv, step))
    row = at_start.value(arith.AddiOp(lb, scaled))
    for use in list(iv.uses):
        if use.operation is not scaled.owner:
            use.operation.operands[use.index] = row
    before = Builder.before(loop)
    loop.operands[0] = before.value(index_constant(0))
    loop.operands[1] = before.value(index_constant(trip_count))
    loop.operands[2] = before.value(index_constant(1))


def _grid(kernel: func.FuncOp) -> list[int] | None:
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


def _evaluate(value: SSAValue, tile: tuple[int, ...]) -> int | None:
    constant = constant_int(value)
    if constant is not None:
        return constant
    owner = value.owner
    if isinstance(owner, ktdp.GetComputeTileIdOp):
        index = list(owner.results).index(value)
        return tile[index] if index < len(tile) else None
    if isinstance(owner, arith.SelectOp):
        condition = _evaluate(owner.cond, tile)
        if condition is None:
            return None
        return _evaluate(owner.lhs if condition else owner.rhs, tile)
    if isinstance(owner, arith.CmpiOp):
        lhs, rhs = (_evaluate(o, tile) for o in owner.operands)
        predicate = owner.predicate.value.data
        compare = _COMPARISONS.get(predicate)
        if lhs is None or rhs is None or compare is None or (predicate >= 6 and min(lhs, rhs) < 0):
            return None
        return int(compare(lhs, rhs))
    evaluate = _EVALUATORS.get(type(owner))
    if evaluate is None:
        return None
    lhs, rhs = (_evaluate(o, tile) for o in owner.operands)
    return None if lhs is None or rhs is None else evaluate(lhs, rhs)


__all__ = ["TileInvariantLoopBounds", "tile_invariant_loop_bounds"]
