"""Addresses and deferral checks of a batched loop's memory accesses (`schedule_batch`).

A batched loop body (one row per iteration) reads and writes boxes of strided views; its
writes wait until the body has run for every iteration. Two things done per element cost
most of a large batch (a million elements for the 8192x128 add): the bounds of each point
and the sorted comparison of every written byte with every read one. Both are decided here
per row instead where the rows allow it: a box's bounds by its extreme corners (a view's
sizes and a linear coordinate set are convex), the conflicts by byte runs (`runs`).

Memory: a batch may read far more than it holds at once (a matmul's rows each read one
column block of B: 32M elements a tile, 256 MB of int64 addresses). Boxes are read in chunks
of rows (`Box.rows`) and a read is remembered as its byte runs only, so a batch's address
temporaries are O(`CHUNK_ELEMENTS`), not O(every element it reads).
"""

from __future__ import annotations

import itertools

import numpy as np

from dfsched.interp.memory import CHUNK_ELEMENTS


class Box:
    """The addresses of a box of a strided view per row, made a chunk of rows at a time:
    row i's are `offset + (first[i] + inner) * step`."""

    __slots__ = ("offset", "first", "inner", "step")

    def __init__(self, offset: int, first: np.ndarray, inner: np.ndarray, step: int):
        self.offset, self.first, self.inner, self.step = offset, first, inner, step

    @property
    def count(self) -> int:
        return int(self.inner.size)

    def rows(self, lo: int = 0, hi: int | None = None) -> np.ndarray:
        """Addresses (hi - lo, count) of rows [lo, hi)."""
        return self.offset + (self.first[lo:hi, None] + self.inner[None, :]) * self.step

    def chunks(self):
        """(lo, hi) row ranges of at most `CHUNK_ELEMENTS` addresses each (at least one row)."""
        n, step = int(self.first.size), max(1, CHUNK_ELEMENTS // max(1, self.count))
        return [(lo, min(n, lo + step)) for lo in range(0, n, step)]


def box(view, anchor, sizes, n: int, strict: bool) -> Box | None:
    """The box `anchor + [0, sizes)` of a strided `view` per row (`Box`), its bounds decided
    by the rows' extreme corners (a view's sizes and a linear coordinate set are convex); None
    when that does not settle it (the point-by-point path decides, and reports as it does)."""
    from dfsched.interp.memory import _box_set, _linear
    from dfsched.interp.schedule_state import box_points
    from dfsched.interp.sets import eval_set

    rank = len(sizes)
    if view.layout is not None or len(anchor) != rank or not rank or any(k <= 0 for k in sizes):
        return None
    lower = view.lower or (0,) * rank
    columns = [np.broadcast_to(np.asarray(a, dtype=np.int64), (n,)) for a in anchor]
    if strict:
        lows = [int(c.min()) for c in columns]
        highs = [int(c.max()) + k - 1 for c, k in zip(columns, sizes)]
        if any(lo - low < 0 or hi - low >= size for lo, hi, low, size in zip(lows, highs, lower, view.sizes)):
            return None
        if view.coordinate_set is not None:
            bounds = _box_set(view.coordinate_set, view.set_symbols)
            if bounds is not None:
                if not all(b_lo <= lo and hi <= b_hi for (b_lo, b_hi), lo, hi in zip(bounds, lows, highs)):
                    return None
            elif not _linear(view.coordinate_set, view.set_symbols):
                return None
            else:
                corners = np.stack([c for c in columns], axis=1)[:, None, :] + np.asarray(
                    list(itertools.product(*((0, k - 1) for k in sizes))), dtype=np.int64)[None]
                if not eval_set(view.coordinate_set, corners, view.set_symbols).all():
                    return None
    strides = np.asarray(view.strides, dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    for column, low, stride in zip(columns, lower, strides.tolist()):
        first = first + (column - low) * stride
    inner = box_points(tuple(sizes)).reshape(-1, rank) @ strides
    return Box(view.offset, first, inner, view.memory.element_step(view.et))


def box_rows(view, anchor, sizes, n: int, strict: bool) -> np.ndarray | None:
    """Addresses (n, count) of `box(...)`, or None."""
    found = box(view, anchor, sizes, n, strict)
    return None if found is None else found.rows()


def runs(addresses, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The byte runs [start, end) that `addresses` (elements `width` bytes wide, any shape)
    cover, in flat order, consecutive elements joined: each byte is in as many runs as the
    access touches it, so two runs meet exactly where two of its elements share a byte.
    Made a chunk at a time (bounded temporaries); a row-major box row is one run."""
    flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
    starts, ends = [], []
    for at in range(0, flat.size, CHUNK_ELEMENTS):
        part = flat[at:at + CHUNK_ELEMENTS]
        cuts = np.flatnonzero(np.diff(part) != width) + 1
        starts.append(part[np.r_[0, cuts]])
        ends.append(part[np.r_[cuts - 1, part.size - 1]] + width)
    if not starts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return (starts[0], ends[0]) if len(starts) == 1 else (np.concatenate(starts), np.concatenate(ends))


def joined(parts: list) -> tuple[np.ndarray, np.ndarray]:
    """Lists of runs (`runs`) as one pair of arrays."""
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if len(parts) == 1:
        return parts[0]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def runs_meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> bool:
    """Whether a run of `a` and a run of `b` share a byte."""
    (starts, ends), (b_starts, b_ends) = a, b
    if not starts.size or not b_starts.size:
        return False
    order = np.argsort(b_starts, kind="stable")
    b_starts, reach = b_starts[order], np.maximum.accumulate(b_ends[order])
    before = np.searchsorted(b_starts, ends, side="left") - 1  # the last b run starting before each a run ends
    hit = before >= 0
    return bool((reach[before[hit]] > starts[hit]).any())


def conflict(writes: list, reads: list) -> str | None:
    """Why deferring the writes past the reads (lists of `runs`) could change what the
    sequential run does, or None: two writes to one byte, a read of a written byte."""
    starts, ends = joined(writes)
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], ends[order]
    if (starts[1:] < ends[:-1]).any():  # sorted by start: some two runs overlap iff two neighbours do
        return "two iterations write one element"
    if reads and runs_meet((starts, ends), joined(reads)):
        return "an iteration reads what another writes"
    return None


def slots(addresses: np.ndarray, width: int) -> np.ndarray:
    flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
    if width == 1:
        return flat
    return (flat[:, None] + np.arange(width, dtype=np.int64)).reshape(-1)
