"""`double-buffering`: ping-pong scratchpad buffers handed from one stage to the next
(`docs/passes.md#double-buffering`).

A pipeline inside a loop runs its stages on successive iterations at once: while the
consumer of a scratchpad buffer drains tile N, its producer could already fill tile N+1,
if only it had somewhere else to put it. This pass gives it that place. A buffer that
qualifies is allocated twice before the outermost loop around the pipeline, the iterations
alternate between the two copies (`ktdf.buffer_phase` of the loop IVs, one
`ktdf.select_memref` per buffer) and the pipeline is marked `modulo(size : 2)`:

    %x0 = memref.alloc() ; %x1 = memref.alloc()             // before the outermost scope loop
    scf.for %i ... {
      %ph = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
      %x  = ktdf.select_memref %ph[%x0, %x1] : memref<...>
      ktdf.pipeline modulo(size : 2) { <the private without the buffer> ; stages use %x }
    }
    memref.dealloc %x0 ; memref.dealloc %x1                  // after that loop

Steps, as the spec numbers them (every pipeline is analysed before any is rewritten):

1. **Pipeline guards**: no `modulo` yet (so the pass is idempotent), a non-empty enclosing
   scope of `scf.for` loops, a `ktdf.private`.
2. **Shape rules** per private slot: (a) a ranked memref, (b) in a memory the device calls a
   per-core scratchpad, (c) yielded straight from a `memref.alloc`, (d) that alloc's only
   use is the yield, (e) in the yield's block, (f) its dynamic sizes are defined before the
   outermost scope loop.
3. **Producer and consumer rules**, from the `ktdf.data_transfer`s anywhere inside the
   sibling stages (nested pipelines included): (g) no stage both writes and reads the
   buffer, (h) exactly one stage writes it, (i) at least one reads it, (k) the writer
   precedes every reader through the stages' tokens.
4. **Rewrite** (in the order above).

**Rule (b) and Decision 1.** Upstream accepts only `#ktdp.memory_space<...>` spaces, while
path expansion (and stage coarsening after it) allocate scratchpad buffers in plain string
spaces such as `"L1"`, so upstream's pass never fires in its own pipeline. Here any memory
space the device model resolves (`DeviceModel.memory_for_space`: the device's
`mem_space_mapping`, a memory kind by name, or Decision 6's `ct_local` default) to a memory
at depth 1 of the memory tree, the per-core scratchpad, qualifies: `"L1"` on the sample
device, `"SPAD"` on `quad_corelet`, `#ktdp.memory_space<ct_local>` through the mapping.
Device memory (`"DDR"`) and memory below the scratchpad (`"SFU_REG"`) do not.
(`dataflow_scheduler.double_buffer_last` is not read here: it only chooses where the
backend's buffer-phase lowering toggles the copies.)

**Diagnostics.** Only a missing device is an error; every rejection is a debug line.

**Debug output.** When `--debug-only` names this pass, the pass prints upstream's debug lines
to stderr (`[double-buffering ...] starting`, the reason each slot or pipeline is skipped).
The driver is expected to put the names given to `--debug-only` in
`dfsched.diagnostics.DEBUG_ONLY`; the environment variable `DFSCHED_DEBUG_ONLY` (comma
separated names) does the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from dfsched import diagnostics
from dfsched.arch.model import SCRATCHPAD, DeviceModel
from dfsched.compat import DominanceInfo
from dfsched.diagnostics import DiagnosticError, loc_text
from dfsched.dialects import ktdf
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.scheduling.pipeline_tree import pipeline_enclosing_scope
from dfsched.passes.scheduling.privates import replace_private

PASS = "double-buffering"
NUM_PHASES = 2


@dataclass(frozen=True)
class DoubleBuffering(DevicePass):
    """Alternate scratchpad buffers handed between sibling stages between two copies."""

    name = "double-buffering"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import device_model_for, required_device_model

        debug(f"========= {PASS} =========")
        debug("starting")
        required_device_model(op, self.device)

        # Steps 1-2, every pipeline in pre-order.
        shaped: list[tuple[ktdf.PipelineOp, list[scf.ForOp], list[Shape]]] = []
        for pipeline in [p for p in op.walk() if isinstance(p, ktdf.PipelineOp)]:
            scope = pipeline_enclosing_scope(pipeline)
            if not pipeline_is_eligible(pipeline, scope):
                continue
            model = device_model_for(pipeline, device=self.device)
            assert model is not None
            shapes = eligible_shapes(pipeline, scope, model)
            if shapes:
                shaped.append((pipeline, scope, shapes))

        # Step 3: producers and consumers.
        plans: list[tuple[ktdf.PipelineOp, list[scf.ForOp], list[Candidate]]] = []
        for pipeline, scope, shapes in shaped:
            candidates = [c for shape in shapes if (c := check_producer_consumer(pipeline, shape)) is not None]
            if not candidates:
                debug(f"skip pipeline at {loc_text(pipeline)}: no candidates passed producer/consumer scan")
                continue
            debug(f" pipeline at {loc_text(pipeline)} has {len(candidates)} candidate(s) ")
            plans.append((pipeline, scope, candidates))

        # Step 4: nothing below can fail.
        for pipeline, scope, candidates in plans:
            rewrite_pipeline(pipeline, scope, candidates)


# ===========================================================================
# 1. Pipeline guards
# ===========================================================================


def pipeline_is_eligible(pipeline: ktdf.PipelineOp, scope: list[scf.ForOp]) -> bool:
    if pipeline.modulo is not None:
        debug(f"skip pipeline at {loc_text(pipeline)}: modulo already set")
        return False
    if not scope:
        debug(f"skip pipeline at {loc_text(pipeline)}: no enclosing scf.for scope")
        return False
    if pipeline.private is None:
        debug(f"skip pipeline at {loc_text(pipeline)}: no ktdf.private region")
        return False
    return True


# ===========================================================================
# 2. Shape rules
# ===========================================================================


@dataclass
class Shape:
    """A private slot that passed the shape rules."""

    slot: int
    buffer: SSAValue  # the private's result
    alloc: memref.AllocOp  # the alloc yielded in that slot
    type: MemRefType


def eligible_shapes(pipeline: ktdf.PipelineOp, scope: list[scf.ForOp], model: DeviceModel) -> list[Shape]:
    private = pipeline.private
    assert private is not None
    hoist_target = scope[-1]
    shapes = [s for slot in range(len(private.res)) if (s := check_shape(private, slot, hoist_target, model))]
    if not shapes:
        debug(f"skip pipeline at {loc_text(pipeline)}: no shape-eligible buffers")
    else:
        debug(f" pipeline at {loc_text(pipeline)} has {len(shapes)} shape-eligible buffer(s)")
    return shapes


def check_shape(private: ktdf.PrivateOp, slot: int, hoist_target: Operation, model: DeviceModel) -> Shape | None:
    buffer = private.res[slot]
    # (a) a ranked memref.
    if not isinstance(buffer.type, MemRefType):
        debug(f" slot {slot} skipped : not a memref ")
        return None
    # (b) in the per-core scratchpad (Decision 1: any space the device resolves to it).
    if not is_scratchpad(buffer.type, model):
        debug(f" slot {slot} skipped : memory space ineligible ")
        return None
    # (c) yielded straight from a memref.alloc.
    terminator = private.yield_op
    assert terminator is not None
    yielded = terminator.values[slot]
    alloc = yielded.owner
    if not isinstance(alloc, memref.AllocOp):
        debug(f" slot {slot} skipped : defining op is not memref.alloc ")
        return None
    # (d) whose only use is the yield.
    uses = list(alloc.memref.uses)
    if len(uses) != 1:
        debug(f" slot {slot} skipped : alloc has multiple uses ")
        return None
    if uses[0].operation is not terminator:
        debug(f" slot {slot} skipped : alloc's sole use is not private_yield")
        return None
    # (e) in the yield's block.
    if alloc.parent_block() is not terminator.parent_block():
        debug(f" slot {slot} skipped : alloc and yield are in different blocks ")
        return None
    # (f) its dynamic sizes (and symbol operands) exist before the outermost scope loop.
    if not all(properly_dominates(v, hoist_target) for v in (*alloc.dynamic_sizes, *alloc.symbol_operands)):
        debug(f" slot {slot} skipped : dynamic size operand does not dominate hoist target ")
        return None
    return Shape(slot, buffer, alloc, buffer.type)


def is_scratchpad(type_: MemRefType, model: DeviceModel) -> bool:
    """True when the buffer's memory space is the device's per-core scratchpad memory."""
    space = type_.memory_space
    if isinstance(space, NoneAttr):
        return False
    try:
        memory = model.memory_for_space(space)
    except DiagnosticError:
        return False  # a space the device does not know is not a scratchpad
    return memory.level == SCRATCHPAD


def properly_dominates(value: SSAValue, op: Operation) -> bool:
    """MLIR's `DominanceInfo::properlyDominates(value, op)`.

    A block argument dominates everything in its block (and nested in it); a result of op D
    dominates the ops after D in D's block (and what is nested in them), not D's own
    regions. Across blocks of one region, block dominance decides.
    """
    if isinstance(value, BlockArgument):
        block = value.block
        if block.find_ancestor_op_in_block(op) is not None:
            return True
        return _block_dominates(block, op, strictly=False)
    defining = value.owner
    assert isinstance(defining, Operation)
    block = defining.parent_block()
    if block is None:
        return False
    anchor = block.find_ancestor_op_in_block(op)
    if anchor is not None:
        return anchor is not defining and defining.is_before_in_block(anchor)
    return _block_dominates(block, op, strictly=True)


def _block_dominates(block: Block, op: Operation, strictly: bool) -> bool:
    """Does `block` dominate the block of its region that holds `op`?"""
    region = block.parent
    if region is None:
        return False
    node: Operation | None = op
    while node is not None:
        holder = node.parent_block()
        if holder is not None and holder.parent is region:
            info = DominanceInfo(region)
            return info.strictly_dominates(block, holder) if strictly else info.dominates(block, holder)
        node = node.parent_op()
    return False


# ===========================================================================
# 3. Producers and consumers
# ===========================================================================


@dataclass
class Candidate:
    shape: Shape
    producer: ktdf.StageOp
    consumers: list[ktdf.StageOp] = field(default_factory=list)


def check_producer_consumer(pipeline: ktdf.PipelineOp, shape: Shape) -> Candidate | None:
    producers, consumers = scan_transfers(pipeline, shape.buffer)
    # (g) no stage both writes and reads the buffer.
    if any(p in consumers for p in producers):
        debug(f" slot {shape.slot} skipped: a sibling stage both writes and reads the buffer")
        return None
    # (h) exactly one producer.
    if len(producers) != 1:
        debug(f" slot {shape.slot} skipped: {len(producers)} producer stages (need exactly 1)")
        return None
    # (i) at least one consumer.
    if not consumers:
        debug(f" slot {shape.slot} skipped : no consumer stages ")
        return None
    # (k) the producer comes before every consumer.
    producer = producers[0]
    for consumer in consumers:
        if not precedes(pipeline, producer, consumer):
            debug(f" slot {shape.slot} skipped : producer does not transitively precede consumer ")
            return None
    return Candidate(shape, producer, consumers)


def scan_transfers(pipeline: ktdf.PipelineOp, buffer: SSAValue) -> tuple[list[ktdf.StageOp], list[ktdf.StageOp]]:
    """Sibling stages with a transfer into `buffer` (producers) and out of it (consumers)."""
    producers: list[ktdf.StageOp] = []
    consumers: list[ktdf.StageOp] = []
    for stage in pipeline.stages:
        for op in stage.walk():
            if not isinstance(op, ktdf.DataTransferOp):
                continue
            if op.destination is buffer and stage not in producers:
                producers.append(stage)
            if op.source is buffer and stage not in consumers:
                consumers.append(stage)
    return producers, consumers


def precedes(pipeline: ktdf.PipelineOp, first: ktdf.StageOp, target: ktdf.StageOp) -> bool:
    """True when `target` waits, through a chain of tokens, for `first` (never for itself)."""
    if first is target:
        return False
    stages = pipeline.stages
    token_producer: dict[SSAValue, ktdf.StageOp] = {}
    for stage in stages:
        for token in stage.depends_out:
            token_producer.setdefault(token, stage)
    visited = [first]
    worklist = [first]
    while worklist:
        current = worklist.pop()
        for succ in stages:
            if succ is current or not any(token_producer.get(t) is current for t in succ.depends_in):
                continue
            if succ is target:
                return True
            if succ not in visited:
                visited.append(succ)
                worklist.append(succ)
    return False


# ===========================================================================
# 4. Rewrite
# ===========================================================================


def rewrite_pipeline(pipeline: ktdf.PipelineOp, scope: list[scf.ForOp], candidates: list[Candidate]) -> None:
    outermost = scope[-1]
    block = outermost.parent_block()
    assert block is not None

    # Two copies of each buffer before the outermost loop, freed right after it (each
    # candidate's deallocs go straight after the loop, ahead of the earlier ones).
    copies: list[list[SSAValue]] = []
    for candidate in candidates:
        alloc = candidate.shape.alloc
        clones = [alloc.clone() for _ in range(NUM_PHASES)]
        block.insert_ops_before(clones, outermost)
        deallocs = [memref.DeallocOp.get(c.memref) for c in clones]
        for dealloc in deallocs:
            dealloc.location = alloc.location
        block.insert_ops_after(deallocs, outermost)
        copies.append([c.memref for c in clones])

    # One phase for the pipeline, one selection per buffer, just before it.
    phase = ktdf.BufferPhaseOp([loop.body.block.args[0] for loop in reversed(scope)], NUM_PHASES)
    selects = [ktdf.SelectMemrefOp(phase.result, pair, c.shape.type) for c, pair in zip(candidates, copies)]
    holder = pipeline.parent_block()
    assert holder is not None
    for new_op in [phase, *selects]:
        new_op.location = pipeline.location
    holder.insert_ops_before([phase, *selects], pipeline)

    for candidate, select in zip(candidates, selects):
        candidate.shape.buffer.replace_all_uses_with(select.result)
    pipeline.properties["modulo"] = IntegerAttr(NUM_PHASES, i64)

    private = pipeline.private
    assert private is not None
    prune_private_slots(private, sorted(c.shape.slot for c in candidates))


def prune_private_slots(private: ktdf.PrivateOp, slots: list[int]) -> ktdf.PrivateOp:
    """Drop `slots` (now unused) from `private` and erase the allocs they yielded."""
    terminator = private.yield_op
    assert terminator is not None
    values = list(terminator.values)
    keep = [i for i in range(len(values)) if i not in slots]
    orphaned = [values[i].owner for i in reversed(slots)]
    body = terminator.parent_block()
    assert body is not None
    new_yield = ktdf.PrivateYieldOp([values[i] for i in keep], terminator.attributes)
    new_yield.location = terminator.location
    body.insert_op_before(new_yield, terminator)
    body.erase_op(terminator)

    region = private.detach_region(private.body)
    new_private = replace_private(private, [private.res[i].type for i in keep], region,
                                  [(old, new) for new, old in enumerate(keep)])
    for alloc in orphaned:
        assert isinstance(alloc, Operation)
        body.erase_op(alloc)
    return new_private


# ===========================================================================
# Debug output (`--debug-only=double-buffering`)
# ===========================================================================


def debug(message: str) -> None:
    """One of upstream's `LDBG` lines on stderr: `[double-buffering file:line 1] message`."""
    diagnostics.debug_line(PASS, message, depth=2)
