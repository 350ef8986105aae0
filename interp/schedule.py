"""The ScheduleIR interpreter: runs a module at any point of the scheduling pipeline.

It computes what the KTIR reference (`ktir.py`) computes, from the IR the scheduling passes
produce: the orchestrator kernel, the programs it calls (`module @local_schedule_N`),
pipelines, stages, FIFOs, scratchpad buffers, data transfers, tiling placeholders,
double-buffer phases and `ktdf.parallel` instances. A pass that preserves meaning leaves
the outputs equal to the reference's: that is what `dfsched-run --check` checks after every
scheduling pass.

API
---

    from dfsched.interp.ktir import load_module, make_inputs, run
    from dfsched.interp.schedule import run_schedule, check_schedule

    kernel = load_module("examples/add.mlir")
    inputs = make_inputs(kernel, seed=0)
    reference = run(kernel, inputs)                     # outputs + layout
    scheduled = ...                                     # the module after some passes
    result = run_schedule(scheduled, inputs, layout=reference.layout)
    verdict = check_schedule(scheduled, inputs, reference)   # status, max error, problems

* `run_schedule(module, inputs=None, *, layout=None, kernel=None, reserve_size=None,
  poison=True, strict_bounds=False, drain_fifos=True, instance_races=True, **options)
  -> ScheduleResult` (`.outputs`, `.layout`, `.global_memory`, `.stats`). `layout` says
  where each buffer lives: pass the reference run's layout so both runs use the same
  addresses; without one, a dry run of the module finds the buffers (as `ktir` does).
  `options` are the KTIR interpreter's (`unit`, `check_races`, `max_ops`, ...); the others
  are `schedule_ops.ScheduleOptions`.
* `run_schedule_outputs(...)`: just the outputs.
* `schedule_layout(module, *, kernel=None, scalars=None, **options) -> Layout`.
* `check_schedule(module, inputs, reference, *, reductions=None, dataflow_device=None,
  **run_options) -> Verdict`: runs the module and compares it with a `ktir.KernelResult`;
  never raises for problems of the IR (they become the verdict's status and message).
  With `dataflow_device`, pure DataflowIR runs on the DataflowIR simulator (`dataflow.py`)
  instead of being skipped; IR that mixes `ktdf_lowering` with ScheduleIR is skipped.
* `executable(module) -> str | None`: why the module cannot be run (DataflowIR), or None.
* `has_reduction(module)`, `reduction_tolerance(expected)`: the f16 tolerance below;
  `output_differences(expected, actual, reductions)`: exact, within it, or the differences.

Execution model
---------------
* The kernel is the function with a `grid` attribute outside the program modules (the
  orchestrator after `compute-group-extraction`, the kernel itself before). Its grid is
  walked as in the reference; each tile calls the programs, and a `func.call` runs the
  `func.func` of that name that has a body (the orchestrator only holds a declaration).
* A `ktdf.pipeline` runs, each time control reaches it (once per iteration of the loops
  around it): its `ktdf.private` first (fresh buffers, FIFO slots and tokens every time),
  then its stages one after the other in token order (a stage after every stage whose
  `depends_out` holds one of its `depends_in` tokens; ties in sibling order, or in reverse
  sibling order with `stage_order="reverse"`, which exposes forgotten tokens). That is a
  legal sequential execution of the concurrent pipeline; it is what the semantics of the
  schedule must not depend on. A stage waiting for a token no sibling signals, or a token
  cycle, is a located error (the stage would never run).
* A FIFO slot is a queue of elements: a transfer or `write_to_fifo` appends, a transfer
  or `read_from_fifo` takes the count it needs from the front. Taking more than is queued
  is an error (the producer did not run first); a pipeline that ends with elements left in
  a slot of its private is an error (a consumer is missing).
* `memref.alloc` gives a fresh buffer (new storage every execution, never reused, filled
  with NaN / -1 so reading it before writing shows); `memref.reinterpret_cast` offsets
  count in elements from the address of the source's allocation (for a
  `ktdp.construct_memory_view`, its offset); `memory_space_cast`/`cast` keep the view.
  After `address-assignment`, `builtin.unrealized_conversion_cast %addr : index to memref`
  is the buffer at byte `%addr` of its memory space: the global memory, one memory per
  compute tile for a per-core scratchpad ("L1"), one per tile and `ktdf.parallel` instance
  below it ("SFU_REG"), as the module's device says.
* `ktdf.data_transfer` moves the box `map(indices) + [0, size)` of a memref side
  (row-major order) to or from a FIFO slot (its `size` element count) or another box.
  The counts must agree, except in `transfer_mode = "splat"` (each source element is
  repeated in place, a broadcast along its row, to fill the destination: its size, or the
  slot's capacity if larger; `[a, b]` into 4 is `[a, a, b, b]`) and
  `"pad"` (zeros after them). Reads may leave the memref's shape (scalar-broadcast
  legalization widens loads on purpose; `strict_bounds=True` forbids it); writes may not.
* `ktdf.parallel`: the iteration space in lexicographic order, cut into `num_instances`
  chunks of ceil(T/N); instance 0's chunk runs first, then instance 1's, ... Two instances
  touching the same element of any memory (one writing) in one execution of the parallel
  op is a located error with notes on both accesses (the corelets run at the same time).
  Compute tiles touching the same global element (one writing) is an error as in `ktir`.
* `ktdf.buffer_phase` is the linearized iteration number of the loops whose IVs it takes,
  modulo `num_phases`; `select_memref` picks that candidate. `tiling.derive_size` is
  `min(ts, rest - iv * ts)` pair by pair from `total_size` (0 once exhausted);
  `linearize_index` is `sum(iv * stride)`; `reserve_size` needs a value (`reserve_size=`).
* DataflowIR (`dataflow`, `agen`, `vectorchain`, `ktdf_lowering`, `uniform`, `symbol`
  ops) is not executed here: `executable()` says so and `run_schedule` raises
  `Unsupported`; `check_schedule(..., dataflow_device=...)` hands pure DataflowIR to the
  DataflowIR simulator (`dataflow.py`).

Tolerance
---------
Elementwise schedules must reproduce the reference bit for bit (same f16 operations in
the same order). A schedule may reorder a reduction's summation (chunking), so for a
kernel that reduces (`has_reduction`), each output may differ from the reference by at
most `REDUCTION_ULPS` f16 units in the last place of the largest reference magnitude of
that output (`reduction_tolerance`): reordering K partial sums moves the result by a few
roundings of the partial sums' size, while a lost or doubled term moves it by a whole
input. Summed in f16, thousands of terms move by more than that with their order alone:
`dfsched-run --check` then holds the schedule, bit for bit, to the reference summed in the
schedule's order (`tools/check_order.py`, Decision 112); a reduction marked
`dfsched.lane_wide` is summed in its lanes by every engine (`linalg_impl.lane_order`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from dfsched.diagnostics import DiagnosticError
from dfsched.dialects.ktdp_addresses import can_hold_address, walk_addresses
from dfsched.interp import ktir
from dfsched.interp.base import Options
from dfsched.interp.ktir import KernelResult, KtirInterpreter, Layout, compare_outputs
from dfsched.interp.inter_tile import Exchange, has_inter_tile_ops
from dfsched.interp.memory import Memory, TouchedBuffer
from dfsched.interp.schedule_state import ScheduleOptions, ScheduleState, Unsupported, unsupported
from dfsched.interp.schedule_ops import schedule_functions

__all__ = [
    "REDUCTION_ULPS",
    "ScheduleInterpreter",
    "ScheduleOptions",
    "ScheduleResult",
    "Unsupported",
    "Verdict",
    "check_schedule",
    "executable",
    "find_schedule_kernel",
    "has_reduction",
    "reduction_tolerance",
    "run_schedule",
    "run_schedule_outputs",
    "schedule_layout",
]

REDUCTION_ULPS = 8
DATAFLOW_DIALECTS = ("dataflow", "agen", "vectorchain", "ktdf_lowering", "uniform", "symbol")


# ---------------------------------------------------------------------------------------
# the interpreter
# ---------------------------------------------------------------------------------------

_SCHEDULE_SETS: list[Any] | None = None
_ALL_CLASSES: list[type[Operation]] | None = None


def _all_op_classes() -> list[type[Operation]]:
    """Every op class of every dialect dfsched parses (xDSL's and our subclasses)."""
    global _ALL_CLASSES
    if _ALL_CLASSES is None:
        from dfsched.dialects import DIALECTS

        sources = list(DIALECTS.values()) + [v for v in ktir._XDSL.values()]  # noqa: SLF001
        sources += [("xdsl.dialects.memref", "MemRef"), ("xdsl.dialects.affine", "Affine")]
        _ALL_CLASSES = ktir.dialect_op_classes(sources)
    return _ALL_CLASSES


def _schedule_function_sets() -> list[Any]:
    global _SCHEDULE_SETS
    if _SCHEDULE_SETS is None:
        _SCHEDULE_SETS = schedule_functions(_all_op_classes())
    return _SCHEDULE_SETS


class ScheduleInterpreter(KtirInterpreter):
    """The KTIR interpreter plus ScheduleIR: ktdf, memref, affine, buffer linalg, programs."""

    def __init__(self, module: ModuleOp, state: ScheduleState):
        super().__init__(module, state)
        for functions in _schedule_function_sets():
            self.register_implementations(functions, override=True)

    def unsupported_op(self, op: Operation) -> DiagnosticError:
        name = ktir._op_name(op)  # noqa: SLF001
        dialect = name.split(".", 1)[0]
        why = " (DataflowIR: the DataflowIR simulator is a later task)" if dialect in DATAFLOW_DIALECTS else ""
        return unsupported(op, f"the ScheduleIR interpreter does not support '{name}'{why}")


# ---------------------------------------------------------------------------------------
# kernels and programs
# ---------------------------------------------------------------------------------------


def _is_program_module(op: Operation) -> bool:
    return isinstance(op, ModuleOp) and op.sym_name is not None


def _kernel_candidates(module: ModuleOp) -> list[func.FuncOp]:
    """Functions with bodies outside program modules (top level, or unnamed nested modules)."""
    out: list[func.FuncOp] = []
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and op.body.blocks and op.body.blocks.first.ops:
            out.append(op)
        elif isinstance(op, ModuleOp) and not _is_program_module(op):
            out.extend(_kernel_candidates(op))
    return out


def find_schedule_kernel(module: ModuleOp, name: str | None = None) -> func.FuncOp:
    return ktir.choose_kernel(module, _kernel_candidates(module), name, "outside the program modules")


def _address_args(module: ModuleOp, kernel: func.FuncOp) -> set[int]:
    """Kernel arguments reaching a view's offset by additions, through program calls too."""
    calls: dict[str, list[Operation]] = {}
    for op in module.walk():
        if op.name == "func.call":
            calls.setdefault(op.callee.root_reference.data, []).append(op)
    kernel_args = list(kernel.body.blocks.first.args)
    found: set[int] = set()

    def argument(v: BlockArgument) -> list[SSAValue]:
        owner = v.block.parent_op()
        if owner is kernel and v.block is kernel.body.blocks.first:
            if can_hold_address(v.type):
                found.add(kernel_args.index(v))
        elif isinstance(owner, func.FuncOp) and v.block is owner.body.blocks.first:
            return [call.operands[v.index] for call in calls.get(owner.sym_name.data, [])
                    if v.index < len(call.operands)]
        return []

    walk_addresses([op.operands[0] for op in module.walk() if op.name == "ktdp.construct_memory_view"],
                   argument)
    return found


def schedule_kernel_info(module: ModuleOp, kernel: str | None = None) -> ktir.KernelInfo:
    f = find_schedule_kernel(module, kernel)
    block = f.body.blocks.first
    names = [a.name_hint or f"arg{i}" for i, a in enumerate(block.args)]
    return ktir.KernelInfo(f, f.sym_name.data, ktir.grid_of(f), names, _address_args(module, f))


def executable(module: Operation) -> str | None:
    """Why the ScheduleIR interpreter cannot run `module` (None: it can try)."""
    for op in module.walk():
        dialect = ktir._op_name(op).split(".", 1)[0]  # noqa: SLF001
        if dialect in DATAFLOW_DIALECTS:
            if is_dataflow_ir(module):
                return "DataflowIR: not simulated"
            return "ScheduleIR mixed with ktdf_lowering: no engine runs it"
    return None


# ---------------------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------------------


@dataclass
class ScheduleResult:
    outputs: dict[str, np.ndarray]
    layout: Layout
    global_memory: Memory
    returns: dict[tuple[int, ...], tuple]
    stats: dict[str, int] = field(default_factory=dict)


def _split_options(opts: dict[str, Any]) -> tuple[Options, ScheduleOptions]:
    names = set(ScheduleOptions.__dataclass_fields__)
    sched = ScheduleOptions(**{k: v for k, v in opts.items() if k in names})
    if sched.stage_order not in ("sibling", "reverse"):
        raise ValueError(f"stage_order must be 'sibling' or 'reverse', not {sched.stage_order!r}")
    options = ktir._options({k: v for k, v in opts.items() if k not in names})  # noqa: SLF001
    return options, sched


def _new_state(info: ktir.KernelInfo, options: Options, sched: ScheduleOptions, probe: bool) -> ScheduleState:
    return ScheduleState(options=options, grid=info.grid, probe=probe, schedule=sched)


def _run_grid(module, info, state: ScheduleState, arg_values: list[Any]) -> dict[tuple[int, ...], tuple]:
    """`ktir._run_grid` on this interpreter, over the tiles `state.schedule.tiles` names (all by default)."""
    selected = state.schedule.tiles
    if selected is None:
        return ktir._run_grid(module, info, state, arg_values, ScheduleInterpreter)  # noqa: SLF001
    wanted = set(selected)
    interpreter = ScheduleInterpreter(module, state)
    returns: dict[tuple[int, ...], tuple] = {}
    with np.errstate(all="ignore"):
        for index, coords in enumerate(np.ndindex(*info.grid)):
            if index not in wanted:
                continue
            state.tile_index = index
            state.tile_coords = tuple(int(c) for c in coords)
            returns[state.tile_coords] = tuple(interpreter.call_op(info.func, tuple(arg_values)))
    return returns


def _check_executable(module: Operation) -> None:
    for op in module.walk():
        dialect = ktir._op_name(op).split(".", 1)[0]  # noqa: SLF001
        if dialect in DATAFLOW_DIALECTS:
            raise unsupported(
                op,
                f"'{ktir._op_name(op)}' op is DataflowIR: the ScheduleIR interpreter runs the IR up to "  # noqa: SLF001
                "ktdf-to-ktdflowering (the DataflowIR simulator is a later task)",
            )


def schedule_layout(module: ModuleOp, *, kernel: str | None = None, scalars: dict[str, Any] | None = None,
                    **opts) -> Layout:
    """Where each buffer lives, from a dry run of the (scheduled) module, as `ktir.kernel_layout`."""
    info = schedule_kernel_info(module, kernel)
    options, sched = _split_options(opts)
    _check_executable(module)
    return _dry_run_layout(module, info, options, sched, ktir._scalar_values(info, scalars))  # noqa: SLF001


def _dry_run_layout(module, info, options: Options, sched: ScheduleOptions, scalars: dict[str, Any]) -> Layout:
    """`ktir._compute_layout`, with the ScheduleIR interpreter doing the dry run."""

    def dry_run(probe_options: Options, arg_values: list[Any]) -> ScheduleState:
        state = _new_state(info, probe_options, replace(sched, drain_fifos=False, tiles=None), True)
        state.global_memory = Memory("global memory", options.unit, None, probe=True)
        _run_grid(module, info, state, arg_values)
        return state

    return ktir._compute_layout(module, info, options, scalars, dry_run)  # noqa: SLF001


def run_schedule(
    module: ModuleOp,
    inputs: dict[str, Any] | None = None,
    *,
    layout: Layout | None = None,
    kernel: str | None = None,
    **opts,
) -> ScheduleResult:
    """Run a module at any point of the scheduling pipeline (see the module docstring)."""
    options, sched = _split_options(opts)
    _check_executable(module)
    info = schedule_kernel_info(module, kernel)
    inputs = dict(inputs or {})
    if layout is None:
        scalar_names = {n for i, n in enumerate(info.arg_names) if i not in info.address_args}
        scalars = ktir._scalar_values(info, {k: v for k, v in inputs.items() if k in scalar_names})  # noqa: SLF001
        layout = _dry_run_layout(module, info, options, sched, scalars)
    address_args = {b.arg_index for b in layout.buffers if b.arg_index is not None} | (
        info.address_args if not layout.buffers else set())
    scalar_names = {n for i, n in enumerate(info.arg_names) if i not in address_args}
    ktir.check_input_keys(info, layout, inputs, scalar_names)
    scalars: dict[str, Any] = {}
    for i, (name, arg) in enumerate(zip(info.arg_names, info.func.body.blocks.first.args)):
        if i in address_args:
            continue
        if name in inputs:
            scalars[name] = ktir._argument(inputs[name], arg.type, name)  # noqa: SLF001
        elif name in layout.scalars:
            scalars[name] = layout.scalars[name]
        else:
            scalars[name] = ktir._default_scalar(arg.type)  # noqa: SLF001
    state = _new_state(info, options, sched, False)
    state.inter_tile = Exchange() if has_inter_tile_ops(module) else None  # tiles pause at deliveries (inter_tile.py)
    # unbounded: widened loads may read past the last buffer (they read zeros there)
    # one compute tile cannot race with another: no bookkeeping then
    tiles = int(np.prod(info.grid, dtype=np.int64))
    memory = Memory("global memory", options.unit, None, track_races=options.check_races and tiles > 1)
    state.global_memory = memory
    ktir.place_inputs(memory, layout, inputs)
    ktir.place_local_inputs(state.scratchpad, tiles, layout, inputs)
    args = []
    for i, name in enumerate(info.arg_names):
        if i in address_args:
            address = layout.arg_address(i)
            args.append(0 if address is None else address)
        else:
            args.append(scalars[name])
    returns = _run_grid(module, info, state, args)
    outputs = {b.key: memory.fetch(b.address, b.shape, b.element) for b in layout.global_buffers()}
    outputs.update(ktir.local_outputs(state.scratchpad, tiles, layout))
    stats = {
        "ops": state.ops_run,
        "pipelines": state.pipelines_run,
        "stages": state.stages_run,
        "transfers": state.transfers,
        "fifo_elements": state.fifo_elements,
        "buffers": state.allocations,
    }
    return ScheduleResult(outputs, layout, memory, returns, stats)


def run_schedule_outputs(module: ModuleOp, inputs: dict[str, Any] | None = None, **kwargs) -> dict[str, np.ndarray]:
    return run_schedule(module, inputs, **kwargs).outputs


# ---------------------------------------------------------------------------------------
# checking against the reference
# ---------------------------------------------------------------------------------------


def has_reduction(module: Operation) -> bool:
    """Whether the kernel reduces (a schedule may then reorder its sums)."""
    for op in module.walk():
        name = ktir._op_name(op)  # noqa: SLF001
        if name == "linalg.reduce" or "reduc" in name or name.startswith("spyreop.exx2"):
            return True
        if name.startswith("linalg.") and hasattr(op, "get_iterator_types"):
            try:
                iterators = [str(getattr(getattr(it, "data", it), "value", getattr(it, "data", it)))
                             for it in op.get_iterator_types().data]
            except Exception:  # noqa: BLE001
                continue
            if any("reduction" in it for it in iterators):
                return True
    return False


def _ulp16(x: float) -> float:
    return float(np.spacing(np.float16(min(abs(x), 65504.0))))


def reduction_tolerance(expected: np.ndarray) -> float:
    """Absolute tolerance of one reduction output: REDUCTION_ULPS f16 ulps of its magnitude."""
    if isinstance(expected, TouchedBuffer):
        expected = np.concatenate([v for _, v in expected.runs] or [expected.element.zeros((0,))])
    arr = np.asarray(expected)
    if arr.size == 0 or arr.dtype.kind not in "fc":
        return 0.0
    finite = np.abs(arr[np.isfinite(arr)]) if arr.dtype.kind == "f" else np.abs(arr[np.isfinite(arr)])
    scale = float(finite.max()) if finite.size else 1.0
    return REDUCTION_ULPS * _ulp16(max(scale, 1.0))


def max_error(expected: dict[str, np.ndarray], actual: dict[str, np.ndarray]) -> float:
    worst = 0.0
    for key, a in expected.items():
        b = actual.get(key)
        if b is None or np.shape(a) != np.shape(b):
            return float("inf")
        if isinstance(a, TouchedBuffer) or isinstance(b, TouchedBuffer):
            if not (isinstance(a, TouchedBuffer) and isinstance(b, TouchedBuffer)):
                return float("inf")
            pairs = [(x, y) for _, x, y in ktir.touched_parts(a, b)]
        else:
            pairs = [(a, b)]
        for a, b in pairs:
            x = np.asarray(a).astype(np.complex128 if np.iscomplexobj(a) else np.float64)
            y = np.asarray(b).astype(np.complex128 if np.iscomplexobj(b) else np.float64)
            both_nan = np.isnan(x) & np.isnan(y)
            diff = np.abs(x - y)
            diff = np.where(both_nan, 0.0, diff)
            if diff.size:
                d = float(np.nanmax(np.where(np.isnan(diff), np.inf, diff)))
                worst = max(worst, d)
    return worst


@dataclass
class Verdict:
    """How one run compares with the reference."""

    status: str  # "exact" | "tolerance" | "mismatch" | "error" | "skipped"
    max_error: float | None = None
    message: str = ""
    problems: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    engine: str = "schedule"  # "schedule" (this interpreter) | "dataflow" (the DataflowIR simulator)
    outputs: dict[str, np.ndarray] | None = field(default=None, repr=False)  # what the run computed

    @property
    def ok(self) -> bool:
        return self.status in ("exact", "tolerance")

    @property
    def failed(self) -> bool:
        return self.status in ("mismatch", "error")


def output_differences(expected, actual, reductions: bool) -> tuple[str, list[str]]:
    """("exact" | "tolerance" | "mismatch", the differences): a kernel that reduces may differ
    by REDUCTION_ULPS f16 ulps of each output's magnitude (a schedule may reorder its sums)."""
    problems = compare_outputs(expected, actual)
    if not problems:
        return "exact", []
    if reductions:
        loose = []
        for key in sorted(set(expected) | set(actual)):
            tol = reduction_tolerance(expected[key]) if key in expected else 0.0
            loose += compare_outputs(expected, actual, keys=[key], atol=tol)
        if not loose:
            return "tolerance", []
        problems = loose
    return "mismatch", problems


def _compare(expected, actual, reductions: bool, stats, engine: str) -> Verdict:
    worst = max_error(expected, actual)
    status, problems = output_differences(expected, actual, reductions)
    if status == "exact":
        return Verdict("exact", worst, stats=stats, engine=engine, outputs=actual)
    if status == "tolerance":
        return Verdict("tolerance", worst, stats=stats, engine=engine, outputs=actual,
                       message=f"within {REDUCTION_ULPS} f16 ulps (reduction order)")
    return Verdict("mismatch", worst, message="; ".join(problems), problems=problems, stats=stats, engine=engine,
                   outputs=actual)


def is_dataflow_ir(module: Operation) -> bool:
    """Pure DataflowIR: dataflow ops and no ScheduleIR (`ktdf`, `ktdf_lowering`) left."""
    dialects = {ktir._op_name(op).split(".", 1)[0] for op in module.walk()}  # noqa: SLF001
    return "dataflow" in dialects and not dialects & {"ktdf", "ktdf_lowering"}


def check_dataflow(module: ModuleOp, inputs: dict[str, Any], reference: KernelResult, device, *,
                   reductions: bool = False, sources=None, kernel: str | None = None,
                   tiles: tuple[int, ...] | None = None) -> Verdict:
    """Run DataflowIR on the DataflowIR simulator (`dataflow.py`) and compare with the reference.
    The check needs the outputs and the cycles only: the run records no timeline or FIFO
    occupancy (about 100 bytes per simulated event, most of a big simulation's memory: 190 of
    the 260 MB a shrunk corpus matmul's simulation peaked at)."""
    try:
        from dfsched.interp.dataflow import simulate
    except ImportError as exc:
        return Verdict("skipped", message=f"DataflowIR: no DataflowIR simulator ({exc})")
    try:
        result = simulate(module, inputs, device, layout=reference.layout, kernel=kernel, tiles=tiles,
                          record_timeline=False)
    except DiagnosticError as exc:
        return Verdict("error", message=exc.diagnostic.render(sources), engine="dataflow")
    except Exception as exc:  # noqa: BLE001 - the simulator's own failure is not the schedule's
        return Verdict("skipped", message=f"DataflowIR simulator failed: {type(exc).__name__}: {exc}")
    stats = {"cycles": int(result.total_cycles)}
    return _compare(reference.outputs, result.outputs, reductions, stats, "dataflow")


def check_schedule(
    module: ModuleOp,
    inputs: dict[str, Any],
    reference: KernelResult,
    *,
    reductions: bool | None = None,
    sources=None,
    dataflow_device=None,
    **run_options,
) -> Verdict:
    """Run `module` on `inputs` at the reference's layout and compare (see Tolerance).

    ScheduleIR runs on this interpreter; pure DataflowIR on the DataflowIR simulator when
    `dataflow_device` (a device name, file or model for it) is given; other IR is skipped.
    """
    reductions = bool(reductions)
    why = executable(module)
    if why is not None:
        if dataflow_device is not None and is_dataflow_ir(module):
            return check_dataflow(module, inputs, reference, dataflow_device, reductions=reductions,
                                  sources=sources, kernel=run_options.get("kernel"), tiles=run_options.get("tiles"))
        return Verdict("skipped", message=why)
    try:
        result = run_schedule(module, inputs, layout=reference.layout, **run_options)
    except Unsupported as exc:
        return Verdict("skipped", message=exc.diagnostic.render(sources))
    except DiagnosticError as exc:
        return Verdict("error", message=exc.diagnostic.render(sources))
    except ValueError as exc:  # the IR does not fit the reference (another kernel signature, ...)
        return Verdict("error", message=f"cannot run the IR on the reference's inputs: {exc}")
    return _compare(reference.outputs, result.outputs, reductions, result.stats, "schedule")
