"""`single-tile-grid`: a kernel that declares no grid and asks for no tile id runs on one tile.

The reference interpreter runs a kernel without `grid = [...]` on one tile (its default), and
the RFC's paged examples (`paged-tensor-copy.mlir`, `paged-tensor-write.mlir`) are written
that way: nothing in them depends on a tile id. The scheduler reads the grid from the attribute
(upstream's "Function missing 'grid' attribute"), so this pass, at the front door, gives such a
kernel `grid = [1]`, the one reading both agree on. A function that calls
`ktdp.get_compute_tile_id` without a grid is left as it is: its grid is unknown, and the
scheduler's located error says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class SingleTileGrid(ModulePass):
    """Give a kernel without `grid` and without tile ids `grid = [1]`."""

    name = "single-tile-grid"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
            if "grid" in function.attributes:
                continue
            names = {inner.name for inner in function.walk()}
            if any(n.startswith("ktdp.") for n in names) and "ktdp.get_compute_tile_id" not in names:
                function.attributes["grid"] = ArrayAttr([IntegerAttr(1, i64)])


__all__ = ["SingleTileGrid"]
