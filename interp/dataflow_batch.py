"""DMA loop nests of the DataflowIR simulator in one piece.

A unit's `scf.for` nest whose bodies hold only trivial `agen.composite_load_and_store`s and
inner such loops (a DMA nest: no FIFO, no signal, no compute, no loop-carried values) runs
one event per transfer step by step: read the source (and race-check it), work `c` cycles,
write the destination. Here the whole nest's reads are made first, in one piece per
transfer op, then its writes, and the unit then yields each transfer's work in program
order, so cycles, the timeline, busy time, statistics and the engine's events are those of
the steps. The effects moved earlier are exact unless another unit touches those bytes
unordered, which the race checker sees:

* the nest reads no byte it writes and no two of its transfer ops write the same byte
  (checked first: otherwise the nest goes step by step);
* any failure of a run with moved accesses (a race, an access outside a view, max_events)
  is simulated again step by step (`dataflow.simulate`), so reports are the step-by-step ones;
* the race checker remembers one reader per byte: a write to a byte two units read
  unordered could be judged differently once reads moved, so it also makes the run start
  again step by step (`races.OrderUnknown`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.ir import Operation

from dfsched.interp.base import defined_inside
from dfsched.interp.dataflow_engine import Busy
from dfsched.interp.dataflow_state import SimError, vector_type_info
from dfsched.interp.dataflow_transfers import _base, _time_plan, _view, access_plan, view_addresses
from dfsched.interp.memory import overlaps

if TYPE_CHECKING:
    from dfsched.interp.dataflow_ops import Runner

MIN_STEPS = 2  # a nest of fewer transfers goes step by step
COMPOSITE = "agen.composite_load_and_store"


@dataclass
class Nest:
    """A DMA loop nest: `body` items are transfer ops or inner `Nest`s."""

    loop: Operation
    body: list[Any]
    ivs: frozenset[int] = frozenset()  # ids of the induction variables of this loop and the inner ones
    walks: dict[tuple, Any] = field(default_factory=dict)  # `_walk`s made, by iteration space


def dma_nest(sim, loop: Operation) -> Nest | None:
    """The DMA nest `loop` heads (memrefs, time symbols and inner loop bounds defined outside
    it), else None; decided once per loop."""
    cache = sim.dma_loops
    key = id(loop)
    if key not in cache:
        cache[key] = _nest(sim, loop, loop)
    return cache[key]


def _nest(sim, loop: Operation, outer: Operation) -> Nest | None:
    if loop.results or len(loop.operands) != 3:
        return None
    if loop is not outer and any(defined_inside(v, outer) for v in loop.operands):
        return None
    body: list[Any] = []
    ops = list(loop.regions[0].blocks.first.ops)
    if not ops or ops[-1].name != "scf.yield" or ops[-1].operands:
        return None
    for op in ops[:-1]:
        if op.name == "scf.for":
            inner = _nest(sim, op, outer)
            if inner is None:
                return None
            body.append(inner)
        elif op.name == COMPOSITE:
            src_mem, dst_mem, _, _, time_syms, _ = sim.segments(op)
            if any(defined_inside(v, outer) for v in (*src_mem, *dst_mem, *time_syms)) \
                    or not sim.trivial_body(op, op.regions[0].blocks.first):
                return None
            body.append(op)
        else:
            return None
    ivs = {id(loop.regions[0].blocks.first.args[0])}
    for item in body:
        if isinstance(item, Nest):
            ivs |= item.ivs
    return Nest(loop, body, frozenset(ivs))


@dataclass
class _Transfer:
    """One transfer op of a nest: its views, plans, cost and each occurrence's subscripts."""

    op: Operation
    src: Any
    dst: Any
    et: Any
    vector_bytes: int
    time: Any
    work: Busy
    count: int  # its occurrences in the nest
    src_bases: np.ndarray  # (count, src rank): each occurrence's source subscript
    dst_bases: np.ndarray


def run_nest(r: Runner, nest: Nest, ivs: range):
    """Run the iterations `ivs` of DMA nest `nest` in one piece, if they can go so (a
    generator: it yields each transfer's work in order); returns whether they ran (False:
    nothing done, go step by step)."""
    walk = _walk(r, nest, ivs)
    if walk is None or len(walk.order) < MIN_STEPS:
        return False
    transfers: dict[int, _Transfer] = {}
    try:
        for key, (op, table) in walk.occurrences.items():
            transfers[key] = _transfer(r, op, table, walk.columns)
    except _StepByStep:
        return False
    reads, writes = [], []
    for t in transfers.values():
        body = t.op.regions[0].blocks.first
        load = access_plan(r, t.op, "load", t.op.load_set.data, t.op.load_order.data, len(t.src.sizes))
        store = access_plan(r, t.op, "store", t.op.store_set.data, t.op.store_order.data, len(t.dst.sizes))
        shape, _ = vector_type_info(body.args[0].type)
        if t.time.load.shape[1] != len(t.src.sizes) or t.time.store.shape[1] != len(t.dst.sizes) \
                or load.count != math.prod(shape) or store.count != load.count:
            return False  # the step-by-step path reports it
        src_addr, src_seq = _addresses(r, t.src, t.src_bases, load, t.time.load)
        dst_addr, dst_seq = _addresses(r, t.dst, t.dst_bases, store, t.time.store)
        if src_addr is None or dst_addr is None:
            return False
        reads.append((t, src_addr, src_seq))
        writes.append((t, dst_addr, dst_seq))
    for i, (t, dst_addr, _) in enumerate(writes):
        for u, src_addr, _ in reads:
            if u.src.memory is t.dst.memory and _share_bytes(src_addr, u.et.itemsize, dst_addr, t.et.itemsize):
                return False
        for u, other, _ in writes[i + 1:]:
            if u.dst.memory is t.dst.memory and _share_bytes(other, u.et.itemsize, dst_addr, t.et.itemsize):
                return False
    sim = r.sim
    sim.batched = True
    races = sim.races
    if races is not None:
        races.moved = True
    unit = r.unit.name
    values = []
    for t, src_addr, src_seq in reads:
        if races is not None:
            races.read(unit, t.src.memory, src_addr, t.et.itemsize, src_seq)
        values.append(t.src.memory.read(src_addr, t.et, consecutive=src_seq))
    for (t, dst_addr, dst_seq), data in zip(writes, values):
        if races is not None:
            races.write(unit, t.dst.memory, dst_addr, t.et.itemsize, dst_seq, data, t.et)
        t.dst.memory.write(dst_addr, data, t.et, consecutive=dst_seq)
        _count(r, t)
    for key in walk.order:
        yield transfers[key].work
    return True


class _StepByStep(Exception):
    """The nest cannot go in one piece (a non-positive step, a transfer that takes no time)."""


@dataclass
class _Walk:
    """A nest's iterations in program order: the transfer op (id) of each step, and per
    transfer op its occurrences' induction variable values (one row each; `columns`: iv id ->
    column)."""

    order: list[int]
    occurrences: dict[int, tuple[Operation, np.ndarray]]
    columns: dict[int, int]


WALKS_KEPT = 64  # iteration spaces remembered per nest


def _walk(r: Runner, nest: Nest, ivs: range) -> _Walk | None:
    """`nest`'s walk over `ivs` (None: it cannot go in one piece), made once per iteration
    space (`ivs` and the inner loops' bounds, which the nest does not define)."""
    bounds = _inner_bounds(r.env, nest, {})
    key = (ivs.start, ivs.stop, ivs.step, *bounds.values())
    found = nest.walks.get(key, False)
    if found is not False:
        return found
    columns = {iv: k for k, iv in enumerate(sorted(nest.ivs))}
    order: list[int] = []
    rows: dict[int, tuple[Operation, list]] = {}
    try:
        _enumerate(nest, ivs, bounds, [0] * len(columns), columns, rows, order)
        walk = _Walk(order, {k: (op, np.asarray(values, dtype=np.int64).reshape(len(values), len(columns)))
                             for k, (op, values) in rows.items()}, columns)
    except _StepByStep:
        walk = None
    if len(nest.walks) < WALKS_KEPT:
        nest.walks[key] = walk
    return walk


def _inner_bounds(env, nest: Nest, out: dict) -> dict:
    """The range (lb, ub, step) of every inner loop of `nest` (by the loop's id), depth first."""
    for item in nest.body:
        if isinstance(item, Nest):
            out[id(item)] = tuple(int(env[v]) for v in item.loop.operands)
            _inner_bounds(env, item, out)
    return out


def _enumerate(nest: Nest, ivs: range, bounds: dict, ivals: list[int], columns: dict[int, int], rows: dict,
               order: list) -> None:
    """Walk the nest's iterations in program order, noting each transfer occurrence with the
    induction variables' values (`ivals`, by `columns`)."""
    column = columns[id(nest.loop.regions[0].blocks.first.args[0])]
    for i in ivs:
        ivals[column] = i
        for item in nest.body:
            if isinstance(item, Nest):
                lb, ub, step = bounds[id(item)]
                if step <= 0:
                    raise _StepByStep
                _enumerate(item, range(lb, ub, step), bounds, ivals, columns, rows, order)
                continue
            entry = rows.get(id(item))
            if entry is None:
                entry = rows[id(item)] = (item, [])
            entry[1].append(list(ivals))
            order.append(id(item))


def _transfer(r: Runner, op: Operation, table: np.ndarray, columns: dict[int, int]) -> _Transfer:
    sim, env = r.sim, r.env
    src_mem, dst_mem, src_ops, dst_ops, time_syms, _ = sim.segments(op)
    src, dst = _view(env[src_mem[0]]), _view(env[dst_mem[0]])
    shape, et = vector_type_info(op.regions[0].blocks.first.args[0].type)
    time = _time_plan(r, op, tuple(int(env[v]) for v in time_syms))
    vector_bytes = math.prod(shape) * et.itemsize
    cycles = sim.composite_cycles(src.space, r.unit.kind, dst.space, vector_bytes) * time.steps
    if cycles <= 0:
        raise _StepByStep
    work = Busy(cycles, f"transfer {src.unit_name} -> {dst.unit_name}", vector_bytes * time.steps)
    return _Transfer(op, src, dst, et, vector_bytes, time, work, table.shape[0],
                     _bases(r, op.src_map.data, src_ops, table, columns),
                     _bases(r, op.dst_map.data, dst_ops, table, columns))


def _bases(r: Runner, amap, operands, table: np.ndarray, columns: dict[int, int]) -> np.ndarray:
    """The subscripts (count, rank) of `amap` over `operands` at each occurrence (a row of
    `table`: its induction variables' values by `columns`; other operands from the environment)."""
    count = table.shape[0]
    values = np.empty((count, len(operands)), dtype=np.int64)
    for k, v in enumerate(operands):
        column = columns.get(id(v))
        values[:, k] = table[:, column] if column is not None else int(r.env[v])
    forms = r.sim.subscript(amap)
    if forms is None:
        return np.asarray([_base(r, amap, row) for row in values.tolist()], dtype=np.int64).reshape(count, -1)
    coeffs = np.asarray([c for c, _ in forms], dtype=np.int64).reshape(len(forms), len(operands))
    return values @ coeffs.T + np.asarray([k for _, k in forms], dtype=np.int64)


def _count(r: Runner, t: _Transfer) -> None:
    """The statistics of every occurrence of transfer `t`, as the steps count them."""
    count = t.count
    moved = t.time.steps * t.vector_bytes * count
    stats = r.stats
    stats.loaded_bytes += moved
    stats.stored_bytes += moved
    stats.dma_bytes += moved
    stats.dma_cycles += t.work.cycles * count
    for kind in (t.src.space, t.dst.space):
        stats.dma_bytes_by_memory[kind] = stats.dma_bytes_by_memory.get(kind, 0) + moved


def _share_bytes(a: np.ndarray, a_size: int, b: np.ndarray, b_size: int) -> bool:
    """Whether elements of `a_size` bytes at addresses `a` and of `b_size` bytes at `b` share a byte."""
    a, b = a.reshape(-1), b.reshape(-1)
    if int(a.max()) + a_size <= int(b.min()) or int(b.max()) + b_size <= int(a.min()):
        return False
    if a_size == b_size and not (a % a_size).any() and not (b % b_size).any():
        return overlaps(a, b)
    return overlaps((a[:, None] + np.arange(a_size)).reshape(-1), (b[:, None] + np.arange(b_size)).reshape(-1))


def _addresses(r: Runner, view, bases: np.ndarray, plan, time_steps: np.ndarray):
    """Byte addresses of every occurrence's time steps, in order (shape (count * T, n)), and
    whether they are consecutive; (None, False) when a subscript is out of the view (the
    step-by-step path reports it). `bases`: each occurrence's subscript (count, rank)."""
    first = bases[0]
    shifts = bases - first  # (count, rank)
    steps = (shifts[:, None, :] + time_steps[None, :, :]).reshape(-1, time_steps.shape[1])
    lo = tuple(int(x) for x in steps.min(axis=0)) if steps.size else (0,) * len(view.sizes)
    hi = tuple(int(x) for x in steps.max(axis=0)) if steps.size else (0,) * len(view.sizes)
    try:
        addresses, consecutive = view_addresses(view, tuple(int(x) for x in first), plan,
                                                r.sim.options.check_bounds, steps, lo, hi)
    except SimError:  # out of bounds: the step-by-step path raises it, located
        return None, False
    flat = addresses.reshape(-1)
    if not consecutive and flat.size > 1:  # rows one after the other: one run
        step = view.et.itemsize
        consecutive = bool(int(flat[-1]) - int(flat[0]) == (flat.size - 1) * step and np.all(np.diff(flat) == step))
    return addresses, consecutive


__all__ = ["Nest", "dma_nest", "run_nest"]
