"""`ktdf-to-ktdflowering`: scheduled pipelines become units, signals and `execute_on` regions.

See `docs/passes.md#ktdf-to-ktdflowering`. For every function holding `ktdf.stage`s (every `func.func` of the
module, nested modules included, in textual order):

1. **Classify** the unit kinds: each kind in a stage's `applicable_units` is
   *parallel* for the nearest `ktdf.parallel` around the stage, or a candidate
   *non-parallel* kind; a kind used in any parallel region is not non-parallel.
2. **Grid**: the function's 1-D `grid` is the number of cores G.
3. **Check the units against the device** (dfsched): every kind must be an exec_unit kind
   of the device, and a `ktdf.parallel` may not distribute over more instances than the
   device has copies of its units (Decision 3: the corelet count is the parallel op's
   `num_instances`, which parallelization took from the device: 2 on the sample device,
   4 on `quad_corelet`, any N in general).
4. **Analyse** before anything changes: the stages each stage runs on (as unit
   slots), the global DAG over leaf stages plus the cross-iteration back-edges, and
   the scratchpad conflicts on its edges. Every diagnostic is raised in steps 1-4,
   and every function is analysed before any is rewritten, so on an error the module is
   left untouched.
5. **Materialise units** at the start of the entry block: per non-parallel kind,
   per core `dataflow.get_unit {core = c, corelet = 0, name = "C<c>-<kind>"}`; per parallel
   op, kind and corelet k, per core `{..., corelet = k, name = "C<c>-<kind>-CL<k>"}`.
6. **Uniform infrastructure**: a new `ktdp.get_compute_tile_id`, then per unit list
   G key constants, a `uniform.def_immutable_mapping` core → unit and a `uniform.query_map`
   keyed by the tile id.
7. **Signals**: `ktdf_lowering.signal` after the anchor of every conflicting edge
   (IR order of producer then consumer, Decision 5); guarded signals at the start of the
   load stage and the end of the store stage of every conflicting back-edge; write-after-read
   signals for single buffers reused across loop iterations, within a pipeline and across
   pipelines (Decision 14).
8. **Pipeline execution transform**, outer pipelines first: each stage becomes a
   `ktdf_lowering.execute_on` of its units, each pipeline one of the ordered union of its
   stages' units holding the inlined `ktdf.private` contents, the stages' regions and the
   signals. Finally `loop_type` is dropped from every `scf.for` of the function.

Unit kinds are the device's exec_unit `kind` strings; `get_unit` types are them lower-cased.
Conflicts are read from the device: the memory kinds the producer's unit writes
(`DeviceModel.write_kinds`) against those the consumer's unit reads (`read_kinds`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import Rewriter

from dfsched.dialects.constants import index_constant, static_trip_count
from dfsched.arch.model import DeviceModel
from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.dialects.ktdf_lowering import ExecuteOnOp, SignalOp
from dfsched.dialects.ktdp import GetComputeTileIdOp
from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.walk import (ancestors, nearest_ancestor, pipelines_post_order, runs_compute_ops_in_sequence,
                                 stages_post_order)
from dfsched.passes.builder import Inserter
from dfsched.passes.aliasing import memref_aliases, memref_root, reads_from, region_writes_to, writes_to
from dfsched.passes.lowering.dfir_utils import make_unit, unit_name, unit_type_tag
from dfsched.passes.lowering.overlap_staging_copies import common_slab_dim, iteration_slab, overlap_staging_copies
from dfsched.arch.loading import required_device_model
from dfsched.passes.lowering.program import one_d_grid_size
from dfsched.passes.lowering.uniform_grid import fold_uniform_grid, is_core_uniform
from dfsched.passes.lowering.working_prefix import fold_working_prefix, working_prefixes
from dfsched.passes.lowering.stage_dag import (
    address_list_edges,
    CircularDependency,
    StageDAG,
    analyze_stage_dependencies,
    build_global_stage_dag,
    direct_stages,
    op_positions,
    topological_sort,
)


@dataclass(frozen=True)
class KTDFToKTDFLowering(DevicePass):
    """Lower ktdf pipelines and stages to per-core units, signals and `execute_on` regions."""

    name = "ktdf-to-ktdflowering"

    overlap_copies: bool = True
    """First run `overlap-staging-copies` on programs of several compute ops (Decision 110)."""

    uniform_grid_cores: int = 0
    """When no core's program can differ from another's, lower a larger grid on this many cores
    only, for `wrap-program-dfir` to replicate (`uniform_grid.py`, Decision 121); 0: never."""

    working_prefix: bool = True
    """Lower a program that only the first tiles launch on their cores only (`working_prefix.py`,
    Decision 122); false: on every core."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        model = required_device_model(op, self.device)
        if self.overlap_copies:
            for function in functions_of(op):
                if runs_compute_ops_in_sequence(function):
                    overlap_staging_copies(function, model)
        plans = [plan_function(function, stages, model)
                 for function in functions_of(op) if (stages := stages_post_order(function))]
        if self.uniform_grid_cores > 0 and is_core_uniform(op):
            for plan in plans:
                plan.grid = fold_uniform_grid(plan.function, plan.grid, self.uniform_grid_cores)
        elif self.working_prefix:
            prefixes = working_prefixes(op, [plan.function for plan in plans])
            for plan in plans:
                if plan.function in prefixes:
                    plan.grid = fold_working_prefix(plan.function, prefixes[plan.function])
        for plan in plans:
            lower_function(plan)


def functions_of(module: ModuleOp) -> list[func.FuncOp]:
    """Every `func.func` of the module, nested modules included, in textual order."""
    return [op for op in module.walk() if isinstance(op, func.FuncOp)]


@dataclass
class FunctionPlan:
    function: func.FuncOp
    components: Components
    grid: int
    schedule: Schedule


def plan_function(function: func.FuncOp, stages: list[ktdf.StageOp], model: DeviceModel) -> FunctionPlan:
    """Steps 1-4 for one function; every function is planned before any is rewritten."""
    components = classify_components(function, stages)
    grid = one_d_grid_size(function)
    check_units_against_device(components, model)
    schedule = analyze_schedule(function, stages, components, model)
    return FunctionPlan(function, components, grid, schedule)


def lower_function(plan: FunctionPlan) -> None:
    """Steps 5-8."""
    prelude = Inserter.at_start(plan.function.body.block, plan.function)
    units = materialize_units(prelude, plan.components, plan.grid)
    queries = build_uniform_infrastructure(prelude, units, plan.grid)
    insert_signals(plan.schedule, queries)
    transform_pipelines(plan.function, plan.schedule, queries)
    drop_loop_types(plan.function)


# ---------------------------------------------------------------------------
# Step 1: component classification
# ---------------------------------------------------------------------------


@dataclass
class Components:
    """Unit kinds of a function: non-parallel ones, and those of each `ktdf.parallel` (IR order)."""

    non_parallel: list[str] = field(default_factory=list)
    parallel: dict[ktdf.ParallelOp, list[str]] = field(default_factory=dict)
    stage_kinds: dict[ktdf.StageOp, list[str]] = field(default_factory=dict)
    first_use: dict[str, ktdf.StageOp] = field(default_factory=dict)

    def parallel_ops_with(self, kind: str) -> list[ktdf.ParallelOp]:
        return [p for p, kinds in self.parallel.items() if kind in kinds]


def classify_components(function: func.FuncOp, stages: list[ktdf.StageOp]) -> Components:
    """Stages are in post-order; parallel ops end up in IR order (Decision 5)."""
    components = Components()
    candidates: list[str] = []
    in_parallel: set[str] = set()
    parallel_kinds: dict[ktdf.ParallelOp, list[str]] = {}
    for stage in stages:
        kinds = stage_unit_kinds(stage)
        components.stage_kinds[stage] = kinds
        parallel = nearest_ancestor(stage, ktdf.ParallelOp)
        for kind in kinds:
            components.first_use.setdefault(kind, stage)
            if parallel is not None:
                listed = parallel_kinds.setdefault(parallel, [])
                if kind not in listed:
                    listed.append(kind)
                in_parallel.add(kind)
            elif kind not in candidates:
                candidates.append(kind)
    components.non_parallel = [k for k in candidates if k not in in_parallel]
    for parallel in [op for op in function.walk() if op in parallel_kinds]:
        components.parallel[parallel] = parallel_kinds[parallel]
    return components


def stage_unit_kinds(stage: ktdf.StageOp) -> list[str]:
    """The stage's `applicable_units` as kind strings, or a located error."""
    units = stage.applicable_units
    if units is None:
        units = stage.attributes.get("applicable_units")
    if not isinstance(units, ArrayAttr):
        raise error(stage, "ktdf.stage is missing required 'applicable_units' attribute")
    kinds: list[str] = []
    for entry in units.data:
        if not isinstance(entry, StringAttr):
            raise error(stage, f"'applicable_units' entries must be strings naming exec_unit kinds "
                               f"(got {attribute_text(entry)})")
        kinds.append(entry.data)
    if not kinds:
        raise error(stage, "Stage has empty unit list")
    return kinds


# ---------------------------------------------------------------------------
# Step 3: the units exist on the device
# ---------------------------------------------------------------------------


def check_units_against_device(components: Components, model: DeviceModel) -> None:
    for kind, stage in components.first_use.items():
        if kind not in model.units:
            known = ", ".join(sorted(model.units))
            raise error(stage, f"cannot resolve unit type '{kind}': device '{model.name}' has no exec_unit of "
                               f"that kind (it has {known})")
    for parallel, kinds in components.parallel.items():
        wanted = parallel.num_instances.value.data
        available = model.instances(kinds)
        if wanted > available:
            raise error(parallel, f"ktdf.parallel distributes over {wanted} instances but device "
                                  f"'{model.name}' has {available} instance(s) of {', '.join(kinds)}")


# ---------------------------------------------------------------------------
# Step 4: analysis
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitSlot:
    """One unit list a stage runs on: a kind, and for parallel kinds the parallel op and corelet."""

    kind: str
    parallel: ktdf.ParallelOp | None = None
    corelet: int = 0


@dataclass
class BackEdge:
    """A cross-iteration scratchpad dependency from a pipeline's store stage to its load stage."""

    store: ktdf.StageOp
    load: ktdf.StageOp
    loops: list[scf.ForOp]


@dataclass
class ReuseEdge:
    """A scratchpad buffer `writer` fills and a later stage `reader` of the same pipeline reads,
    reused without double buffering by the next iteration of a loop around the pipeline: the
    writer of iteration i+1 must wait until the reader of iteration i has read it
    (write-after-read across iterations). `units` are the slots of the leaf stages that read it
    then of those that write it, kept only where the reader's kind reads a memory kind the
    writer's kind writes."""

    reader: ktdf.StageOp
    writer: ktdf.StageOp
    loops: list[scf.ForOp]
    units: list[UnitSlot]


@dataclass
class Schedule:
    """What the rewrite needs, computed before the IR changes."""

    stage_slots: dict[ktdf.StageOp, list[UnitSlot]]
    dag: StageDAG
    back_edges: list[BackEdge]
    conflicting_edges: list[tuple[ktdf.StageOp, ktdf.StageOp]]
    reuse_edges: list[ReuseEdge] = field(default_factory=list)
    address_list_edges: list[tuple[ktdf.StageOp, ktdf.StageOp]] = field(default_factory=list)
    cross_reuse_edges: list[ReuseEdge] = field(default_factory=list)


def analyze_schedule(function: func.FuncOp, stages: list[ktdf.StageOp], components: Components,
                     model: DeviceModel) -> Schedule:
    stage_slots = map_stages_to_units(stages, components)
    dag, back_edges = build_stage_dag(function)
    listed = address_list_edges(function)  # the mover reads its list: always a conflict
    for writer, mover in listed:
        dag.add_edge(writer, mover)
    positions = op_positions(function)
    conflicting = [edge for edge in dag.edges_in_ir_order(positions)
                   if edge in listed or has_scratchpad_conflict(stage_slots[edge[0]], stage_slots[edge[1]], model)]
    reuse = [edge for pipeline in pipelines_post_order(function)
             for edge in pipeline_reuse_edges(pipeline, stage_slots, model)]
    cross = cross_pipeline_reuse_edges(stages, stage_slots, model, positions)
    return Schedule(stage_slots, dag, back_edges, conflicting, reuse, listed, cross)


def map_stages_to_units(stages: list[ktdf.StageOp], components: Components) -> dict[ktdf.StageOp, list[UnitSlot]]:
    """The unit lists of every stage, in `applicable_units` order."""
    mapping: dict[ktdf.StageOp, list[UnitSlot]] = {}
    for stage in stages:
        slots: list[UnitSlot] = []
        parallel = nearest_ancestor(stage, ktdf.ParallelOp)
        for kind in components.stage_kinds[stage]:
            if parallel is not None:
                slots.extend(_corelet_slots(kind, parallel))
            elif kind in components.non_parallel:
                slots.append(UnitSlot(kind))
            else:  # a kind only used inside parallel regions: the first of them
                slots.extend(_corelet_slots(kind, components.parallel_ops_with(kind)[0]))
        mapping[stage] = slots
    return mapping


def _corelet_slots(kind: str, parallel: ktdf.ParallelOp) -> list[UnitSlot]:
    return [UnitSlot(kind, parallel, k) for k in range(parallel.num_instances.value.data)]


def build_stage_dag(function: func.FuncOp) -> tuple[StageDAG, list[BackEdge]]:
    """The global DAG over leaf stages, with the back-edges of every pipeline added."""
    try:
        dag = build_global_stage_dag(function)
    except CircularDependency as exc:
        raise error(exc.stage, "Circular token dependency detected in pipeline",
                    [(function, "failed to build global stage DAG")]) from None
    back_edges: list[BackEdge] = []
    for pipeline in pipelines_post_order(function):
        for edge in pipeline_back_edges(pipeline):
            dag.add_edge(edge.store, edge.load)
            back_edges.append(edge)
    return dag, back_edges


def pipeline_back_edges(pipeline: ktdf.PipelineOp) -> list[BackEdge]:
    """Store→load edges of a pipeline whose store stage writes a scratchpad its load stage reads
    in the next iteration of a loop around the pipeline."""
    stages = direct_stages(pipeline)
    if len(stages) < 2:
        return []
    local = analyze_stage_dependencies(stages)
    loads = [s for s in stages if not local.predecessors[s]]
    stores = [s for s in stages if not local.successors[s]]
    edges: list[BackEdge] = []
    for load in loads:
        for store in stores:
            if load is store:
                continue
            deps = [t for t in transfers_in(load) if not _is_fifo(t.source) and region_writes_to(store, t.source)]
            if not deps:
                continue
            store_transfers = [t for t in transfers_in(store) if not _is_fifo(t.destination)]
            loops = dependent_loops(deps, store_transfers, pipeline)
            if loops:
                edges.append(BackEdge(store, load, loops))
    return edges


def pipeline_reuse_edges(pipeline: ktdf.PipelineOp, stage_slots: dict[ktdf.StageOp, list[UnitSlot]],
                         model: DeviceModel) -> list[ReuseEdge]:
    """Reader→writer edges of a pipeline inside a loop (more than one iteration) whose stage
    `writer` writes a scratchpad buffer that a later stage `reader` reads (dfsched; upstream
    only orders a store stage before the next iteration's load stage).

    The token edges order the writer before the reader within one iteration, and the signal
    after the writer is a two-way exchange, so the reader starts after the writer's data is
    there; nothing orders the reader's last access before the writer of the next iteration
    overwrites the buffer. A double-buffered buffer (`ktdf.select_memref` of a
    `buffer_phase`) alternates between two copies: the writer of iteration i+1 fills the other
    copy, and before it fills the reader's copy again (iteration i+2) it has exchanged the
    signal after the writer of iteration i+1 with the reader, which the reader only reaches
    once it has finished iteration i. Pipelines inside a `ktdf.parallel` are left alone (the
    corelets split its iterations, so the loops alone do not say which is first or last).
    """
    stages = direct_stages(pipeline)
    if len(stages) < 2 or nearest_ancestor(pipeline, ktdf.ParallelOp) is not None:
        return []
    loops = [loop for loop in reversed(_loops_around(pipeline))
             if (trips := static_trip_count(loop)) is None or trips > 1]
    if not loops:
        return []
    local = analyze_stage_dependencies(stages)
    edges: list[ReuseEdge] = []
    iv = loops[0].body.block.args[0] if len(loops) == 1 else None
    for writer in stages:
        for reader in _successors_of(writer, stages, local):
            units = reuse_units(writer, reader, stage_slots, model, iv)
            if units:
                edges.append(ReuseEdge(reader, writer, loops, units))
    return edges


def cross_pipeline_reuse_edges(stages: list[ktdf.StageOp], stage_slots: dict[ktdf.StageOp, list[UnitSlot]],
                               model: DeviceModel, positions: dict[Operation, int]) -> list[ReuseEdge]:
    """Write-after-read across pipelines (dfsched, Decision 14 extended): a stage of one pipeline
    fills a single-buffered scratchpad buffer that a stage of a later pipeline reads, both
    inside a loop of more than one iteration (a buffer broadcast promotion hoisted into a
    sibling pipeline, read by the pipelines of an inner loop). Nothing orders the readers of
    iteration i before the writer of iteration i+1; the edge's signal
    (`insert_cross_reuse_signal`) is that order. Kept where the reader's outermost pipeline
    also runs on the writer's units (else the signal would reach only one side)."""
    edges: list[ReuseEdge] = []
    leaves = sorted((s for s in stages if s in stage_slots and s in positions
                     and not any(isinstance(o, ktdf.StageOp) for o in s.walk() if o is not s)),
                    key=positions.__getitem__)
    pairs = [(w, r) for i, w in enumerate(leaves) for r in leaves[i + 1:]
             if nearest_ancestor(w, ktdf.PipelineOp) is not nearest_ancestor(r, ktdf.PipelineOp)]
    for writer, reader in pairs:
        around_reader = set(_loops_around(reader))
        loops = [loop for loop in reversed(_loops_around(writer)) if loop in around_reader
                 and ((trips := static_trip_count(loop)) is None or trips > 1)]
        if not loops:
            continue
        units = reuse_units(writer, reader, stage_slots, model)
        if not units:
            continue
        host = outermost_pipeline(reader)  # where the signal goes: it must run on the writer's units
        host_slots = {slot for stage in host.walk() if isinstance(stage, ktdf.StageOp)
                      for slot in stage_slots.get(stage, [])}
        if nearest_ancestor(host, ktdf.ParallelOp) is None and all(s in host_slots for s in units):
            edges.append(ReuseEdge(reader, writer, loops, units))
    return edges


def _successors_of(stage: ktdf.StageOp, stages: list[ktdf.StageOp], dag: StageDAG) -> list[ktdf.StageOp]:
    """The stages after `stage` through token edges, in stage order."""
    seen: set[ktdf.StageOp] = set()
    worklist = list(dag.successors[stage])
    while worklist:
        succ = worklist.pop()
        if succ not in seen:
            seen.add(succ)
            worklist.extend(dag.successors[succ])
    return [s for s in stages if s in seen]


def _leaves_within(stage: ktdf.StageOp) -> list[ktdf.StageOp]:
    """The stages inside `stage` (itself included) that hold no other stage, in IR order."""
    return [s for s in stage.walk() if isinstance(s, ktdf.StageOp)
            and not any(isinstance(o, ktdf.StageOp) for o in s.walk() if o is not s)]


def reuse_units(writer: ktdf.StageOp, reader: ktdf.StageOp, stage_slots: dict[ktdf.StageOp, list[UnitSlot]],
                model: DeviceModel, iv: SSAValue | None = None) -> list[UnitSlot]:
    """The unit slots that must sync so `writer` does not overwrite a buffer `reader` still
    reads: those of the reader's leaf stages reading a non-double-buffered buffer a leaf stage of
    the writer writes, then those of the writing leaf stages, keeping the pairs whose kinds
    conflict (the reader's kind reads a memory kind the writer's kind writes). With `iv`, the
    induction variable of the one loop around both, a buffer every iteration touches in a block
    of its own (`slabs_disjoint`, Decision 110) needs no signal."""
    writer_leaves = _leaves_within(writer)
    readers: list[UnitSlot] = []
    writers: list[UnitSlot] = []
    for leaf in _leaves_within(reader):
        for op in leaf.walk():
            for buffer in reads_from(op):
                root = memref_root(buffer)
                if isinstance(root, OpResult) and isinstance(root.op, ktdf.SelectMemrefOp):
                    continue  # double-buffered
                aliases = memref_aliases(root)
                if iv is not None and slabs_disjoint(writer, reader, aliases, iv):
                    continue
                for wleaf in writer_leaves:
                    if not any(writes_to(w, aliases) for w in wleaf.walk() if w is not wleaf):
                        continue
                    for u in stage_slots[leaf]:
                        for v in stage_slots[wleaf]:
                            if model.read_kinds(u.kind) & model.write_kinds(v.kind):
                                if u not in readers:
                                    readers.append(u)
                                if v not in writers:
                                    writers.append(v)
    return readers + writers if readers else []


def slabs_disjoint(writer: ktdf.StageOp, reader: ktdf.StageOp, aliases: list[SSAValue], iv: SSAValue) -> bool:
    """Whether every write of the buffer (`aliases`) in `writer` and every read of it in `reader`
    is a transfer whose positions along one dimension stay in block iv of k positions, the same
    dimension and k for all (`iteration_slab`): iterations of the loop of `iv` then touch
    disjoint parts of it, and no iteration's writer overwrites what an earlier one's reader reads."""
    slabs = []
    for stage, side in ((writer, "dest"), (reader, "source")):
        for op in stage.walk():
            written = writes_to(op, aliases)
            read = any(v in aliases for v in reads_from(op))
            if not (written or read):
                continue
            if not isinstance(op, ktdf.DataTransferOp) or (side == "dest") != written or (side == "source") != read:
                return False
            slabs.append(iteration_slab(op, side, iv))
    return common_slab_dim(slabs) is not None


def transfers_in(stage: ktdf.StageOp) -> list[ktdf.DataTransferOp]:
    return [op for op in stage.walk() if isinstance(op, ktdf.DataTransferOp)]


def _is_fifo(value: SSAValue) -> bool:
    return isinstance(value.type, ktdf.FifoSlotType)


def dependent_loops(deps: list[ktdf.DataTransferOp], store_transfers: list[ktdf.DataTransferOp],
                    pipeline: ktdf.PipelineOp) -> list[scf.ForOp]:
    """The loops around `pipeline` (more than one iteration) whose induction variables reach the
    scratchpad subscripts of the dependency, or the conditions and bounds around its transfers.

    A LIFO worklist seeded with the load subscripts, the store subscripts, then the operands of
    every op between each transfer and its stage; op results are followed to their operands.
    """
    ancestors = _loops_around(pipeline)
    worklist: list[SSAValue] = []
    for transfer in deps:
        worklist.extend(transfer.source_indices)
    for transfer in store_transfers:
        worklist.extend(transfer.dest_indices)
    for transfer in [*deps, *store_transfers]:
        parent = transfer.parent_op()
        while parent is not None and not isinstance(parent, ktdf.StageOp):
            worklist.extend(parent.operands)
            parent = parent.parent_op()
    found: list[scf.ForOp] = []
    visited: set[SSAValue] = set()
    while worklist:
        value = worklist.pop()
        if value in visited:
            continue
        visited.add(value)
        if isinstance(value, BlockArgument):
            loop = value.block.parent_op()
            if not isinstance(loop, scf.ForOp) or value.index != 0:
                continue
            trips = static_trip_count(loop)
            if (trips is not None and trips <= 1) or loop not in ancestors or loop in found:
                continue
            found.append(loop)
        elif isinstance(value, OpResult):
            worklist.extend(value.op.operands)
    return found


def _loops_around(op: Operation) -> list[scf.ForOp]:
    return [parent for parent in ancestors(op) if isinstance(parent, scf.ForOp)]


def has_scratchpad_conflict(producer: list[UnitSlot], consumer: list[UnitSlot], model: DeviceModel) -> bool:
    """A producer unit writes a memory kind a consumer unit reads."""
    for u in producer:
        writes = model.write_kinds(u.kind)
        for v in consumer:
            if writes & model.read_kinds(v.kind):
                return True
    return False


# ---------------------------------------------------------------------------
# Steps 5 and 6: units and their queries
# ---------------------------------------------------------------------------


def materialize_units(at: Inserter, components: Components, grid: int) -> dict[UnitSlot, list[SSAValue]]:
    """`dataflow.get_unit`s at the start of the entry block: unit list → one unit per core."""
    units: dict[UnitSlot, list[SSAValue]] = {}
    for kind in components.non_parallel:
        tag = unit_type_tag(kind)
        units[UnitSlot(kind)] = [at.add(make_unit(unit_name(tag, core), tag, core, 0)).results[0]
                                 for core in range(grid)]
    for parallel, kinds in components.parallel.items():
        for kind in kinds:
            tag = unit_type_tag(kind)
            for corelet in range(parallel.num_instances.value.data):
                units[UnitSlot(kind, parallel, corelet)] = [
                    at.add(make_unit(unit_name(tag, core, corelet), tag, core, corelet)).results[0]
                    for core in range(grid)]
    return units


def build_uniform_infrastructure(at: Inserter, units: dict[UnitSlot, list[SSAValue]],
                                 grid: int) -> dict[UnitSlot, SSAValue]:
    """Right after the units: a tile id, then per unit list core keys, a core → unit map and its
    query keyed by the tile id."""
    tile_id = at.add(GetComputeTileIdOp(1)).results[0]
    queries: dict[UnitSlot, SSAValue] = {}
    for slot, per_core in units.items():
        keys = [at.add(index_constant(core)).result for core in range(grid)]
        table = at.add(DefImmutableMappingOp(keys, per_core))
        queries[slot] = at.add(QueryMapOp(table.result, tile_id, IndexType())).result
    return queries


# ---------------------------------------------------------------------------
# Step 7: signals
# ---------------------------------------------------------------------------


def stage_units(schedule: Schedule, queries: dict[UnitSlot, SSAValue], stage: ktdf.StageOp) -> list[SSAValue]:
    return [queries[slot] for slot in schedule.stage_slots[stage]]


def insert_signals(schedule: Schedule, queries: dict[UnitSlot, SSAValue]) -> None:
    back = {(e.store, e.load) for e in schedule.back_edges}
    conflicting = set(schedule.conflicting_edges)
    for producer, consumer in schedule.conflicting_edges:
        if (producer, consumer) in back:
            continue
        units = stage_units(schedule, queries, producer) + stage_units(schedule, queries, consumer)
        if (producer, consumer) in schedule.address_list_edges:
            anchor = common_block_anchor(producer, consumer)
        else:
            anchor = signal_anchor(producer, consumer)
        Inserter.after(anchor, producer).add(SignalOp(units))
    for edge in schedule.back_edges:
        if (edge.store, edge.load) not in conflicting:
            continue
        units = stage_units(schedule, queries, edge.store) + stage_units(schedule, queries, edge.load)
        insert_back_edge_signals(edge, units)
    for reuse in schedule.reuse_edges:
        insert_reuse_signals(reuse, [queries[slot] for slot in reuse.units])
    for reuse in schedule.cross_reuse_edges:
        insert_cross_reuse_signal(reuse, [queries[slot] for slot in reuse.units])


def signal_anchor(producer: ktdf.StageOp, consumer: ktdf.StageOp) -> Operation:
    """The stage around `producer` that is a direct child of the innermost pipeline enclosing both;
    for pipelines that follow each other (none encloses both, Decision 47), the op around the
    producer in the innermost block holding the consumer (`common_block_anchor`)."""
    consumer_pipelines = {parent for parent in ancestors(consumer) if isinstance(parent, ktdf.PipelineOp)}
    anchor: Operation = producer
    for parent in ancestors(producer):
        if isinstance(parent, ktdf.StageOp):
            anchor = parent
        if isinstance(parent, ktdf.PipelineOp) and parent in consumer_pipelines:
            return anchor
    return common_block_anchor(producer, consumer)


def common_block_anchor(producer: ktdf.StageOp, consumer: ktdf.StageOp) -> Operation:
    """The op around `producer` in the innermost block that also holds `consumer`: an
    address-list edge joins two pipelines, and a signal there is in both units' programs."""
    consumer_blocks = set()
    op: Operation | None = consumer
    while op is not None:
        consumer_blocks.add(op.parent_block())
        op = op.parent_op()
    anchor: Operation = producer
    while anchor.parent_block() not in consumer_blocks:
        parent = anchor.parent_op()
        assert parent is not None
        anchor = parent
    return anchor


def insert_back_edge_signals(edge: BackEdge, units: list[SSAValue]) -> None:
    """`if (iv != lb && ...) signal` at the load stage's start, `if (iv != ub - step && ...) signal`
    at the store stage's end."""
    at = Inserter.at_start(edge.load.body.block, edge.load)
    conditions = [at.add(arith.CmpiOp(loop.body.block.args[0], loop.lb, "ne")).result for loop in edge.loops]
    _guarded_signal(at, conditions, units)
    at = Inserter.at_end(edge.store.body.block, edge.store)
    conditions = []
    for loop in edge.loops:
        last = at.add(arith.SubiOp(loop.ub, loop.step)).result
        conditions.append(at.add(arith.CmpiOp(loop.body.block.args[0], last, "ne")).result)
    _guarded_signal(at, conditions, units)


def insert_reuse_signals(edge: ReuseEdge, units: list[SSAValue]) -> None:
    """`if (iv != lb || ...) signal` at the writer stage's start (not before the first write of
    the loop nest), `if (iv != ub - step || ...) signal` at the reader stage's end (not after its
    last read): one signal per pair of consecutive iterations on both sides, so the writer of
    iteration i+1 waits for the reader of iteration i. (`||`: "not the first / last iteration"
    of the whole nest, so both sides signal equally often however many loops there are.)"""
    at = Inserter.at_start(edge.writer.body.block, edge.writer)
    conditions = [at.add(arith.CmpiOp(loop.body.block.args[0], loop.lb, "ne")).result for loop in edge.loops]
    _guarded_signal(at, conditions, units, arith.OrIOp)
    at = Inserter.at_end(edge.reader.body.block, edge.reader)
    conditions = []
    for loop in edge.loops:
        last = at.add(arith.SubiOp(loop.ub, loop.step)).result
        conditions.append(at.add(arith.CmpiOp(loop.body.block.args[0], last, "ne")).result)
    _guarded_signal(at, conditions, units, arith.OrIOp)


def insert_cross_reuse_signal(edge: ReuseEdge, units: list[SSAValue]) -> None:
    """A signal at the end of the reader's outermost pipeline, on the last iteration of the
    loops between the shared loops and that pipeline and on every iteration of the shared
    loops but their last: `if ((iv_shared != last || ...) && iv_inner == last && ...) signal`.
    A signal runs on the units of the `execute_on` holding it, and the reader's pipeline runs
    on the writer's units too (its own loads), so the readers pass it after their last read of
    an iteration and the writer before it fills the buffer again."""
    pipeline = outermost_pipeline(edge.reader)
    at = Inserter.at_end(pipeline.body.block, pipeline)
    shared = set(edge.loops)

    def is_last(loop: scf.ForOp) -> SSAValue:
        last = at.add(arith.SubiOp(loop.ub, loop.step)).result
        return at.add(arith.CmpiOp(loop.body.block.args[0], last, "eq")).result

    not_last = None
    for loop in edge.loops:
        last = at.add(arith.SubiOp(loop.ub, loop.step)).result
        ne = at.add(arith.CmpiOp(loop.body.block.args[0], last, "ne")).result
        not_last = ne if not_last is None else at.add(arith.OrIOp(not_last, ne)).result
    condition = not_last
    for loop in reversed(_loops_around(pipeline)):
        if loop not in shared:
            condition = at.add(arith.AndIOp(condition, is_last(loop))).result
    _guarded_signal(at, [condition], units)


def outermost_pipeline(stage: ktdf.StageOp) -> ktdf.PipelineOp:
    return [parent for parent in ancestors(stage) if isinstance(parent, ktdf.PipelineOp)][-1]


def _guarded_signal(at: Inserter, conditions: list[SSAValue], units: list[SSAValue],
                    combine: type[arith.AndIOp] | type[arith.OrIOp] = arith.AndIOp) -> None:
    condition = conditions[0]
    for other in conditions[1:]:
        condition = at.add(combine(condition, other)).result
    signal = SignalOp(units)
    if at.location is not None:
        signal.location = at.location.location
    at.add(scf.IfOp(condition, [], Region(Block([signal, scf.YieldOp()]))))


# ---------------------------------------------------------------------------
# Step 8: pipeline execution transform
# ---------------------------------------------------------------------------


def transform_pipelines(function: func.FuncOp, schedule: Schedule, queries: dict[UnitSlot, SSAValue]) -> None:
    for pipeline in reversed(pipelines_post_order(function)):
        stages = direct_stages(pipeline)
        if not stages:
            continue
        order = topological_sort(stages, analyze_stage_dependencies(stages))
        if order is None:
            raise error(pipeline, "topological sort of stages failed")
        for stage in order:
            stage_to_execute_on(stage, stage_units(schedule, queries, stage))
        pipeline_units: list[SSAValue] = []
        for stage in order:
            for unit in stage_units(schedule, queries, stage):
                if unit not in pipeline_units:
                    pipeline_units.append(unit)
        pipeline_to_execute_on(pipeline, pipeline_units)
        for stage in order:
            Rewriter.erase_op(stage)


def stage_to_execute_on(stage: ktdf.StageOp, units: list[SSAValue]) -> None:
    """A `ktdf_lowering.execute_on` of the stage's units, just before it, takes the stage's body."""
    execute_on = Inserter.before(stage).add(ExecuteOnOp(units))
    _move_ops(stage.body.block, execute_on.body.block)


def pipeline_to_execute_on(pipeline: ktdf.PipelineOp, units: list[SSAValue]) -> None:
    """An `execute_on` of all units replaces the pipeline: inlined privates, then everything else."""
    execute_on = Inserter.before(pipeline).add(ExecuteOnOp(units))
    body = execute_on.body.block
    for private in [op for op in pipeline.body.block.ops if isinstance(op, ktdf.PrivateOp)]:
        terminator = private.yield_op
        _move_ops(private.body.block, body, keep=terminator)
        if terminator is not None:
            for result, value in zip(private.res, terminator.values):
                result.replace_all_uses_with(value)
        Rewriter.erase_op(private)
    _move_ops(pipeline.body.block, body)
    Rewriter.erase_op(pipeline)


def _move_ops(source: Block, destination: Block, keep: Operation | None = None) -> None:
    for op in list(source.ops):
        if op is keep:
            continue
        op.detach()
        destination.add_op(op)


def drop_loop_types(function: func.FuncOp) -> None:
    for op in function.walk():
        if isinstance(op, scf.ForOp):
            op.attributes.pop("loop_type", None)
