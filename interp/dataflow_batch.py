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
from dataclasses import dataclass
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
    """One transfer op of a nest: its views, plans, cost and each occurrence's subscript operands."""

    op: Operation
    src: Any
    dst: Any
    et: Any
    vector_bytes: int
    time: Any
    work: Busy
    src_template: list[int | None]  # the subscript operands defined outside the nest (None: an iv)
    src_slots: list[tuple[int, int]]  # (operand position, id of the iv it is)
    dst_template: list[int | None]
    dst_slots: list[tuple[int, int]]
    src_operands: list[list[int]]
    dst_operands: list[list[int]]


def run_nest(r: Runner, nest: Nest, ivs: range):
    """Run the iterations `ivs` of DMA nest `nest` in one piece, if they can go so (a
    generator: it yields each transfer's work in order); returns whether they ran (False:
    nothing done, go step by step)."""
    transfers: dict[int, _Transfer] = {}
    order: list[_Transfer] = []
    ivals: dict[Any, int] = {}
    try:
        _enumerate(r, nest, ivs, ivals, transfers, order)
    except _StepByStep:
        return False
    if len(order) < MIN_STEPS:
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
        src_addr, src_seq = _addresses(r, t.src, t.op.src_map.data, t.src_operands, load, t.time.load)
        dst_addr, dst_seq = _addresses(r, t.dst, t.op.dst_map.data, t.dst_operands, store, t.time.store)
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
    for t in order:
        yield t.work
    return True


class _StepByStep(Exception):
    """The nest cannot go in one piece (a non-positive step, a transfer that takes no time)."""


def _enumerate(r: Runner, nest: Nest, ivs: range, ivals: dict, transfers: dict, order: list,
               ivs_of: frozenset[int] = frozenset()) -> None:
    """Walk the nest's iterations in program order, noting each transfer occurrence
    (`ivs_of`: the ids of the outermost nest's induction variables)."""
    ivs_of = ivs_of or nest.ivs
    iv = id(nest.loop.regions[0].blocks.first.args[0])
    env = r.env
    for i in ivs:
        ivals[iv] = i
        for item in nest.body:
            if isinstance(item, Nest):
                lb, ub, step = (int(env[v]) for v in item.loop.operands)
                if step <= 0:
                    raise _StepByStep
                _enumerate(r, item, range(lb, ub, step), ivals, transfers, order, ivs_of)
                continue
            t = transfers.get(id(item))
            if t is None:
                t = transfers[id(item)] = _transfer(r, item, ivs_of)
            for template, slots, out in ((t.src_template, t.src_slots, t.src_operands),
                                         (t.dst_template, t.dst_slots, t.dst_operands)):
                values = template.copy()
                for at, key in slots:
                    values[at] = ivals[key]
                out.append(values)
            order.append(t)


def _transfer(r: Runner, op: Operation, ivs: frozenset[int]) -> _Transfer:
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
    src_template, src_slots = _template(r, src_ops, ivs)
    dst_template, dst_slots = _template(r, dst_ops, ivs)
    return _Transfer(op, src, dst, et, vector_bytes, time, work, src_template, src_slots, dst_template, dst_slots,
                     [], [])


def _template(r: Runner, operands, ivs: frozenset[int]):
    template = [None if id(v) in ivs else int(r.env[v]) for v in operands]
    return template, [(k, id(v)) for k, v in enumerate(operands) if id(v) in ivs]


def _count(r: Runner, t: _Transfer) -> None:
    """The statistics of every occurrence of transfer `t`, as the steps count them."""
    count = len(t.src_operands)
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


def _addresses(r: Runner, view, amap, occurrences: list[list[int]], plan, time_steps: np.ndarray):
    """Byte addresses of every occurrence's time steps, in order (shape (count * T, n)), and
    whether they are consecutive; (None, False) when a subscript is out of the view (the
    step-by-step path reports it)."""
    bases = [_base(r, amap, values) for values in occurrences]
    first = np.asarray(bases[0], dtype=np.int64)
    shifts = np.asarray(bases, dtype=np.int64) - first  # (count, rank)
    steps = (shifts[:, None, :] + time_steps[None, :, :]).reshape(-1, time_steps.shape[1])
    lo = tuple(int(x) for x in steps.min(axis=0)) if steps.size else (0,) * len(view.sizes)
    hi = tuple(int(x) for x in steps.max(axis=0)) if steps.size else (0,) * len(view.sizes)
    try:
        addresses, consecutive = view_addresses(view, tuple(bases[0]), plan, r.sim.options.check_bounds, steps, lo, hi)
    except SimError:  # out of bounds: the step-by-step path raises it, located
        return None, False
    flat = addresses.reshape(-1)
    if not consecutive and flat.size > 1:  # rows one after the other: one run
        step = view.et.itemsize
        consecutive = bool(int(flat[-1]) - int(flat[0]) == (flat.size - 1) * step and np.all(np.diff(flat) == step))
    return addresses, consecutive


__all__ = ["Nest", "dma_nest", "run_nest"]
