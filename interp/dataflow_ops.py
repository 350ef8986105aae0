"""Op semantics and costs of the DataflowIR simulator (`dataflow.py` documents the model).

`SimState` is what one `simulate` call shares: the device, memories, symbols, the running
launch's FIFOs and signals, statistics. `Runner` executes the ops of one block sequence for
one unit (or for the host, outside any program unit) as a generator that yields the
engine's commands (`dataflow_engine.py`) whenever the op takes time or must wait.

Values the runner gives SSA values:

| type / op                          | Python value                                          |
|------------------------------------|-------------------------------------------------------|
| `index`, integers                  | `int`                                                 |
| floats                             | numpy scalars                                         |
| `vector<...>`, `tensor<...>`       | numpy arrays of the type's shape and element dtype    |
| `dataflow.get_unit` results        | `Unit` (equal when the names are equal)               |
| `uniform.def_immutable_mapping`    | `UniformMap` (key -> value, keys compared by value)   |
| memrefs (`get_logical_memory_view`, `memref.alloc`) | `View`                              |
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ShapedType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSet

from dfsched.arch.intrinsics import CYCLES_PER_OP, MATRIX_TILE
from dfsched.compat import op_implementations
from dfsched.diagnostics import DiagnosticError, error
from dfsched.interp import sets
from dfsched.interp.base import defined_inside
from dfsched.interp.dataflow_engine import Block as BlockCmd
from dfsched.interp.dataflow_engine import Busy, Engine, Fifo, Process, SignalBox, WaitUntil
from dfsched.interp.dtypes import ElementType, UnsupportedType, element_type
from dfsched.interp.dataflow_races import RaceError, RaceTracker
from dfsched.interp.memory import Memory, MemoryAccessError, overlaps

# ---------------------------------------------------------------------------------------
# options and statistics
# ---------------------------------------------------------------------------------------


@dataclass
class SimOptions:
    """Timing and checking knobs of the simulator (defaults documented in dataflow.py)."""

    access_cycles: int = 1  # one access over a link that declares no transfer_granularity
    fifo_entry_bytes: int = 64  # bytes per queue entry of a FIFO link without transfer_granularity
    default_fifo_depth: int = 16  # entries of a FIFO whose link declares no queue (or no link at all)
    sync_cycles: int = 1  # cost of a sync_send (the signal is visible when it ends)
    receive_cycles: int = 0  # cost of a receive once its data is there
    op_cycles: dict[str, int] = field(default_factory=dict)  # op name -> cycles per issue
    record_timeline: bool = True
    drain_fifos: bool = True  # a launch that ends with elements still queued is an error
    check_bounds: bool = True  # an access outside a view's shape is an error
    check_races: bool = True  # accesses of two units to one byte not ordered by synchronisation are an error
    max_events: int | None = 50_000_000
    tiles: tuple[int, ...] | None = None  # run only the units of these cores (compute tiles); None: all


@dataclass
class UnitStats:
    """What one unit did over the whole run."""

    unit: str
    kind: str
    core: int | None = None
    corelet: int | None = None
    busy: int = 0
    loaded_bytes: int = 0  # memory -> unit (vector_load, transfer sources)
    stored_bytes: int = 0  # unit -> memory (vector_store, transfer destinations)
    dma_bytes: int = 0  # bytes moved by agen.composite_load_and_store
    dma_cycles: int = 0  # cycles those transfers took
    dma_bytes_by_memory: dict[str, int] = field(default_factory=dict)  # memory kind -> bytes read or written there
    sent_bytes: int = 0
    received_bytes: int = 0
    vector_ops: int = 0  # compute ops issued (vectorchain, linalg, arith on vectors)
    compute_cycles: int = 0  # cycles those ops took
    syncs_sent: int = 0
    syncs_received: int = 0
    programs: int = 0  # program instances it ran (one per launch)
    finish: int = 0  # when its last program finished


class SimError(Exception):
    """A run-time fault of the simulated program (turned into a located error on its op)."""


# ---------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Unit:
    """A hardware unit handle (`dataflow.get_unit`); units with the same name are the same unit."""

    name: str
    type: str
    core: int | None = None
    corelet: int | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unit) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def kind(self) -> str:
        """The device kind (`type` upper-cased, as the backend maps units back to kinds)."""
        return self.type.upper()

    def __str__(self) -> str:
        return self.name


@dataclass
class UniformMap:
    """`uniform.def_immutable_mapping`: key -> value."""

    entries: dict[Any, Any]

    def lookup(self, key: Any) -> Any:
        try:
            return self.entries[key]
        except (KeyError, TypeError):
            keys = ", ".join(str(k) for k in self.entries)
            raise SimError(f"key {key} is not in the map (keys: {keys})") from None


SIM_PAGE_BITS = 16  # 64 KiB pages: the simulator moves whole vectors and DMA blocks


def byte_memory(name: str, size: int | None) -> Memory:
    """A simulated memory unit's contents: the interpreters' paged memory, in bytes."""
    return Memory(name, "byte", size, page_bits=SIM_PAGE_BITS)


@dataclass
class SimMemory:
    """One memory unit's contents (byte-addressed)."""

    name: str
    kind: str
    memory: Memory


@dataclass
class View:
    """A memref: `start` (bytes) + layout(index) elements of `et` in `memory`."""

    memory: SimMemory
    start: int
    shape: tuple[int, ...]
    et: ElementType
    layout: AffineMap
    linear: tuple[np.ndarray, int] | None  # layout as (coefficients, constant) when linear

    @staticmethod
    def make(memory: SimMemory, start: int, shape: tuple[int, ...], et: ElementType, layout: AffineMap) -> View:
        if len(layout.results) != 1 or layout.num_dims != len(shape):
            raise SimError(f"layout_map {layout} must take {len(shape)} dims to one element offset")
        form = sets.linear_form(layout.results[0], layout.num_dims, [0] * layout.num_symbols)
        linear = (np.asarray(form[0], dtype=np.int64), int(form[1])) if form is not None else None
        return View(memory, int(start), shape, et, layout, linear)

    def offsets(self, idx: np.ndarray, check: bool = True) -> np.ndarray:
        """Element offsets of indices `idx` (shape (..., rank))."""
        idx = np.asarray(idx, dtype=np.int64)
        if check and idx.size:
            shape = np.asarray(self.shape, dtype=np.int64)
            outside = np.any((idx < 0) | (idx >= shape), axis=-1)
            if outside.any():
                i = np.unravel_index(int(np.argmax(outside)), outside.shape)
                raise SimError(f"index {tuple(int(x) for x in idx[i])} is outside memref<{'x'.join(map(str, self.shape))}>")
        if self.linear is not None:
            coeffs, const = self.linear
            return idx @ coeffs + const
        dims = [idx[..., k] for k in range(idx.shape[-1])]
        return np.broadcast_to(np.asarray(self.layout.results[0].eval(dims, [0] * self.layout.num_symbols)),
                               idx.shape[:-1]).astype(np.int64)

    def addresses(self, idx: np.ndarray, check: bool = True) -> np.ndarray:
        return self.start + self.offsets(idx, check) * self.et.itemsize


# ---------------------------------------------------------------------------------------
# shared state of one simulate() call
# ---------------------------------------------------------------------------------------


class SimState:
    def __init__(self, module, device, options: SimOptions):
        from dfsched.interp.base import Options, State
        from dfsched.interp.ktir import KtirInterpreter

        self.module = module
        self.device = device
        self.options = options
        self.memories: dict[str, SimMemory] = {}
        self.global_memory: SimMemory | None = None
        self.symbols: dict[int, Any] = {}
        self.functions: dict[str, Any] = {}
        self.stats: dict[str, UnitStats] = {}
        self.clock = 0
        self.timeline: list = []
        self.launches: list[tuple[str, int, int]] = []
        self.warnings: list[str] = []
        self.engine: Engine | None = None
        self.fifos: dict[tuple[str, str], Fifo] = {}
        self.signals: dict[tuple[str, str], SignalBox] = {}
        self.races: RaceTracker | None = None  # the running launch's, with check_races
        self._patterns: dict[Any, np.ndarray] = {}
        self._links: dict[tuple[str, str], Any] = {}
        self._captures: dict[Operation, list[SSAValue]] = {}
        self._local_buffers = 0
        self.local_layout = None  # (layout, tiles) when scratchpad-resident inputs were seeded
        self.map_cache: dict[Operation, tuple[list[Any], UniformMap]] = {}
        self.invariant_maps: dict[Operation, tuple[dict, UniformMap]] = {}
        self._invariant: dict[Operation, bool] = {}
        self._lanes: dict[tuple[str | None, str], int] = {}
        self.binary_fns: dict[Operation, Callable] = {}
        self.intrinsic_generics: dict[Operation, Operation | None] = {}  # linalg.generic -> its intrinsic
        self.plans: dict[Any, Any] = {}
        self._segments: dict[int, list[list[SSAValue]]] = {}
        self._trivial: dict[int, bool] = {}
        self._subscripts: dict[int, Any] = {}
        self._composite_cycles: dict[tuple[str, str, str, int], int] = {}
        self._block_plans: dict[int, tuple[Block, list]] = {}
        self.ktir = KtirInterpreter(module, State(options=Options(check_races=False, max_ops=None)))

    # -- device facts ---------------------------------------------------------------------
    def link(self, src_kind: str, dst_kind: str):
        key = (src_kind, dst_kind)
        if key not in self._links:
            self._links[key] = self.device.link_between(src_kind, dst_kind) if self.device is not None else None
        return self._links[key]

    def transfer_cycles(self, link, nbytes: int) -> int:
        """Cycles to move `nbytes` over `link`: its widest transfer granularity per cycle."""
        granularity = link.max_granularity if link is not None else None
        if granularity:
            return max(1, -(-nbytes // granularity))
        return self.options.access_cycles

    def op_cycles(self, op: Operation, unit: Unit | None, et: ElementType | None, count: int) -> int:
        """Cycles of a compute op over `count` elements: one per `lanes` elements."""
        per_issue = self.options.op_cycles.get(op.name)
        if per_issue is None:
            per_issue = self._device_cycles_per_op(unit)
        lanes = self.lanes(unit, et) if et is not None else 0
        issues = max(1, -(-count // lanes)) if lanes > 0 else 1
        return issues * per_issue

    def _device_cycles_per_op(self, unit: Unit | None) -> int:
        if self.device is None or unit is None:
            return 1
        exec_unit = self.device.units.get(unit.kind)
        attr = exec_unit.op.attributes.get(CYCLES_PER_OP) if exec_unit is not None else None
        return int(attr.value.data) if isinstance(attr, IntegerAttr) else 1

    def lanes(self, unit: Unit | None, et: ElementType) -> int:
        key = (unit.kind if unit is not None else None, et.name)
        found = self._lanes.get(key)
        if found is None:
            found = self._lanes[key] = self._find_lanes(unit, et)
        return found

    def _find_lanes(self, unit: Unit | None, et: ElementType) -> int:
        if self.device is None:
            return 0
        kinds = [unit.kind] if unit is not None else []
        if self.device.compute_kind:
            kinds.append(self.device.compute_kind)
        for kind in kinds:
            exec_unit = self.device.units.get(kind)
            if exec_unit is None or exec_unit.simd is None:
                continue
            lanes = exec_unit.lanes().get(et.name, 0)
            if lanes > 0:
                return lanes
        return 0

    def block_plan(self, block: Block) -> list[tuple]:
        """(op, name, operands, results, kind, implementation) of each op of `block`, decoded
        once (the IR does not change while it runs); kind: "term", "pure", "timed" or
        "fallback"."""
        found = self._block_plans.get(id(block))
        if found is None or found[0] is not block:
            plan = []
            for op in block.ops:
                name = op.name
                if name in TERMINATORS:
                    kind, fn = "term", None
                elif name in PURE:
                    kind, fn = "pure", PURE[name]
                elif name in TIMED:
                    kind, fn = "timed", TIMED[name]
                else:
                    kind, fn = "fallback", None
                plan.append((op, name, tuple(op.operands), tuple(op.results), kind, fn))
            found = self._block_plans[id(block)] = (block, plan)
        return found[1]

    def segments(self, op: Operation) -> list[list[SSAValue]]:
        found = self._segments.get(id(op))
        if found is None:
            found = self._segments[id(op)] = _segments(op)
        return found

    def trivial_body(self, op: Operation, body: Block) -> bool:
        found = self._trivial.get(id(op))
        if found is None:
            found = self._trivial[id(op)] = _trivial_body(body)
        return found

    def subscript(self, amap: AffineMap) -> list[tuple[list[int], int]] | None:
        """A subscript map as (coefficients over its operands, constant) per result, if linear."""
        key = id(amap)
        found = self._subscripts.get(key)
        if found is None:
            n = amap.num_dims + amap.num_symbols
            forms = []
            for expr in amap.results:
                form = sets.linear_form(expr.replace_dims_and_symbols(
                    [AffineExpr.dimension(i) for i in range(amap.num_dims)],
                    [AffineExpr.dimension(amap.num_dims + i) for i in range(amap.num_symbols)]), n, [])
                if form is None:
                    forms = None
                    break
                forms.append((list(form[0]), int(form[1])))
            found = self._subscripts[key] = (amap, forms)
        return found[1]

    def composite_cycles(self, src_kind: str, unit_kind: str, dst_kind: str, nbytes: int) -> int:
        """One step of a composite transfer: the slower of its load and store links."""
        key = (src_kind, unit_kind, dst_kind, nbytes)
        found = self._composite_cycles.get(key)
        if found is None:
            found = self._composite_cycles[key] = max(
                self.transfer_cycles(self.link(src_kind, unit_kind), nbytes),
                self.transfer_cycles(self.link(unit_kind, dst_kind), nbytes))
        return found

    def fifo(self, src: Unit, dst: Unit) -> Fifo:
        key = (src.name, dst.name)
        fifo = self.fifos.get(key)
        if fifo is None:
            link = self.link(src.kind, dst.kind)
            queue = link.queue if link is not None else None
            depth = queue.depth if queue is not None and queue.depth else self.options.default_fifo_depth
            granularity = link.max_granularity if link is not None else None
            capacity = queue.size if queue is not None and queue.size else depth * (granularity or self.options.fifo_entry_bytes)
            fifo = Fifo(src.name, dst.name, capacity, granularity, depth)
            fifo.link = link  # type: ignore[attr-defined]
            if self.options.record_timeline and self.engine is not None:
                fifo.now = lambda engine=self.engine: engine.now
            self.fifos[key] = fifo
        return fifo

    def signal_box(self, src: Unit, dst: Unit) -> SignalBox:
        key = (src.name, dst.name)
        box = self.signals.get(key)
        if box is None:
            box = self.signals[key] = SignalBox(src.name, dst.name)
        return box

    def stats_for(self, unit: Unit) -> UnitStats:
        s = self.stats.get(unit.name)
        if s is None:
            s = self.stats[unit.name] = UnitStats(unit.name, unit.kind, unit.core, unit.corelet)
        return s

    # -- memories -------------------------------------------------------------------------
    def memory_of(self, unit: Unit, accessor: Unit | None = None) -> SimMemory:
        """The contents of memory unit `unit` as `accessor` sees them.

        A memory below the scratchpads in the device's memory tree (a register file such as
        the sample device's SFU_REG) is private to the group holding it, so every exec unit
        gets its own instance even though DataflowIR names one unit for all of them.
        """
        key = unit.name
        if accessor is not None and self._below_scratchpad(unit.kind):
            key = f"{accessor.name}/{unit.name}"
        mem = self.memories.get(key)
        if mem is not None:
            return mem
        if self.global_memory is not None and (unit.kind == self.global_memory.kind or unit.kind == "HBM"):
            mem = self.global_memory
        else:
            size = None
            if self.device is not None and unit.kind in self.device.memories:
                size = self.device.memories[unit.kind].size
            mem = SimMemory(key, unit.kind, byte_memory(f"memory {key}", size))
        self.memories[key] = mem
        return mem

    def _below_scratchpad(self, kind: str) -> bool:
        from dfsched.arch.model import BELOW_SCRATCHPAD

        if self.device is None:
            return False
        memory = self.device.memories.get(kind)
        return memory is not None and memory.level == BELOW_SCRATCHPAD

    def local_buffer(self, nbytes: int) -> SimMemory:
        self._local_buffers += 1
        name = f"buffer#{self._local_buffers}"
        return SimMemory(name, "LOCAL", byte_memory(name, nbytes))

    # -- access patterns ------------------------------------------------------------------
    def pattern(self, the_set: AffineSet, order: AffineMap, symbols: tuple[int, ...] = ()) -> np.ndarray:
        """The points of `the_set` (shape (n, dims)) sorted lexicographically by `order`."""
        key = (the_set, order, symbols)
        cached = self._patterns.get(key)
        if cached is not None:
            return cached
        syms = list(symbols)
        if len(syms) != the_set.num_symbols:
            raise SimError(f"the set {the_set} takes {the_set.num_symbols} symbol(s), got {len(syms)}")
        bounds = sets.box(the_set, syms)
        if any(lo is None or hi is None for lo, hi in bounds):
            raise SimError(f"the set {the_set} is unbounded")
        pts, inside = sets.points(the_set, syms, bounds)  # type: ignore[arg-type]
        pts = pts[inside].reshape(-1, the_set.num_dims)
        if order.num_dims != the_set.num_dims:
            raise SimError(f"order {order} takes {order.num_dims} dims but the set has {the_set.num_dims}")
        if len(pts) > 1:
            dims = [pts[:, k] for k in range(pts.shape[1])]
            order_syms = syms[: order.num_symbols] + [0] * max(0, order.num_symbols - len(syms))
            keys = [np.broadcast_to(np.asarray(e.eval(dims, order_syms)), (len(pts),)) for e in order.results]
            if keys:
                pts = pts[np.lexsort(keys[::-1])]
        pts = np.ascontiguousarray(pts)
        pts.setflags(write=False)
        self._patterns[key] = pts
        return pts

    def defined_outside_program(self, op: Operation) -> bool:
        """Whether every operand of `op` comes from outside its enclosing program unit."""
        found = self._invariant.get(op)
        if found is None:
            program = op.parent_op()
            while program is not None and program.name != "dataflow.program_unit":
                program = program.parent_op()
            found = program is not None and all(not defined_inside(v, program) for v in op.operands)
            self._invariant[op] = found
        return found

    def captures(self, op: Operation) -> list[SSAValue]:
        """Values used inside `op`'s regions but defined outside it."""
        found = self._captures.get(op)
        if found is None:
            inner: set[SSAValue] = set()
            uses: list[SSAValue] = []
            for inner_op in op.walk():
                if inner_op is op:
                    continue
                inner.update(inner_op.results)
                for region in inner_op.regions:
                    for block in region.blocks:
                        inner.update(block.args)
            for region in op.regions:
                for block in region.blocks:
                    inner.update(block.args)
            for inner_op in op.walk():
                if inner_op is op:
                    continue
                for operand in inner_op.operands:
                    if operand not in inner and operand not in uses:
                        uses.append(operand)
            found = self._captures[op] = uses
        return found




# ---------------------------------------------------------------------------------------
# the runner
# ---------------------------------------------------------------------------------------

TERMINATORS = frozenset(
    {"scf.yield", "scf.condition", "agen.yield", "dataflow.return", "func.return", "uniform.yield", "linalg.yield"}
)
ROLE_HOST = "host"

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
        for op, name, op_operands, op_results, kind, fn in self.sim.block_plan(block):
            if name == "uniform.def_immutable_mapping" and self.launch_env is not None:
                cached = invariant_maps.get(op)
                if cached is not None and cached[0] is self.launch_env:
                    env[op_results[0]] = cached[1]
                    continue
            if kind == "term":
                values = [env[o] for o in op_operands]
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
            except (SimError, RaceError, MemoryAccessError, ValueError, IndexError, UnsupportedType,
                    ZeroDivisionError) as exc:
                raise error(op, f"'{name}' op {exc}") from exc
            for result, value in zip(op_results, results):
                env[result] = value
        if self.pending and self.unit is None:
            pending, self.pending = self.pending, []
            self.sim_launch(pending)
        return []

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
    return (View.make(r.sim.memory_of(unit, r.unit), _int(start), shape, et, layout),)


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
    return (View.make(memory, 0, shape, et, layout),)


def _dealloc(r: Runner, op, args):
    return ()


def _constant_bitstream(r: Runner, op, args):
    t = op.results[0].type
    et = element_type(t)
    bits = np.asarray([a.value.data & ((1 << 64) - 1) for a in op.properties["value"].data], dtype=np.uint64)
    values = et.from_bits(bits.astype({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[max(8, et.bits)]))
    return (np.asarray(values).reshape(_shape(t)),)


def _shape(t: Attribute) -> tuple[int, ...]:
    if isinstance(t, ShapedType):
        return tuple(t.get_shape())
    n = getattr(t, "num_elements", None)
    return (int(n.data),) if n is not None and hasattr(n, "data") else ()


_TYPE_INFO: dict[Attribute, tuple[tuple[int, ...], ElementType]] = {}


_TYPE_INFO_BY_ID: dict[int, tuple[Attribute, tuple[tuple[int, ...], ElementType]]] = {}


def _vector_type_info(t: Attribute) -> tuple[tuple[int, ...], ElementType]:
    """(shape, element type) of a vector-like type (memoised; first by the type object's
    identity, which spares hashing the type: the entry keeps the object, so the id stays its)."""
    entry = _TYPE_INFO_BY_ID.get(id(t))
    if entry is not None and entry[0] is t:
        return entry[1]
    found = _TYPE_INFO.get(t)
    if found is None:
        found = _TYPE_INFO[t] = _compute_type_info(t)
    if len(_TYPE_INFO_BY_ID) > 4096:
        _TYPE_INFO_BY_ID.clear()
    _TYPE_INFO_BY_ID[id(t)] = (t, found)
    return found


def _compute_type_info(t: Attribute) -> tuple[tuple[int, ...], ElementType]:
    if isinstance(t, ShapedType):
        return tuple(t.get_shape()), element_type(t)
    # !dataflow.custom_vector<NxT>
    from dfsched.dialects.dataflow import element_type as dfelem
    from dfsched.dialects.dataflow import num_elements

    n = num_elements(t)
    et = dfelem(t)
    if n is None or et is None:
        raise SimError(f"cannot simulate values of type {t}")
    return (int(n),), element_type(et)


# ---------------------------------------------------------------------------------------
# timed ops
# ---------------------------------------------------------------------------------------


def _scf_for(r: Runner, op, args) -> Gen:
    lb, ub, step, *values = args
    lb, ub, step = _int(lb), _int(ub), _int(step)
    if step <= 0:
        raise SimError(f"step must be positive, got {step}")
    block = op.regions[0].blocks.first
    for iv in range(lb, ub, step):
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


def _send(r: Runner, op, args) -> Gen:
    unit, peer = _unit_and_peer(r, op, args[0], "destination")
    data = args[1]
    if peer == unit:
        raise SimError(f"{unit} sends to itself")
    sim = r.sim
    fifo = sim.fifo(unit, peer)
    flat = np.ascontiguousarray(np.asarray(data).reshape(-1))
    remaining = flat
    r.stats.sent_bytes += flat.nbytes
    while remaining.size:
        free = fifo.free() // max(1, remaining.itemsize)
        if free <= 0:
            yield BlockCmd(fifo.room, f"for room to send {_describe(op.operands[1].type)} to {peer} "
                                      f"(FIFO {fifo.name} full: {fifo.used} of {fifo.capacity} bytes)", op)
            continue
        part, remaining = remaining[:free], remaining[free:]
        cycles = sim.transfer_cycles(getattr(fifo, "link", None), part.nbytes)
        clock = sim.races.release(unit.name) if sim.races is not None else None
        fifo.push(part, sim.engine.now + cycles, clock)
        sim.engine.wake(fifo.data)
        yield Busy(cycles, f"send to {peer}", part.nbytes)
    return ()


def _receive(r: Runner, op, args) -> Gen:
    unit, peer = _unit_and_peer(r, op, args[0], "source")
    sim = r.sim
    fifo = sim.fifo(peer, unit)
    t = op.results[0].type
    shape, et = _vector_type_info(t)
    need = math.prod(shape)
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
                yield BlockCmd(fifo.data, f"to receive {_describe(t)} from {peer} "
                                          f"(FIFO {fifo.name} {'empty' if got == 0 else f'gave {got} of {need} elements'})", op)
            continue
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
    yield Busy(sim.options.receive_cycles, f"receive from {peer}")
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


# -- agen ---------------------------------------------------------------------------------


def _segments(op: Operation) -> list[list[Any]]:
    """Operand groups of an op with AttrSizedOperandSegments, as lists of SSA values."""
    sizes = op.properties.get("operandSegmentSizes")
    values = list(op.operands)
    if sizes is None:
        return [values]
    out, i = [], 0
    for n in sizes.get_values():
        out.append(values[i:i + n])
        i += n
    return out


@dataclass
class AccessPlan:
    """The points of an access set (sorted by its order), relative to the subscript."""

    rel: np.ndarray  # (n, rank)
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    by_layout: dict[Any, np.ndarray] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return self.rel.shape[0]

    def rel_offsets(self, view: View) -> tuple[np.ndarray, bool]:
        """Element offsets of the points in a linear layout, and whether they are consecutive."""
        coeffs, _ = view.linear  # type: ignore[misc]
        key = coeffs.tobytes()
        found = self.by_layout.get(key)
        if found is None:
            offsets = self.rel @ coeffs
            consecutive = bool(offsets.size <= 1 or np.all(np.diff(offsets) == 1))
            found = self.by_layout[key] = (offsets, consecutive)
        return found


def access_plan(r: Runner, op: Operation, side: str, the_set: AffineSet, order: AffineMap, rank: int) -> AccessPlan:
    key = (id(op), side)
    plan = r.sim.plans.get(key)
    if plan is None:
        rel = r.sim.pattern(the_set, order)
        if rel.shape[1] != rank:
            raise SimError(f"the {side} set has {rel.shape[1]} dims for a rank-{rank} memref")
        if rel.shape[0]:
            lo, hi = tuple(int(x) for x in rel.min(axis=0)), tuple(int(x) for x in rel.max(axis=0))
        else:
            lo = hi = (0,) * rank
        plan = r.sim.plans[key] = AccessPlan(rel, lo, hi)
    return plan


def _view(value: Any) -> View:
    if not isinstance(value, View):
        raise SimError(f"the memref operand is {value!r}, not a memory view")
    return value


def view_addresses(view: View, base: tuple[int, ...], plan: AccessPlan, check: bool,
                   steps: np.ndarray | None = None, steps_lo=None, steps_hi=None) -> tuple[np.ndarray, bool]:
    """Byte addresses of `plan`'s points around `base` (and each time step's offset, if any),
    and whether they are known to be consecutive elements.

    Shape (n,), or (T, n) with `steps` (T, rank).
    """
    rank = len(view.shape)
    if len(base) != rank:
        raise SimError(f"the subscript has {len(base)} indices for a rank-{rank} memref")
    if check and plan.count:
        for k in range(rank):
            lo = base[k] + plan.lo[k] + (steps_lo[k] if steps is not None else 0)
            hi = base[k] + plan.hi[k] + (steps_hi[k] if steps is not None else 0)
            if lo < 0 or hi >= view.shape[k]:
                idx = np.asarray(base)[None, :] + plan.rel
                if steps is not None:
                    idx = steps[:, None, :] + idx[None, :, :]
                view.offsets(idx, check=True)  # raises, naming the index
    if view.linear is not None:
        coeffs, const = view.linear
        base_off = const + sum(b * int(c) for b, c in zip(base, coeffs))
        rel, consecutive = plan.rel_offsets(view)
        if steps is None:
            off = rel + base_off
        else:
            off = (steps @ coeffs)[:, None] + rel[None, :] + base_off
            consecutive = consecutive and steps.shape[0] <= 1
    else:
        idx = np.asarray(base)[None, :] + plan.rel
        if steps is not None:
            idx = steps[:, None, :] + idx[None, :, :]
        off = view.offsets(idx, check=False)
        consecutive = False
    return view.start + off * view.et.itemsize, consecutive


def _base(r: Runner, amap: AffineMap, operands: list[Any]) -> tuple[int, ...]:
    values = [int(v) for v in operands]
    forms = r.sim.subscript(amap)
    if forms is not None:
        return tuple(const + sum(c * v for c, v in zip(coeffs, values)) for coeffs, const in forms)
    nd = amap.num_dims
    return tuple(int(x) for x in amap.eval(values[:nd], values[nd:]))


def _vector_load(r: Runner, op, args) -> Gen:
    unit = r.require_unit(op)
    view = _view(args[0])
    n_map = len(op.map_operands)
    base = _base(r, op.affine_map.data, args[1:1 + n_map])
    plan = access_plan(r, op, "load", op.load_set.data, op.load_order.data, len(view.shape))
    shape, et = _vector_type_info(op.results[0].type)
    _check_count(plan.count, shape, "loads")
    addresses, consecutive = view_addresses(view, base, plan, r.sim.options.check_bounds)
    if r.sim.races is not None:
        r.sim.races.read(unit.name, view.memory.memory, addresses, et.itemsize, consecutive)
    values = view.memory.memory.read(addresses, et, consecutive=consecutive).reshape(shape)
    nbytes = values.nbytes
    r.stats.loaded_bytes += nbytes
    cycles = r.sim.transfer_cycles(r.sim.link(view.memory.kind, unit.kind), nbytes)
    yield Busy(cycles, f"vector_load {view.memory.name}", nbytes)
    return (values,)


def _check_count(n: int, shape: tuple[int, ...], what: str) -> None:
    want = math.prod(shape)
    if n != want:
        raise SimError(f"{what} {n} element(s) but the vector holds {want}")


def _vector_store(r: Runner, op, args) -> Gen:
    unit = r.require_unit(op)
    value, view = args[0], _view(args[1])
    n_map = len(op.map_operands)
    base = _base(r, op.affine_map.data, args[2:2 + n_map])
    plan = access_plan(r, op, "store", op.store_set.data, op.store_order.data, len(view.shape))
    values = np.asarray(value).reshape(-1)
    _check_count(plan.count, (values.size,), "stores")
    addresses, consecutive = view_addresses(view, base, plan, r.sim.options.check_bounds)
    et = _vector_type_info(op.operands[0].type)[1]
    cycles = r.sim.transfer_cycles(r.sim.link(unit.kind, view.memory.kind), values.nbytes)
    yield Busy(cycles, f"vector_store {view.memory.name}", values.nbytes)
    if r.sim.races is not None:
        r.sim.races.write(unit.name, view.memory.memory, addresses, et.itemsize, consecutive)
    view.memory.memory.write(addresses, values, et, consecutive=consecutive)
    r.stats.stored_bytes += values.nbytes
    return ()


@dataclass
class TimePlan:
    """The time steps of a composite transfer and each step's load/store offsets."""

    steps: int
    load: np.ndarray  # (T, src rank)
    store: np.ndarray  # (T, dst rank)
    load_lo: tuple[int, ...]
    load_hi: tuple[int, ...]
    store_lo: tuple[int, ...]
    store_hi: tuple[int, ...]


def _time_plan(r: Runner, op, symbols: tuple[int, ...]) -> TimePlan:
    key = (id(op), "time", symbols)
    plan = r.sim.plans.get(key)
    if plan is None:
        times = r.sim.pattern(op.time_set.data, op.time_order.data, symbols)
        load = sets.eval_map_rows(op.load_time_addr_map.data, times, list(symbols))
        store = sets.eval_map_rows(op.store_time_addr_map.data, times, list(symbols))

        def bounds(a: np.ndarray):
            if a.shape[0] == 0:
                return (0,) * a.shape[1], (0,) * a.shape[1]
            return tuple(int(x) for x in a.min(axis=0)), tuple(int(x) for x in a.max(axis=0))

        plan = TimePlan(times.shape[0], load, store, *bounds(load), *bounds(store))
        r.sim.plans[key] = plan
    return plan


def _composite(r: Runner, op, args) -> Gen:
    unit = r.require_unit(op)
    env = r.env
    src_mem, dst_mem, src_ops, dst_ops, time_syms, _multicast = r.sim.segments(op)
    src, dst = _view(env[src_mem[0]]), _view(env[dst_mem[0]])
    src_base = _base(r, op.src_map.data, [env[v] for v in src_ops])
    dst_base = _base(r, op.dst_map.data, [env[v] for v in dst_ops])
    symbols = tuple(int(env[v]) for v in time_syms)
    time = _time_plan(r, op, symbols)
    load = access_plan(r, op, "load", op.load_set.data, op.load_order.data, len(src.shape))
    store = access_plan(r, op, "store", op.store_set.data, op.store_order.data, len(dst.shape))
    if time.load.shape[1] != len(src.shape) or time.store.shape[1] != len(dst.shape):
        raise SimError("a time address map does not give one offset per memref dimension")
    body = op.regions[0].blocks.first
    shape, et = _vector_type_info(body.args[0].type)
    _check_count(load.count, shape, "loads")
    steps = time.steps
    check = r.sim.options.check_bounds
    src_addr, src_seq = view_addresses(src, src_base, load, check, time.load, time.load_lo, time.load_hi)  # (T, n)
    dst_addr, dst_seq = view_addresses(dst, dst_base, store, check, time.store, time.store_lo, time.store_hi)
    vector_bytes = math.prod(shape) * et.itemsize
    per_step = r.sim.composite_cycles(src.memory.kind, unit.kind, dst.memory.kind, vector_bytes)
    trivial = r.sim.trivial_body(op, body)
    what = f"transfer {src.memory.name} -> {dst.memory.name}"
    races = r.sim.races
    if races is not None:
        races.read(unit.name, src.memory.memory, src_addr, et.itemsize, src_seq)
    if trivial and not (src.memory is dst.memory and overlaps(src_addr, dst_addr)):
        _check_count(store.count, shape, "stores")
        values = src.memory.memory.read(src_addr, et, consecutive=src_seq)
        yield Busy(per_step * steps, what, vector_bytes * steps)
        if races is not None:
            races.write(unit.name, dst.memory.memory, dst_addr, et.itemsize, dst_seq)
        dst.memory.memory.write(dst_addr, values, et, consecutive=dst_seq)
    else:
        for t in range(steps):
            vector = src.memory.memory.read(src_addr[t], et).reshape(shape)
            out = yield from r.run_block(body, [vector])
            stored = np.asarray(out[0] if out else vector).reshape(-1)
            _check_count(store.count, (stored.size,), "stores")
            yield Busy(per_step, what, vector_bytes)
            if races is not None:
                races.write(unit.name, dst.memory.memory, dst_addr[t], et.itemsize, False)
            dst.memory.memory.write(dst_addr[t], stored, et)
    moved = steps * vector_bytes
    stats = r.stats
    stats.loaded_bytes += moved
    stats.stored_bytes += moved
    stats.dma_bytes += moved
    stats.dma_cycles += per_step * steps
    for kind in (src.memory.kind, dst.memory.kind):
        stats.dma_bytes_by_memory[kind] = stats.dma_bytes_by_memory.get(kind, 0) + moved
    return ()


def _composite_indirect(r: Runner, op, args) -> Gen:
    """An address-list transfer (`passes/lowering/dfir_indirect.py`): each time step's vector is
    at the direct side's addresses plus the byte address its list entry holds."""
    unit = r.require_unit(op)
    env = r.env
    ind_src, dir_src, ind_dst, dir_dst, ind_src_ops, dir_src_ops, ind_dst_ops, dir_dst_ops, time_syms, _ = \
        r.sim.segments(op)
    src, dst = _view(env[dir_src[0]]), _view(env[dir_dst[0]])
    symbols = tuple(int(env[v]) for v in time_syms)
    times = r.sim.pattern(op.time_set.data, op.time_order.data, symbols)
    body = op.regions[0].blocks.first
    if not r.sim.trivial_body(op, body):
        raise SimError("an address-list transfer with a body is not supported")
    shape, et = _vector_type_info(body.args[0].type)
    check = r.sim.options.check_bounds
    moved = []
    for side, view, indices, lists, list_ops, set_name in (
            ("load", src, dir_src_ops, ind_src, ind_src_ops, "load"),
            ("store", dst, dir_dst_ops, ind_dst, ind_dst_ops, "store")):
        plan = access_plan(r, op, set_name, getattr(op, f"{set_name}_set").data, getattr(op, f"{set_name}_order").data,
                           len(view.shape))
        steps = sets.eval_map_rows(getattr(op, f"{side}_direct_time_addr_map").data, times, list(symbols))
        base = _base(r, getattr(op, f"direct_{'src' if side == 'load' else 'dst'}_map").data,
                     [env[v] for v in indices])
        lo = tuple(int(x) for x in steps.min(axis=0)) if steps.size else (0,) * len(view.shape)
        hi = tuple(int(x) for x in steps.max(axis=0)) if steps.size else (0,) * len(view.shape)
        addresses, _ = view_addresses(view, base, plan, check, steps, lo, hi)
        if lists:
            addresses = addresses + _listed(r, unit, op, side, env[lists[0]], [env[v] for v in list_ops], times,
                                            symbols)[:, None]
        moved.append(addresses)
    src_addr, dst_addr = moved
    vector_bytes = math.prod(shape) * et.itemsize
    steps = times.shape[0]
    per_step = r.sim.composite_cycles(src.memory.kind, unit.kind, dst.memory.kind, vector_bytes)
    if r.sim.races is not None:
        r.sim.races.read(unit.name, src.memory.memory, src_addr, et.itemsize, False)
    values = src.memory.memory.read(src_addr, et)
    yield Busy(per_step * steps, f"address-list transfer {src.memory.name} -> {dst.memory.name}",
               vector_bytes * steps)
    if r.sim.races is not None:
        r.sim.races.write(unit.name, dst.memory.memory, dst_addr, et.itemsize, False)
    dst.memory.memory.write(dst_addr, values, et)
    moved_bytes = steps * vector_bytes
    r.stats.loaded_bytes += moved_bytes
    r.stats.stored_bytes += moved_bytes
    r.stats.dma_bytes += moved_bytes
    r.stats.dma_cycles += per_step * steps
    return ()


def _listed(r: Runner, unit: Unit, op, side: str, value: Any, operands: list[Any], times: np.ndarray,
            symbols: tuple[int, ...]) -> np.ndarray:
    """The byte address each time step's list entry holds."""
    view = _view(value)
    base = np.asarray(_base(r, getattr(op, f"indirect_{'src' if side == 'load' else 'dst'}_map").data, operands))
    offsets = sets.eval_map_rows(getattr(op, f"{side}_indirect_time_addr_map").data, times, list(symbols))
    addresses = view.addresses(base[None, :] + offsets, r.sim.options.check_bounds)
    if r.sim.races is not None:
        r.sim.races.read(unit.name, view.memory.memory, addresses, view.et.itemsize, False)
    return view.memory.memory.read(addresses, view.et).astype(np.int64)


def _trivial_body(body: Block) -> bool:
    ops = list(body.ops)
    return len(ops) == 1 and ops[0].name == "agen.yield" and not ops[0].operands


# -- vectorchain --------------------------------------------------------------------------


def _abs_pick(a: np.ndarray, b: np.ndarray, larger: bool) -> np.ndarray:
    aa, bb = np.abs(a), np.abs(b)
    take_a = aa >= bb if larger else aa <= bb
    return np.where(take_a, a, b)


def _float_or_int(fn_float, fn_int=None):
    def run(a, b, et):
        if et.is_float:
            return fn_float(a, b)
        return (fn_int or fn_float)(a, b)

    return run


def _bitwise(fn):
    def run(a, b, et):
        if et.is_float:
            ua = np.ascontiguousarray(a).view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])
            ub = np.ascontiguousarray(b).view(ua.dtype)
            return fn(ua, ub).view(a.dtype)
        return fn(a, b)

    return run


def _max(a, b):
    from dfsched.interp.std_impl import _maximumf

    return _maximumf(a, b)


def _min(a, b):
    from dfsched.interp.std_impl import _minimumf

    return _minimumf(a, b)


_IDENTITY_1D = AffineMap.identity(1)

BINARY: dict[str, Callable] = {
    "add": _float_or_int(np.add),
    "sub": _float_or_int(np.subtract),
    "mul": _float_or_int(np.multiply),
    "mul_div2": _float_or_int(lambda a, b: np.multiply(a, b) / a.dtype.type(2), lambda a, b: np.multiply(a, b) >> 1),
    "max": lambda a, b, et: _max(a, b) if et.is_float else np.maximum(a, b),
    "min": lambda a, b, et: _min(a, b) if et.is_float else np.minimum(a, b),
    "abs_max": lambda a, b, et: _abs_pick(a, b, True),
    "abs_min": lambda a, b, et: _abs_pick(a, b, False),
    "and0": _bitwise(np.bitwise_and),
    "or0": _bitwise(np.bitwise_or),
    "xnor": _bitwise(lambda a, b: np.invert(np.bitwise_xor(a, b))),
    "and_not": _bitwise(lambda a, b: np.bitwise_and(a, np.invert(b))),
}


def _compute(r: Runner, op: Operation, result: np.ndarray, et: ElementType) -> Gen:
    unit = r.require_unit(op)
    cycles = r.sim.op_cycles(op, unit, et, int(np.asarray(result).size))
    r.stats.vector_ops += 1
    r.stats.compute_cycles += cycles
    yield Busy(cycles, op.name, 1)


def _no_mask(op: Operation) -> None:
    mask = getattr(op, "mask", None)
    if mask is not None:
        raise SimError("masked vectorchain ops are not supported by the simulator")


def _binary(r: Runner, op, args) -> Gen:
    _no_mask(op)
    a, b = np.asarray(args[0]), np.asarray(args[1])
    shape, et = _vector_type_info(op.results[0].type)
    fn = r.sim.binary_fns.get(op)
    if fn is None:
        amap = op.op_specific_map.data
        if amap != _IDENTITY_1D:
            raise SimError(f"op_specific_map {amap} is not supported (only the identity)")
        fn = BINARY.get(str(op.binary_op.data.value))
        if fn is None:
            raise SimError(f"binary operator {op.binary_op.data} is not supported")
        r.sim.binary_fns[op] = fn
    count = 1
    for d in shape:
        count *= d
    if a.size != b.size or a.size != count:
        raise SimError(f"operands of {a.size} and {b.size} elements for a result of {count}")
    with np.errstate(all="ignore"):
        out = et.cast(fn(a.reshape(-1).astype(et.dtype), b.reshape(-1).astype(et.dtype), et)).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _shuffle(r: Runner, op, args) -> Gen:
    _no_mask(op)
    env = r.env
    x = np.asarray(env[op.input]).reshape(-1)
    scalars = [env[v] for v in op.variable] + [env[v] for v in op.pad]
    shape, et = _vector_type_info(op.results[0].type)
    indices = [int(i.value.data) for i in op.indices.data]
    reps = int(op.repetition.value.data)
    row = []
    for i in indices:
        row.append(x[i] if i >= 0 else et.cast(np.asarray(scalars[-i - 1])))
    out = et.cast(np.asarray(np.tile(np.asarray(row, dtype=et.dtype), reps))).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _unary(fn):
    def run(r: Runner, op, args) -> Gen:
        _no_mask(op)
        shape, et = _vector_type_info(op.results[0].type)
        x = np.asarray(args[0])
        with np.errstate(all="ignore"):
            out = et.cast(fn(x.astype(np.float64) if et.is_float else x)).reshape(shape)
        yield from _compute(r, op, out, et)
        return (out,)

    return run


def _cast(r: Runner, op, args) -> Gen:
    _no_mask(op)
    shape, et = _vector_type_info(op.results[0].type)
    x = np.asarray(args[0])
    out = et.cast(x).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


_COMPARE = {
    "compare_eq": np.equal, "compare_neq": np.not_equal, "compare_lt": np.less,
    "compare_le": np.less_equal, "compare_gt": np.greater, "compare_ge": np.greater_equal,
}


def _compare(r: Runner, op, args) -> Gen:
    _no_mask(op)
    shape, et = _vector_type_info(op.results[0].type)
    fn = _COMPARE[str(op.compare_op.data.value)]
    out = et.cast(fn(np.asarray(args[0]), np.asarray(args[1]))).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _selection(r: Runner, op, args) -> Gen:
    _no_mask(op)
    shape, et = _vector_type_info(op.results[0].type)
    cond = np.asarray(args[0]).astype(bool)
    out = et.cast(np.where(cond, np.asarray(args[1]), np.asarray(args[2]))).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _rotate(r: Runner, op, args) -> Gen:
    shape, et = _vector_type_info(op.results[0].type)
    x = np.asarray(args[0]).reshape(-1)
    pos = _int(args[1])
    right = bool(op.right_shift.value.data)
    out = np.roll(x, pos if right else -pos).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# -- spyreop intrinsics (no vectorchain op carries one: ktdflowering-to-dfir keeps each in a
# one-op element-wise linalg.generic over the vector, see dfir_compute.island) -----------

_NOT_ELEMENTWISE = frozenset({"spyreop.exx2", "spyreop.exx2_fused", "spyreop.exx2_zeromean_fused",
                              "spyreop.slice_reduction", "spyreop.constant"})


def _intrinsic_of(sim: SimState, op: Operation) -> Operation | None:
    """The intrinsic of an all-parallel, identity-indexed `linalg.generic` whose body is one
    element-wise `spyreop` op and the yield of its result; None for any other generic."""
    found = sim.intrinsic_generics.get(op, False)
    if found is not False:
        return found
    found = None
    block = op.regions[0].blocks.first if op.regions else None
    body = list(block.ops) if block is not None else []
    if (len(body) == 2 and body[0].name.startswith("spyreop.") and body[0].name not in _NOT_ELEMENTWISE
            and len(body[0].results) == 1 and body[1].name == "linalg.yield"
            and list(body[1].operands) == [body[0].results[0]] and len(op.results) == 1):
        maps = [m.data for m in op.indexing_maps.data]
        rank = len(_shape(op.results[0].type))
        iterators = [getattr(t.data, "value", str(t.data)) for t in op.iterator_types.data]
        if (all(m == AffineMap.identity(rank) for m in maps) and all(t == "parallel" for t in iterators)
                and all(_shape(v.type) == _shape(op.results[0].type) for v in op.operands)):
            found = body[0]
    sim.intrinsic_generics[op] = found
    return found


def _linalg_generic(r: Runner, op, args) -> Gen:
    """An intrinsic generic runs as one vector op, the intrinsic applied to whole arrays with
    the numpy semantics of `intrinsics.py` (through `spyreop_impl`); any other generic is
    the KTIR interpreter's."""
    if MATRIX_TILE in op.attributes:
        return (yield from _matrix_step(r, op, args))
    intrinsic = _intrinsic_of(r.sim, op)
    if intrinsic is None:
        return (yield from r._fallback(op, args))  # noqa: SLF001
    from dfsched.interp.spyreop_impl import TABLE

    impl = TABLE.get(intrinsic.name)
    if impl is None:
        raise SimError(f"no semantics for '{intrinsic.name}'")
    block = op.regions[0].blocks.first
    inputs = args[: len(op.inputs)]
    operands = [np.asarray(inputs[v.index]) if isinstance(v, BlockArgument) and v.owner is block else r.env[v]
                for v in intrinsic.operands]
    shape, et = _vector_type_info(op.results[0].type)
    (value,) = impl(None, r.sim.ktir, intrinsic, operands)
    out = np.broadcast_to(et.cast(np.asarray(value)), shape).copy()
    yield from _compute(r, op, out, et)
    return (out,)


def _matrix_step(r: Runner, op, args) -> Gen:
    """A contraction step on the matrix unit (`dfir_compute._matrix_step`): the KTIR
    reference's contraction semantics, timed as one `cycles_per_tile` per tile of the unit
    the step's M x N x K covers."""
    unit = r.require_unit(op)
    ktir = r.sim.ktir
    captured = r.sim.captures(op)
    ktir.reset_values([(v, r.env[v]) for v in captured if v in r.env])
    results = ktir.interpret_op(op, tuple(args)).values
    matrix = r.sim.device.units[unit.kind].matrix if r.sim.device is not None else None
    if matrix is None:
        raise SimError(f"'{unit.kind}' runs a matrix-unit step but declares no ktdf_arch.feature.matrix")
    steps = math.prod(-(-size // per) for size, per in zip(op.attributes[MATRIX_TILE].get_values(), matrix.tile))
    cycles = steps * matrix.cycles_per_tile
    r.stats.vector_ops += 1
    r.stats.compute_cycles += cycles
    yield Busy(cycles, "matrix step", 1)
    return results


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
    "agen.vector_load": _vector_load,
    "agen.vector_store": _vector_store,
    "agen.composite_load_and_store": _composite,
    "agen.composite_indirect_load_and_store": _composite_indirect,
    "vectorchain.binary": _binary,
    "vectorchain.shuffle": _shuffle,
    "vectorchain.cast": _cast,
    "vectorchain.neg": _unary(np.negative),
    "vectorchain.floor": _unary(np.floor),
    "vectorchain.fast_exp": _unary(np.exp),
    "vectorchain.exp_estimate": _unary(np.exp),
    "vectorchain.rec_estimate": _unary(lambda x: 1.0 / x),
    "vectorchain.ln_estimate": _unary(np.log),
    "vectorchain.rsqrt_estimate": _unary(lambda x: 1.0 / np.sqrt(x)),
    "vectorchain.sigmoid_estimate": _unary(_sigmoid),
    "vectorchain.tanh_estimate": _unary(np.tanh),
    "vectorchain.element_wise_compare": _compare,
    "vectorchain.element_wise_selection": _selection,
    "vectorchain.rotate": _rotate,
    "linalg.generic": _linalg_generic,
}

__all__ = [
    "PURE",
    "TIMED",
    "Runner",
    "SimError",
    "SimMemory",
    "SimOptions",
    "SimState",
    "UniformMap",
    "Unit",
    "UnitStats",
    "View",
]
