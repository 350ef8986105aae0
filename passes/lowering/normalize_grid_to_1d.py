"""`normalize-grid-to-1d`: the logical grid of a kernel becomes the physical 1-D grid.

See `docs/passes.md#normalize-grid-to-1d`. A function whose `grid` attribute is an array `[d0, ..., dk-1]`
gets `grid = [d0 * ... * dk-1 : index]`; every k-result `ktdp.get_compute_tile_id` in it
becomes a single-result one (the flat tile id) and each former coordinate is rebuilt from
it row-major:

    coord_i = (flat divui suffix_i) remui d_i,   suffix_i = d_{i+1} * ... * d_{k-1}

where the division is left out when `suffix_i` is 1 and the remainder for the outermost
coordinate (the flat id is below the product). For [4, 6] the ops are, in this order,
`constant 6, divui, constant 6, remui`. The runtime numbers tiles row-major.

Steps per function with an array `grid` (others are left alone):
1. validate the grid: "Grid must have at least one dimension", "Grid size must be integer
   attribute", "Grid size must be positive (got N)"; a 1-D grid is already normal;
2. validate every tile-id op: "get_compute_tile_id result count (n) does not match grid
   rank (k)", unless the n ids leave out trailing unit dimensions only (`grid = [32, 1]`
   with one id, as Triton emits: the id is the flat id). Every function is validated before any is rewritten, so on an error the
   module is left untouched (upstream rewrites the grid first and stops at the first bad
   function);
3. set the flat grid;
4. rewrite each tile-id op.

Reads no architecture facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from dfsched.dialects.constants import index_constant
from dfsched.diagnostics import error
from dfsched.dialects.ktdp import GetComputeTileIdOp, tile_id_covers_grid
from dfsched.passes.builder import Inserter


@dataclass(frozen=True)
class NormalizeGridTo1D(ModulePass):
    """Flatten N-D `grid` attributes and compute-tile ids to the 1-D physical grid."""

    name = "normalize-grid-to-1d"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans = []
        for function in functions_with_grid(op):
            dims = validated_grid(function)
            if len(dims) > 1:
                plans.append((function, dims, tile_id_ops(function, dims)))
        for function, dims, tile_ops in plans:
            set_flat_grid(function, dims)
            for tile_op in tile_ops:
                # ids for the leading dimensions only: the ones left out are unit dimensions
                delinearize_tile_id(tile_op, dims[: len(tile_op.results)])


def functions_with_grid(root: Operation) -> list[func.FuncOp]:
    """Every `func.func` carrying an array `grid` attribute, in textual order."""
    return [f for f in root.walk() if isinstance(f, func.FuncOp) and isinstance(f.attributes.get("grid"), ArrayAttr)]


def validated_grid(function: func.FuncOp) -> list[int]:
    """The grid's dimensions, outermost first (step 1)."""
    grid = function.attributes["grid"]
    assert isinstance(grid, ArrayAttr)
    if not grid.data:
        raise error(function, "Grid must have at least one dimension")
    dims: list[int] = []
    for entry in grid.data:
        if not isinstance(entry, IntegerAttr):
            raise error(function, "Grid size must be integer attribute")
        size = entry.value.data
        if size <= 0:
            raise error(function, f"Grid size must be positive (got {size})")
        dims.append(size)
    return dims


def tile_id_ops(function: func.FuncOp, dims: list[int]) -> list[GetComputeTileIdOp]:
    """The function's tile-id ops, each checked to have one result per grid dimension, trailing
    unit dimensions left out or not (step 2)."""
    rank = len(dims)
    ops = [o for o in function.walk() if isinstance(o, GetComputeTileIdOp)]
    for tile_op in ops:
        if not tile_id_covers_grid(len(tile_op.results), dims):
            raise error(tile_op, f"get_compute_tile_id result count ({len(tile_op.results)}) "
                                 f"does not match grid rank ({rank})")
    return ops


def set_flat_grid(function: func.FuncOp, dims: list[int]) -> None:
    """`grid = [product : index]` (step 3)."""
    product = 1
    for size in dims:
        product *= size
    function.attributes["grid"] = ArrayAttr([IntegerAttr(product, IndexType())])


def delinearize_tile_id(tile_op: GetComputeTileIdOp, dims: list[int]) -> None:
    """Replace a k-result tile id by the flat id and its row-major coordinates (step 4)."""
    at = Inserter.before(tile_op)
    flat = at.add(GetComputeTileIdOp(1)).results[0]
    for result, coordinate in zip(tile_op.results, row_major_coordinates(at, flat, dims)):
        result.replace_all_uses_with(coordinate)
    Rewriter.erase_op(tile_op)


def row_major_coordinates(at: Inserter, flat: SSAValue, dims: list[int]) -> list[SSAValue]:
    """`(flat / suffix_i) % d_i` for every dimension, emitting only the ops that are needed."""
    suffix = [1] * len(dims)
    for i in range(len(dims) - 2, -1, -1):
        suffix[i] = suffix[i + 1] * dims[i + 1]
    coordinates: list[SSAValue] = []
    for i, size in enumerate(dims):
        value = flat
        if suffix[i] != 1:
            divisor = at.add(index_constant(suffix[i])).result
            value = at.add(arith.DivUIOp(value, divisor)).result
        if i != 0:
            modulus = at.add(index_constant(size)).result
            value = at.add(arith.RemUIOp(value, modulus)).result
        coordinates.append(value)
    return coordinates
