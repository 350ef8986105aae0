"""The DataflowIR simulator: runs the per-unit programs of every core and corelet concurrently.

It gives DataflowIR (the output of `ktdflowering-to-dfir`, wrapped by `wrap-program-dfir` or
not) a meaning and a cost: the outputs must equal what the KTIR reference interpreter
(`ktir.py`) computes from the kernel the DataflowIR was scheduled from, and the cycle count
says how good the schedule is on the device.

API
---

    from dfsched.interp.ktir import load_module, make_inputs, run, compare_outputs
    from dfsched.interp.dataflow import simulate

    kernel = load_module("examples/add_2tile.mlir")
    inputs = make_inputs(kernel, seed=0)
    reference = run(kernel, inputs)
    dfir = load_module("add_2tile.dfir.mlir")          # dfsched-opt ... -ktdflowering-to-dfir
    result = simulate(dfir, inputs, "sample", layout=reference.layout)
    assert not compare_outputs(reference.outputs, result.outputs)
    print(result.total_cycles, result.busy_cycles_per_unit, result.efficiency())

* `simulate(module, inputs=None, device=None, *, layout=None, kernel=None, options=None,
  **option_overrides) -> SimResult`. `device`: a `DeviceModel`, a device file or short name
  (`"sample"`), or None for the device the module declares (`ktdf_arch.device`); without any
  device every link costs `access_cycles` and FIFOs get default depths. `layout`: where each
  buffer lives (`ktir.Layout`, e.g. `run(kernel, inputs).layout`); without one, inputs keyed
  `"@<address>"` are placed at that byte address and the other array inputs are handed, in
  order, to the kernel's `index` arguments as buffers placed after them (64-byte aligned, as
  the reference places them). `options`/overrides: `SimOptions` fields (below).
* `SimResult`: `outputs` (every buffer after the run, keyed as the inputs), `total_cycles`,
  `busy_cycles_per_unit` (unit name -> cycles it worked), `timeline` (`TimelineEntry(unit,
  start, end, what)` for every op that took time), `stats` (unit name -> `UnitStats`: bytes
  loaded/stored/sent/received, DMA bytes, vector ops, compute cycles, syncs), `launches`
  (`(program function, start, end)`), `warnings`, `fifos` (name -> peak bytes queued);
  `.bound(device)` / `.efficiency(device)`: the device bound below and bound / cycles;
  `.utilization()`: busy share per unit; `fifo_occupancy` (FIFO name -> `(cycle, bytes
  queued)` after every send and receive); `.chrome_trace()`: the timeline as a Chrome
  trace-event dict (`dfsched.interp.trace`; `json.dump` it, open it in Perfetto).
* `check_against_reference(kernel_module, dfir_module, inputs=None, device=None, ...)
  -> (SimResult, differences)`: seeded inputs, the KTIR reference run, the simulation with the
  reference's layout, `compare_outputs`.
* Errors: a fault of the simulated program (a missing symbol, an access outside a view, a
  key missing from a uniform map, an unsupported op, data left in a FIFO at the end, a race)
  is a located `DiagnosticError` on its op; a deadlock is a `DeadlockError` (a `DiagnosticError`)
  whose message names every blocked unit and what it waits for, with `.blocked` =
  `[(unit, what)]` and `.time`.

Execution model
---------------
* The host (the kernel function, the program functions it calls and their wrappers) runs
  first-to-last without taking time: constants, `func.call` (to the function of that name
  that has a body), `scf` loops, `symbol.create_id` (declares a symbol's value for the whole
  run), `dataflow.get_unit` (a `Unit`, equal to any other of the same name).
* The `dataflow.program_unit`s of one function form one *launch*: when the function's body
  ends, every listed unit starts its program at the current time (the block argument, if any,
  is that unit), and the launch ends when the last unit finishes. Launches run one after the
  other; memories (the device-level one holding the buffers, one per scratchpad unit) keep
  their contents across launches, FIFOs and signals are fresh for each. A memory below the
  scratchpads in the device's memory tree (a register file, e.g. `SFU_REG`) is private to
  its group: DataflowIR names one unit for it (`{name = "sfu_reg"}`), the simulator gives every
  exec unit that opens a view on it its own instance.
* Races (`check_races`, on by default; `races.py`): two units' accesses to one byte,
  one of them a write, must be ordered by `sync_send`/`sync_recv` or by data sent through a
  FIFO (happens-before with vector clocks), whatever the simulated timing; otherwise the
  second access is a located error naming both units.
* Each program instance is a coroutine; a discrete-event scheduler advances simulated time
  (`dataflow_engine.py`), resuming the earliest unit first (ties first come, first served), so
  runs are deterministic.
* A unit's loop nest of plain DMA transfers (`dataflow_batch.py`) makes its reads and writes
  in one piece and then yields each transfer's time in order: the same values, cycles,
  timeline and statistics as transfer by transfer; a run that fails after moving accesses
  so is simulated again step by step (`SimOptions.batch_loops=False` turns it off).
* A unit's loop body, once the unit has run it to its end, runs its other iterations as one
  generated Python function (`dataflow_compiled.py`; inner loops inline): the same op
  implementations in the same order, so the same values, cycles, timeline, statistics, FIFO
  occupancy and errors (`SimOptions.compile_loops=False` turns it off).
* `dataflow.send %peer, %v` streams `%v`'s elements into the FIFO from this unit to `%peer`;
  `dataflow.receive %peer` takes as many elements as its type holds from the FIFO from `%peer`
  to this unit (a FIFO is an ordered element stream, so one 64-element send may feed 64
  one-element receives). A FIFO holds at most `depth` entries of its link's widest transfer
  granularity (`ktdf_arch.feature.queue {depth}`, `transfer_granularity`; `size` if the queue
  gives one; `default_fifo_depth` x `fifo_entry_bytes` without a link or queue): a sender
  facing a full FIFO waits for room, a receiver facing an empty one waits for data.
* `dataflow.sync_send %peer` deposits one signal for `%peer` (visible after `sync_cycles`);
  `dataflow.sync_recv %peer` waits for and takes one signal from `%peer`. Transfers complete
  before the unit goes on, so `wait_immediately_for_async_transfers` has nothing to wait for.
* `agen.vector_load %m[subscripts] {load_set, load_order}`: the elements at subscripts +
  each point of `load_set`, packed in the lexicographic order of `load_order` of the points;
  `agen.vector_store` likewise. `agen.composite_load_and_store`: for each point of
  `time_set` in `time_order` order, load a vector from src at `load_time_addr_map(t)` + the
  load set, run the body on it (the yielded value is stored, or the vector itself when the
  body only ends with an empty `agen.yield`), store it at dst's `store_time_addr_map(t)` +
  the store set. Memory views (`dataflow.get_logical_memory_view %unit, %start
  {layout_map}`) address byte `start + layout_map(index) * element bytes` of the unit's memory
  (Decision 8: start addresses are bytes, layouts count elements); an index outside the
  memref's shape is an error (`check_bounds`).
* Compute: `vectorchain.binary` (`add sub mul mul_div2 max min abs_max abs_min` and the
  bitwise ones; `abs_max` picks the operand of larger magnitude, ties to the first),
  `shuffle`, `constant_bitstream`, `cast`, `neg`, `floor`, the estimate ops (computed exactly),
  `element_wise_compare`, `element_wise_selection`, `rotate`; f16 arithmetic rounds every
  operation as numpy does, as the reference does. Masks and non-identity `op_specific_map`s
  are errors. arith/math/tensor/linalg ops (left in DataflowIR or hand-written) run with the
  KTIR interpreter's implementations (`std_impl.py`, `linalg_impl.py`).
* Symbols: `symbol.create_symbol {SymbolId = N}` reads the value the host declared with
  `symbol.create_id ... {symbol_id = N}` from the kernel's actual arguments (byte addresses).
* `uniform.def_immutable_mapping` is a key -> value table, `uniform.query_map` looks its key
  up (a missing key is an error naming the keys).

Timing (cycles)
---------------
* A transfer over a datapath moves the link's widest `transfer_granularity` bytes per cycle:
  `send` of B bytes costs ceil(B / g) on the sender's link to the receiver and the data is
  visible to the receiver when that ends; `vector_load`/`vector_store` cost ceil(B / g) on the
  link between the memory's kind and the unit's kind; a `composite_load_and_store` step costs
  the larger of its load and store links' times, per time step. A link without a granularity
  (or no link at all) costs `access_cycles` (1) per access.
* A compute op costs one cycle per issue (one issue per SIMD `lanes` elements of the unit's
  kind, else the compute kind's), unless `options.op_cycles[op name]` or a
  `dfsched.cycles_per_op = N` attribute on the unit's exec_unit in the device says otherwise.
* `sync_send` costs `sync_cycles` (1); `receive` costs `receive_cycles` (0) once its data is
  there; scalar arithmetic, scf, uniform maps, views and symbols cost nothing.
* `total_cycles` = sum of the launches' durations; a unit's busy cycles = the cycles its ops
  took (waiting excluded).

Device bound (`SimResult.bound`)
--------------------------------
The best the device could do with the work this schedule does: for each unit kind that moves
data with `agen.composite_load_and_store` (the DMA units), the cycles its transfers need (bytes
over its links' transfer granularity, per time step) spread over all its instances (cores in
the run x instances of the kind per core), and for each kind that computes, its compute cycles
spread over its instances (cores x corelets); the bound is the largest of these. Efficiency =
bound / total_cycles.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import Operation

from dfsched.diagnostics import error
from dfsched.interp.dataflow_engine import DeadlockError, Engine, Process, TimelineEntry
from dfsched.interp.dataflow_ops import Runner
from dfsched.interp.dataflow_state import (
    SimError,
    SimMemory,
    SimOptions,
    SimState,
    Unit,
    UnitStats,
    byte_memory,
)
from dfsched.interp.dtypes import ElementType, element_type
from dfsched.interp.races import RaceTracker

__all__ = [
    "Bound",
    "DeadlockError",
    "SimError",
    "SimOptions",
    "SimResult",
    "TimelineEntry",
    "UnitStats",
    "check_against_reference",
    "device_bound",
    "simulate",
]

ALIGN = 64


# ---------------------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------------------


@dataclass
class Bound:
    """The device bound of a run (see the module docstring)."""

    cycles: int
    dma_cycles: int
    compute_cycles: int
    per_kind: dict[str, int] = field(default_factory=dict)


@dataclass
class SimResult:
    outputs: dict[str, np.ndarray]
    total_cycles: int
    busy_cycles_per_unit: dict[str, int]
    timeline: list[TimelineEntry]
    stats: dict[str, UnitStats]
    launches: list[tuple[str, int, int]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    fifos: dict[str, int] = field(default_factory=dict)
    device: Any = None
    fifo_occupancy: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # (cycle, bytes queued)

    def global_dma_bytes(self) -> int:
        """Bytes the DMA units read from or wrote to the device-level memory (DDR): what a
        schedule costs in off-chip traffic, to compare with the kernel's compulsory bytes."""
        memory = getattr(self.device, "global_memory", None)
        kind = memory.kind if memory is not None else "DDR"
        return sum(stats.dma_bytes_by_memory.get(kind, 0) for stats in self.stats.values())

    def utilization(self) -> dict[str, float]:
        """Busy share of the run, per unit."""
        total = max(1, self.total_cycles)
        return {name: busy / total for name, busy in self.busy_cycles_per_unit.items()}

    def chrome_trace(self) -> dict:
        """The timeline in Chrome's trace-event format (`dfsched.interp.trace`)."""
        from dfsched.interp.trace import chrome_trace

        return chrome_trace(self)

    def bound(self, device=None) -> Bound:
        return device_bound(self, device if device is not None else self.device)

    def efficiency(self, device=None) -> float:
        return self.bound(device).cycles / max(1, self.total_cycles)


# ---------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------


def _device_model(module: ModuleOp, device):
    from dfsched.arch.loading import device_model_for, load_device
    from dfsched.arch.model import DeviceModel

    if isinstance(device, DeviceModel):
        return device
    if isinstance(device, (str, Path)):
        return load_device(str(device))
    return device_model_for(module)


def _options(options: SimOptions | None, overrides: dict[str, Any]) -> SimOptions:
    options = options or SimOptions()
    unknown = set(overrides) - {f.name for f in fields(SimOptions)}
    if unknown:
        raise ValueError(f"unknown simulator option(s): {', '.join(sorted(unknown))}")
    return replace(options, **overrides)


def simulate(
    module: ModuleOp,
    inputs: dict[str, Any] | None = None,
    device=None,
    *,
    layout=None,
    kernel: str | None = None,
    options: SimOptions | None = None,
    **overrides,
) -> SimResult:
    """Run DataflowIR `module` on `inputs` (see the module docstring)."""
    opts = _options(options, overrides)
    with _old_objects_frozen():
        made: list[SimState] = []
        try:
            return _simulate(module, inputs, device, layout, kernel, opts, made)
        except Exception:
            if not (made and made[0].batched):
                raise
        # a failing run reports what the step-by-step simulation meets first (dataflow_batch.py)
        return _simulate(module, inputs, device, layout, kernel, replace(opts, batch_loops=False), [])


@contextmanager
def _old_objects_frozen():
    """The objects that exist when a simulation starts (the IR, the caller's data) are left out
    of the garbage collector's full collections while it runs (`gc.freeze`): a simulation makes
    objects that live to its end (timeline entries, FIFO occupancy, shadows), which trigger full
    collections, and each would walk the whole IR again (about 10% of a run). Nothing is kept
    longer than without: unreachable frozen objects are collected after the run. A caller that
    froze objects itself keeps its own freeze."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _simulate(module: ModuleOp, inputs, device, layout, kernel: str | None, opts: SimOptions,
              made: list[SimState]) -> SimResult:
    model = _device_model(module, device)
    sim = SimState(module, model, opts)
    made.append(sim)
    _teach_host_code(sim)
    sim.functions = _functions(module)
    kernel_op = _find_kernel(sim, module, kernel)

    global_kind = "DDR"
    size = None
    if model is not None and model.global_memory is not None:
        global_kind = model.global_memory.kind
        size = model.global_memory.size
    sim.global_memory = SimMemory(global_kind.lower(), global_kind, byte_memory("global memory", size))

    buffers, args = _place_inputs(sim, kernel_op, dict(inputs or {}), layout)
    with np.errstate(all="ignore"):
        call_function(sim, kernel_op, args)
    memory = sim.global_memory.memory
    outputs = {key: memory.fetch(address, shape, et) for key, address, shape, et in buffers}
    if sim.local_layout is not None:
        from dfsched.interp import ktir

        layout, tiles = sim.local_layout
        outputs.update(ktir.local_outputs(lambda t: scratchpad_of(sim, t).memory, tiles, layout))
    busy = {name: s.busy for name, s in sim.stats.items()}
    fifo_peaks = getattr(sim, "fifo_peaks", {})
    occupancy = getattr(sim, "fifo_occupancy", {})
    return SimResult(outputs, sim.clock, busy, sim.timeline, sim.stats, sim.launches, sim.warnings, fifo_peaks, model,
                     occupancy)


def _teach_host_code(sim: SimState) -> None:
    """The orchestrator's host-side control flow runs on the KTIR interpreter's ops (scf,
    arith); loop normalisation leaves `affine.apply` (and `affine.min`/`max`) of the loop
    indices there too: give the host the ScheduleIR interpreter's implementations of those."""
    from dfsched.interp.base import functions_for
    from dfsched.interp.schedule import _all_op_classes
    from dfsched.interp.schedule_memref import AFFINE_TABLE

    global _HOST_AFFINE
    if _HOST_AFFINE is None:
        classes = [c for c in _all_op_classes() if c.name in AFFINE_TABLE]
        _HOST_AFFINE = functions_for("HostAffineFunctions", AFFINE_TABLE, classes)()
    sim.ktir.register_implementations(_HOST_AFFINE, override=True)


_HOST_AFFINE = None


def check_against_reference(kernel_module: ModuleOp, dfir_module: ModuleOp, inputs: dict[str, Any] | None = None,
                            device=None, *, seed: int = 0, rtol: float = 0.0, atol: float = 0.0,
                            **sim_options) -> tuple[SimResult, list[str]]:
    """Simulate `dfir_module` on the inputs of `kernel_module` and compare with the reference.

    Returns the simulation and the differences (empty when equal). Without `rtol`/`atol` they
    compare as `dfsched-run --check` does: bit for bit, a kernel that reduces within the
    reduction tolerance (a schedule may re-associate its sums, e.g. lane-wide, Decision 65).
    """
    from dfsched.interp import ktir

    if inputs is None:
        inputs = ktir.make_inputs(kernel_module, seed=seed)
    model = _device_model(dfir_module, device)  # the reference accumulates as the device declares
    reference = ktir.run(kernel_module, inputs, accumulate=model.accumulation_type if model is not None else None)
    result = simulate(dfir_module, inputs, device, layout=reference.layout, **sim_options)
    if rtol == 0.0 and atol == 0.0:
        from dfsched.interp.schedule import has_reduction, output_differences

        return result, output_differences(reference.outputs, result.outputs, has_reduction(kernel_module))[1]
    return result, ktir.compare_outputs(reference.outputs, result.outputs, rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------------------
# functions, kernel, inputs
# ---------------------------------------------------------------------------------------


def _functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    out: dict[str, func.FuncOp] = {}
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            name = op.sym_name.data
            if name in out:
                raise error(op, f"two functions named @{name} have a body; the simulator cannot tell which one runs")
            out[name] = op
    return out


def find_function(sim: SimState, name: str, at: Operation | None = None) -> func.FuncOp:
    found = sim.functions.get(name)
    if found is None:
        raise error(at, f"no function @{name} with a body to call")
    return found


def _find_kernel(sim: SimState, module: ModuleOp, name: str | None) -> func.FuncOp:
    if name is not None:
        return find_function(sim, name, module)
    called = {op.callee.root_reference.data for op in module.walk() if isinstance(op, func.CallOp)}
    roots = [f for n, f in sim.functions.items() if n not in called]
    with_grid = [f for f in roots if "grid" in f.attributes]
    for candidates in (with_grid, roots):
        if len(candidates) == 1:
            return candidates[0]
    names = ", ".join("@" + f.sym_name.data for f in (with_grid or roots)) or "none"
    raise error(module, f"cannot tell which function is the kernel (candidates: {names}); name it with kernel=")


def _et_of(array: np.ndarray) -> ElementType:
    from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType, Signedness

    dt = np.asarray(array).dtype
    table = {
        np.dtype(np.float16): Float16Type(), np.dtype(np.float32): Float32Type(), np.dtype(np.float64): Float64Type(),
        np.dtype(np.bool_): IntegerType(1),
    }
    if dt in table:
        return element_type(table[dt])
    if dt.kind in "iu":
        return element_type(IntegerType(dt.itemsize * 8, Signedness.UNSIGNED if dt.kind == "u" else Signedness.SIGNLESS))
    raise ValueError(f"inputs of dtype {dt} need a layout")


def _place_inputs(sim: SimState, kernel_op: func.FuncOp, inputs: dict[str, Any], layout):
    """Write the buffers into the global memory; returns (buffers to read back, kernel args)."""
    memory = sim.global_memory.memory
    params = list(kernel_op.body.blocks.first.args)
    buffers: list[tuple[str, int, tuple[int, ...], ElementType]] = []
    arg_values: list[Any] = [None] * len(params)
    if layout is not None:
        known = {b.key for b in layout.buffers} | set(layout.scalars)
        unknown = set(inputs) - known
        if unknown:
            raise ValueError(f"input(s) {', '.join(sorted(unknown))} are not in the layout "
                             f"(buffers: {', '.join(b.key for b in layout.buffers)})")
        from dfsched.interp import ktir

        ktir.place_inputs(memory, layout, inputs)  # a buffer too large to hold is generated on touch
        for b in layout.global_buffers():
            buffers.append((b.key, b.address, tuple(b.shape), b.element))
            if b.arg_index is not None and b.arg_index < len(params):
                arg_values[b.arg_index] = b.address
        for b in layout.local_buffers():
            if b.arg_index is not None and b.arg_index < len(params):
                arg_values[b.arg_index] = b.address
        _place_local_inputs(sim, kernel_op, layout, inputs)
        scalars = [(name, inputs.get(name, value)) for name, value in layout.scalars.items()]
    else:
        arrays = [(k, np.asarray(v)) for k, v in inputs.items() if np.asarray(v).ndim > 0 or k.startswith("@")]
        scalars = [(k, np.asarray(v)) for k, v in inputs.items() if not (np.asarray(v).ndim > 0 or k.startswith("@"))]
        end = 0
        for key, data in arrays:
            if key.startswith("@"):
                address = int(key[1:])
                et = _et_of(data)
                memory.place(address, data.reshape(-1), et)
                buffers.append((key, address, data.shape, et))
                end = max(end, address + data.size * et.itemsize)
        next_address = -(-end // ALIGN) * ALIGN
        address_params = [i for i, p in enumerate(params) if isinstance(p.type, IndexType)]
        for key, data in arrays:
            if key.startswith("@"):
                continue
            if not address_params:
                raise ValueError(f"input '{key}' has no index argument of the kernel to be passed in")
            et = _et_of(data)
            memory.place(next_address, data.reshape(-1), et)
            buffers.append((key, next_address, data.shape, et))
            arg_values[address_params.pop(0)] = next_address
            next_address = -(-(next_address + data.size * et.itemsize) // ALIGN) * ALIGN
    it = iter(scalars)
    for i, p in enumerate(params):
        if arg_values[i] is not None:
            continue
        try:
            _, value = next(it)
        except StopIteration:
            value = 0
        arg_values[i] = _scalar(value, p.type)
    return buffers, arg_values


def scratchpad_of(sim: SimState, core: int) -> SimMemory:
    """Compute tile `core`'s scratchpad (the memory `ct_local` maps to): the memory unit the
    lowering names `C<core>-<kind>` (`passes/lowering/dfir_utils.unit_name`)."""
    model = sim.device
    if model is None:
        raise ValueError("scratchpad-resident inputs need a device (which memory is a tile's scratchpad)")
    kind = model.memory_for_space("ct_local").kind
    tag = kind.lower()
    return sim.memory_of(Unit(f"C{core}-{tag}", tag, core=core))


def _place_local_inputs(sim: SimState, kernel_op: func.FuncOp, layout, inputs: dict[str, Any]) -> None:
    """Seed every tile's scratchpad with its row of each scratchpad-resident input, where the
    reference puts it (`ktir.place_local_inputs`); `address-assignment` keeps buffers off it."""
    from dfsched.interp import ktir

    if not layout.local_buffers():
        return
    tiles = int(np.prod(ktir.grid_of(kernel_op), dtype=np.int64))
    ktir.place_local_inputs(lambda t: scratchpad_of(sim, t).memory, tiles, layout, inputs)
    sim.local_layout = (layout, tiles)


def _scalar(value: Any, t) -> Any:
    from dfsched.interp.base import to_python

    if getattr(t, "name", "") == "ktdp.runtime_arg":
        t = t.underlying_type
    if isinstance(t, (IndexType, IntegerType)):
        return int(np.asarray(value))
    return to_python(np.asarray(value), t)


# ---------------------------------------------------------------------------------------
# host and launches
# ---------------------------------------------------------------------------------------


def call_function(sim: SimState, function: func.FuncOp, args: list[Any]) -> list[Any]:
    """Run a host function (it takes no time; its program units launch when it ends)."""
    params = function.body.blocks.first.args
    if len(params) != len(args):
        raise error(function, f"@{function.sym_name.data} takes {len(params)} argument(s), got {len(args)}")
    runner = Runner(sim, None, {})
    body = runner.run_block(function.body.blocks.first, args)
    try:
        command = next(body)
    except StopIteration as stop:
        return list(stop.value or [])
    raise error(function, f"the host code of @{function.sym_name.data} tried to wait ({command}); "
                          "only program units take time")


def launch(sim: SimState, pending: list[tuple[Operation, dict]]) -> None:
    """Run the program units of one function concurrently until they all finish."""
    opts = sim.options
    engine = Engine(start=sim.clock, record_timeline=opts.record_timeline, max_events=opts.max_events)
    sim.engine = engine
    sim.fifos = {}
    sim.signals = {}
    sim.races = None
    running: dict[str, Operation] = {}
    processes: list[tuple[Process, Unit]] = []
    for op, env in pending:
        block = op.regions[0].blocks.first
        for operand in op.operands:
            unit = env.get(operand)
            if not isinstance(unit, Unit):
                raise error(op, f"program unit operand is {unit!r}, not a dataflow.get_unit handle")
            if unit.name in running:
                raise error(op, f"unit {unit} runs two programs at once", [(running[unit.name], "its other program")])
            if opts.tiles is not None and unit.core is not None and unit.core not in opts.tiles:
                continue  # a compute tile left out of a sampled check
            running[unit.name] = op
            runner = Runner(sim, unit, dict(env))
            runner.launch_env = env
            process = Process(unit.name, runner.run_block(block, [unit] if block.args else []))
            runner.process = process
            process.data = runner
            engine.spawn(process)
            processes.append((process, unit))
            sim.stats_for(unit).programs += 1
    if opts.check_races:
        sim.races = RaceTracker([p.name for p, _ in processes], watch_shared=opts.batch_loops,
                                private=sim.private_memories)
    name = "?"
    if pending:
        parent = pending[0][0].parent_op()
        while parent is not None and not isinstance(parent, func.FuncOp):
            parent = parent.parent_op()
        if parent is not None:
            name = parent.sym_name.data
    start = sim.clock
    try:
        end = engine.run()
    finally:
        sim.engine = None
        sim.races = None
        for process, unit in processes:
            stats = sim.stats_for(unit)
            stats.busy += process.busy
            if process.end is not None:
                stats.finish = max(stats.finish, process.end)
        sim.timeline.extend(engine.timeline)
    peaks = getattr(sim, "fifo_peaks", None)
    if peaks is None:
        peaks = sim.fifo_peaks = {}  # type: ignore[attr-defined]
    occupancy = getattr(sim, "fifo_occupancy", None)
    if occupancy is None:
        occupancy = sim.fifo_occupancy = {}  # type: ignore[attr-defined]
    for fifo in sim.fifos.values():
        peaks[fifo.name] = max(peaks.get(fifo.name, 0), fifo.high_water)
        if fifo.occupancy:
            occupancy.setdefault(fifo.name, []).extend(fifo.occupancy)
    leftovers = [f for f in sim.fifos.values() if f.chunks]
    if leftovers:
        text = "; ".join(f"{f.name} holds {f.queued_elements()} element(s)" for f in leftovers)
        if opts.drain_fifos:
            raise error(pending[0][0], f"the programs of @{name} finished with data nobody received: {text}")
        sim.warnings.append(f"@{name}: data left in FIFOs: {text}")
    unmatched = [b for b in sim.signals.values() if b.pending]
    if unmatched:
        sim.warnings.append(f"@{name}: sync signals never received: " +
                            "; ".join(f"{b.src}->{b.dst} x{len(b.pending)}" for b in unmatched))
    sim.launches.append((name, start, end))
    sim.clock = end


# ---------------------------------------------------------------------------------------
# device bound
# ---------------------------------------------------------------------------------------


def device_bound(result: SimResult, device=None) -> Bound:
    """The device bound of `result` (see the module docstring)."""
    stats = result.stats
    cores = len({s.core for s in stats.values() if s.core is not None}) or 1
    per_kind: dict[str, int] = {}
    dma = 0
    compute = 0
    kinds: dict[str, list[UnitStats]] = {}
    for s in stats.values():
        kinds.setdefault(s.kind, []).append(s)
    for kind, members in kinds.items():
        instances = cores * _instances_per_core(device, kind, members)
        moved = sum(s.dma_cycles for s in members)
        if moved:
            cycles = -(-moved // instances)
            per_kind[kind] = cycles
            dma = max(dma, cycles)
        work = sum(s.compute_cycles for s in members)
        if work:
            cycles = -(-work // instances)
            per_kind[kind] = max(per_kind.get(kind, 0), cycles)
            compute = max(compute, cycles)
    return Bound(max(dma, compute), dma, compute, per_kind)


def _instances_per_core(device, kind: str, members: list[UnitStats]) -> int:
    if device is None or kind not in getattr(device, "units", {}):
        return max(1, len({s.corelet for s in members if s.corelet is not None}))
    return max(1, device.instances([kind]) // max(1, device.cores))
