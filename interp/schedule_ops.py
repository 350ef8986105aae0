"""Op implementations of the ScheduleIR interpreter (see `schedule.py` for the model).

Everything the KTIR interpreter runs (arith, math, scf, tensor, linalg on tensors, ktdp,
spyreop) is inherited; this module adds:

* `ktdf`: pipelines (private resources, then the stages in token order), stages, FIFO
  slots (queues of elements), data transfers in every mode, tiling placeholders,
  double-buffer phases, `ktdf.parallel` instances;
* `memref`: `alloc` (a fresh scratchpad buffer), `dealloc`, `memory_space_cast`, `cast`,
  `reinterpret_cast`, `subview`, `copy`, `load`, `store`, `dim`;
* `affine.apply`/`min`/`max`;
* linalg ops with memref operands (buffer semantics: outs are written in place);
* `func.call` of a program: a call in the orchestrator names a `func.func` that lives in a
  program module (`module @local_schedule_N`), not the private declaration next to it.

Values: a memref is a `BufferView` (a `memory.StridedView` that remembers the address of
its allocation, the base `memref.reinterpret_cast` offsets count from); a FIFO slot is a
`FifoSlot`; a token is a `Token`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AffineMapAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
)
from xdsl.interpreter import ReturnedValues
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from dfsched.diagnostics import DiagnosticError, error
from dfsched.interp import linalg_impl, schedule_batch
from dfsched.interp.base import NeedsScalar, State, functions_for, per_op, to_python
from dfsched.interp.sets import compiled_map
from dfsched.interp.dtypes import ElementType, UnsupportedType, element_type
from dfsched.dialects.constants import constant_int
from dfsched.interp.indirect import IndirectView, box, make_indirect_view
from dfsched.interp.memory import Memory, StridedView, unique_sorted

DYNAMIC = -(2**63)


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


@functools.lru_cache(maxsize=512)
def box_points(sizes: tuple[int, ...]) -> np.ndarray:
    """Row-major coordinates of the box [0, sizes): shape sizes + (rank,), read-only."""
    points = np.moveaxis(np.indices(sizes, dtype=np.int64), 0, -1) if sizes else np.zeros((0,), dtype=np.int64)
    points.setflags(write=False)
    return points


def _static_or_dynamic(static, dynamic) -> list[int]:
    it = iter(dynamic)
    return [int(next(it)) if s == DYNAMIC else int(s) for s in static]


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
    addresses = _addresses(view, coords, strict)
    if state.access_log is not None:
        state.access_log.add(view, state.instance, False, addresses, op)
    return view.memory.read(addresses, view.et, _tile_of(state, view))


def write_region(state: ScheduleState, view: StridedView, coords: np.ndarray, values,
                 op: Operation | None = None) -> None:
    if coords.size == 0:
        return
    addresses = _addresses(view, coords, True)
    if state.access_log is not None:
        state.access_log.add(view, state.instance, True, addresses, op)
    view.memory.write(addresses, values, view.et, _tile_of(state, view))


def whole(state: ScheduleState, view: StridedView, op: Operation | None = None) -> np.ndarray:
    """The whole view as an array of its shape."""
    return read_region(state, view, view_coords(view), True, op)


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

    # the bitmaps of `check` cover at most this many addresses x instances
    BITMAP_LIMIT = 1 << 26

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
        """Fail on the first instance pair (in instance order) where one writes an address the
        other touches, at the lowest such address."""
        for memory, entries in self.entries.values():
            insts = sorted({e[0] for e in entries})
            if len(insts) < 2:
                continue
            found = self._first_conflict_bitmap(insts, entries)
            if found is False:
                found = self._first_conflict_sorted(insts, entries)
            if found is not None:
                self._report(parallel, memory, entries, *found)

    @staticmethod
    def _as_array(addresses) -> np.ndarray:
        if isinstance(addresses, range):
            return np.arange(addresses.start, addresses.stop, addresses.step, dtype=np.int64)
        return addresses

    def _first_conflict_sorted(self, insts, entries):
        sets = {}
        for i in insts:
            w = [self._as_array(e[2]) for e in entries if e[0] == i and e[1]]
            r = [self._as_array(e[2]) for e in entries if e[0] == i and not e[1]]
            sets[i] = (unique_sorted(np.concatenate(w)) if w else np.zeros(0, np.int64),
                       unique_sorted(np.concatenate(r)) if r else np.zeros(0, np.int64))
        for i in insts:
            wi, _ = sets[i]
            if not wi.size:
                continue
            for j in insts:
                if j == i:
                    continue
                wj, rj = sets[j]
                both = unique_sorted(np.concatenate([wj, rj]))
                common = wi[np.isin(wi, both, assume_unique=True, kind="sort")] if both.size else wi[:0]
                if common.size:
                    return i, j, int(common[0])
        return None

    def _first_conflict_bitmap(self, insts, entries):
        """`_first_conflict_sorted` on bitmaps of the touched address span (False: the span is
        too large for bitmaps)."""
        lo = hi = None
        for e in entries:
            a = e[2]
            if isinstance(a, range):
                if not len(a):
                    continue
                first, last = a[0], a[-1]
            else:
                if not a.size:
                    continue
                first, last = int(a.min()), int(a.max())
            lo = first if lo is None or first < lo else lo
            hi = last if hi is None or last > hi else hi
        if lo is None:
            return None
        span = hi - lo + 1
        if span * len(insts) * 2 > self.BITMAP_LIMIT:
            return False
        index = {inst: k for k, inst in enumerate(insts)}
        writes = np.zeros((len(insts), span), dtype=bool)
        touches = np.zeros((len(insts), span), dtype=bool)
        for inst, write, a, _, _ in entries:
            k = index[inst]
            if isinstance(a, range):
                if not len(a):
                    continue
                sel = slice(a.start - lo, a.stop - lo, a.step)
            else:
                sel = a - lo
            touches[k, sel] = True
            if write:
                writes[k, sel] = True
        for a_, i in enumerate(insts):
            wi = writes[a_]
            if not wi.any():
                continue
            for b_, j in enumerate(insts):
                if j == i:
                    continue
                common = wi & touches[b_]
                if common.any():
                    return i, j, lo + int(np.argmax(common))
        return None

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


# ---------------------------------------------------------------------------------------
# helpers to run nested ops
# ---------------------------------------------------------------------------------------


def run_nested(interpreter, op: Operation) -> tuple:
    """Run one op of the current block and bind its results (what run_ssacfg_region does)."""
    inputs = interpreter.get_values(op.operands)
    result = interpreter.interpret_op(op, inputs)
    interpreter.set_values(zip(op.results, result.values))
    return result.values


# ---------------------------------------------------------------------------------------
# ktdf: pipelines and stages
# ---------------------------------------------------------------------------------------


def _stage_label(stage: Operation, index: int) -> str:
    units = stage.properties.get("applicable_units") or stage.attributes.get("applicable_units")
    names = [getattr(u, "data", str(u)) for u in getattr(units, "data", ())]
    return f"stage #{index}" + (f" {{{', '.join(names)}}}" if names else "")


def stage_order(interpreter, pipeline: Operation) -> list[Operation]:
    """The pipeline's stages in token order (Kahn's algorithm; among the stages ready to run,
    the first in sibling order, or the last with `stage_order="reverse"`)."""
    stages = [op for op in pipeline.body.block.ops if op.name == "ktdf.stage"]
    ins = [list(interpreter.get_values(s.depends_in)) for s in stages]
    outs = [list(interpreter.get_values(s.depends_out)) for s in stages]
    producers: dict[int, list[int]] = {}
    for i, toks in enumerate(outs):
        for t in toks:
            producers.setdefault(id(t), []).append(i)
    preds: list[set[int]] = []
    for j, toks in enumerate(ins):
        p: set[int] = set()
        for k, t in enumerate(toks):
            who = producers.get(id(t))
            if not who:
                raise error(
                    stages[j],
                    f"'ktdf.stage' op ({_stage_label(stages[j], j)}) waits for token #{k} of its depends_in, which "
                    f"no stage of this pipeline lists in depends_out: the stage would never run",
                )
            p.update(w for w in who if w != j)
            if j in who:
                raise error(stages[j], f"'ktdf.stage' op ({_stage_label(stages[j], j)}) waits for a token it signals itself")
        preds.append(p)
    done: list[int] = []
    remaining = set(range(len(stages)))
    while remaining:
        ready = [i for i in sorted(remaining) if preds[i] <= set(done)]
        if not ready:
            stuck = sorted(remaining)
            raise error(
                stages[stuck[0]],
                "'ktdf.pipeline' op: stages " + ", ".join(_stage_label(stages[i], i) for i in stuck)
                + " wait on each other (a token cycle): none of them can start",
            )
        pick = ready[-1] if interpreter.state.schedule.stage_order == "reverse" else ready[0]
        done.append(pick)
        remaining.discard(pick)
    return [stages[i] for i in done]


def _pipeline_info(op):
    """(its privates, the SSA tokens its stages wait for and signal, stage orders by the
    pattern of those tokens' identities)."""
    children = list(op.body.block.ops)
    stages = [c for c in children if c.name == "ktdf.stage"]
    tokens = [v for stage in stages for v in (*stage.depends_in, *stage.depends_out)]
    return [c for c in children if c.name == "ktdf.private"], tokens, {}


def _cached_stage_order(interpreter, op, info) -> list[Operation]:
    """`stage_order`, computed once per pattern of token identities (which stages share a
    token is all the order depends on)."""
    _, tokens, orders = info
    seen: dict[int, int] = {}
    pattern = tuple([seen.setdefault(id(t), len(seen)) for t in interpreter.get_values(tokens)])
    order = orders.get(pattern)
    if order is None:
        order = orders[pattern] = stage_order(interpreter, op)
    return order


def _run_pipeline(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    st.pipelines_run += 1
    info = op_info(interpreter, op, _pipeline_info)
    interpreter.push_scope("ktdf.pipeline")
    try:
        fifos: list[FifoSlot] = []
        for child in info[0]:
            values = run_nested(interpreter, child)
            fifos.extend(v for v in values if isinstance(v, FifoSlot))
        for stage in _cached_stage_order(interpreter, op, info):
            st.stages_run += 1
            run_nested(interpreter, stage)
        if st.schedule.drain_fifos:
            for slot in dict.fromkeys(fifos):
                if slot.count:
                    raise error(
                        slot.op,
                        f"'ktdf.fifo.allocate' op: when its pipeline finished, {slot.describe()} still held "
                        f"{slot.count} of the {slot.pushed} element(s) written to it: no stage read them "
                        f"(was the consumer removed?)",
                    )
    finally:
        interpreter.pop_scope()
    return ()


def _run_stage(self, interpreter, op, args):
    interpreter.run_ssacfg_region(op.regions[0], (), "ktdf.stage")
    return ()


def _run_private(self, interpreter, op, args):
    values = interpreter.run_ssacfg_region(op.regions[0], (), "ktdf.private")
    if len(values) != len(op.results):
        raise ValueError(f"yields {len(values)} value(s) for {len(op.results)} result(s)")
    return tuple(values)


def _run_yield(self, interpreter, op, args):
    return ReturnedValues(tuple(args)), ()


def _run_create_token(self, interpreter, op, args):
    return (Token(op),)


def _fifo_slot_types(op):
    return [(res.type, res.type.num_elements.data) for res in op.results]


def _run_fifo_allocate(self, interpreter, op, args):
    dynamic = iter(int(a) for a in args)
    out = []
    for i, (t, count) in enumerate(op_info(interpreter, op, _fifo_slot_types)):
        capacity = next(dynamic) if count == DYNAMIC else int(count)
        out.append(FifoSlot(op, i, t, capacity))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# ktdf: FIFO access and data transfers
# ---------------------------------------------------------------------------------------


def _fifo_data(op, slot: FifoSlot, n: int, et: ElementType) -> np.ndarray:
    data = slot.pop(n)
    return et.cast(data)


def _fifo_read_info(op):
    """(result type, its shape, whether it is dynamic, element type or None if unsupported)."""
    t = op.result.type
    shape = tuple(t.get_shape())
    try:
        et = element_type(t)
    except UnsupportedType:
        et = None  # raised when the op runs, after the checks before it
    return t, shape, any(d < 0 for d in shape), et


def _run_read_from_fifo(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    (slot,) = args
    if not isinstance(slot, FifoSlot):
        raise ValueError("reads from a value that is not a FIFO slot")
    t, shape, dynamic, et = op_info(interpreter, op, _fifo_read_info)
    if dynamic:
        if slot.capacity is None or sum(1 for d in shape if d < 0) != 1:
            raise ValueError(f"cannot size a dynamic result {t}")
        known = int(np.prod([d for d in shape if d >= 0], dtype=np.int64))
        shape = tuple(slot.capacity // max(known, 1) if d < 0 else d for d in shape)
    if et is None:
        et = element_type(t)
    n = math.prod(shape)
    data = _fifo_data(op, slot, n, et).reshape(shape)
    st.fifo_elements += n
    if isinstance(t, MemRefType):
        return (new_buffer(st, shape, et, Label(lambda: f"the buffer of a FIFO read ({slot.describe()})"),
                           data=data),)
    return (data,)


def _run_write_to_fifo(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    data, slot = args
    if not isinstance(slot, FifoSlot):
        raise ValueError("writes to a value that is not a FIFO slot")
    if isinstance(data, StridedView):
        data = whole(st, data, op)
    slot.push(np.asarray(data))
    return ()


class _TransferSide:
    """The static part of one side of a `ktdf.data_transfer` (operand positions, sizes, map)."""

    __slots__ = ("name", "value", "sizes", "dynamic", "indices", "evaluate")

    def __init__(self, op, side: str):
        operands = list(op.operands)
        n_si, n_ss, n_di = len(op.source_indices), len(op.source_sizes), len(op.dest_indices)
        if side == "source":
            self.value, first, sizes_at = 0, 1, 1 + n_si
        else:
            self.value, first, sizes_at = 1 + n_si + n_ss, 2 + n_si + n_ss, 2 + n_si + n_ss + n_di
        self.name = side
        n_idx = n_si if side == "source" else n_di
        self.indices = tuple(range(first, first + n_idx))
        mixed = op.mixed_sizes(side)
        self.sizes: list | None = None
        self.dynamic: tuple = ()
        if mixed is not None:
            dynamic, pos = [], sizes_at
            self.sizes = []
            for k, s in enumerate(mixed):
                if isinstance(s, SSAValue):
                    assert operands[pos] is s
                    dynamic.append((k, pos))
                    pos += 1
                    self.sizes.append(0)
                else:
                    self.sizes.append(int(s))
            self.dynamic = tuple(dynamic)
        amap_attr = op.source_map if side == "source" else op.dest_map
        self.evaluate = compiled_map(amap_attr.data) if isinstance(amap_attr, AffineMapAttr) else None


def _side(info: _TransferSide, args):
    """(value, (anchor, sizes) or None, element count or None) of one side of a data_transfer."""
    value = args[info.value]
    sizes = info.sizes
    if sizes is not None:
        sizes = list(sizes)
        for k, pos in info.dynamic:
            sizes[k] = int(args[pos])
    if isinstance(value, FifoSlot):
        count = None if sizes is None else math.prod(sizes)
        return value, None, count
    if not isinstance(value, (StridedView, IndirectView)):
        raise ValueError(f"the {info.name} is neither a memref nor a FIFO slot (the interpreter holds a "
                         f"{type(value).__name__} for it)")
    indices = [int(args[p]) for p in info.indices]
    if sizes is None:
        sizes = list(value.sizes)
    anchor = info.evaluate(indices, []) if info.evaluate is not None else [0] * len(sizes)
    if len(anchor) != len(sizes):
        raise ValueError(f"subscript has {len(anchor)} result(s) but the size list has {len(sizes)}")
    if any(s < 0 for s in sizes):
        raise ValueError(f"negative transfer size in {sizes}")
    return value, (anchor, sizes), math.prod(sizes)


def _transfer_info(op):
    mode_attr = op.attributes.get("transfer_mode")
    mode = mode_attr.data if isinstance(mode_attr, StringAttr) else None
    return _TransferSide(op, "source"), _TransferSide(op, "dest"), mode


def _fit(op, data: np.ndarray, target: int | None, mode: str | None) -> np.ndarray:
    """Source elements made `target` long as the transfer mode says (splat repeats, pad zero-fills)."""
    data = np.asarray(data).reshape(-1)
    if target is None or target == data.size:
        return data
    if mode == "splat":
        if data.size == 0 or target % data.size:
            raise ValueError(f"splat transfer of {data.size} element(s) cannot fill {target}")
        return np.tile(data, target // data.size)
    if mode == "pad":
        if data.size > target:
            raise ValueError(f"pad transfer of {data.size} element(s) does not fit in {target}")
        out = np.zeros(target, dtype=data.dtype)
        out[: data.size] = data
        return out
    raise ValueError(
        f"moves {data.size} element(s) out of its source but its destination takes {target} "
        f"(source and destination sizes disagree)"
    )


def _run_data_transfer(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    st.transfers += 1
    source, dest, mode = op_info(interpreter, op, _transfer_info)
    src, src_box, src_count = _side(source, args)
    dst, dst_box, dst_count = _side(dest, args)
    if isinstance(src, FifoSlot) and isinstance(dst, FifoSlot):
        raise ValueError("moves data from a FIFO slot to a FIFO slot (not allowed)")
    # what leaves the source
    if isinstance(src, FifoSlot):
        n = src_count if src_count is not None else dst_count
        et = dst.et
        data = _fifo_data(op, src, n, et)
        st.fifo_elements += n
    elif isinstance(src, IndirectView):
        et = src.et
        addresses = src.byte_addresses(lambda v, c: read_region(st, v, c, True, op), box(*src_box), st.tile_index)
        data = src.memory.read(addresses, et, _tile_of(st, src.source))
    else:
        et = src.et
        data = read_box(st, src, src_box[0], src_box[1], st.schedule.strict_bounds, op)
    # what arrives at the destination
    if isinstance(dst, FifoSlot):
        target = dst_count
        if mode is not None and dst.capacity is not None:
            target = max(target or 0, dst.capacity) if mode == "splat" else (target or dst.capacity)
        dst.push(_fit(op, data, target, mode))
    elif isinstance(dst, IndirectView):
        addresses = dst.byte_addresses(lambda v, c: read_region(st, v, c, True, op), box(*dst_box), st.tile_index)
        dst.memory.write(addresses, dst.et.cast(_fit(op, data, dst_count, mode)), dst.et, _tile_of(st, dst.source))
    else:
        payload = _fit(op, data, dst_count, mode)
        write_box(st, dst, dst_box[0], dst_box[1], dst.et.cast(payload), op)
    return ()


# ---------------------------------------------------------------------------------------
# ktdf: tiling, double buffering, parallel
# ---------------------------------------------------------------------------------------


def _int_prop(op, name: str) -> int:
    value = op.properties.get(name) or op.attributes.get(name)
    if value is None:
        raise ValueError(f"has no '{name}' attribute")
    return int(value.value.data)


def auto_tile_size(op) -> int:
    """What `tile-size-selection` picks for a `reserve_size` (or the smallest legal size)."""
    min_value = _int_prop(op, "min_value")
    divisibility = _int_prop(op, "divisibility")
    totals: list[int] = []
    for use in op.result.uses:
        user = use.operation
        if user.name == "arith.ceildivui" and use.index == 1:
            lhs = user.operands[0].owner
            if isinstance(lhs, Operation) and lhs.name == "arith.constant":
                totals.append(int(lhs.value.value.data))
    for c in range(max(2, min_value), min_value - 1, -1):
        if c <= 0 or (divisibility > 1 and c % divisibility):
            continue
        if all(t % c == 0 for t in totals):
            return c
    size = max(min_value, 1)
    if divisibility > 1:
        size = -(-size // divisibility) * divisibility
    return size


def _run_reserve_size(self, interpreter, op, args):
    choice = interpreter.state.schedule.reserve_size
    if choice is None:
        raise unsupported(
            op,
            "'ktdf.tiling.reserve_size' op: a tile size placeholder has no concrete value yet "
            "(run tile-size-selection, or give the interpreter a reserve_size)",
        )
    if choice == "auto":
        return (auto_tile_size(op),)
    if callable(choice):
        return (int(choice(op)),)
    value = int(choice)
    if value <= 0:
        raise ValueError(f"reserve_size must be positive, got {value}")
    return (value,)


def _iv_count(op) -> int:
    return len(op.ivs)


def _run_derive_size(self, interpreter, op, args):
    n = op_info(interpreter, op, _iv_count)
    ivs = [int(a) for a in args[:n]]
    sizes = [int(a) for a in args[n : 2 * n]]
    remaining = int(args[2 * n])
    for iv, ts in zip(ivs, sizes):
        if ts <= 0:
            raise ValueError(f"tile size {ts} is not positive")
        remaining = max(0, min(ts, remaining - iv * ts))
    return (remaining,)


def _run_linearize_index(self, interpreter, op, args):
    n = op_info(interpreter, op, _iv_count)
    return (sum(int(i) * int(s) for i, s in zip(args[:n], args[n:])),)


def _iv_range(interpreter, iv: SSAValue) -> tuple[int, int, int] | None:
    """(lb, ub, step) of the loop `iv` is the induction variable of, or None."""
    if not isinstance(iv, BlockArgument):
        return None
    owner = iv.block.parent_op()
    if owner is None:
        return None
    if owner.name == "scf.for" and iv.index == 0:
        lb, ub, step = interpreter.get_values((owner.lb, owner.ub, owner.step))
        return int(lb), int(ub), int(step)
    if owner.name == "ktdf.parallel" and iv.index < len(owner.lower_bounds):
        k = iv.index
        lb, ub, step = interpreter.get_values((owner.lower_bounds[k], owner.upper_bounds[k], owner.steps[k]))
        return int(lb), int(ub), int(step)
    return None


def _run_buffer_phase(self, interpreter, op, args):
    phases = _int_prop(op, "num_phases")
    linear = 0
    for value, iv in zip(args, op.ivs):
        rng = _iv_range(interpreter, iv)
        if rng is None:  # not a loop IV (a constant: the folder drops those): no effect
            continue
        lb, ub, step = rng
        trip = max(0, -(-(ub - lb) // step))
        linear = linear * trip + (int(value) - lb) // step
    return (linear % phases,)


def _run_select_memref(self, interpreter, op, args):
    phase, *candidates = args
    phase = int(phase)
    if not 0 <= phase < len(candidates):
        raise ValueError(f"phase {phase} selects none of its {len(candidates)} candidates")
    return (candidates[phase],)


def _parallel_info(op):
    return len(op.lower_bounds), int(op.num_instances.value.data), op.body


def _run_parallel(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    k, num_instances, body = op_info(interpreter, op, _parallel_info)
    lbs = [int(a) for a in args[:k]]
    ubs = [int(a) for a in args[k : 2 * k]]
    steps = [int(a) for a in args[2 * k : 3 * k]]
    if any(s <= 0 for s in steps):
        raise ValueError(f"steps must be positive, got {steps}")
    n = num_instances
    if n < 1:
        raise ValueError(f"num_instances must be at least 1, got {n}")
    ranges = [range(lb, ub, s) for lb, ub, s in zip(lbs, ubs, steps)]
    points = list(itertools.product(*ranges))
    chunk = -(-len(points) // n) if points else 0
    outer = st.instance
    log = AccessLog() if outer is None and st.schedule.instance_races else None
    saved = st.access_log
    if log is not None:
        st.access_log = log
    if points and _run_parallel_batched(interpreter, op, points, chunk, outer, log):
        st.access_log = saved
        return ()
    try:
        for inst in range(n):
            st.instance = inst if outer is None else outer
            for point in points[inst * chunk : (inst + 1) * chunk]:
                interpreter.run_ssacfg_region(body, (*point, inst), "ktdf.parallel")
    finally:
        st.instance = outer
        st.access_log = saved
    if log is not None:
        log.check(op)
    return ()


def _run_parallel_batched(interpreter, op, points, chunk: int, outer, log) -> bool:
    """Every point of a `ktdf.parallel` in one batch (`schedule_batch`); False: run it point by point."""
    st: ScheduleState = interpreter.state
    columns = np.asarray(points, dtype=np.int64).reshape(len(points), -1)
    ivs = [columns[:, k] for k in range(columns.shape[1])]
    instances = np.arange(len(points), dtype=np.int64) // chunk  # the instance block argument
    try:
        return schedule_batch.run_loop(interpreter, op, ivs, instances if outer is None else None,
                                       [schedule_batch.Batch(instances)],
                                       finish=(lambda: log.check(op)) if log is not None else None)
    finally:
        st.instance = outer


def _run_for(self, interpreter, op, args):
    """`scf.for`: batched (`schedule_batch`) when its body allows, else iteration by iteration."""
    if any(isinstance(a, np.ndarray) and a.ndim > 0 for a in args[:3]):
        raise NeedsScalar()
    lb, ub, step = (int(a) for a in args[:3])
    if step <= 0:
        raise ValueError(f"scf.for step must be positive, got {step}")
    loop_args = tuple(args[3:])
    if not loop_args and ub - lb >= schedule_batch.MIN_TRIPS * step:
        if schedule_batch.run_loop(interpreter, op, [np.arange(lb, ub, step, dtype=np.int64)]):
            return ()
    for i in range(lb, ub, step):
        loop_args = interpreter.run_ssacfg_region(op.body, (i, *loop_args), "for_loop")
    return tuple(loop_args)


def _run_indirect_view(self, interpreter, op, args):
    """A gather/scatter view over the source's memory (`interp/indirect.py`)."""
    source, addresses, offset = args
    if not isinstance(source, StridedView) or not isinstance(addresses, StridedView):
        raise ValueError("the source and the address list of an indirect view must be memrefs")
    evaluate = compiled_map(op.list_map.data)
    view = op.source.owner
    while view is not None and getattr(view, "name", "") == "memref.memory_space_cast":
        view = view.operands[0].owner
    relative = getattr(view, "name", "") == "ktdp.construct_memory_view" and constant_int(view.operands[0]) is None
    return (make_indirect_view(source, addresses, int(offset), op.result.type, evaluate, element_type(op.result.type),
                               relative),)


def _run_opaque(self, interpreter, op, args):
    raise unsupported(op, "'ktdf.opaque' op has no meaning the interpreter knows")


KTDF_TABLE: dict[str, Any] = {
    "ktdf.pipeline": _run_pipeline,
    "ktdf.stage": _run_stage,
    "ktdf.private": _run_private,
    "ktdf.private_yield": _run_yield,
    "ktdf.create_token": _run_create_token,
    "ktdf.fifo.allocate": _run_fifo_allocate,
    "ktdf.read_from_fifo": _run_read_from_fifo,
    "ktdf.write_to_fifo": _run_write_to_fifo,
    "ktdf.data_transfer": _run_data_transfer,
    "ktdf.tiling.reserve_size": _run_reserve_size,
    "ktdf.tiling.derive_size": _run_derive_size,
    "ktdf.tiling.linearize_index": _run_linearize_index,
    "ktdf.buffer_phase": _run_buffer_phase,
    "ktdf.select_memref": _run_select_memref,
    "ktdf.parallel": _run_parallel,
    "ktdf.parallel_yield": _run_yield,
    "ktdf.opaque": _run_opaque,
    "ktdf.indirect_view": _run_indirect_view,
}


# ---------------------------------------------------------------------------------------
# memref
# ---------------------------------------------------------------------------------------


def _as_view(value, what: str = "operand") -> StridedView:
    if not isinstance(value, StridedView):
        raise ValueError(f"its {what} is not a memref the interpreter knows ({type(value).__name__})")
    return value


def _alloc_info(op):
    """(result type, its static shape, the number of dynamic sizes, element type or None if
    unsupported)."""
    t = op.results[0].type
    try:
        et = element_type(t)
    except UnsupportedType:
        et = None  # raised when the op runs, after the checks before it
    return t, tuple(t.get_shape()), len(op.dynamic_sizes), et


def _run_alloc(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    t, static, n_dynamic, et = op_info(interpreter, op, _alloc_info)
    dynamic = [int(a) for a in args[:n_dynamic]]
    shape = _static_or_dynamic(static, dynamic)
    if any(s < 0 for s in shape):
        raise ValueError(f"negative size in {shape}")
    layout = t.layout
    if not isinstance(layout, NoneAttr):
        strides = [getattr(s, "data", s) for s in getattr(getattr(layout, "strides", None), "data", ())]
        identity = getattr(getattr(layout, "data", None), "is_identity", None)
        if not (strides and tuple(strides) == row_major(shape)) and not (identity is not None and identity()):
            raise ValueError(f"allocation with the layout {layout} is not supported (row-major only)")
    label = Label(lambda: f"buffer {_value_name(op.results[0])} ({t})")
    return (new_buffer(st, shape, element_type(t) if et is None else et, label),)


def _run_dealloc(self, interpreter, op, args):
    return ()


def _run_same_view(self, interpreter, op, args):
    return (_as_view(args[0]),)


def _offsets_sizes_strides(op, args) -> tuple[list[int], list[int], list[int]]:
    """The mixed static/dynamic offsets, sizes and strides of a view op (operand 0: the source)."""
    n_off, n_size = len(op.offsets), len(op.sizes)
    rest = [int(a) for a in args[1:]]
    return (
        _static_or_dynamic(op.static_offsets.get_values(), rest[:n_off]),
        _static_or_dynamic(op.static_sizes.get_values(), rest[n_off : n_off + n_size]),
        _static_or_dynamic(op.static_strides.get_values(), rest[n_off + n_size :]),
    )


def _run_reinterpret_cast(self, interpreter, op, args):
    src = _as_view(args[0], "source")
    offsets, sizes, strides = _offsets_sizes_strides(op, args)
    base = base_of(src)
    step = src.memory.element_step(src.et)
    offset = base + (offsets[0] if offsets else 0) * step
    return (
        BufferView(src.memory, src.space, offset, tuple(sizes), tuple(strides), src.et, None, (), (0,) * len(sizes),
                   src.tile_owner, base=base, label=getattr(src, "label", "")),
    )


def _run_subview(self, interpreter, op, args):
    src = _as_view(args[0], "source")
    offsets, sizes, steps = _offsets_sizes_strides(op, args)
    if src.coordinate_set is not None:
        raise ValueError("subview of a view with a coordinate set is not supported")
    elem = src.memory.element_step(src.et)
    offset = src.offset + int(sum(o * s for o, s in zip(offsets, src.strides))) * elem
    strides = [s * k for s, k in zip(src.strides, steps)]
    rank = len(op.result.type.get_shape())
    dims = list(range(len(sizes)))
    while len(dims) > rank:  # a rank-reducing subview drops unit dimensions
        unit = [d for d in dims if sizes[d] == 1]
        if not unit:
            raise ValueError("cannot tell which dimensions a rank-reducing subview drops")
        dims.remove(unit[0])
    return (
        BufferView(src.memory, src.space, offset, tuple(sizes[d] for d in dims), tuple(strides[d] for d in dims),
                   src.et, None, (), (0,) * len(dims), src.tile_owner, base=base_of(src),
                   label=getattr(src, "label", "")),
    )


def _run_copy(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    src, dst = _as_view(args[0], "source"), _as_view(args[1], "target")
    if tuple(src.sizes) != tuple(dst.sizes):
        raise ValueError(f"copies a {list(src.sizes)} memref into a {list(dst.sizes)} one")
    write_region(st, dst, view_coords(dst), dst.et.cast(whole(st, src, op)), op)
    return ()


def _run_memref_load(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    view = _as_view(args[0])
    coords = np.asarray([[int(a) for a in args[1:]]], dtype=np.int64) + np.asarray(view.lower or (0,) * view.rank)
    value = read_region(st, view, coords, True, op)[0]
    return (to_python(value, op.results[0].type),)


def _run_memref_store(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    value, view = args[0], _as_view(args[1])
    coords = np.asarray([[int(a) for a in args[2:]]], dtype=np.int64) + np.asarray(view.lower or (0,) * view.rank)
    write_region(st, view, coords, np.asarray([value]), op)
    return ()


def _run_memref_dim(self, interpreter, op, args):
    view, index = _as_view(args[0]), int(args[1])
    return (int(view.sizes[index]),)


def _space_memory(state: ScheduleState, op: Operation, t: MemRefType) -> tuple[Memory, str]:
    """The memory an address-assigned memref of type `t` lives in, and its sharing level.

    Global-level spaces are the global memory; a per-core scratchpad ("L1") is one memory
    per compute tile; a memory below it ("SFU_REG") one per tile and `ktdf.parallel`
    instance (each corelet has its own). The device in the module says which is which;
    without one, every named space is a per-tile scratchpad.
    """
    name = space_name(t)
    level = state.space_levels.get(name)
    if level is None:
        level, size = _space_level(op, t)
        state.space_levels[name] = level
        state.space_sizes[name] = size
    if level == "global":
        return state.global_memory, "global"
    key = (name, state.tile_index, state.instance if level == "below" else None)
    memory = state.spaces.get(key)
    if memory is None:
        who = f"compute tile {state.tile_index}" + (f", instance {state.instance}" if key[2] is not None else "")
        memory = Memory(f"the {name} memory of {who}", state.options.unit, state.space_sizes.get(name))
        state.spaces[key] = memory
    return memory, "buffer"


def _space_level(op: Operation, t: MemRefType) -> tuple[str, int | None]:
    try:
        from dfsched.arch.loading import devices_in, resolve_device
        from dfsched.arch.model import DeviceModel

        root = op
        while root.parent_op() is not None:
            root = root.parent_op()
        decls = devices_in(root)
        if len(decls) != 1:
            return "scratchpad", None
        model = DeviceModel(resolve_device(decls[0]))
        memory = model.memory_for_space(t.memory_space)
    except DiagnosticError:
        return "scratchpad", None
    level = "global" if memory.depth == 0 else "scratchpad" if memory.depth == 1 else "below"
    return level, memory.size


def _run_unrealized_cast(self, interpreter, op, args):
    """`index -> memref`: address-assignment's buffer at a byte address of its memory space."""
    st: ScheduleState = interpreter.state
    if len(op.results) != 1 or not isinstance(op.results[0].type, MemRefType) or len(args) != 1 \
            or not isinstance(args[0], (int, np.integer)):
        return tuple(args)
    t = op.results[0].type
    et = element_type(t)
    memory, level = _space_memory(st, op, t)
    address = int(args[0])
    if st.options.unit == "element":
        if address % et.itemsize:
            raise ValueError(f"byte address {address} is not a multiple of the {et.itemsize}-byte element")
        address //= et.itemsize
    shape = list(t.get_shape())
    if any(d < 0 for d in shape):
        raise ValueError(f"cannot place a dynamically shaped {t} at an address")
    label = Label(lambda: f"{space_name(t)} buffer at address {int(args[0])} ({t})")
    return (BufferView(memory, level, address, tuple(shape), row_major(shape), et, None, (), (0,) * len(shape),
                       None, base=address, label=label),)


MEMREF_TABLE: dict[str, Any] = {
    "builtin.unrealized_conversion_cast": _run_unrealized_cast,
    "memref.alloc": _run_alloc,
    "memref.alloca": _run_alloc,
    "memref.dealloc": _run_dealloc,
    "memref.memory_space_cast": _run_same_view,
    "memref.cast": _run_same_view,
    "memref.reinterpret_cast": _run_reinterpret_cast,
    "memref.subview": _run_subview,
    "memref.copy": _run_copy,
    "memref.load": _run_memref_load,
    "memref.store": _run_memref_store,
    "memref.dim": _run_memref_dim,
}


# ---------------------------------------------------------------------------------------
# affine
# ---------------------------------------------------------------------------------------


def _affine_results(op, args) -> list[int]:
    amap = op.map.data if hasattr(op, "map") and op.map is not None else op.properties["map"].data
    values = [int(a) for a in args]
    return [int(r) for r in amap.eval(values[: amap.num_dims], values[amap.num_dims :])]


def _run_affine_apply(self, interpreter, op, args):
    (value,) = _affine_results(op, args)
    return (value,)


def _run_affine_min(self, interpreter, op, args):
    return (min(_affine_results(op, args)),)


def _run_affine_max(self, interpreter, op, args):
    return (max(_affine_results(op, args)),)


AFFINE_TABLE: dict[str, Any] = {
    "affine.apply": _run_affine_apply,
    "affine.min": _run_affine_min,
    "affine.max": _run_affine_max,
}


# ---------------------------------------------------------------------------------------
# linalg with memref operands (buffer semantics)
# ---------------------------------------------------------------------------------------


def run_structured_on_values(interpreter, op, ins: list[Any], outs: list[np.ndarray], out_types) -> tuple:
    """linalg_impl's engine without its tensors-only check (operands already arrays)."""
    s = linalg_impl.structured(interpreter, op, linalg_impl.structured_op)
    n_inputs = s.n_inputs
    ins = list(ins)
    outs = [np.array(a, copy=True) for a in outs]
    for i, target in linalg_impl.input_casts(s, out_types):
        ins[i] = target.cast(ins[i])
    ranges = linalg_impl._loop_ranges(s.maps, ins + outs)  # noqa: SLF001
    parallel, reduction = s.parallel, s.reduction
    exx2 = s.exx2
    out_maps = s.maps[n_inputs:]
    injective = all(
        {r.position for r in m.results if hasattr(r, "position")} >= set(parallel) for m in out_maps
    )
    if injective:
        try:
            return linalg_impl._run_vectorised(  # noqa: SLF001
                interpreter, s, ins, outs, out_types, ranges, parallel, reduction, exx2)
        except linalg_impl.NeedsScalar:
            outs = [np.array(a, copy=True) for a in outs]
    return linalg_impl._run_pointwise(  # noqa: SLF001
        interpreter, s, ins, outs, out_types, ranges, exx2, bool(reduction))


def _linalg_any(original):
    def run(self, interpreter, op, args):
        if not any(isinstance(a, StridedView) for a in args):
            return original(self, interpreter, op, args)
        st: ScheduleState = interpreter.state
        n_inputs = linalg_impl.structured(interpreter, op, linalg_impl.structured_op).n_inputs
        values = [whole(st, a, op) if isinstance(a, StridedView) else a for a in args]
        out_types = [element_type(v.type) for v in op.operands[n_inputs:]]
        results = run_structured_on_values(interpreter, op, values[:n_inputs], values[n_inputs:], out_types)
        tensor_results = []
        for arg, res in zip(args[n_inputs:], results):
            if isinstance(arg, StridedView):
                write_region(st, arg, view_coords(arg), arg.et.cast(res), op)
            else:
                tensor_results.append(res)
        return tuple(tensor_results) if op.results else ()

    return run


def linalg_table(classes) -> dict[str, Any]:
    from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation

    table: dict[str, Any] = {}
    for cls in classes:
        if cls.name.startswith("linalg.") and isinstance(cls, type) and issubclass(cls, LinalgStructuredOperation):
            table[cls.name] = _linalg_any(linalg_impl._run_linalg_structured)  # noqa: SLF001
    table["linalg.reduce"] = _linalg_any(linalg_impl._run_reduce)  # noqa: SLF001
    table["linalg.broadcast"] = _linalg_any(linalg_impl._run_broadcast)  # noqa: SLF001
    return table


# ---------------------------------------------------------------------------------------
# func.call of programs
# ---------------------------------------------------------------------------------------


def find_callee(call: Operation, name: str):
    """The `func.func @name` with a body that `call` runs (a program module's, if needed)."""
    # the nearest enclosing module first, then every module of the whole IR
    scope = call.parent_op()
    while scope is not None and scope.name != "builtin.module":
        scope = scope.parent_op()
    root = scope
    while root is not None and root.parent_op() is not None:
        root = root.parent_op()
    candidates = []
    for where in (scope, root):
        if where is None:
            continue
        for f in where.walk():
            if f.name == "func.func" and f.sym_name.data == name and f.body.blocks and f.body.blocks.first.ops:
                candidates.append(f)
        if candidates:
            break
    if not candidates:
        raise ValueError(f"calls @{name}, but no function of that name has a body anywhere in the IR")
    same_module = [f for f in candidates if f.parent_op() is scope]
    if same_module:
        return same_module[0]
    named = [f for f in candidates if getattr(f.parent_op(), "sym_name", None) is not None
             and f.parent_op().sym_name.data == name]
    if named:
        return named[0]
    if len(candidates) > 1:
        raise ValueError(f"calls @{name}, which {len(candidates)} functions with bodies define")
    return candidates[0]


def _run_call(self, interpreter, op, args):
    callee = find_callee(op, op.callee.root_reference.data)
    return tuple(interpreter.call_op(callee, tuple(args)))


FUNC_TABLE: dict[str, Any] = {"func.call": _run_call, "scf.for": _run_for}


def schedule_functions(classes) -> list[Any]:
    table = {**KTDF_TABLE, **MEMREF_TABLE, **AFFINE_TABLE, **FUNC_TABLE, **linalg_table(classes)}
    return [functions_for("ScheduleFunctions", table, classes)()]
