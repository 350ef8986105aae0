"""`broadcast-promotion`: load loop-invariant data once, before the loop (`docs/passes.md#broadcast-promotion`).

A pipeline inside a loop refetches every operand on every iteration. When a transfer reads
the same data each time (an operand broadcast along that loop, a constant buffer), it moves
into a **sibling pipeline** that runs once, right before the outermost loop it does not
change across, and writes a fresh buffer allocated there; every later reader uses it:

    scf.for %m {                                scf.for %m {
      scf.for %n {                                %b = memref.alloc()
        ktdf.pipeline {                           ktdf.pipeline { ktdf.stage depends_in(none)
          S0: X[%m] -> %p#0       (no %n)    =>       depends_out(none) { X[%m] -> %b } }
          S1: reads %p#0                          scf.for %n { ktdf.pipeline { S0: (empty)
                                                                              S1: reads %b } }

Algorithm (a fixed point, one hoist per round, as upstream):

1. Pipelines are visited innermost first (post-order); the first one that has a candidate
   hoists its best one and the round ends.
2. **Candidates** of a pipeline: every memref-destination `ktdf.data_transfer` at any depth
   of its stages, in order (FIFO destinations are skipped: upstream's condition (b)). The
   pipeline's enclosing scope is walked innermost to outermost and the walk stops at
   the first loop where one of these fails; the last loop that passed is the target:
   (a) no index or dynamic size of either side depends (SSA-transitively) on the loop IV;
   (c) nothing in the loop writes the source (a transfer into it, a `memref.store`, a linalg
       init, a `ktdf.opaque` output, a `memref.copy` target; through any view of the buffer
       the source is, or is a view of);
   (d) nothing in the loop but this transfer writes the destination;
   (e) the source is not defined inside the loop;
   (f) every value the hoisted copy needs from outside the donor stage (index operands, the
       conditions and bounds of the `scf.if`/`scf.for` around the transfer) is defined
       outside the loop, and so are the destination allocation's dynamic sizes. Upstream
       does not check this and would emit a use before its definition (a condition computed
       from the IV, an index computed between the loops); here the hoist stops short.
   The transfer with the outermost target wins; ties go to the first in order.
3. **Hoist**: the destination's `memref.alloc` (through a private's yield) is cloned before
   the target loop, followed by a new pipeline with one `depends_in(none) depends_out(none)`
   stage carrying the donor's `applicable_units`. That stage gets the *slice* of the donor
   stage that the transfer needs: the transfer, the ops computing its operands, and the
   `scf.if`/`scf.for`/nested-pipeline skeleton around it (a surrounding `scf.for` whose
   block arguments nothing kept uses is left out, its body spliced in; a nested stage comes
   without its tokens, its pipeline without its private unless the transfer reads it).
   Readers of the old destination move to the new buffer, and the original transfer is
   erased; the donor keeps its other ops (an emptied `scf.if`, dead index arithmetic) and
   its private keeps the old buffer, as upstream leaves them.
4. **Within a stage** (dfsched, after the fixed point): a transfer still in a loop that a
   stage runs itself moves before that loop, in the same stage (`hoist_within_stages`: after
   stage coarsening a DMA stage walks the rows of A, and a matmul's B tile, the same for every
   row, is then loaded once). A transfer that changes along its own innermost loops (B's
   column blocks) moves with them, when they write nothing else, before the row loop.

Where dfsched differs from upstream (no upstream test output changes):
* condition (f) above; the `ktdf.opaque` / `memref.copy` writers of (c) and (d), and
  writes through the buffer a view is taken of (upstream only sees views of the operand);
* the slice is closed properly: a stage loop is kept when something kept inside it uses its
  IV or iteration arguments (upstream decides before it has seen every user, and looks
  outside the loop too), the values yielded by a kept region's terminator are computed in
  the copy too, and a nested stage's copy has no tokens (upstream's would wait for a stage
  it did not copy);
* readers of the old destination *inside the donor stage* move to the new buffer as well
  (upstream leaves them reading a buffer nothing writes any more); only readers the new
  allocation dominates move (a reader before the target loop keeps the old buffer);
* the diagnostic below is on the transfer, with a note on the loop (upstream: on the loop).

**Diagnostics.** A candidate whose destination does not come from a `memref.alloc` (a
function argument, a view, ...) cannot get a fresh buffer: "broadcast promotion: destination
does not trace back to a memref.alloc", on the transfer, with a note on the target loop.
Everything is checked before the round's rewrite starts.

**Arch facts.** None: the pass needs no device.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from dfsched.compat import op_name
from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.passes.aliasing import memref_aliases, memref_root
from dfsched.passes.walk import defined_inside, depends_on, pipelines_post_order
from dfsched.passes.scheduling.pipeline_tree import pipeline_enclosing_scope

NO_ALLOC = "broadcast promotion: destination does not trace back to a memref.alloc"


@dataclass(frozen=True)
class BroadcastPromotion(ModulePass):
    """Hoist loop-invariant memref transfers into sibling pipelines before the loop."""

    name = "broadcast-promotion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        while (candidate := next_candidate(op)) is not None:
            hoist(candidate)
        hoist_within_stages(op)


# ===========================================================================
# Within a stage (dfsched): a loop the stage itself runs
# ===========================================================================


def hoist_within_stages(module: Operation) -> None:
    """Step 4: a memref transfer in an `scf.for` that a stage runs (after stage coarsening, a
    DMA stage walking the rows of A) moves before the outermost such loop it does not change
    across, in the same stage: a matmul's B tile, the same for every row, is loaded once.
    The conditions are (a), (c), (d) and (e) of step 2 for that loop, and every operand of the
    transfer is defined outside it. A transfer that changes along its own loops (B's column
    blocks) moves with them when they hold nothing else that writes memory (`carried`), and
    the loops then move before the outer loop it does not change across (the rows). The
    stage's readers run after it (its tokens), so they see the same data; readers in the stage
    see it from the first iteration on.
    """
    for transfer in [t for t in module.walk() if isinstance(t, ktdf.DataTransferOp)]:
        if not isinstance(transfer.destination.type, MemRefType):
            continue
        target: scf.ForOp | None = None
        moving: Operation = transfer
        loop = transfer.parent_op()
        while isinstance(loop, scf.ForOp) and isinstance(loop.parent_op(), scf.ForOp | ktdf.StageOp):
            iv = loop.body.block.args[0]
            if target is None and not transfer_is_invariant(transfer, iv) and carried(loop, transfer):
                moving = loop  # the transfer's own loop comes along
            elif (not transfer_is_invariant(transfer, iv)
                    or any(defined_inside(v, loop) for v in external_operands(moving))
                    or region_writes_to(loop.body, transfer.source)
                    or region_writes_to(loop.body, transfer.destination, ignore=transfer)):
                break
            else:
                target = loop
            if isinstance(loop.parent_op(), ktdf.StageOp):
                break
            loop = loop.parent_op()
        if target is not None:
            if moving is not transfer:
                erase_dead_index_ops(moving)
            moving.detach()
            target.parent_block().insert_op_before(moving, target)


def carried(loop: scf.ForOp, transfer: ktdf.DataTransferOp) -> bool:
    """`loop` may move with `transfer`: no results, and nothing else in it writes memory (only
    index arithmetic and loops around the transfer)."""
    if loop.results:
        return False
    return all(op is transfer or isinstance(op, scf.ForOp | scf.YieldOp) or _pure_index_op(op)
               for op in loop.body.walk())


def _pure_index_op(op: Operation) -> bool:
    return op_name(op).startswith("arith.") or isinstance(op, ktdf.TilingLinearizeIndexOp | ktdf.TilingDeriveSizeOp)


def external_operands(op: Operation) -> list[SSAValue]:
    """The values `op` and the ops nested in it use that are defined outside `op` (dead index
    arithmetic left by tiling excepted: `dead_index_ops`, erased before a move)."""
    dead = dead_index_ops(op)
    return [v for inner in op.walk() if inner not in dead
            for v in inner.operands if inner is op or not defined_inside(v, op)]


def dead_index_ops(op: Operation) -> set[Operation]:
    """The index arithmetic nested in `op` whose results only such arithmetic uses."""
    candidates = [inner for inner in op.walk() if inner is not op and _pure_index_op(inner)]
    dead: set[Operation] = set()
    changed = True
    while changed:
        changed = False
        for inner in candidates:
            if inner not in dead and all(use.operation in dead for r in inner.results for use in r.uses):
                dead.add(inner)
                changed = True
    return dead


def erase_dead_index_ops(op: Operation) -> None:
    dead = dead_index_ops(op)
    for inner in reversed([o for o in op.walk() if o in dead]):
        inner.detach()
        inner.erase(safe_erase=False)


# ===========================================================================
# Candidates
# ===========================================================================


@dataclass
class Slice:
    """The ops of a donor stage a transfer needs, and what they read from outside it."""

    kept: set[Operation]
    external: list[SSAValue]


@dataclass
class Candidate:
    transfer: ktdf.DataTransferOp
    donor: ktdf.StageOp
    target: scf.ForOp
    slice: Slice


def next_candidate(module: Operation) -> Candidate | None:
    """Step 1: the first pipeline (innermost first) with a candidate gives its best one."""
    for pipeline in pipelines_post_order(module):
        candidate = best_candidate(pipeline)
        if candidate is not None:
            return candidate
    return None


def best_candidate(pipeline: ktdf.PipelineOp) -> Candidate | None:
    """Step 2: the transfer of `pipeline` with the outermost legal target (first on ties)."""
    scope = pipeline_enclosing_scope(pipeline)
    if not scope:
        return None
    best: Candidate | None = None
    best_depth = -1
    for stage in pipeline.stages:
        for transfer in [t for t in stage.walk() if isinstance(t, ktdf.DataTransferOp)]:
            if not isinstance(transfer.destination.type, MemRefType):
                continue  # (b): FIFO destinations stay
            slice_ = transfer_slice(transfer, stage)
            depth = outermost_legal_depth(transfer, slice_, scope)
            if depth > best_depth:
                best_depth = depth
                best = Candidate(transfer, stage, scope[depth], slice_)
    return best


def outermost_legal_depth(transfer: ktdf.DataTransferOp, slice_: Slice, scope: Sequence[scf.ForOp]) -> int:
    """Index in `scope` (innermost first) of the last loop every condition holds for, or -1."""
    alloc = underlying_alloc(transfer.destination)
    alloc_sizes = list(alloc.operands) if alloc is not None else []
    best = -1
    for depth, loop in enumerate(scope):
        iv = loop.body.block.args[0]
        if not transfer_is_invariant(transfer, iv):  # (a)
            break
        if region_writes_to(loop.body, transfer.source):  # (c)
            break
        if region_writes_to(loop.body, transfer.destination, ignore=transfer):  # (d)
            break
        if defined_inside(transfer.source, loop):  # (e)
            break
        if any(defined_inside(v, loop) for v in [*slice_.external, *alloc_sizes]):  # (f)
            break
        best = depth
    return best


# -- (a) invariance ----------------------------------------------------------


def transfer_is_invariant(transfer: ktdf.DataTransferOp, iv: SSAValue) -> bool:
    """No index or dynamic size of either side depends on `iv` (the memrefs are not checked)."""
    values = [*transfer.source_indices, *transfer.dest_indices, *transfer.source_sizes, *transfer.dest_sizes]
    return not any(depends_on(v, iv) for v in values)


# -- (c), (d) writers ----------------------------------------------------------


def alias_set(memref_value: SSAValue) -> set[SSAValue]:
    """Every value that may alias `memref_value`: the memref it is a view of (through cast,
    view, subview, reinterpret_cast, memory_space_cast), and every view derived from that.

    Upstream only looks at views derived from `memref_value` itself, so a write to the
    whole buffer a transfer reads a view of went unnoticed.
    """
    return set(memref_aliases(memref_root(memref_value)))


def written_memrefs(op: Operation) -> list[SSAValue]:
    """The memrefs `op` writes to (the writers upstream knows, plus ktdf.opaque and memref.copy)."""
    if isinstance(op, ktdf.DataTransferOp):
        return [op.destination] if isinstance(op.destination.type, MemRefType) else []
    if isinstance(op, memref.StoreOp):
        return [op.memref]
    name = op_name(op)
    if name.startswith("linalg."):
        return [v for v in _linalg_inits(op) if isinstance(v.type, MemRefType)]
    if isinstance(op, ktdf.OpaqueOp):
        return [v for v in op.outputs if isinstance(v.type, MemRefType)]
    if name == "memref.copy" and len(op.operands) == 2:
        return [op.operands[1]]
    return []


def _linalg_inits(op: Operation) -> list[SSAValue]:
    inits: list[SSAValue] = []
    for field in ("outputs", "init", "inits"):
        try:
            value = getattr(op, field)
        except Exception:  # not an operand of this op
            continue
        if isinstance(value, SSAValue):
            inits.append(value)
        elif isinstance(value, Iterable):
            inits.extend(v for v in value if isinstance(v, SSAValue))
    return inits


def region_writes_to(region: Region, memref_value: SSAValue, ignore: Operation | None = None) -> bool:
    aliases = alias_set(memref_value)
    for block in region.blocks:
        for top in block.ops:
            for op in top.walk():
                if op is not ignore and any(v in aliases for v in written_memrefs(op)):
                    return True
    return False


# -- (e), (f) definitions --------------------------------------------------------


# ===========================================================================
# The slice of the donor stage a transfer needs
# ===========================================================================


def transfer_slice(anchor: ktdf.DataTransferOp, stage: ktdf.StageOp) -> Slice:
    """The ops of `stage` to copy with `anchor`, and the outside values they read.

    Kept: the anchor; the ops in the stage computing a kept op's operands (the anchor's
    destination excepted: the copy writes the new buffer); the ops yielded by the terminators
    of kept ops' regions; every ancestor of a kept op up to the stage, except an `scf.for`
    none of whose block arguments a kept op uses (its body is spliced in its place).
    """
    kept: set[Operation] = set()
    skipped_loops: list[scf.ForOp] = []

    def close(worklist: list[Operation | None]) -> None:
        while worklist:
            op = worklist.pop()
            if op is None or op is stage or op in kept or not stage.is_ancestor(op):
                continue
            if isinstance(op, scf.ForOp) and not _block_args_used(op, kept):
                if op not in skipped_loops:
                    skipped_loops.append(op)
                worklist.append(op.parent_op())
                continue
            kept.add(op)
            # A nested stage comes along without its tokens (they are rebuilt empty).
            operands = [] if isinstance(op, ktdf.StageOp) else list(op.operands)
            if op is anchor:
                operands = [v for v in operands if v is not anchor.destination]
            for region in op.regions:
                for block in region.blocks:
                    last = block.last_op
                    if last is not None and last.has_trait(IsTerminator, value_if_unregistered=False):
                        operands.extend(last.operands)
            worklist.extend(v.owner for v in operands if isinstance(v, OpResult))
            worklist.append(op.parent_op())

    close([anchor])
    changed = True
    while changed:  # a loop skipped before all its users were kept
        changed = False
        for loop in skipped_loops:
            if loop not in kept and _block_args_used(loop, kept):
                close([loop])
                changed = True

    external: list[SSAValue] = []
    for op in _in_ir_order(stage, kept):
        if isinstance(op, ktdf.StageOp):
            operands = []
        else:
            operands = [v for v in op.operands if not (op is anchor and v is anchor.destination)]
        for region in op.regions:
            for block in region.blocks:
                last = block.last_op
                if last is not None and last.has_trait(IsTerminator, value_if_unregistered=False):
                    operands.extend(last.operands)
        for value in operands:
            if not defined_inside(value, stage) and value not in external:
                external.append(value)
    return Slice(kept, external)


def _block_args_used(loop: scf.ForOp, kept: set[Operation]) -> bool:
    """True when a kept op, or an op nested in a kept op inside the loop, uses an argument of its body.

    (Upstream walks past the loop too, so whether a loop survives depends on what happened
    to be kept outside it first.)
    """
    for arg in loop.body.block.args:
        for use in arg.uses:
            user: Operation | None = use.operation
            while user is not None and user is not loop:
                if user in kept:
                    return True
                user = user.parent_op()
    return False


def _in_ir_order(root: Operation, ops: set[Operation]) -> list[Operation]:
    return [op for op in root.walk() if op in ops]


def clone_slice(source: Block, dest: Block, slice_: Slice, mapping: dict[SSAValue, SSAValue],
                clones: dict[Operation, Operation]) -> None:
    """Copy the kept ops of `source` into `dest` in order, with their kept skeleton.

    `mapping` maps original values to their copies (seeded by the caller), `clones` gets
    every kept op's copy.
    """
    for op in source.ops:
        if op in slice_.kept:
            dest.add_op(_clone_kept(op, slice_, mapping, clones))
        elif isinstance(op, scf.ForOp):
            clone_slice(op.body.block, dest, slice_, mapping, clones)  # a skipped loop: splice its body
        # other ops are not needed (every non-loop ancestor of a kept op is kept)


def _clone_kept(op: Operation, slice_: Slice, mapping: dict[SSAValue, SSAValue],
                clones: dict[Operation, Operation]) -> Operation:
    if isinstance(op, ktdf.StageOp):
        # A stage of a pipeline nested in the donor: the copy of its pipeline holds this
        # one stage, which waits for nothing and signals nothing.
        stage = ktdf.StageOp([], [], None, op.applicable_units, op.attributes)
        stage.location = op.location
        clones[op] = stage
        clone_slice(op.body.block, stage.body.block, slice_, mapping, clones)
        return stage
    new_op = op.clone_without_regions(mapping)
    clones[op] = new_op
    for region, new_region in zip(op.regions, new_op.regions):
        for block in region.blocks:
            new_block = Block(arg_types=[a.type for a in block.args])
            for arg, new_arg in zip(block.args, new_block.args):
                new_arg.name_hint = arg.name_hint
                mapping[arg] = new_arg
            new_region.add_block(new_block)
            terminator = block.last_op
            if terminator is not None and not terminator.has_trait(IsTerminator, value_if_unregistered=False):
                terminator = None
            clone_slice(block, new_block, slice_, mapping, clones)
            if terminator is not None and terminator not in slice_.kept:
                new_block.add_op(terminator.clone(mapping))
    return new_op


# ===========================================================================
# Hoist
# ===========================================================================


def underlying_alloc(dest: SSAValue) -> memref.AllocOp | None:
    """The `memref.alloc` defining `dest`, directly or through a `ktdf.private` yield."""
    owner = ktdf.defining_op_through_private(dest)
    return owner if isinstance(owner, memref.AllocOp) else None


def hoist(candidate: Candidate) -> None:
    """Step 3: fresh buffer and sibling pipeline before the target loop; readers follow."""
    transfer, donor, target = candidate.transfer, candidate.donor, candidate.target
    old_dest = transfer.destination
    alloc = underlying_alloc(old_dest)
    if alloc is None:
        raise error(transfer, NO_ALLOC, [(target, "the transfer would be hoisted before this loop")])
    block = target.parent
    assert block is not None

    new_alloc = alloc.clone()
    block.insert_op_before(new_alloc, target)
    new_dest = new_alloc.results[0]

    units = donor.applicable_units or donor.attributes.get("applicable_units")
    stage = ktdf.StageOp([], [], Region(Block()), applicable_units=units)
    stage.location = target.location
    pipeline = ktdf.PipelineOp(Region(Block([stage])))
    pipeline.location = target.location
    block.insert_op_before(pipeline, target)

    mapping: dict[SSAValue, SSAValue] = {old_dest: new_dest}
    clones: dict[Operation, Operation] = {}
    clone_slice(donor.body.block, stage.body.block, candidate.slice, mapping, clones)
    copy = clones[transfer]
    dest_index = 1 + len(transfer.source_indices) + len(transfer.source_sizes)
    if copy.operands[dest_index] is not new_dest:  # the buffer's own op was copied along
        copy.operands = [new_dest if i == dest_index else v for i, v in enumerate(copy.operands)]

    rewire_readers(old_dest, new_dest, new_alloc, transfer)
    transfer.detach()
    transfer.erase()


def rewire_readers(old: SSAValue, new: SSAValue, new_alloc: Operation, transfer: Operation) -> None:
    """Uses of `old` the new allocation dominates (the erased transfer aside) read `new`."""
    block = new_alloc.parent
    assert block is not None
    position = block.get_operation_index(new_alloc)

    def dominated(use_op: Operation) -> bool:
        current: Operation | None = use_op
        while current is not None and current.parent is not block:
            current = current.parent_op()
        return current is not None and block.get_operation_index(current) > position

    old.replace_uses_with_if(new, lambda use: use.operation is not transfer and dominated(use.operation))
