"""`stage-coarsening`: turn a pipeline under a loop nest into a hierarchy (`docs/passes.md#stage-coarsening`).

After routing, every stage of a pipeline runs once per vector, inside the tile loops. This
pass groups the stages that must advance in lockstep (they share a FIFO kind or a memory
below the scratchpad) apart from the DMA stages, and sinks the tile loops into each group:

* a group of one stage (a DMA stage) becomes one stage whose body runs the loops, i.e.
  one bulk transfer of a whole tile;
* a group of several stages (scratchpad load → compute → scratchpad store) becomes one
  coarse stage whose loops hold a nested `ktdf.pipeline` of those stages.

Scratchpad buffers that carry data between groups grow one leading dim per loop their
transfers depend on (a tile of vectors instead of one vector); the transfers touching
them index that dim with `(iv - lb) / step`. Stage edges are rebuilt with fresh tokens,
and resources only the inner pipeline uses (its FIFOs, compute registers) move into it.

Steps, as the spec numbers them:

1. **Candidates**: every pipeline (inner ones first) with up to `loop-nest-depth`
   perfectly nested `scf.for` loops directly around it (never a tiling's outermost tile
   loop, which stays around the pipeline: see `enclosing_perfect_nest`).
2. **PipelineTree** of the nest's parent.
3. **Stage grouping** (the device's memory tree says what is below the scratchpad).
4. **Distribute**: one copy of the loop nest per group, inside the pipeline.
5. **Buffer expansion analysis**.
6. **Sink** the nest into single-stage groups.
7. **Legalize** the tree; 8. **correct dependencies** across pipelines.
9. **Materialize** before the nest; 10. erase the nest and clean the private;
11. **scope correction**.

Where upstream only asserts, this pass reports a located error before it changes the IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from dfsched.arch.model import BELOW_SCRATCHPAD, DeviceModel
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects import ktdf
from dfsched.passes.scheduling.coarsening_utils import (
    ALLOWED_BETWEEN_LOOPS,
    Expansion,
    InsertAt,
    Materializer,
    append_child,
    correct_dependencies,
    correct_scopes,
    defined_inside,
    depends_on,
    detach,
    insert_child,
    legalize,
    new_node,
    remove_lifting_children,
)
from dfsched.passes.constants import constant_int
from dfsched.passes.scheduling.utils import (
    NodeKind,
    PipelineTree,
    TreeNode,
    cleanup_private,
    pipelines_post_order,
)

PASS = "stage-coarsening"
NO_DEVICE = ("Unable to import device specification for stage grouping. This could happen if the device spec "
             "file is empty or contains multiple devices")


@dataclass(frozen=True)
class StageCoarsening(ModulePass):
    """Sink the loops around each pipeline into its stage groups."""

    name = "stage-coarsening"

    loop_nest_depth: int = 2
    """The most enclosing loops sunk into one pipeline."""

    device: str | None = None
    """Architecture file (or shipped short name) used when the module declares no device."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import device_model_for

        if self.loop_nest_depth < 0:
            raise error(op, f"{PASS}: loop-nest-depth must not be negative (got {self.loop_nest_depth})")
        for candidate in find_candidates(op, self.loop_nest_depth):
            model = device_model_for(candidate.pipeline, device=self.device)
            if model is None:
                raise error(candidate.pipeline, NO_DEVICE)
            coarsen(candidate, model)


# ===========================================================================
# 1. Candidates
# ===========================================================================


@dataclass
class Candidate:
    """A pipeline and the loops sunk into it (outermost first)."""

    pipeline: ktdf.PipelineOp
    nest: list[scf.ForOp]

    @property
    def parent(self) -> Operation:
        parent = self.nest[0].parent_op()
        assert parent is not None
        return parent


def find_candidates(module: ModuleOp, depth: int) -> list[Candidate]:
    """Pipelines of every function (inner pipelines first) with loops to sink."""
    candidates: list[Candidate] = []
    for function in (o for o in module.walk() if isinstance(o, func.FuncOp)):
        for pipeline in pipelines_post_order(function):
            nest = enclosing_perfect_nest(pipeline, depth)
            if nest:
                candidates.append(Candidate(pipeline, nest))
    return candidates


def enclosing_perfect_nest(pipeline: ktdf.PipelineOp, depth: int) -> list[scf.ForOp]:
    """Up to `depth` loops directly around `pipeline`, outermost first.

    A loop qualifies when its body holds only the op we climbed from and tiling ops
    (`derive_size`, `linearize_index`), and it carries no values from one iteration to
    the next. (Upstream also accepts a sibling loop next to the pipeline, whose work would
    then be lost; such a loop does not qualify here.)

    dfsched also never sinks the outermost tile loop of a tiling (`is_outermost_tile_loop`):
    sunk, it would make every scratchpad buffer of the pipeline span the whole tiled extent
    whatever size `tile-size-selection` picks, and leave no loop to double-buffer over.
    Upstream never meets this case (its default depth only reaches the point loops of the
    tilings it makes); a one-loop tiling (`tile-scf-for-loops{tile-single-loops}`) does.
    """
    nest: list[scf.ForOp] = []
    current: Operation = pipeline
    while len(nest) < depth:
        loop = current.parent_op()
        if not isinstance(loop, scf.ForOp) or loop.iter_args or loop.results:
            break
        if is_outermost_tile_loop(loop):
            break
        body = loop.body.block
        if any(inner is not current and inner is not body.last_op and not isinstance(inner, ALLOWED_BETWEEN_LOOPS)
               for inner in body.ops):
            break
        nest.append(loop)
        current = loop
    nest.reverse()
    return nest


def is_tile_loop(loop: Operation) -> bool:
    """A tile loop of a not yet sized tiling: its upper bound is `ceildivui(total, reserve_size)`."""
    if not isinstance(loop, scf.ForOp):
        return False
    bound = loop.ub.owner
    return isinstance(bound, arith.CeilDivUIOp) and isinstance(bound.rhs.owner, ktdf.TilingReserveSizeOp)


def is_outermost_tile_loop(loop: scf.ForOp) -> bool:
    """A tile loop with no tile loop around it (the tiling's outermost one)."""
    if not is_tile_loop(loop):
        return False
    parent = loop.parent_op()
    while parent is not None:
        if is_tile_loop(parent):
            return False
        parent = parent.parent_op()
    return True


# ===========================================================================
# The transformation of one candidate
# ===========================================================================


def coarsen(candidate: Candidate, model: DeviceModel) -> None:
    tree = PipelineTree(candidate.parent)  # 2.
    pipeline_node = tree.node_for(candidate.pipeline)
    assert pipeline_node is not None
    opaque_stage_bodies(pipeline_node)
    groups = group_stages(candidate.pipeline, model)  # 3.
    distribute_into_pipeline(tree, candidate, groups)  # 4.
    expansions = analyze_buffer_expansion(candidate, groups)  # 5.
    sink_into_single_stages(tree, candidate, groups)  # 6.
    legalize(tree, pipeline_node)  # 7.
    correct_dependencies(pipeline_node)  # 8.
    outer = materialize(candidate, pipeline_node, expansions)  # 9.
    erase_nest_and_clean_private(candidate, outer)  # 10.
    correct_scopes(outer)  # 11.


def opaque_stage_bodies(pipeline_node: TreeNode) -> None:
    """Stages of the pipeline are cloned whole: what their bodies hold is not restructured."""
    for stage in pipeline_node.stages:
        stage.children = []


# ===========================================================================
# 3. Stage grouping
# ===========================================================================


def group_stages(pipeline: ktdf.PipelineOp, model: DeviceModel) -> list[list[ktdf.StageOp]]:
    """Stages that share a memory below the scratchpad or a FIFO kind (src, dest) go together.

    Groups come in the order of their first stage; stages keep program order in a group.
    """
    stages = pipeline.stages
    shared = [stage_resources(stage, model) for stage in stages]
    leader = list(range(len(stages)))

    def find(i: int) -> int:
        while leader[i] != i:
            i = leader[i]
        return i

    for i in range(len(stages)):
        for j in range(i + 1, len(stages)):
            if shared[i][0] & shared[j][0] or shared[i][1] & shared[j][1]:
                a, b = find(i), find(j)
                if a != b:
                    leader[max(a, b)] = min(a, b)
    groups: dict[int, list[ktdf.StageOp]] = {}
    for i, stage in enumerate(stages):
        groups.setdefault(find(i), []).append(stage)
    return list(groups.values())


def stage_resources(stage: ktdf.StageOp, model: DeviceModel) -> tuple[set[Attribute], set[tuple[Attribute, Attribute]]]:
    """The below-scratchpad memory spaces and the FIFO kinds any op of `stage` touches."""
    memories: set[Attribute] = set()
    fifos: set[tuple[Attribute, Attribute]] = set()
    for op in stage.walk():
        for operand in op.operands:
            kind = operand.type
            if isinstance(kind, MemRefType) and is_below_scratchpad(kind.memory_space, model):
                memories.add(kind.memory_space)
            elif isinstance(kind, ktdf.FifoSlotType):
                fifos.add((kind.src, kind.dest))
    return memories, fifos


def is_below_scratchpad(space: Attribute, model: DeviceModel) -> bool:
    try:
        return model.memory_for_space(space).level == BELOW_SCRATCHPAD
    except DiagnosticError:  # not a memory of this device
        return False


# ===========================================================================
# 4. Distribute the nest over the groups
# ===========================================================================


def distribute_into_pipeline(tree: PipelineTree, candidate: Candidate, groups: list[list[ktdf.StageOp]]) -> None:
    """Each group gets its own copy of the loop nest inside the pipeline; the nest itself goes."""
    pipeline_node = tree.node_for(candidate.pipeline)
    assert pipeline_node is not None
    for group in groups:
        holder = pipeline_node
        for loop in candidate.nest:
            copy = new_node(NodeKind.LOOP, loop)
            append_child(holder, copy)
            holder = copy
        for stage in group:
            node = tree.node_for(stage)
            assert node is not None
            detach(node)
            append_child(holder, node)
    for loop in candidate.nest:
        node = tree.node_for(loop)
        assert node is not None
        remove_lifting_children(node)


# ===========================================================================
# 5. Buffer expansion analysis
# ===========================================================================


def analyze_buffer_expansion(candidate: Candidate, groups: list[list[ktdf.StageOp]]) -> list[Expansion]:
    """Private buffers written in one group and used in another, indexed by a nest IV.

    Each gets one leading dim per nest loop its transfers' indices depend on (nest
    order), of the loop's trip count: static when the bounds are, else the loop's tile size
    (the last one of a `derive_size` upper bound) or its upper bound.
    """
    private = candidate.pipeline.private
    if private is None:
        return []
    users: dict[SSAValue, set[int]] = {}
    for index, group in enumerate(groups):
        for stage in group:
            for op in stage.walk():
                for operand in op.operands:
                    if isinstance(operand.type, MemRefType):
                        users.setdefault(operand, set()).add(index)
    expansions: list[Expansion] = []
    for buffer, used_by in users.items():
        if len(used_by) < 2 or not (isinstance(buffer, OpResult) and buffer.owner is private):
            continue
        if not any(is_transfer_target(buffer, stage) for g in sorted(used_by) for stage in groups[g]):
            continue
        loops = loops_indexing(buffer, candidate)
        if not loops:
            continue
        check_expandable(buffer, private)
        expansions.append(Expansion(buffer, loops, [trip_count(loop, candidate) for loop in loops]))
    return expansions


def is_transfer_target(buffer: SSAValue, stage: ktdf.StageOp) -> bool:
    return any(isinstance(op, ktdf.DataTransferOp) and op.destination is buffer for op in stage.walk())


def loops_indexing(buffer: SSAValue, candidate: Candidate) -> list[scf.ForOp]:
    """The nest loops whose IV some index of a transfer touching `buffer` depends on."""
    indices: list[SSAValue] = []
    for op in candidate.pipeline.walk():
        if isinstance(op, ktdf.DataTransferOp) and buffer in (op.source, op.destination):
            indices.extend(op.source_indices)
            indices.extend(op.dest_indices)
    return [loop for loop in candidate.nest
            if any(depends_on(index, loop.body.block.args[0]) for index in indices)]


def check_expandable(buffer: SSAValue, private: ktdf.PrivateOp) -> None:
    """An expanded buffer is a `memref.alloc` of the private, moved only by data transfers."""
    assert isinstance(buffer, OpResult) and private.yield_op is not None
    source = private.yield_op.values[buffer.index]
    if not (isinstance(source, OpResult) and isinstance(source.owner, memref.AllocOp)
            and source.owner.parent is private.body.block):
        raise error(private, f"{PASS}: cannot expand private result #{buffer.index}: it is not allocated "
                             "by a 'memref.alloc' in the private")
    for use in buffer.uses:
        if not isinstance(use.operation, ktdf.DataTransferOp):
            raise error(use.operation, f"{PASS}: cannot expand private result #{buffer.index} to one slot per "
                                       f"loop iteration: it is used by '{use.operation.name}', not only by "
                                       "'ktdf.data_transfer'")


def trip_count(loop: scf.ForOp, candidate: Candidate) -> int | SSAValue:
    """The size of the dim a loop adds to an expanded buffer."""
    lb, ub, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is not None and ub is not None and step is not None and step > 0:
        return max(0, (ub - lb + step - 1) // step)
    if lb != 0 or step != 1:
        raise error(loop, f"{PASS}: cannot size the buffer dim of this loop: its bounds are not constant and "
                          "it is not normalized (lower bound 0, step 1)")
    size = loop.ub
    if isinstance(size, OpResult) and isinstance(size.owner, ktdf.TilingDeriveSizeOp):
        size = size.owner.tile_sizes[-1]
    if defined_inside(size, candidate.nest[0]):
        raise error(loop, f"{PASS}: cannot size the buffer dim of this loop: its tile size is only known "
                          "inside the loop nest")
    return size


# ===========================================================================
# 6. Sink the nest into single-stage groups
# ===========================================================================


def sink_into_single_stages(tree: PipelineTree, candidate: Candidate, groups: list[list[ktdf.StageOp]]) -> None:
    """A group of one stage: the stage takes its loop nest's place and holds the nest."""
    pipeline_node = tree.node_for(candidate.pipeline)
    assert pipeline_node is not None
    for group in groups:
        if len(group) != 1:
            continue
        stage = tree.node_for(group[0])
        assert stage is not None and stage.parent is not None
        outermost = stage.parent
        while outermost.parent is not pipeline_node:
            assert outermost.parent is not None
            outermost = outermost.parent
        detach(stage)
        index = detach(outermost)
        append_child(stage, outermost)
        insert_child(pipeline_node, stage, index)


# ===========================================================================
# 9.–10. Materialize, erase the nest, clean the private
# ===========================================================================


def materialize(candidate: Candidate, pipeline_node: TreeNode, expansions: list[Expansion]) -> ktdf.PipelineOp:
    """Build the new outer pipeline right before the nest."""
    root = candidate.nest[0]
    block = root.parent
    assert block is not None
    materializer = Materializer(expansions, candidate.pipeline.location)
    outer = materializer.node(pipeline_node, InsertAt(block, root))
    assert isinstance(outer, ktdf.PipelineOp)
    return outer


def erase_nest_and_clean_private(candidate: Candidate, outer: ktdf.PipelineOp) -> None:
    root = candidate.nest[0]
    assert root.parent is not None
    root.parent.erase_op(root, safe_erase=False)
    for private in [op for op in outer.body.block.ops if isinstance(op, ktdf.PrivateOp)]:
        cleanup_private(private)
