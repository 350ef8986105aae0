"""Tiling a program's `linalg.generic` to the compute unit's SIMD width (C3SP step 3).

* `simd_tile_sizes(shape, lanes)`: upstream's `computeTileSizesFromShape`. Walk the dims
  right to left until their product reaches `lanes` (those dims are *covered*); uncovered
  dims get tile size 1; covered dims, right to left, get `min(gcd(dim, remaining), dim)`
  and `remaining` shrinks by it (never below 1). `[3,64]→[1,64]`, `[2,4,32]→[1,2,32]`,
  `[96]→[32]` with 64 lanes.
* `loop_tile_sizes(generic, lanes)`: one size per loop; parallel loops are tiled as above
  (their extents in loop order), every other loop gets 0 (not tiled: no loop).
* `static_loop_ranges(generic)`: the extent of every loop, from the first operand dimension
  indexed by exactly that loop (MLIR's `getStaticLoopRanges`).
* `operand_tile_shape(map, sizes, ranges)`: the shape of one operand's tile: a loop index
  gives its tile size (the full extent for an untiled loop), a constant 0 gives 1.
* `build_loop_nest(...)`: "loops, no iter_args": one `scf.for 0 to extent step size` per
  tiled loop, in loop order, with its bound constants created just before the nest
  (lower, upper, step of each loop in turn), each loop tagged with its `loop_type`.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ShapedType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects.affine_subscripts import format_affine_expr
from dfsched.dialects.constants import index_constant
from dfsched.diagnostics import error
from dfsched.dialects.ktdf import LoopType, LoopTypeAttr
from dfsched.passes.frontend.linalg_generalize import indexing_maps, iterator_names

PARALLEL = "parallel"
REDUCTION = "reduction"


def simd_tile_sizes(shape: Sequence[int], lanes: int) -> list[int]:
    rank = len(shape)
    product, covered = 1, 0
    for i in range(rank - 1, -1, -1):
        product *= shape[i]
        covered += 1
        if product >= lanes:
            break
    sizes = [1] * rank
    remaining = lanes
    for i in range(rank - 1, rank - covered - 1, -1):
        size = min(gcd(shape[i], remaining), shape[i])
        sizes[i] = size
        remaining = max(remaining // size, 1) if size else remaining
    return sizes


def static_loop_ranges(generic: Operation) -> list[int]:
    """Extent of every loop of `generic`; a located error if one is unknown or dynamic."""
    maps = indexing_maps(generic)
    num_loops = maps[0].num_dims if maps else 0
    ranges: list[int | None] = [None] * num_loops
    for value, amap in zip(generic.operands, maps):
        shape = value.type.get_shape() if isinstance(value.type, ShapedType) else ()
        for position, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr) and ranges[expr.position] is None and position < len(shape):
                ranges[expr.position] = shape[position]
    for loop, extent in enumerate(ranges):
        if extent is None:
            raise error(generic, f"cannot determine the extent of loop d{loop} from the operand shapes")
        if extent < 0:
            raise error(generic, f"loop d{loop} has a dynamic extent; only static shapes can be tiled")
    return [int(e) for e in ranges]  # type: ignore[arg-type]


def loop_tile_sizes(generic: Operation, lanes: int) -> list[int]:
    ranges = static_loop_ranges(generic)
    iterators = iterator_names(generic)
    parallel = [k for k, it in enumerate(iterators) if it == PARALLEL]
    parallel_sizes = simd_tile_sizes([ranges[k] for k in parallel], lanes)
    sizes = [0] * len(iterators)
    for k, size in zip(parallel, parallel_sizes):
        sizes[k] = size
    return sizes


def operand_tile_shape(amap: AffineMap, tile_sizes: Sequence[int], ranges: Sequence[int], at: Operation) -> list[int]:
    shape = []
    for expr in amap.results:
        if isinstance(expr, AffineDimExpr):
            size = tile_sizes[expr.position]
            shape.append(size if size > 0 else ranges[expr.position])
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
            shape.append(1)
        else:
            raise error(at, f"unsupported affine expression '{format_affine_expr(expr)}' in an operand indexing map; "
                            "only loop indices and the constant 0 can be tiled")
    return shape


def build_loop_nest(
    anchor: Operation, tile_sizes: Sequence[int], ranges: Sequence[int], iterators: Sequence[str]
) -> list[scf.ForOp]:
    """Loops over the tiled dims (size > 0), inserted before `anchor`, outermost first."""
    tiled = [k for k, size in enumerate(tile_sizes) if size > 0]
    bounds: list[tuple[SSAValue, SSAValue, SSAValue]] = []
    for k in tiled:
        lb, ub, step = index_constant(0), index_constant(ranges[k]), index_constant(tile_sizes[k])
        for op in (lb, ub, step):
            Rewriter.insert_op(op, InsertPoint.before(anchor))
        bounds.append((lb.result, ub.result, step.result))
    loops: list[scf.ForOp] = []
    point = InsertPoint.before(anchor)
    for k, (lb, ub, step) in zip(tiled, bounds):
        body = Block(arg_types=[IndexType()])
        body.add_op(scf.YieldOp())
        loop = scf.ForOp(lb, ub, step, [], Region(body))
        loop.attributes["loop_type"] = LoopTypeAttr(
            LoopType.PARALLEL_LOOP if iterators[k] == PARALLEL else LoopType.REDUCTION_LOOP
        )
        Rewriter.insert_op(loop, point)
        loops.append(loop)
        point = InsertPoint.before(body.last_op)  # type: ignore[arg-type]
    return loops


__all__ = [
    "build_loop_nest",
    "loop_tile_sizes",
    "operand_tile_shape",
    "simd_tile_sizes",
    "static_loop_ranges",
]
