"""Addresses and deferral checks of a batched loop's memory accesses (`schedule_batch`).

A batched loop body (one row per iteration) reads and writes boxes of strided views; its
writes wait until the body has run for every iteration. Two things done per element cost
most of a large batch (a million elements for the 8192x128 add): the bounds of each point
and the sorted comparison of every written byte with every read one. Both are decided here
per row instead where the rows allow it: a box's bounds by its extreme corners (a view's
sizes and a linear coordinate set are convex), the conflicts by byte runs when each row is
one run of consecutive elements; otherwise the point-by-point forms decide.
"""

from __future__ import annotations

import itertools

import numpy as np

from dfsched.interp.memory import overlaps, unique_sorted


def box_rows(view, anchor, sizes, n: int, strict: bool) -> np.ndarray | None:
    """Addresses (n, count) of the box `anchor + [0, sizes)` of a strided `view` per row, its
    bounds decided by the rows' extreme corners (a view's sizes and a linear coordinate set
    are convex); None when that does not settle it (the point-by-point path decides, and
    reports as it does)."""
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
    return view.offset + (first[:, None] + inner[None, :]) * view.memory.element_step(view.et)


def conflict(writes: list, reads: list) -> str | None:
    """Why deferring `writes` past `reads` (lists of (addresses, element width)) could change
    what the sequential run does, or None: two writes to one byte, a read of a written byte."""
    runs = _runs(writes)
    if runs is not None and (not reads or (read_runs := _runs(reads)) is not None):
        starts, ends = runs
        order = np.argsort(starts, kind="stable")
        starts, ends = starts[order], ends[order]
        if (starts[1:] < ends[:-1]).any():
            return "two iterations write one element"
        if reads:
            r_starts, r_ends = read_runs
            order = np.argsort(r_starts, kind="stable")
            r_starts, reach = r_starts[order], np.maximum.accumulate(r_ends[order])
            before = np.searchsorted(r_starts, ends, side="left") - 1  # the last read starting before each write ends
            hit = before >= 0
            if (reach[before[hit]] > starts[hit]).any():
                return "an iteration reads what another writes"
        return None
    written = np.concatenate([slots(a, w) for a, w in writes])
    if unique_sorted(written).size != written.size:
        return "two iterations write one element"
    if reads and overlaps(written, np.concatenate([slots(a, w) for a, w in reads])):
        return "an iteration reads what another writes"
    return None


def _runs(accesses: list) -> tuple[np.ndarray, np.ndarray] | None:
    """The byte runs [start, end) of `accesses` when each row of each is one run of
    consecutive elements (a row-major box row), else None."""
    starts, ends = [], []
    for addresses, width in accesses:
        rows = np.asarray(addresses, dtype=np.int64)
        rows = rows.reshape(-1, rows.shape[-1]) if rows.ndim else rows.reshape(1, 1)
        if rows.shape[1] == 0:
            continue
        if rows.shape[1] > 1 and (np.diff(rows, axis=1) != width).any():
            return None
        starts.append(rows[:, 0])
        ends.append(rows[:, 0] + rows.shape[1] * width)
    if not starts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(starts), np.concatenate(ends)


def slots(addresses: np.ndarray, width: int) -> np.ndarray:
    flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
    if width == 1:
        return flat
    return (flat[:, None] + np.arange(width, dtype=np.int64)).reshape(-1)
