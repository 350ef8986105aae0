"""What one DataflowIR simulation shares (`dataflow.py` documents the model).

`SimState` holds the device, memories, symbols, the running launch's FIFOs and signals,
statistics and the caches of decoded ops; `Unit`, `UniformMap`, `SimMemory` and the
simulator's memref values (`memory.StridedView`, made by `sim_view`) are the values the
runner (`dataflow_ops.Runner`) gives SSA values.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerAttr, ShapedType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSet

from dfsched.arch.intrinsics import CYCLES_PER_OP
from dfsched.interp import sets
from dfsched.interp.base import defined_inside
from dfsched.interp.dataflow_engine import Busy, Engine, Fifo, SignalBox
from dfsched.interp.races import RaceTracker
from dfsched.interp.dtypes import ElementType, element_type
from dfsched.interp.memory import Memory, StridedView

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
    batch_loops: bool = True  # DMA loops in one piece where exact (`dataflow_batch.py`)
    compile_loops: bool = True  # a unit's loop bodies run compiled after their first iteration (`dataflow_compiled.py`)


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

    @functools.cached_property
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


_LINEAR_LAYOUTS: dict[int, tuple[AffineMap, Any]] = {}  # id -> (layout, its (coefficients, constant) or None)


def sim_view(memory: SimMemory, start: int, shape: tuple[int, ...], et: ElementType, layout: AffineMap) -> StridedView:
    """A memref of `memory`: `start` (bytes) + layout(index) elements of `et`."""
    if len(layout.results) != 1 or layout.num_dims != len(shape):
        raise SimError(f"layout_map {layout} must take {len(shape)} dims to one element offset")
    found = _LINEAR_LAYOUTS.get(id(layout))
    if found is None or found[0] is not layout:  # decoded once per layout (a loop makes a view per iteration)
        form = sets.linear_form(layout.results[0], layout.num_dims, [0] * layout.num_symbols)
        if form is not None:
            form = (tuple(int(c) for c in form[0]), int(form[1]))
        if len(_LINEAR_LAYOUTS) > 4096:
            _LINEAR_LAYOUTS.clear()
        found = _LINEAR_LAYOUTS[id(layout)] = (layout, form)
    form = found[1]
    if form is not None:
        coeffs, const = form
        return StridedView(memory.memory, memory.kind, int(start) + const * et.itemsize, shape, coeffs, et,
                           unit_name=memory.name)
    return StridedView(memory.memory, memory.kind, int(start), shape, (0,) * len(shape), et, layout=layout,
                       unit_name=memory.name)


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
        self.private_memories: set[int] = set()  # ids of memories one unit alone accesses (no races)
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
        self._instance_invariant: dict[Operation, bool] = {}
        self._lanes: dict[tuple[str | None, str], int] = {}
        self.intrinsic_generics: dict[Operation, Operation | None] = {}  # linalg.generic -> its intrinsic
        self.plans: dict[Any, Any] = {}
        self._segments: dict[int, list[list[SSAValue]]] = {}
        self._trivial: dict[int, bool] = {}
        self._subscripts: dict[int, Any] = {}
        self._subscript_functions: dict[int, Any] = {}
        self._composite_cycles: dict[tuple[str, str, str, int], int] = {}
        self.memory_cores: dict[str, int | None] = {}  # memory unit name -> its core (memory_of)
        self._block_plans: dict[int, tuple[Block, list]] = {}
        self.decoded: dict[int, tuple[Operation, Any]] = {}  # id(op) -> (op, what its kind decodes once)
        self._load_cycles: dict[tuple, int] = {}
        self._op_cycles: dict[tuple, int] = {}
        self._work: dict[tuple, Busy] = {}
        self._transfer_cycles: dict[tuple[int, int], tuple[Any, int]] = {}
        self.compiled_loops: dict[int, tuple[Block, Any]] = {}  # scf.for body -> its compiled loop
        self.dma_loops: dict[int, Operation | None] = {}  # scf.for -> its one transfer (dataflow_batch)
        self.batched = False  # some loop ran in one piece (a failing run is simulated again without)
        self.ktir = KtirInterpreter(module, State(options=Options(check_races=False, max_ops=None)))

    # -- device facts ---------------------------------------------------------------------
    def link(self, src_kind: str, dst_kind: str):
        key = (src_kind, dst_kind)
        if key not in self._links:
            self._links[key] = self.device.link_between(src_kind, dst_kind) if self.device is not None else None
        return self._links[key]

    def transfer_cycles(self, link, nbytes: int) -> int:
        """Cycles to move `nbytes` over `link`: its widest transfer granularity per cycle."""
        if link is None:
            return self.options.access_cycles
        key = (id(link), nbytes)
        found = self._transfer_cycles.get(key)
        if found is None or found[0] is not link:
            found = self._transfer_cycles[key] = (link, self._link_cycles(link, nbytes))
        return found[1]

    def _link_cycles(self, link, nbytes: int) -> int:
        granularity = link.max_granularity
        if granularity:
            return max(1, -(-nbytes // granularity))
        return self.options.access_cycles

    def load_cycles(self, view, unit, nbytes: int) -> int:
        """Cycles of a vector load of `nbytes` from `view` by `unit`: its link, or the ring from
        another core's scratchpad, whichever is slower (remembered per memory, unit and size)."""
        key = (view.space, view.unit_name, unit.kind, unit.core, nbytes)
        found = self._load_cycles.get(key)
        if found is None:
            found = self._load_cycles[key] = max(self.transfer_cycles(self.link(view.space, unit.kind), nbytes),
                                                 self.core_cycles(view.unit_name, unit, nbytes))
        return found

    def work(self, key: tuple, make: Callable[[], Busy]) -> Busy:
        """The engine command for a step of work, made once per `key` (commands are never
        changed, so one object serves every step alike)."""
        found = self._work.get(key)
        if found is None:
            found = self._work[key] = make()
        return found

    def load_work(self, view, unit, nbytes: int) -> Busy:
        key = ("load", view.space, view.unit_name, unit.kind, unit.core, nbytes)
        found = self._work.get(key)  # `work`, without a function made per load
        if found is None:
            found = self._work[key] = Busy(self.load_cycles(view, unit, nbytes), f"vector_load {view.unit_name}", nbytes)
        return found

    def op_work(self, op, unit, et, count: int) -> Busy:
        """A compute op's command on `count` elements of `et`."""
        key = ("compute", op.name, unit.kind, et.name, count)
        found = self._work.get(key)
        if found is None:
            found = self._work[key] = Busy(self.op_cycles(op, unit, et, count), op.name, 1)
        return found

    def store_work(self, view, unit, nbytes: int) -> Busy:
        key = ("store", view.space, view.unit_name, unit.kind, nbytes)
        found = self._work.get(key)  # (`work`, without a function made per store)
        if found is None:
            found = self._work[key] = Busy(self.transfer_cycles(self.link(unit.kind, view.space), nbytes),
                                           f"vector_store {view.unit_name}", nbytes)
        return found

    def core_cycles(self, memory_name: str, unit, nbytes: int) -> int:
        """Cycles to move `nbytes` between another core's scratchpad `memory_name` and `unit`
        over the device's core-to-core links: latency per hop of the route plus the bytes at the
        links' bandwidth (0 for the unit's own core, or without links)."""
        core = self.memory_cores.get(memory_name)
        links = self.device.core_links if self.device is not None else None
        if core is None or unit.core is None or core == unit.core or links is None:
            return 0
        hops = len(self.device.core_route(core, unit.core)) - 1
        return hops * links.latency + -(-nbytes // links.bandwidth)

    def op_cycles(self, op: Operation, unit: Unit | None, et: ElementType | None, count: int) -> int:
        """Cycles of a compute op over `count` elements: one per `lanes` elements (remembered
        per op name, unit kind, element type and count)."""
        key = (op.name, unit.kind if unit is not None else None, et.name if et is not None else None, count)
        found = self._op_cycles.get(key)
        if found is None:
            found = self._op_cycles[key] = self._op_cycles_of(op, unit, et, count)
        return found

    def _op_cycles_of(self, op: Operation, unit: Unit | None, et: ElementType | None, count: int) -> int:
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
            from dfsched.interp import dataflow_ops as ops

            plan = []
            for op in block.ops:
                name = op.name
                if name in ops.TERMINATORS:
                    kind, fn = "term", None
                elif name in ops.PURE:
                    kind, fn = "pure", ops.PURE[name]
                    if name in ops.ONCE_PER_INSTANCE and self.instance_invariant(op):
                        kind = "once"
                elif name in ops.TIMED:
                    kind, fn = "timed", ops.TIMED[name]
                elif name in ops.INDEX_ARITH and all(isinstance(v.type, IndexType) for v in op.operands):
                    kind, fn = "pure", ops.INDEX_ARITH[name]
                else:
                    kind, fn = "fallback", None
                plan.append((op, name, tuple(op.operands), tuple(op.results), kind, fn))
            found = self._block_plans[id(block)] = (block, plan)
        return found[1]

    def segments(self, op: Operation) -> list[list[SSAValue]]:
        found = self._segments.get(id(op))
        if found is None:
            found = self._segments[id(op)] = operand_segments(op)
        return found

    def trivial_body(self, op: Operation, body: Block) -> bool:
        found = self._trivial.get(id(op))
        if found is None:
            found = self._trivial[id(op)] = trivial_body(body)
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

    def subscript_function(self, amap: AffineMap) -> Callable[[list[Any]], tuple[int, ...]]:
        """`amap` applied to its operands (dims, then symbols) as one compiled Python function."""
        key = id(amap)
        found = self._subscript_functions.get(key)
        if found is None or found[0] is not amap:
            forms = self.subscript(amap)
            if forms is None:
                nd = amap.num_dims
                run = sets.compiled_map(amap)

                def fn(values, run=run, nd=nd):
                    values = [int(v) for v in values]
                    return tuple(int(x) for x in run(values[:nd], values[nd:]))
            else:
                terms = [" + ".join([str(const)] + [f"{c} * int(v[{i}])" for i, c in enumerate(coeffs) if c])
                         for coeffs, const in forms]
                fn = eval(f"lambda v: ({''.join(t + ', ' for t in terms)})")  # noqa: S307 - our own text
            found = self._subscript_functions[key] = (amap, fn)
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
            fifo.send_what = f"send to {dst}"  # type: ignore[attr-defined]  (the timeline's words)
            fifo.receive_what = f"receive from {src}"  # type: ignore[attr-defined]
            fifo.works = {}  # type: ignore[attr-defined]  (a send's command, per size)
            if self.options.record_timeline and self.engine is not None:
                fifo.clock = self.engine
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
        self.memory_cores[key] = unit.core
        if self.global_memory is not None and (unit.kind == self.global_memory.kind or unit.kind == "HBM"):
            mem = self.global_memory
        else:
            size = None
            if self.device is not None and unit.kind in self.device.memories:
                size = self.device.memories[unit.kind].size
            mem = SimMemory(key, unit.kind, byte_memory(f"memory {key}", size))
            if key != unit.name:  # one exec unit's own instance: no other unit can touch it
                self.private_memories.add(id(mem.memory))
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
            values = sets.compiled_map(order, checked=False)(dims, order_syms)
            keys = [np.broadcast_to(np.asarray(v), (len(pts),)) for v in values]
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

    def instance_invariant(self, op: Operation) -> bool:
        """Whether `op`, inside a program unit, computes the same values every time one program
        instance runs it: each operand is defined outside the program unit, is its unit
        argument, or is a result of such an op (`dataflow_ops.ONCE_PER_INSTANCE`)."""
        found = self._instance_invariant.get(op)
        if found is None:
            from dfsched.interp import dataflow_ops as ops

            program = op.parent_op()
            while program is not None and program.name != "dataflow.program_unit":
                program = program.parent_op()
            found = program is not None and op.name in ops.ONCE_PER_INSTANCE and bool(op.results) \
                and not op.regions and all(self._instance_value(v, program) for v in op.operands)
            self._instance_invariant[op] = found
        return found

    def _instance_value(self, value: SSAValue, program: Operation) -> bool:
        owner = value.owner
        if isinstance(owner, Block):
            return owner.parent_op() is program or not defined_inside(value, program)
        return not defined_inside(value, program) or self.instance_invariant(owner)

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



def shape_of(t: Attribute) -> tuple[int, ...]:
    if isinstance(t, ShapedType):
        return tuple(t.get_shape())
    n = getattr(t, "num_elements", None)
    return (int(n.data),) if n is not None and hasattr(n, "data") else ()


_TYPE_INFO: dict[Attribute, tuple[tuple[int, ...], ElementType]] = {}


_TYPE_INFO_BY_ID: dict[int, tuple[Attribute, tuple[tuple[int, ...], ElementType]]] = {}


def vector_type_info(t: Attribute) -> tuple[tuple[int, ...], ElementType]:
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


def operand_segments(op: Operation) -> list[list[Any]]:
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


def trivial_body(body: Block) -> bool:
    ops = list(body.ops)
    return len(ops) == 1 and ops[0].name == "agen.yield" and not ops[0].operands
