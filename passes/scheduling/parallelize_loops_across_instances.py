"""`parallelize-loops-across-instances`: spread a corelet-local pipeline's loop over the
device's identical corelets (`docs/passes.md#parallelize-loops-across-instances`).

A pipeline whose stages all run on units of one sub-core ("corelet") group can run on every
copy of that group at once. The pass picks one `parallel_loop` around such a pipeline and
turns it into

    ktdf.parallel (%iv, %inst) = (%lb) to (%ub) step (%st) distribute(num_instances = N) {
      <the loop body, the IV replaced by %iv>
      ktdf.parallel_yield
    }

where N is the number of those groups the device declares: 2 on the sample device, 4 on
`quad_corelet` (Decision 3: any number). Instance i runs the i-th contiguous chunk of
`ceil(T/N)` iterations; the last chunk is shorter when N does not divide T.

Steps, for every pipeline in pre-order (all candidates are found before any loop changes):

1. **Units**: the ordered union of the immediate stages' `applicable_units` (a stage
   without them is an error: upstream aborts there). None at all rejects the pipeline.
2. **Enclosing group**: the innermost device group holding every unit, stepping over a
   group that only re-exports its unit (the sample's `SFU_Block`).
3. **Instances**: that group and its sibling groups of the same `kind`. Fewer than 2
   rejects the pipeline. So does an enclosing group at the top of the device: that is a
   whole core (a pipeline with a unit the core's corelets share, such as a DMA engine), and
   cores are spread by the grid, not by this pass. (Upstream counts the siblings of any
   group; on a device with several cores, such as `quad_corelet`, it would spread a DMA
   pipeline's loop over the cores.)
4. **Scope**: the `scf.for` loops around the pipeline; none rejects it.
5. **Loop selection** among the scope's `parallel_loop`s, outermost first: a static trip
   count T >= N that N divides (balanced); else a static T >= N (imbalanced: chunks of
   `ceil(T/N)`, the last `T - (N-1)*ceil(T/N)`); else a dynamic trip count.
6. **Rewrite**: `ktdf.parallel` with the loop's bounds and step, the body moved in, the IV
   replaced, `ktdf.parallel_yield` appended, the loop erased. Other loops stay `scf.for`.

Two loops are never selected, on top of upstream's rules, because the result could not be
right: a loop carrying values (`iter_args`; `ktdf.parallel` has no results) and a loop whose
IV feeds a `ktdf.buffer_phase` (its iterations alternate two double-buffer copies, which N
instances running at once would share; the buffer-phase lowering also needs that loop to
stay an `scf.for`). The pass then looks at the next loop in the order above.

Nor is a pipeline spread twice: one inside a `ktdf.parallel`, or inside the loop chosen for
an enclosing pipeline, already runs on every instance (spreading one of its loops too would
ask for N x N instances). This also makes the pass idempotent when a pipeline has several
parallel loops: after the outer one became a `ktdf.parallel`, the inner one would otherwise
qualify on a second run.

**Debug output.** When `--debug-only` names this pass, upstream's debug lines go to stderr,
among them `balanced candidate at loc(...): trip=T, num_instances=N` and
`imbalanced (fallback) at loc(...): trip=T, num_instances=N, chunks=c,l`. The driver is
expected to put the names given to `--debug-only` in `dfsched.diagnostics.DEBUG_ONLY`; the
environment variable `DFSCHED_DEBUG_ONLY` (comma separated names) does the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ArrayAttr, ModuleOp

from dfsched import diagnostics
from dfsched.arch.model import DeviceModel
from dfsched.arch.views import enclosing_group, kind_name
from dfsched.diagnostics import error, loc_text
from dfsched.dialects import ktdf
from dfsched.dialects.ktdf_arch import GroupOp
from dfsched.dialects.constants import static_trip_count
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.scheduling.pipeline_tree import is_parallel_loop, pipeline_enclosing_scope
from dfsched.passes.scheduling.privates import move_ops
from dfsched.passes.walk import ancestors, nearest_ancestor, runs_compute_ops_in_sequence

PASS = "parallelize-loops-across-instances"


@dataclass(frozen=True)
class ParallelizeLoopsAcrossInstances(DevicePass):
    """Distribute a loop around each corelet-local pipeline over the corelets."""

    name = "parallelize-loops-across-instances"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import device_model_for, required_device_model

        debug(f"========= {PASS} =========")
        required_device_model(op, self.device)
        candidates: list[Candidate] = []
        for pipeline in [p for p in op.walk() if isinstance(p, ktdf.PipelineOp)]:
            if runs_compute_ops_in_sequence(pipeline):
                continue  # Decision 47: signals between its pipelines pair units core by core
            if _has_address_program(pipeline):
                continue
            model = device_model_for(pipeline, device=self.device)
            assert model is not None
            candidate = find_candidate(pipeline, model, [c.loop for c in candidates])
            if candidate is not None:
                candidates.append(candidate)
        for candidate in candidates:
            rewrite(candidate)


def _has_address_program(pipeline: ktdf.PipelineOp) -> bool:
    """A program with an indirect access stays on one corelet: its address program has no loop
    to spread, and run on every corelet it would write the one address list N times."""
    function = nearest_ancestor(pipeline, func.FuncOp)
    return function is not None and any(isinstance(op, ktdf.IndirectViewOp) for op in function.walk())


@dataclass
class Candidate:
    pipeline: ktdf.PipelineOp
    loop: scf.ForOp
    trip_count: int | None
    num_instances: int


# ===========================================================================
# Steps 1-5: finding the loop
# ===========================================================================


def find_candidate(pipeline: ktdf.PipelineOp, model: DeviceModel, chosen: list[scf.ForOp]) -> Candidate | None:
    """The loop to spread for `pipeline`, if any (`chosen`: loops taken for outer pipelines)."""
    units = pipeline_units(pipeline)
    if already_spread(pipeline, chosen):
        debug(f" skip pipeline at {loc_text(pipeline)}: it already runs on every instance")
        return None
    groups = instance_groups(units, model)
    if not groups:
        return None
    debug(f" pipeline at {loc_text(pipeline)} is enclosed by {loc_text(groups[0])}")
    num_instances = len(groups)
    if num_instances < 2:
        return None
    debug(f" pipeline at {loc_text(pipeline)} has {num_instances} applicable groups ")

    scope = pipeline_enclosing_scope(pipeline)
    if not scope:
        debug(f" skip pipeline at {loc_text(pipeline)}: no enclosing scf.for scope")
        return None

    loop = select_loop(scope, num_instances)
    if loop is None:
        debug(f"skip pipeline at {loc_text(pipeline)}: no parallel loop in scope satisfies requirements")
        return None
    trip = static_trip_count(loop)
    if trip is None:
        debug(f" dynamic candidate at {loc_text(loop)}: trip count is dynamic, num_instances={num_instances}")
    elif trip % num_instances == 0:
        debug(f" balanced candidate at {loc_text(loop)}: trip={trip}, num_instances={num_instances}")
    else:
        chunk = -(-trip // num_instances)
        last = trip - (num_instances - 1) * chunk
        debug(f" imbalanced (fallback) at {loc_text(loop)}: trip={trip}, num_instances={num_instances}, "
              f"chunks={chunk},{last}")
    return Candidate(pipeline, loop, trip, num_instances)


def already_spread(pipeline: ktdf.PipelineOp, chosen: list[scf.ForOp]) -> bool:
    """True inside a `ktdf.parallel`, or inside a loop already chosen for an outer pipeline.

    Such a pipeline runs on every instance already; spreading one of its loops as well
    would ask for N x N instances.
    """
    return any(isinstance(parent, ktdf.ParallelOp) or any(parent is loop for loop in chosen)
               for parent in ancestors(pipeline))


def pipeline_units(pipeline: ktdf.PipelineOp) -> list[str]:
    """Step 1: the ordered union of the immediate stages' `applicable_units`."""
    units: list[str] = []
    for stage in pipeline.stages:
        attr = stage.applicable_units
        if attr is None:
            attr = stage.attributes.get("applicable_units")
        if not isinstance(attr, ArrayAttr):
            raise error(stage, "ktdf.stage is missing required `applicable_units` attribute "
                               f"(needed by {PASS} to find the units the pipeline runs on)")
        for unit in attr.data:
            name = kind_name(unit)
            if name is not None and name not in units:
                units.append(name)
    return units


def instance_groups(units: list[str], model: DeviceModel) -> list[GroupOp]:
    """Steps 2-3: the enclosing group of `units` and its same-kind siblings ([] if none).

    The instances are corelets: groups inside a core. A group at the top of the device is a
    whole core (its units are shared by the core's corelets), and the cores are the grid's
    business, so its copies are not instances here.
    """
    if not units:
        return []
    groups = model.instance_groups(units)
    if groups and enclosing_group(groups[0]) is None:
        debug(f" units {units} are shared by a whole core ({loc_text(groups[0])}), not replicated within it")
        return []
    return groups


def select_loop(scope: list[scf.ForOp], num_instances: int) -> scf.ForOp | None:
    """Step 5: balanced, then imbalanced, then dynamic; outermost first within each pass."""
    loops = [loop for loop in reversed(scope) if is_parallel_loop(loop) and can_distribute(loop)]
    trips = [(loop, static_trip_count(loop)) for loop in loops]
    for loop, trip in trips:
        if trip is not None and trip >= num_instances and trip % num_instances == 0:
            return loop
    for loop, trip in trips:
        if trip is not None and trip >= num_instances:
            return loop
    for loop, trip in trips:
        if trip is None:
            return loop
    return None


def can_distribute(loop: scf.ForOp) -> bool:
    """False for the loops this pass never turns into a `ktdf.parallel` (module docstring)."""
    if loop.iter_args or loop.results:
        debug(f" skip loop at {loc_text(loop)}: it carries values across iterations")
        return False
    iv = loop.body.block.args[0]
    if any(isinstance(use.operation, ktdf.BufferPhaseOp) for use in iv.uses):
        debug(f" skip loop at {loc_text(loop)}: its iterations alternate double-buffer copies")
        return False
    return True


# ===========================================================================
# Step 6: the rewrite
# ===========================================================================


def rewrite(candidate: Candidate) -> ktdf.ParallelOp:
    loop = candidate.loop
    parallel = ktdf.ParallelOp([loop.lb], [loop.ub], [loop.step], candidate.num_instances)
    parallel.location = loop.location
    body = parallel.body.block
    old_body = loop.body.block
    terminator = old_body.last_op
    move_ops(old_body, body, keep=terminator)
    old_body.args[0].replace_all_uses_with(body.args[0])
    parallel_yield = ktdf.ParallelYieldOp()
    parallel_yield.location = loop.location
    body.add_op(parallel_yield)
    block = loop.parent_block()
    assert block is not None
    block.insert_op_before(parallel, loop)
    block.erase_op(loop)
    return parallel


# ===========================================================================
# Debug output (`--debug-only=parallelize-loops-across-instances`)
# ===========================================================================


def debug(message: str) -> None:
    """One of upstream's `LDBG` lines on stderr: `[parallelize-loops-across-instances file:line 1] message`."""
    diagnostics.debug_line(PASS, message, depth=2)

