"""Run state, values and memory access of the ScheduleIR interpreter (see `schedule.py`).

* `ScheduleOptions`, `ScheduleState`: what the ScheduleIR interpreter adds to the KTIR
  interpreter's options and run state;
* values: a memref is a `BufferView` (a `memory.StridedView` that remembers the address of
  its allocation, the base `memref.reinterpret_cast` offsets count from); a FIFO slot is a
  `FifoSlot`; a token is a `Token`;
* memory access: regions and boxes of a view read and written (bounds, the tile and instance
  doing it), fresh buffers in the arena (`new_buffer`), and the log of the accesses of
  `ktdf.parallel` instances (`AccessLog`) that finds instances racing.

The op implementations are in `schedule_ops.py` (ktdf) and `schedule_memref.py` (memref,
affine, linalg on memrefs, calls).
"""

from __future__ import annotations

import functools
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    MemRefType,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from dfsched.diagnostics import DiagnosticError, error
from dfsched.interp.base import State, per_op
from dfsched.interp.dtypes import ElementType
from dfsched.interp.memory import Memory, StridedView
from dfsched.interp.races import MANY, Shadow


# ---------------------------------------------------------------------------------------
# run state
# ---------------------------------------------------------------------------------------


@dataclass
class ScheduleOptions:
    """What the ScheduleIR interpreter adds to the KTIR interpreter's `base.Options`.

    reserve_size: value of every `ktdf.tiling.reserve_size` still in the IR: None (such an
        op is an error), an int, "auto" (what `tile-size-selection` would pick: the largest
        candidate <= max(2, min_value) that is a multiple of `divisibility` and divides the
        constant totals of the loops it tiles), or a callable op -> int.
    stage_order: which stage runs first when several may ("sibling": the first in the
        pipeline; "reverse": the last). Any order the tokens allow must give the same
        outputs; "reverse" exposes a dependency the tokens forgot, which sibling order hides.
        (A consumer that relies on a FIFO alone, with no token, then reads an empty FIFO:
        the sequential model cannot block it until the data arrives.)
    poison: fill every fresh buffer (`memref.alloc`) with NaN (floats) / -1 (integers), so
        a schedule that reads a buffer before writing it shows up in the outputs.
    strict_bounds: also fail a transfer that *reads* outside its memref's shape (writes
        outside it always fail). Off by default: scalar-broadcast legalization widens loads
        past the logical bounds on purpose (the hardware reads whole words).
    drain_fifos: a pipeline that finishes with elements left in one of its FIFO slots is
        an error (a consumer stage is missing).
    instance_races: two `ktdf.parallel` instances touching the same element of any memory
        (one of them writing) in one execution of the parallel op are an error: corelets run
        the instances at the same time.
    tiles: run only these compute tiles (row-major indices; None: every tile of the grid).
        `dfsched-run --check --tiles N` samples tiles that do not communicate
        (`tile_sample.py`).
    """

    reserve_size: Any = None
    stage_order: str = "sibling"
    poison: bool = True
    strict_bounds: bool = False
    drain_fifos: bool = True
    instance_races: bool = True
    tiles: tuple[int, ...] | None = None


@dataclass
class ScheduleState(State):
    """`base.State` plus what pipelines, FIFOs and parallel instances need."""

    schedule: ScheduleOptions = field(default_factory=ScheduleOptions)
    instance: int | None = None  # the ktdf.parallel instance running, None outside
    arena: Memory | None = None  # where fresh buffers live
    arena_top: int = 0
    access_log: AccessLog | None = None  # accesses of the running ktdf.parallel's instances
    allocations: int = 0
    spaces: dict = field(default_factory=dict)  # (space, tile, instance) -> Memory
    space_levels: dict = field(default_factory=dict)  # space name -> global/scratchpad/below
    space_sizes: dict = field(default_factory=dict)  # space name -> capacity
    pipelines_run: int = 0
    stages_run: int = 0
    fifo_elements: int = 0
    transfers: int = 0


class Unsupported(DiagnosticError):
    """An op (or a form of it) the ScheduleIR interpreter cannot execute (yet)."""


def unsupported(op: Operation, message: str) -> Unsupported:
    return Unsupported(error(op, message).diagnostic)


# ---------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------


@dataclass(eq=False)
class BufferView(StridedView):
    """A memref: a strided view plus the address its allocation starts at (`base`)."""

    base: int = 0
    label: str = ""


def base_of(view: StridedView) -> int:
    return view.base if isinstance(view, BufferView) else view.offset


class Token:
    """A `ktdf.create_token` value: one scheduling edge of one pipeline execution."""

    __slots__ = ("op",)

    def __init__(self, op: Operation):
        self.op = op


class FifoSlot:
    """One slot of a `ktdf.fifo.allocate` (a queue of elements, filled and drained in order)."""

    def __init__(self, op: Operation, index: int, slot_type: Attribute, capacity: int | None):
        self.op = op
        self.index = index
        self.type = slot_type
        self.capacity = capacity
        self.chunks: deque[np.ndarray] = deque()
        self.count = 0
        self.pushed = 0

    def describe(self) -> str:
        return f"FIFO slot #{self.index} ({self.type})"

    def push(self, data: np.ndarray) -> None:
        flat = np.asarray(data).reshape(-1)
        if flat.size:
            self.chunks.append(flat)
            self.count += flat.size
            self.pushed += flat.size

    def pop(self, n: int) -> np.ndarray:
        if n > self.count:
            raise ValueError(
                f"reads {n} element(s) from {self.describe()} but only {self.count} are queued: "
                f"no stage that ran before this one wrote them (was the producer removed or ordered after "
                f"its consumer?)"
            )
        parts: list[np.ndarray] = []
        need = n
        while need:
            head = self.chunks[0]
            if head.size <= need:
                parts.append(self.chunks.popleft())
                need -= head.size
            else:
                parts.append(head[:need])
                self.chunks[0] = head[need:]
                need = 0
        self.count -= n
        return np.concatenate(parts) if parts else np.zeros((0,))


class Label:
    """A memory or buffer name built only when a message needs it (printing types is slow)."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __str__(self) -> str:
        return self.fn()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


CACHED_POINTS_MAX = 1 << 20
"""Boxes of more points are not remembered (`box_points`, `_whole_addresses`): loops make the
small ones again and again; a big one (a whole view of a corpus kernel: 335 MB of coordinates
for 21M elements) is made rarely and would stay in memory until the process ends."""


def box_points(sizes: tuple[int, ...]) -> np.ndarray:
    """Row-major coordinates of the box [0, sizes): shape sizes + (rank,), read-only."""
    if math.prod(sizes) > CACHED_POINTS_MAX:
        return _box_points(sizes)
    return _cached_box_points(sizes)


@functools.lru_cache(maxsize=512)
def _cached_box_points(sizes: tuple[int, ...]) -> np.ndarray:
    return _box_points(sizes)


def _box_points(sizes: tuple[int, ...]) -> np.ndarray:
    points = np.moveaxis(np.indices(sizes, dtype=np.int64), 0, -1) if sizes else np.zeros((0,), dtype=np.int64)
    points.setflags(write=False)
    return points


def row_major(sizes) -> tuple[int, ...]:
    strides, acc = [], 1
    for d in reversed(list(sizes)):
        strides.append(acc)
        acc *= d
    return tuple(reversed(strides))


def space_name(t: MemRefType) -> str:
    space = t.memory_space
    if isinstance(space, StringAttr):
        return space.data
    kind = getattr(getattr(space, "kind", None), "data", None)
    if kind is not None:
        return str(kind)
    if isinstance(space, NoneAttr) or space is None:
        return "global"
    return str(space)


def view_coords(view: StridedView, shape=None) -> np.ndarray:
    shape = tuple(view.sizes if shape is None else shape)
    if not shape:
        return np.zeros((0,), dtype=np.int64).reshape(() + (0,))
    points = box_points(shape)
    if view.lower and any(view.lower):
        return points + np.asarray(view.lower, dtype=np.int64)
    return points


def _tile_of(state: ScheduleState, view: StridedView) -> int | None:
    """Who accesses, for the memory's own race bookkeeping: compute tiles, on tile-shared memory."""
    return state.tile_index if view.memory.track_races else None


def _addresses(view: StridedView, coords: np.ndarray, strict: bool) -> np.ndarray:
    if strict:
        if view.coordinate_set is not None:
            view._check_set(coords)  # noqa: SLF001
        return view.addresses(coords)
    local = coords - np.asarray(view.lower or (0,) * view.rank, dtype=np.int64)
    linear = (local * np.asarray(view.strides, dtype=np.int64)).sum(axis=-1)
    return view.offset + linear * view.memory.element_step(view.et)


def read_region(state: ScheduleState, view: StridedView, coords: np.ndarray, strict: bool,
                op: Operation | None = None) -> np.ndarray:
    """Elements of `view` at `coords` (last axis = rank); outside its shape (and coordinate set)
    only when not strict: then whatever the strided addresses hold."""
    if coords.size == 0:
        return view.et.zeros(coords.shape[:-1])
    return _read_at(state, view, _addresses(view, coords, strict), op)


def _read_at(state: ScheduleState, view: StridedView, addresses: np.ndarray, op: Operation | None) -> np.ndarray:
    if state.access_log is not None:
        state.access_log.add(view, state.instance, False, addresses, op)
    return view.memory.read(addresses, view.et, _tile_of(state, view))


def write_region(state: ScheduleState, view: StridedView, coords: np.ndarray, values,
                 op: Operation | None = None) -> None:
    if coords.size == 0:
        return
    _write_at(state, view, _addresses(view, coords, True), values, op)


def _write_at(state: ScheduleState, view: StridedView, addresses: np.ndarray, values, op: Operation | None) -> None:
    if state.access_log is not None:
        state.access_log.add(view, state.instance, True, addresses, op)
    view.memory.write(addresses, values, view.et, _tile_of(state, view))


_WHOLE_ADDRESSES: dict[tuple, np.ndarray] = {}


def _whole_addresses(view: StridedView) -> np.ndarray | None:
    """The addresses of every element of `view`, in row-major order (read-only; remembered per
    view geometry: loops make the same views again and again), or None for a view with a
    coordinate set, a layout or no dimensions (`read_region` checks those)."""
    if view.coordinate_set is not None or view.layout is not None or not view.sizes:
        return None
    if math.prod(view.sizes) > CACHED_POINTS_MAX:
        return view.addresses(view_coords(view))
    key = (view.offset, view.sizes, view.strides, view.memory.element_step(view.et))
    found = _WHOLE_ADDRESSES.get(key)
    if found is None:
        if len(_WHOLE_ADDRESSES) > 4096:
            _WHOLE_ADDRESSES.clear()
        found = view.addresses(view_coords(view))  # (every local coordinate is inside the view)
        found.flags.writeable = False
        _WHOLE_ADDRESSES[key] = found
    return found


def whole(state: ScheduleState, view: StridedView, op: Operation | None = None) -> np.ndarray:
    """The whole view as an array of its shape."""
    addresses = _whole_addresses(view)
    if addresses is None:
        return read_region(state, view, view_coords(view), True, op)
    return _read_at(state, view, addresses, op)


def write_whole(state: ScheduleState, view: StridedView, values, op: Operation | None = None) -> None:
    """Write `values` (the view's shape, or as many elements) over the whole view."""
    addresses = _whole_addresses(view)
    if addresses is None:
        write_region(state, view, view_coords(view), values, op)
    else:
        _write_at(state, view, addresses, values, op)


def op_info(interpreter, op: Operation, build):
    """What `build(op)` computes from `op`'s static attributes, once per run and op."""
    return per_op(interpreter, op, build)


@functools.lru_cache(maxsize=4096)
def _box_offsets(sizes: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray | None:
    """Linear element offsets (row-major order) of the points of the box `sizes` in a view of
    `strides`; None when they are 0, 1, 2, ... (the box is one run of consecutive elements)."""
    expect = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size != 1 and stride != expect:
            rel = (box_points(sizes) * np.asarray(strides, dtype=np.int64)).sum(axis=-1).reshape(-1)
            rel.setflags(write=False)
            return rel
        expect *= size
    return None


def _box_start(view: StridedView, anchor, sizes, strict: bool) -> int | None:
    """The address of the first point of the box `anchor + [0, sizes)` of `view`, when the
    box can take the fast path: not empty, of the view's rank, and (strict) inside the view's
    sizes with no coordinate set to check. None: the caller takes the general path, which
    raises the errors."""
    rank = len(sizes)
    if not rank or len(view.sizes) != rank or len(anchor) != rank:
        return None
    lower = view.lower or (0,) * rank
    if len(lower) != rank:
        return None
    linear = 0
    for a, lo, size, extent, stride in zip(anchor, lower, sizes, view.sizes, view.strides):
        if size <= 0:
            return None
        local = a - lo
        if strict and (local < 0 or local + size > extent):
            return None
        linear += local * stride
    if strict and view.coordinate_set is not None:
        return None
    return view.offset + linear * view.memory.element_step(view.et)


def _box_plan(state: ScheduleState, view: StridedView, start: int, sizes, write: bool, op):
    """(element count, addresses or None for one run of consecutive elements, race-tracking tile)
    of a fast-path box access, logged for `ktdf.parallel` race detection."""
    memory = view.memory
    step = memory.element_step(view.et)
    count = math.prod(sizes)
    rel = _box_offsets(tuple(sizes), tuple(view.strides))
    addresses = None if rel is None else start + step * rel
    if state.access_log is not None:
        logged = range(start, start + count * step, step) if rel is None else addresses
        state.access_log.add(view, state.instance, write, logged, op)
    return count, addresses, (state.tile_index if memory.track_races else None)


def read_box(state: ScheduleState, view: StridedView, anchor, sizes, strict: bool,
             op: Operation | None = None) -> np.ndarray:
    """`read_region(state, view, box_points(sizes) + anchor, strict, op)` flattened (row-major)."""
    start = _box_start(view, anchor, sizes, strict) if type(view.memory) is Memory else None
    if start is None:
        coords = box_points(tuple(sizes)) + np.asarray(anchor, dtype=np.int64)
        return read_region(state, view, coords, strict, op).reshape(-1)
    count, addresses, tile = _box_plan(state, view, start, sizes, False, op)
    if addresses is None:
        return view.memory.read_run(start, count, view.et, tile)
    return view.memory.read(addresses, view.et, tile)


def write_box(state: ScheduleState, view: StridedView, anchor, sizes, values: np.ndarray,
              op: Operation | None = None) -> None:
    """`write_region(state, view, box_points(sizes) + anchor, values reshaped to sizes, op)`."""
    start = _box_start(view, anchor, sizes, True) if type(view.memory) is Memory else None
    if start is None:
        coords = box_points(tuple(sizes)) + np.asarray(anchor, dtype=np.int64)
        write_region(state, view, coords, values.reshape(coords.shape[:-1]), op)
        return
    values = values.reshape(tuple(sizes)).reshape(-1)  # the general path's shape check
    count, addresses, tile = _box_plan(state, view, start, sizes, True, op)
    if addresses is None:
        view.memory.write_run(start, values, view.et, count, tile)
    else:
        view.memory.write(addresses, values, view.et, tile)


ARENA_ALIGN = 64


def new_buffer(state: ScheduleState, sizes, et: ElementType, label, space: str = "buffer",
               data: np.ndarray | None = None) -> BufferView:
    """A fresh, row-major buffer of `sizes` (poisoned, or holding `data`).

    Buffers are carved out of one arena memory per run, never reused: a buffer is fresh
    storage whatever was allocated before it.
    """
    sizes = tuple(int(s) for s in sizes)
    count = math.prod(sizes)
    if state.arena is None:
        state.arena = Memory("the scratch buffers", state.options.unit, None)
    step = state.arena.element_step(et)
    address = state.arena_top
    state.arena_top = -(-(address + max(count, 1) * step) // ARENA_ALIGN) * ARENA_ALIGN
    state.allocations += 1
    view = BufferView(state.arena, space, address, sizes, row_major(sizes), et, None, (), (0,) * len(sizes), None,
                      base=address, label=label)
    if data is not None:
        state.arena.place(address, et.cast(np.asarray(data)).reshape(-1), et)
    elif state.schedule.poison and count:
        state.arena.place(address, _poison(count, et), et)
    return view


@functools.lru_cache(maxsize=64)
def _poison(count: int, et: ElementType) -> np.ndarray:
    """`count` NaNs (floats) / -1s (integers) of type `et` (read-only)."""
    poison = et.cast(np.full(count, np.nan) if (et.is_float or et.is_fused) else np.full(count, -1))
    poison.setflags(write=False)
    return poison


class AccessLog:
    """Every element each `ktdf.parallel` instance reads and writes, per memory, for one execution."""

    def __init__(self):
        self.entries: dict[int, tuple[Memory, list]] = {}

    def add(self, view: StridedView, inst: int | None, write: bool, addresses, op) -> None:
        """Log an access to `addresses`: an array, or a `range` (a run of elements)."""
        if inst is None:
            return
        memory = view.memory
        slot = self.entries.get(id(memory))
        if slot is None:
            slot = self.entries[id(memory)] = (memory, [])
        if not isinstance(addresses, range):
            addresses = np.asarray(addresses, dtype=np.int64).reshape(-1)
        slot[1].append((inst, write, addresses, op, view))

    def check(self, parallel: Operation) -> None:
        """Replay each memory's accesses instance by instance (each in program order) through a
        race shadow (`races.py`, the unordered rule: instances of one execution run at the same
        time); fail at the first access that touches an address another instance wrote, or
        writes one another instance read."""
        for memory, entries in self.entries.values():
            if len({e[0] for e in entries}) < 2:
                continue
            shadow = Shadow(memory.PAGE_BITS, epochs=False, shared_reads=True)
            for inst, write, addresses, _, _ in sorted(entries, key=lambda e: e[0]):
                for number, offsets, where in self._pages(shadow, addresses):
                    page = shadow.page(number)
                    found = (shadow.write if write else shadow.read)(page, offsets, inst)
                    if found is not None:
                        address = where + found.index if isinstance(where, int) else int(where[found.index])
                        if found.what == "write":  # another instance wrote it first
                            self._report(parallel, memory, entries, found.other, inst, address)
                        other = found.other if found.other != MANY else next(
                            e[0] for e in entries if e[0] != inst and not e[1] and address in e[2])
                        self._report(parallel, memory, entries, inst, other, address)

    @staticmethod
    def _pages(shadow: Shadow, addresses):
        """`Shadow.spans` of a run of consecutive addresses, else `Shadow.by_page`."""
        if isinstance(addresses, range) and addresses.step == 1:
            if len(addresses):
                yield from shadow.spans(addresses.start, len(addresses))
            return
        if isinstance(addresses, range):
            addresses = np.arange(addresses.start, addresses.stop, addresses.step, dtype=np.int64)
        if addresses.size:
            yield from shadow.by_page(addresses)

    @staticmethod
    def _report(parallel, memory, entries, i: int, j: int, address: int) -> None:
        def first(inst: int, write: bool | None):
            for e in entries:
                if e[0] == inst and (write is None or e[1] == write) and address in e[2]:
                    return e
            return None

        mine = first(i, True)
        theirs = first(j, True) or first(j, None)
        verb = "writes" if theirs is not None and theirs[1] else "reads"
        view = mine[4] if mine is not None else None
        if isinstance(view, BufferView) and view.label:
            step = memory.element_step(view.et)
            where = f"element {(address - view.base) // step} (row-major) of {view.label}"
        else:
            where = f"address {address} of {memory.name}"
        notes = []
        if mine is not None and mine[3] is not None:
            notes.append((mine[3], f"instance {i} writes it here"))
        if theirs is not None and theirs[3] is not None:
            notes.append((theirs[3], f"instance {j} {verb.rstrip('s')}s it here"))
        raise error(
            parallel,
            f"'ktdf.parallel' op: instances {i} and {j} race on {where}: instance {i} "
            f"writes it and instance {j} {verb} it in the same execution (corelets run them at the same time)",
            notes,
        )


def _value_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "a value"
