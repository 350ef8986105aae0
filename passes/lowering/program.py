"""What the lowering passes read of a program: its 1-D grid."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation

from dfsched.diagnostics import error

MISSING_GRID = ("Function missing 'grid' attribute: a kernel declares its compute grid, "
                "e.g. `func.func @k(...) attributes {grid = [4]}`")


def one_d_grid_size(function: Operation, not_an_array: str = "Function 'grid' attribute must be an array of integers"
                    ) -> int:
    """The number of cores a program runs on: its 1-D `grid` (upstream `extractGridSize`).
    `ktdflowering-to-dfir` reports a grid that is not an array as a missing one, as upstream does."""
    grid = function.attributes.get("grid")
    if grid is None:
        raise error(function, MISSING_GRID)
    if not isinstance(grid, ArrayAttr):
        raise error(function, not_an_array)
    if len(grid.data) != 1:
        raise error(function, f"Only 1D grids supported in Phase 1 (got {len(grid.data)}D grid)")
    size = grid.data[0]
    if not isinstance(size, IntegerAttr):
        raise error(function, "Grid size must be integer attribute")
    if size.value.data <= 0:
        raise error(function, f"Grid size must be positive (got {size.value.data})")
    return size.value.data
