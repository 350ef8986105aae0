"""`ktdf.indirect_view` in the ScheduleIR interpreter: the rows of a gather or scatter.

Point `p` of the view is at byte `addresses[list_map(p)] + (offset + strides . p) * bytes` of
the source's memory (`dialects/ktdf_indirect.py`), plus the source view's start when that is a
run-time value (a kernel argument: the address program wrote offsets from it); a transfer reads or writes those points. An
address outside the source view's memory range is a located error naming the index value, the
view and the list entry, as `dfsched-run` reports every out-of-range access.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from xdsl.ir.affine import AffineMap

from dfsched.interp.dtypes import ElementType
from dfsched.interp.memory import Memory, StridedView
from dfsched.interp.sets import eval_map_rows


@dataclass
class IndirectView:
    """The value of a `ktdf.indirect_view`: a source memory, an address list and a layout."""

    memory: Memory
    source: StridedView
    addresses: StridedView
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    et: ElementType
    list_map: Callable[[np.ndarray], np.ndarray]  # points (n, rank) -> list coordinates (n, list rank)
    base: int = 0  # added to every address: the source's start when the list holds offsets

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def byte_addresses(self, read_list: Callable[[StridedView, np.ndarray], np.ndarray],
                       points: np.ndarray, tile: int | None = None) -> np.ndarray:
        """Addresses, in the memory's units, of `points` (n, rank); `tile` (the grid tile) names
        who went out of range."""
        entries = self.list_map(points)
        listed = read_list(self.addresses, entries).astype(np.int64).reshape(-1)
        step = self.memory.element_step(self.et)
        itemsize = self.et.itemsize
        if step != itemsize and np.any(listed % itemsize):
            raise ValueError(f"an address {int(listed[np.argmax(listed % itemsize != 0)])} of the list is not a "
                             f"multiple of the {itemsize}-byte element")
        start = listed // itemsize * step if step != itemsize else listed
        linear = points @ np.asarray(self.strides, dtype=np.int64) + self.offset
        addresses = self.base + start + linear * step
        self._check_range(addresses, entries, listed, points, tile)
        return addresses

    def _check_range(self, addresses: np.ndarray, entries: np.ndarray, listed: np.ndarray, points: np.ndarray,
                     tile: int | None) -> None:
        extent = self.source.extent()
        if extent is None or addresses.size == 0:
            return
        low, high = extent
        outside = (addresses < low) | (addresses > high)
        if outside.any():
            i = int(np.argmax(outside))
            who = f"grid tile {tile}: " if tile is not None else ""
            raise ValueError(f"{who}the indirect access at point {tuple(int(x) for x in points[i])} reaches address "
                             f"{int(addresses[i])} (address list entry {tuple(int(x) for x in entries[i])} holds "
                             f"{int(listed[i])}), outside the view of sizes {list(self.source.sizes)} at "
                             f"[{low}, {high}]")


def make_indirect_view(source: Any, addresses: Any, offset: int, result_type: Any,
                       list_map_affine: AffineMap, et: ElementType,
                       relative: bool = False) -> IndirectView:
    """`relative`: the list holds offsets from the source's start (a run-time base address)."""
    sizes = tuple(int(d) for d in result_type.get_shape())
    strides = tuple(int(s) for s in result_type.get_strides())

    def list_map(points: np.ndarray) -> np.ndarray:
        return eval_map_rows(list_map_affine, points, [])

    return IndirectView(source.memory, source, addresses, int(offset), sizes, strides, et, list_map,
                        source.offset if relative else 0)


def box(anchor, sizes) -> np.ndarray:
    """The points `anchor + [0, sizes)` in row-major order, (n, rank)."""
    from dfsched.interp.schedule_state import box_points

    rank = len(sizes)
    if not rank:
        return np.zeros((1, 0), dtype=np.int64)
    return box_points(tuple(int(s) for s in sizes)).reshape(-1, rank) + np.asarray(anchor, dtype=np.int64)
