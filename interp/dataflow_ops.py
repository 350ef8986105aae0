"""The runner of the DataflowIR simulator and the ops that are not data movement or compute
(`dataflow.py` documents the model).

`Runner` executes the ops of one block sequence for one unit (or for the host, outside any
program unit) as a generator that yields the engine's commands (`dataflow_engine.py`)
whenever the op takes time or must wait. Here: control flow, calls, program launches,
FIFO sends and receives, sync signals, and the ops that take no time (units, views,
uniform maps, symbols, allocations). `dataflow_transfers` holds the `agen` ops,
`dataflow_compute` the compute ops; `dataflow_state` what one simulation shares.

Values the runner gives SSA values:

| type / op                          | Python value                                          |
|------------------------------------|-------------------------------------------------------|
| `index`, integers                  | `int`                                                 |
| floats                             | numpy scalars                                         |
| `vector<...>`, `tensor<...>`       | numpy arrays of the type's shape and element dtype    |
| `dataflow.get_unit` results        | `Unit` (equal when the names are equal)               |
| `uniform.def_immutable_mapping`    | `UniformMap` (key -> value, keys compared by value)   |
| memrefs (`get_logical_memory_view`, `memref.alloc`) | `memory.StridedView` (`sim_view`)   |
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, ShapedType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap

from dfsched.compat import op_implementations
from dfsched.diagnostics import DiagnosticError, error
from dfsched.interp.dataflow_batch import dma_nest, run_nest
from dfsched.interp.dataflow_compiled import compiled_loop
from dfsched.interp.dataflow_compute import COMPUTE
from dfsched.interp.dataflow_engine import Block as BlockCmd
from dfsched.interp.dataflow_engine import Busy, Process, WaitUntil
from dfsched.interp.races import RaceError
from dfsched.interp.std_impl import CMPI_PREDICATES, cmpi_scalar, int_scalar_binary
from dfsched.interp.dataflow_state import (
    SimError,
    SimState,
    UniformMap,
    Unit,
    shape_of,
    sim_view,
    vector_type_info,
)
from dfsched.interp.dataflow_transfers import TRANSFERS
from dfsched.interp.dtypes import ElementType, UnsupportedType, element_type
from dfsched.interp.memory import MemoryAccessError

# ---------------------------------------------------------------------------------------
# the runner
# ---------------------------------------------------------------------------------------

TERMINATORS = frozenset(
    {"scf.yield", "scf.condition", "agen.yield", "dataflow.return", "func.return", "uniform.yield", "linalg.yield"}
)
ROLE_HOST = "host"
# faults of the simulated program an op implementation raises: located on the op
OP_FAULTS = (SimError, RaceError, MemoryAccessError, ValueError, IndexError, UnsupportedType, ZeroDivisionError)

Gen = Generator[Any, None, Any]


class Runner:
    """Runs blocks for one unit (`unit` set, inside a program unit) or for the host."""

    def __init__(self, sim: SimState, unit: Unit | None, env: dict[SSAValue, Any], process: Process | None = None):
        self.sim = sim
        self.unit = unit
        self.env = env
        self.process = process
        self.pending: list[tuple[Operation, dict]] = []  # host: program units to launch
        self.launch_env: dict | None = None  # the host values a program instance started from
        self.stats = sim.stats_for(unit) if unit is not None else None
        # per block this instance ran to its end: its plan without the ops it runs once
        self._trimmed: dict[int, tuple[Block, list]] = {}

    @property
    def now(self) -> int:
        engine = self.sim.engine
        return engine.now if engine is not None else self.sim.clock

    @property
    def who(self) -> str:
        return self.unit.name if self.unit is not None else ROLE_HOST

    def run_block(self, block: Block, args) -> Gen:
        env = self.env
        for arg, value in zip(block.args, args):
            env[arg] = value
        invariant_maps = self.sim.invariant_maps
        trimmed = self._trimmed.get(id(block))
        if trimmed is not None and trimmed[0] is block:
            plan, full = trimmed[1], False
        else:
            plan, full = self.sim.block_plan(block), True
        for op, name, op_operands, op_results, kind, fn in plan:
            if kind == "once":
                if op_results[0] in env:  # computed earlier by this program instance
                    continue
                kind = "pure"
            if name == "uniform.def_immutable_mapping" and self.launch_env is not None:
                cached = invariant_maps.get(op)
                if cached is not None and cached[0] is self.launch_env:
                    env[op_results[0]] = cached[1]
                    continue
            if kind == "term":
                values = [env[o] for o in op_operands]
                if full:
                    self._trim(block, plan)
                if self.pending and self.unit is None:
                    pending, self.pending = self.pending, []
                    self.sim_launch(pending)
                return values
            try:
                operands = [env[o] for o in op_operands]
            except KeyError as exc:
                raise error(op, f"'{name}' op uses a value that has none here ({exc.args[0]})") from None
            try:
                if kind == "pure":
                    results = fn(self, op, operands)
                elif kind == "timed":
                    results = yield from fn(self, op, operands)
                else:
                    results = yield from self._fallback(op, operands)
            except DiagnosticError:
                raise
            except OP_FAULTS as exc:
                raise error(op, f"'{name}' op {exc}") from exc
            for result, value in zip(op_results, results):
                env[result] = value
        if full:
            self._trim(block, plan)
        if self.pending and self.unit is None:
            pending, self.pending = self.pending, []
            self.sim_launch(pending)
        return []

    def _trim(self, block: Block, plan: list) -> None:
        """`block` ran to its end: every op of it that runs once per instance has its result
        in the environment, so later runs of the block skip them (`ONCE_PER_INSTANCE`)."""
        self._trimmed[id(block)] = (block, [entry for entry in plan if entry[4] != "once"])

    def sim_launch(self, pending) -> None:
        from dfsched.interp.dataflow import launch

        launch(self.sim, pending)

    def _fallback(self, op: Operation, operands: list[Any]) -> Gen:
        """Ops the KTIR interpreter implements (arith, math, tensor, linalg, ...)."""
        ktir = self.sim.ktir
        if type(op) not in op_implementations(ktir):
            where = f"on {self.who}" if self.unit is not None else "outside the program units"
            raise error(op, f"the DataflowIR simulator does not support '{op.name}' {where}")
        if op.regions:
            captured = self.sim.captures(op)
            ktir.reset_values([(v, self.env[v]) for v in captured if v in self.env])
        results = ktir.interpret_op(op, tuple(operands)).values
        if self.unit is not None and not op.name.endswith(".constant"):
            shaped = [r for r in op.results if isinstance(r.type, ShapedType)]
            if shaped:
                t = shaped[0].type
                count = int(np.prod(t.get_shape())) if all(d >= 0 for d in t.get_shape()) else 1
                et = _element_type_or_none(t)
                cycles = self.sim.op_cycles(op, self.unit, et, count)
                self.stats.vector_ops += 1
                self.stats.compute_cycles += cycles
                yield Busy(cycles, op.name, 1)
        return results

    # -- helpers for op implementations ---------------------------------------------------
    def require_unit(self, op: Operation) -> Unit:
        if self.unit is None:
            raise error(op, f"'{op.name}' op only runs inside a dataflow.program_unit")
        return self.unit


def _element_type_or_none(t: Attribute) -> ElementType | None:
    try:
        return element_type(t)
    except UnsupportedType:
        return None


def _int(value: Any) -> int:
    return int(value)


# ---------------------------------------------------------------------------------------
# pure ops (no time)
# ---------------------------------------------------------------------------------------


def _get_unit(r: Runner, op, args):
    unit = Unit(op.properties["name"].data, op.properties["type"].data, op.core, op.corelet)
    return tuple(unit for _ in op.results)


def _get_view(r: Runner, op, args):
    unit, start = args
    if not isinstance(unit, Unit):
        raise SimError(f"the memory operand is {unit!r}, not a unit")
    mtype = op.results[0].type
    assert isinstance(mtype, MemRefType)
    shape = tuple(mtype.get_shape())
    if any(d < 0 for d in shape):
        raise SimError(f"dynamic shape {mtype} is not supported")
    et = element_type(mtype)
    layout = op.properties["layout_map"].data
    return (sim_view(r.sim.memory_of(unit, r.unit), _int(start), shape, et, layout),)


def _def_mapping(r: Runner, op, args):
    # maps are usually rebuilt from the same values on every loop iteration: reuse them
    cache = r.sim.map_cache
    cached = cache.get(op)
    if cached is not None and len(cached[0]) == len(args) and all(a is b for a, b in zip(cached[0], args)):
        return (cached[1],)
    n = len(args) // 2
    keys, values = args[:n], args[n:]
    entries: dict[Any, Any] = {}
    for k, v in zip(keys, values):
        entries[_hashable(k)] = v
    mapping = UniformMap(entries)
    cache[op] = (list(args), mapping)
    if r.launch_env is not None and r.sim.defined_outside_program(op):
        r.sim.invariant_maps[op] = (r.launch_env, mapping)
    return (mapping,)


def _hashable(k: Any) -> Any:
    if isinstance(k, np.generic):
        return k.item()
    return k


def _query_map(r: Runner, op, args):
    mapping, key = args
    if not isinstance(mapping, UniformMap):
        raise SimError(f"the map operand is {mapping!r}, not a uniform map")
    return (mapping.lookup(_hashable(key)),)


def _create_symbol(r: Runner, op, args):
    ident = op.symbol_id
    if ident is None:
        raise SimError("has no SymbolId")
    if ident not in r.sim.symbols:
        known = ", ".join(str(k) for k in sorted(r.sim.symbols)) or "none"
        raise SimError(f"reads symbol {ident}, which no symbol.create_id declared (declared: {known})")
    return (r.sim.symbols[ident],)


def _create_id(r: Runner, op, args):
    ident = int(op.properties["symbol_id"].value.data)
    value = args[0]
    old = r.sim.symbols.get(ident)
    if old is not None and old != value:
        raise SimError(f"declares symbol {ident} = {value}, but it already is {old}")
    r.sim.symbols[ident] = value
    return ()


def _tile_id(r: Runner, op, args):
    unit = r.require_unit(op)
    if unit.core is None:
        raise SimError(f"unit {unit} has no core")
    return tuple(unit.core for _ in op.results)


def _passthrough(r: Runner, op, args):
    """A cast between a vector and a tensor of the same elements (an island's bridge): the
    values, in the result's shape."""
    out = []
    for value, result in zip(args, op.results):
        t = result.type
        if isinstance(t, ShapedType) and isinstance(value, np.ndarray) and all(d >= 0 for d in t.get_shape()) \
                and value.size == math.prod(t.get_shape()):
            value = value.reshape(tuple(t.get_shape()))
        out.append(value)
    return tuple(out)


def _alloc(r: Runner, op, args):
    mtype = op.results[0].type
    shape = tuple(mtype.get_shape())
    if any(d < 0 for d in shape):
        raise SimError("dynamic allocations are not supported")
    et = element_type(mtype)
    count = int(np.prod(shape, dtype=np.int64))
    memory = r.sim.local_buffer(count * et.itemsize)
    layout = AffineMap.identity(len(shape))
    strides = []
    acc = 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    strides.reverse()
    from xdsl.ir.affine import AffineExpr

    expr = AffineExpr.constant(0)
    for k, s in enumerate(strides):
        expr = expr + AffineExpr.dimension(k) * s
    layout = AffineMap(len(shape), 0, (expr,))
    return (sim_view(memory, 0, shape, et, layout),)


def _dealloc(r: Runner, op, args):
    return ()


def _constant_bitstream(r: Runner, op, args):
    t = op.results[0].type
    et = element_type(t)
    bits = np.asarray([a.value.data & ((1 << 64) - 1) for a in op.properties["value"].data], dtype=np.uint64)
    values = et.from_bits(bits.astype({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[max(8, et.bits)]))
    return (np.asarray(values).reshape(shape_of(t)),)


# ---------------------------------------------------------------------------------------
# timed ops
# ---------------------------------------------------------------------------------------


def _scf_for(r: Runner, op, args) -> Gen:
    lb, ub, step, *values = args
    lb, ub, step = _int(lb), _int(ub), _int(step)
    if step <= 0:
        raise SimError(f"step must be positive, got {step}")
    block = op.regions[0].blocks.first
    nest = dma_nest(r.sim, op) if r.unit is not None and r.sim.options.batch_loops else None
    if nest is not None and (yield from run_nest(r, nest, range(lb, ub, step))):
        return ()
    ivs = range(lb, ub, step)
    if r.unit is not None and r.sim.options.compile_loops and ivs:
        trimmed = r._trimmed.get(id(block))  # noqa: SLF001
        if trimmed is None or trimmed[0] is not block:  # the body's first run, op by op
            values = yield from r.run_block(block, [ivs[0], *values])
            ivs = ivs[1:]
            trimmed = r._trimmed.get(id(block))  # noqa: SLF001
        if trimmed is not None and trimmed[0] is block and ivs:  # it ran to its end: the rest can go compiled
            values = yield from compiled_loop(r.sim, block)(r, ivs, list(values))
            return tuple(values)
    for iv in ivs:
        values = yield from r.run_block(block, [iv, *values])
    return tuple(values)


def _scf_if(r: Runner, op, args) -> Gen:
    cond = bool(args[0])
    region = op.regions[0] if cond else op.regions[1]
    if not region.blocks:
        return ()
    values = yield from r.run_block(region.blocks.first, [])
    return tuple(values)


def _scf_while(r: Runner, op, args) -> Gen:
    values = list(args)
    before, after = op.regions[0].blocks.first, op.regions[1].blocks.first
    while True:
        cond, *forwarded = yield from r.run_block(before, values)
        if not bool(cond):
            return tuple(forwarded)
        values = yield from r.run_block(after, forwarded)


def _execute_region(r: Runner, op, args) -> Gen:
    values = yield from r.run_block(op.regions[0].blocks.first, [])
    return tuple(values)


def _func_call(r: Runner, op, args) -> Gen:
    from dfsched.interp.dataflow import find_function

    callee = find_function(r.sim, op.callee.root_reference.data, op)
    if r.unit is None:
        from dfsched.interp.dataflow import call_function

        return tuple(call_function(r.sim, callee, list(args)))
    if any(o.name == "dataflow.program_unit" for o in callee.walk()):
        raise SimError(f"a program unit calls @{callee.sym_name.data}, which holds program units itself")
    saved = r.env
    r.env = {}
    try:
        values = yield from r.run_block(callee.body.blocks.first, args)
    finally:
        r.env = saved
    return tuple(values)


def _program_unit(r: Runner, op, args) -> Gen:
    if r.unit is not None:
        raise SimError(f"a program unit inside the program of {r.unit} is not supported")
    r.pending.append((op, r.env))
    return ()
    yield  # pragma: no cover  (makes this a generator)


def _unit_and_peer(r: Runner, op, peer, role: str) -> tuple[Unit, Unit]:
    """The unit running `op` and the peer unit its first operand names (`role`: destination
    or source, for the error)."""
    unit = r.require_unit(op)
    if not isinstance(peer, Unit):
        raise SimError(f"the {role} is {peer!r}, not a unit")
    return unit, peer


def send_fifo(r: Runner, op, peer):
    """The FIFO a `dataflow.send` of this unit to `peer` feeds (made on first use)."""
    unit, peer = _unit_and_peer(r, op, peer, "destination")
    if peer == unit:
        raise SimError(f"{unit} sends to itself")
    return r.sim.fifo(unit, peer)


def receive_fifo(r: Runner, op, peer):
    """The FIFO a `dataflow.receive` of this unit from `peer` drains (made on first use)."""
    unit, peer = _unit_and_peer(r, op, peer, "source")
    return r.sim.fifo(peer, unit)


def send_now(r: Runner, fifo, flat: np.ndarray) -> Busy | None:
    """A send of `flat` (contiguous, not empty) when the FIFO has room for all of it: pushed,
    counted, and the work to yield; None (nothing done) when it must wait for room."""
    if (fifo.capacity - fifo.used) // max(1, flat.itemsize) < flat.size:
        return None
    sim = r.sim
    nbytes = flat.nbytes
    r.stats.sent_bytes += nbytes
    work = fifo.works.get(nbytes)
    if work is None:
        work = fifo.works[nbytes] = Busy(sim.transfer_cycles(fifo.link, nbytes), fifo.send_what, nbytes)
    clock = sim.races.release(r.unit.name) if sim.races is not None else None
    fifo.push(flat, sim.engine.now + work.cycles, clock)
    if fifo.data.waiting:
        sim.engine.wake(fifo.data)
    return work


def _send(r: Runner, op, args) -> Gen:
    fifo = send_fifo(r, op, args[0])
    peer = args[0]
    sim = r.sim
    flat = np.ascontiguousarray(np.asarray(args[1]).reshape(-1))
    if flat.size:
        work = send_now(r, fifo, flat)
        if work is not None:
            yield work
            return ()
    remaining = flat
    r.stats.sent_bytes += flat.nbytes
    while remaining.size:
        free = fifo.free() // max(1, remaining.itemsize)
        if free <= 0:
            yield BlockCmd(fifo.room, lambda used=fifo.used: f"for room to send {_describe(op.operands[1].type)} to "
                                                             f"{peer} (FIFO {fifo.name} full: {used} of {fifo.capacity} bytes)", op)
            continue
        part, remaining = remaining[:free], remaining[free:]
        cycles = sim.transfer_cycles(getattr(fifo, "link", None), part.nbytes)
        clock = sim.races.release(r.unit.name) if sim.races is not None else None
        fifo.push(part, sim.engine.now + cycles, clock)
        sim.engine.wake(fifo.data)
        yield Busy(cycles, fifo.send_what, part.nbytes)
    return ()


def receive_info(r: Runner, op) -> tuple:
    """(type, shape, element type, element count) of a receive's vector, decoded once per op."""
    found = r.sim.decoded.get(id(op))
    if found is None or found[0] is not op:
        t = op.results[0].type
        shape, et = vector_type_info(t)
        found = r.sim.decoded[id(op)] = (op, (t, shape, et, math.prod(shape)))
    return found[1]


def receive_now(r: Runner, fifo, need: int, dtype, shape) -> np.ndarray | None:
    """The common receive: the FIFO's head chunk is visible and is exactly the vector. Taken,
    counted and returned (the receive's work is `receive_cycles`); None (nothing done) otherwise."""
    chunks = fifo.chunks
    if not chunks:
        return None
    head = chunks[0]
    values = head[1]
    sim = r.sim
    if values.size != need or values.dtype != dtype or head[0] > sim.engine.now:
        return None
    chunks.popleft()  # `fifo.pop(need)` of exactly the head chunk
    fifo.used -= values.nbytes
    if fifo.clock is not None:
        fifo.occupancy.append((fifo.clock.now, fifo.used))
    if sim.races is not None:
        sim.races.acquire(r.unit.name, head[2])
    if fifo.room.waiting:
        sim.engine.wake(fifo.room)
    values = values.copy().reshape(shape)
    r.stats.received_bytes += values.nbytes
    return values


def receive_blocked(op, fifo, peer, t, got: int, need: int) -> BlockCmd:
    """The command of a receive that waits for data (none in flight) after `got` of `need` elements."""
    return BlockCmd(fifo.data, lambda: f"to receive {_describe(t)} from {peer} (FIFO {fifo.name} "
                                       f"{'empty' if got == 0 else f'gave {got} of {need} elements'})", op)


def _receive(r: Runner, op, args) -> Gen:
    fifo = receive_fifo(r, op, args[0])
    peer = args[0]
    sim = r.sim
    t, shape, et, need = receive_info(r, op)
    values = receive_now(r, fifo, need, et.dtype, shape)
    if values is not None:
        yield Busy(sim.options.receive_cycles, fifo.receive_what)
        return (values,)
    unit = r.unit
    parts: list[np.ndarray] = []
    got = 0
    while got < need:
        now = sim.engine.now
        visible = fifo.visible(now)
        if visible == 0:
            when = fifo.next_visible_time()
            if when is not None and when > now:
                yield WaitUntil(when)
            else:
                yield receive_blocked(op, fifo, peer, t, got, need)
            continue
        if got == 0:  # what came is the whole vector in one chunk: what the loop below does, in one step
            values = receive_now(r, fifo, need, et.dtype, shape)
            if values is not None:
                yield Busy(sim.options.receive_cycles, fifo.receive_what)
                return (values,)
        take = min(visible, need - got)
        pieces, clocks = fifo.pop(take)
        parts.extend(pieces)
        if sim.races is not None:
            for clock in clocks:
                sim.races.acquire(unit.name, clock)
        got += take
        sim.engine.wake(fifo.room)
    values = _join(parts, et, need).reshape(shape)
    r.stats.received_bytes += values.nbytes
    yield Busy(sim.options.receive_cycles, fifo.receive_what)
    return (values,)


def _join(parts: list[np.ndarray], et: ElementType, need: int) -> np.ndarray:
    out = []
    for p in parts:
        if p.dtype != et.dtype:
            if p.itemsize != et.itemsize:
                raise SimError(f"received {p.dtype} elements where {et.name} ones were expected")
            p = np.ascontiguousarray(p).view(et.dtype)
        out.append(p)
    joined = np.concatenate(out) if out else et.zeros((0,))
    assert joined.size == need
    return joined


def _sync_send(r: Runner, op, args) -> Gen:
    unit, peer = _unit_and_peer(r, op, args[0], "destination")
    sim = r.sim
    box = sim.signal_box(unit, peer)
    cycles = sim.options.sync_cycles
    clock = sim.races.release(unit.name) if sim.races is not None else None
    box.pending.append((sim.engine.now + cycles, clock))
    box.count += 1
    r.stats.syncs_sent += 1
    sim.engine.wake(box.arrived)
    yield Busy(cycles, f"sync_send to {peer}")
    return ()


def _sync_recv(r: Runner, op, args) -> Gen:
    unit, peer = _unit_and_peer(r, op, args[0], "source")
    sim = r.sim
    box = sim.signal_box(peer, unit)
    while True:
        now = sim.engine.now
        if box.pending:
            when, clock = box.pending[0]
            if when <= now:
                box.pending.popleft()
                if sim.races is not None:
                    sim.races.acquire(unit.name, clock)
                break
            yield WaitUntil(when)
            continue
        yield BlockCmd(box.arrived, f"for a sync signal from {peer}", op)
    r.stats.syncs_received += 1
    return ()


_DESCRIPTIONS: dict[Attribute, str] = {}


def _describe(t: Attribute) -> str:
    """The type as IR text (remembered: a blocked receive asks for it every time it waits)."""
    found = _DESCRIPTIONS.get(t)
    if found is None:
        from dfsched.dialects.ktdf_arch import attribute_text

        if len(_DESCRIPTIONS) > 4096:
            _DESCRIPTIONS.clear()
        found = _DESCRIPTIONS[t] = attribute_text(t)
    return found



def _tensor_empty(r: Runner, op, args):
    """A destination placeholder: costs nothing."""
    t = op.results[0].type
    sizes = iter(args)
    shape = tuple(_int(next(sizes)) if d < 0 else d for d in t.get_shape())
    return (np.zeros(shape, dtype=element_type(t).dtype),)


PURE: dict[str, Callable] = {
    "dataflow.get_unit": _get_unit,
    "dataflow.get_logical_memory_view": _get_view,
    "uniform.def_immutable_mapping": _def_mapping,
    "uniform.query_map": _query_map,
    "symbol.create_symbol": _create_symbol,
    "symbol.create_id": _create_id,
    "ktdp.get_compute_tile_id": _tile_id,
    "builtin.unrealized_conversion_cast": _passthrough,
    "memref.alloc": _alloc,
    "memref.dealloc": _dealloc,
    "vectorchain.constant_bitstream": _constant_bitstream,
    "tensor.empty": _tensor_empty,
}

# Index arithmetic, the loop bookkeeping of every program unit, on Python ints: what the
# KTIR interpreter computes for 64-bit `index` values (std_impl's scalar forms), without its dispatch.
def _index_binary(kind: str):
    def run(r: Runner, op, args):
        a, b = int(args[0]), int(args[1])
        value = int_scalar_binary(kind, a, b, 64)
        if value is None:  # outside int64: the KTIR interpreter's numpy path decides
            return r.sim.ktir.interpret_op(op, (a, b)).values
        return (value,)

    return run


def _index_cmpi(r: Runner, op, args):
    found = r.sim.decoded.get(id(op))
    if found is None or found[0] is not op:
        found = r.sim.decoded[id(op)] = (op, CMPI_PREDICATES[op.predicate.value.data])
    a, b = int(args[0]), int(args[1])
    value = cmpi_scalar(found[1], a, b, 64)
    if value is None:
        return r.sim.ktir.interpret_op(op, (a, b)).values
    return (value,)


INDEX_ARITH: dict[str, Callable] = {
    "arith.addi": _index_binary("add"),
    "arith.subi": _index_binary("sub"),
    "arith.muli": _index_binary("mul"),
    "arith.cmpi": _index_cmpi,
}


# Pure ops whose results depend on their operands alone: inside a program unit, one whose
# operands are fixed for the program instance runs once per instance (its result stays in
# the instance's environment), not once per loop iteration (`SimState.instance_invariant`).
ONCE_PER_INSTANCE = frozenset({
    "dataflow.get_unit",
    "dataflow.get_logical_memory_view",
    "uniform.def_immutable_mapping",
    "uniform.query_map",
    "symbol.create_symbol",
    "ktdp.get_compute_tile_id",
})

TIMED: dict[str, Callable] = {
    "scf.for": _scf_for,
    "scf.if": _scf_if,
    "scf.while": _scf_while,
    "scf.execute_region": _execute_region,
    "func.call": _func_call,
    "dataflow.program_unit": _program_unit,
    "dataflow.send": _send,
    "dataflow.receive": _receive,
    "dataflow.sync_send": _sync_send,
    "dataflow.sync_recv": _sync_recv,
    **TRANSFERS,
    **COMPUTE,
}

__all__ = [
    "PURE",
    "TIMED",
    "Gen",
    "Runner",
]
