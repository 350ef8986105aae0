"""Batched DMA loops of the DataflowIR simulator: many iterations of a transfer loop in one go.

A unit's `scf.for` whose body is one `agen.composite_load_and_store` with a trivial body (a
DMA loop: no FIFO, no signal, no compute) runs one event per iteration: read the source
(and race-check it), work `c` cycles, write the destination. When the engine would resume
the unit anyway after each of the next m iterations (every other unit's next event is later
than their ends: `Engine._next_anyway`), no other event can come between them, so their
reads and writes are made in one piece each, with one race check per side, and their
timeline entries, busy cycles and events are those of m single steps. Exact when the batch
reads no byte it writes (checked; otherwise the loop goes step by step); a run that fails
(a race, an access outside a view, max_events) is simulated again without batches, so its
report is the step-by-step one (`dataflow.simulate`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Block, Operation

from dfsched.interp.dataflow_engine import Busy
from dfsched.interp.dataflow_state import SimError, vector_type_info
from dfsched.interp.dataflow_transfers import _base, _time_plan, _view, access_plan, view_addresses
from dfsched.interp.memory import overlaps

if TYPE_CHECKING:
    from dfsched.interp.dataflow_ops import Runner

MIN_BATCH = 2  # fewer iterations go step by step


def dma_loop_body(sim, loop: Operation) -> Operation | None:
    """The transfer of a loop that is one trivial `composite_load_and_store` (no iter_args,
    memrefs and time symbols defined outside the loop), else None; decided once per loop."""
    cache = sim.dma_loops
    key = id(loop)
    if key in cache:
        return cache[key]
    found = None
    block = loop.regions[0].blocks.first
    ops = list(block.ops)
    if len(loop.results) == 0 and len(ops) == 2 and ops[1].name == "scf.yield" and not ops[1].operands \
            and ops[0].name == "agen.composite_load_and_store":
        op = ops[0]
        src_mem, dst_mem, _, _, time_syms, _ = sim.segments(op)
        outside = all(_defined_outside(v, loop) for v in (*src_mem, *dst_mem, *time_syms))
        if outside and sim.trivial_body(op, op.regions[0].blocks.first):
            found = op
    cache[key] = found
    return found


def _defined_outside(value, loop: Operation) -> bool:
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    while op is not None:
        if op is loop:
            return False
        op = op.parent_op()
    return True


def run_loop(r: Runner, op: Operation, iv, ivs: range):
    """Run the iterations `ivs` of the DMA loop whose body is `op` (`iv`: the induction
    variable) in one piece, if they can go so (a generator: it yields each iteration's
    work); returns whether they ran (False: nothing done, go step by step)."""
    sim = r.sim
    env = r.env
    unit = r.unit
    src_mem, dst_mem, src_ops, dst_ops, time_syms, _ = sim.segments(op)
    src, dst = _view(env[src_mem[0]]), _view(env[dst_mem[0]])
    body = op.regions[0].blocks.first
    shape, et = vector_type_info(body.args[0].type)
    time = _time_plan(r, op, tuple(int(env[v]) for v in time_syms))
    vector_bytes = math.prod(shape) * et.itemsize
    cycles = sim.composite_cycles(src.space, unit.kind, dst.space, vector_bytes) * time.steps
    count = len(ivs)
    if count < MIN_BATCH or cycles <= 0:
        return False
    load = access_plan(r, op, "load", op.load_set.data, op.load_order.data, len(src.sizes))
    store = access_plan(r, op, "store", op.store_set.data, op.store_order.data, len(dst.sizes))
    if time.load.shape[1] != len(src.sizes) or time.store.shape[1] != len(dst.sizes) \
            or load.count != math.prod(shape) or store.count != load.count:
        return False  # the step-by-step path reports it
    src_addr, src_seq = _addresses(r, src, op.src_map.data, src_ops, iv, ivs, load, time.load)
    dst_addr, dst_seq = _addresses(r, dst, op.dst_map.data, dst_ops, iv, ivs, store, time.store)
    if src_addr is None or dst_addr is None or (src.memory is dst.memory and overlaps(src_addr, dst_addr)):
        return False
    sim.batched = True
    races = sim.races
    if races is not None:
        races.moved = True
        races.read(unit.name, src.memory, src_addr, et.itemsize, src_seq)
    values = src.memory.read(src_addr, et, consecutive=src_seq)
    if races is not None:
        races.write(unit.name, dst.memory, dst_addr, et.itemsize, dst_seq)
    dst.memory.write(dst_addr, values, et, consecutive=dst_seq)
    moved = time.steps * vector_bytes * count
    stats = r.stats
    stats.loaded_bytes += moved
    stats.stored_bytes += moved
    stats.dma_bytes += moved
    stats.dma_cycles += cycles * count
    for kind in (src.space, dst.space):
        stats.dma_bytes_by_memory[kind] = stats.dma_bytes_by_memory.get(kind, 0) + moved
    work = Busy(cycles, f"transfer {src.unit_name} -> {dst.unit_name}", vector_bytes * time.steps)
    for _ in range(count):
        yield work
    return True


def _addresses(r: Runner, view, amap, operands, iv, ivs: range, plan, time_steps: np.ndarray):
    """Byte addresses of every iteration's time steps, in order (shape (count * T, n)), and
    whether they are consecutive; (None, False) when a subscript is out of the view (the
    step-by-step path reports it)."""
    env = r.env
    values = [env[v] if v is not iv else None for v in operands]
    slot = [k for k, v in enumerate(operands) if v is iv]
    bases = []
    for i in ivs:
        for k in slot:
            values[k] = i
        bases.append(_base(r, amap, values))
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


__all__ = ["dma_loop_body", "run_loop"]
