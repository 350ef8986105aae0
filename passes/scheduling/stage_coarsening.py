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

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from dfsched.arch.model import BELOW_SCRATCHPAD, DeviceModel
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects import ktdf
from dfsched.dialects.constants import constant_int, static_trip_count
from dfsched.passes.cleanup.affine_utils import substitute
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.scheduling.pipeline_tree import NodeKind, PipelineTree, TreeNode, nearest_pipeline
from dfsched.passes.scheduling.privates import cleanup_private, move_ops, replace_private
from dfsched.passes.walk import RESHAPED_COPY, ancestors, defined_inside, depends_on, pipelines_post_order

PASS = "stage-coarsening"
NO_DEVICE = ("Unable to import device specification for stage grouping. This could happen if the device spec "
             "file is empty or contains multiple devices")


@dataclass(frozen=True)
class StageCoarsening(DevicePass):
    """Sink the loops around each pipeline into its stage groups."""

    name = "stage-coarsening"

    loop_nest_depth: int = 2
    """The most enclosing loops sunk into one pipeline."""


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import required_device_model

        if self.loop_nest_depth < 0:
            raise error(op, f"{PASS}: loop-nest-depth must not be negative (got {self.loop_nest_depth})")
        for candidate in find_candidates(op, self.loop_nest_depth):
            model = required_device_model(candidate.pipeline, self.device, NO_DEVICE)
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
    return is_tile_loop(loop) and not any(is_tile_loop(parent) for parent in ancestors(loop))


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
    count = static_trip_count(loop)
    if count is not None:
        return count
    if constant_int(loop.lb) != 0 or constant_int(loop.step) != 1:
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


# ===========================================================================
# The machinery of steps 7 to 11
# ===========================================================================
#
# * **Tree editing** on the shared `PipelineTree` nodes (`dfsched.passes.scheduling.pipeline_tree`):
#   append, insert at a position, detach, and remove a node lifting its children.
# * **Legalizer** (step 7): wrap loose loops of a pipeline in a stage, give stages under a
#   loop their own nested pipeline, and give a pipeline whose stages wait on each other a
#   private to hold the tokens.
# * **Materializer** (step 9): builds the IR of a rearranged tree before the original loop
#   nest. Loops copy their template's bounds, attributes and tiling ops; stages clone their
#   original body into their innermost loop; buffers marked for expansion get the loop dims
#   in front and every transfer touching them one index per added dim.
# * **Scope correction** (step 11): outer private results used only inside one inner
#   pipeline move into that pipeline's private.


# ---------------------------------------------------------------------------
# IR queries
# ---------------------------------------------------------------------------

ALLOWED_BETWEEN_LOOPS = (ktdf.TilingDeriveSizeOp, ktdf.TilingLinearizeIndexOp)
"""Ops a loop of a sunk nest may hold besides the next loop (what tiling puts there)."""


def stage_units(stage: ktdf.StageOp) -> ArrayAttr | None:
    """The stage's `applicable_units` (inherent, or stored as a discardable attribute)."""
    units = stage.applicable_units or stage.attributes.get("applicable_units")
    return units if isinstance(units, ArrayAttr) else None


# ---------------------------------------------------------------------------
# Tree editing
# ---------------------------------------------------------------------------


def new_node(kind: NodeKind, template: Operation | None = None) -> TreeNode:
    """An unmaterialized node: built from `template` (or from nothing) when materialized."""
    return TreeNode(kind, None, template)


def append_child(parent: TreeNode, node: TreeNode) -> None:
    node.parent = parent
    parent.children.append(node)


def insert_child(parent: TreeNode, node: TreeNode, index: int) -> None:
    node.parent = parent
    parent.children.insert(index, node)


def detach(node: TreeNode) -> int:
    """Take `node` (with its subtree) out of its parent; returns the position it had."""
    assert node.parent is not None
    index = node.parent.children.index(node)
    node.parent.children.pop(index)
    node.parent = None
    return index


def wrap_children(parent: TreeNode, children: Sequence[TreeNode], wrapper: TreeNode) -> None:
    """Move `children` of `parent` (in order) into `wrapper`, which takes the first one's place."""
    index = parent.children.index(children[0])
    for child in children:
        detach(child)
        append_child(wrapper, child)
    insert_child(parent, wrapper, index)


def remove_lifting_children(node: TreeNode) -> None:
    """Remove `node` alone: its children take its place in its parent, in order."""
    parent = node.parent
    assert parent is not None
    index = detach(node)
    for offset, child in enumerate(node.children):
        insert_child(parent, child, index + offset)
    node.children = []


def pre_order(node: TreeNode) -> list[TreeNode]:
    out = [node]
    for child in node.children:
        out.extend(pre_order(child))
    return out


def ancestor_in(node: TreeNode, pipeline: TreeNode) -> TreeNode | None:
    """`node` or its nearest ancestor whose parent is `pipeline`."""
    current: TreeNode | None = node
    while current is not None and current.parent is not pipeline:
        current = current.parent
    return current


def enclosing_pipelines(node: TreeNode) -> list[TreeNode]:
    """The pipeline nodes above `node`, innermost first."""
    out: list[TreeNode] = []
    current = node.parent
    while current is not None:
        if current.kind is NodeKind.PIPELINE:
            out.append(current)
        current = current.parent
    return out


# ---------------------------------------------------------------------------
# Legalizer (step 7)
# ---------------------------------------------------------------------------


def _loose_children_rule(node: TreeNode) -> bool:
    """A pipeline holds only stages and privates."""
    return node.kind is NodeKind.PIPELINE and any(
        c.kind not in (NodeKind.STAGE, NodeKind.PRIVATE) for c in node.children)


def _wrap_loose_children(tree: PipelineTree, pipeline: TreeNode) -> None:
    """Wrap each run of consecutive non-stage, non-private children in a new stage."""
    runs: list[list[TreeNode]] = []
    current: list[TreeNode] = []
    for child in pipeline.children:
        if child.kind in (NodeKind.STAGE, NodeKind.PRIVATE):
            if current:
                runs.append(current)
                current = []
        else:
            current.append(child)
    if current:
        runs.append(current)
    for run in runs:
        wrap_children(pipeline, run, tree.create_stage(None))


def _stage_parent_rule(node: TreeNode) -> bool:
    """A stage sits directly in a pipeline."""
    return node.kind is NodeKind.STAGE and node.parent is not None and node.parent.kind is not NodeKind.PIPELINE


def _nest_stages_in_pipeline(stage: TreeNode) -> None:
    """Give the stages under `stage`'s parent a nested pipeline of their own, in that parent."""
    holder = stage.parent
    assert holder is not None
    template = None
    for ancestor in enclosing_pipelines(holder):
        template = ancestor.op_or_template
        break
    pipeline = new_node(NodeKind.PIPELINE, template)
    wrap_children(holder, [c for c in holder.children if c.kind is NodeKind.STAGE], pipeline)


def _private_rule(node: TreeNode) -> bool:
    """A pipeline whose stages wait on each other has a private (for the tokens)."""
    return (node.kind is NodeKind.PIPELINE and node.private is None
            and any(s.successors for s in node.stages))


def _add_private(pipeline: TreeNode) -> None:
    insert_child(pipeline, new_node(NodeKind.PRIVATE), 0)


def legalize(tree: PipelineTree, root: TreeNode) -> None:
    """Fix the first violation found in pre-order under `root`, then look again, until none is left."""
    rules = ((_loose_children_rule, lambda n: _wrap_loose_children(tree, n)),
             (_stage_parent_rule, _nest_stages_in_pipeline),
             (_private_rule, _add_private))
    while True:
        violation = next(((node, fix) for node in pre_order(root) for check, fix in rules if check(node)), None)
        if violation is None:
            return
        node, fix = violation
        fix(node)


# ---------------------------------------------------------------------------
# Dependencies across pipeline boundaries (step 8)
# ---------------------------------------------------------------------------


def correct_dependencies(root: TreeNode) -> None:
    """Make every stage edge connect two stages of one pipeline.

    An edge S→T between pipelines becomes S'→T', where S' and T' are S and T or their
    ancestor stages in the innermost pipeline holding both: outer→inner edges are
    redirected to T's ancestor, inner→outer edges move to S's ancestor.
    """
    for stage in [n for n in pre_order(root) if n.kind is NodeKind.STAGE]:
        kept: list[TreeNode] = []
        for succ in stage.successors:
            if succ.parent is stage.parent:
                if succ not in kept:
                    kept.append(succ)
                continue
            around_succ = enclosing_pipelines(succ)
            outer = next((p for p in enclosing_pipelines(stage) if p in around_succ), None)
            if outer is None:
                continue
            source = ancestor_in(stage, outer)
            sink = ancestor_in(succ, outer)
            if source is None or sink is None or source is sink:
                continue
            if source is stage:
                if sink not in kept:
                    kept.append(sink)
            elif sink not in source.successors:
                source.successors.append(sink)
        stage.successors[:] = kept


# ---------------------------------------------------------------------------
# Buffer expansion (what step 5 decides, applied while materializing)
# ---------------------------------------------------------------------------


@dataclass
class Expansion:
    """A private buffer that gets one leading dim per loop its transfers depend on.

    `loops` are those loops in nest order; `sizes` the new dims (an int, or an index
    value defined before the nest).
    """

    buffer: SSAValue
    loops: list[scf.ForOp] = field(default_factory=list)
    sizes: list[int | SSAValue] = field(default_factory=list)


def prepend_dims(amap: AffineMap, count: int) -> AffineMap:
    """`(d0..dk-1, old dims) -> (d0, ..., dk-1, old results)` for `count` = k new dims."""
    if count == 0:
        return amap
    dims = [AffineDimExpr(i + count) for i in range(amap.num_dims)]
    shifted = [substitute(r, dims) for r in amap.results]
    return AffineMap(amap.num_dims + count, 0, tuple([AffineDimExpr(i) for i in range(count)] + shifted))


# ---------------------------------------------------------------------------
# Materializer (step 9)
# ---------------------------------------------------------------------------


class InsertAt:
    """Where new ops go: before `before` in `block`, or at its end."""

    def __init__(self, block: Block, before: Operation | None = None):
        self.block = block
        self.before = before

    def insert(self, op: Operation) -> Operation:
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        return op


def _innermost_loop(node: TreeNode) -> TreeNode:
    """The first loop at the greatest loop depth under `node` (a loop)."""
    best, best_depth = node, 0

    def visit(current: TreeNode, depth: int) -> None:
        nonlocal best, best_depth
        if current.kind is NodeKind.LOOP and depth > best_depth:
            best, best_depth = current, depth
        for child in current.children:
            visit(child, depth + (1 if child.kind is NodeKind.LOOP else 0))

    visit(node, 0)
    return best


class Materializer:
    """Builds the IR of a tree of pipelines, stages, loops and privates."""

    def __init__(self, expansions: Sequence[Expansion], location: Attribute):
        self.mapping: dict[SSAValue, SSAValue] = {}
        self.expansions = list(expansions)
        self.location = location
        self.tokens: dict[int, SSAValue] = {}
        self.built: dict[int, Operation] = {}

    def value(self, value: SSAValue) -> SSAValue:
        return self.mapping.get(value, value)

    # -- nodes --------------------------------------------------------------
    def node(self, node: TreeNode, at: InsertAt) -> Operation:
        build = {NodeKind.LOOP: self.loop, NodeKind.STAGE: self.stage, NodeKind.PIPELINE: self.pipeline,
                 NodeKind.PRIVATE: self.private}[node.kind]
        op = build(node, at)
        self.built[id(node)] = op
        return op

    def pipeline(self, node: TreeNode, at: InsertAt) -> ktdf.PipelineOp:
        template = node.op_or_template
        op = ktdf.PipelineOp()
        op.location = template.location if template is not None else self.location
        if template is not None and RESHAPED_COPY in template.attributes:  # Decision 108
            op.attributes[RESHAPED_COPY] = template.attributes[RESHAPED_COPY]
        at.insert(op)
        inside = InsertAt(op.body.block)
        # The private first: it defines the tokens its sibling stages refer to.
        for child in sorted(node.children, key=lambda c: c.kind is not NodeKind.PRIVATE):
            self.node(child, inside)
        return op

    def loop(self, node: TreeNode, at: InsertAt) -> scf.ForOp:
        template = node.op_or_template
        assert isinstance(template, scf.ForOp)
        old_iv = template.body.block.args[0]
        block = Block(arg_types=[old_iv.type])
        block.args[0].name_hint = old_iv.name_hint
        terminator = scf.YieldOp()
        block.add_op(terminator)
        op = type(template)(self.value(template.lb), self.value(template.ub), self.value(template.step), [],
                            Region(block))
        op.attributes.update(template.attributes)
        op.location = template.location
        at.insert(op)
        self.mapping[old_iv] = block.args[0]
        inside = InsertAt(block, terminator)
        for inner in template.body.block.ops:  # the tiling ops between the loops
            if isinstance(inner, ALLOWED_BETWEEN_LOOPS):
                inside.insert(inner.clone(self.mapping))
        for child in node.children:
            self.node(child, inside)
        return op

    def stage(self, node: TreeNode, at: InsertAt) -> ktdf.StageOp:
        template = node.op_or_template
        assert template is None or isinstance(template, ktdf.StageOp)
        depends_out = [self.tokens[id(node)]] if node.successors else []
        depends_in: list[SSAValue] = []
        assert node.parent is not None
        for other in node.parent.stages:
            if other is not node and node in other.successors and self.tokens[id(other)] not in depends_in:
                depends_in.append(self.tokens[id(other)])
        units = stage_units(template) if template is not None else None
        op = ktdf.StageOp(depends_in, depends_out, applicable_units=units)
        op.location = template.location if template is not None else self.location
        at.insert(op)
        inside = InsertAt(op.body.block)
        for child in node.children:
            self.node(child, inside)
        if template is not None:
            if node.children:
                innermost = self.built[id(_innermost_loop(node.children[0]))]
                assert isinstance(innermost, scf.ForOp)
                body_at = InsertAt(innermost.body.block, innermost.body.block.last_op)
            else:
                body_at = inside
            self.clone_stage_body(template, body_at)
        if units is None:
            union: list[Attribute] = []
            for inner in op.walk():
                if isinstance(inner, ktdf.StageOp) and inner is not op and (found := stage_units(inner)):
                    union.extend(u for u in found.data if u not in union)
            if union:
                op.applicable_units = ArrayAttr(union)
        return op

    def private(self, node: TreeNode, at: InsertAt) -> ktdf.PrivateOp:
        assert node.parent is not None
        producers = [s for s in node.parent.stages if s.successors]
        template = node.op_or_template
        block = Block()
        values: list[SSAValue] = []
        location = template.location if template is not None else self.location
        if isinstance(template, ktdf.PrivateOp):
            for inner in template.body.block.ops:
                if inner is template.yield_op:
                    continue
                expanded = self.expanded_alloc(inner, template) if isinstance(inner, memref.AllocOp) else None
                block.add_op(expanded if expanded is not None else inner.clone(self.mapping))
            assert template.yield_op is not None
            values = [self.value(v) for v in template.yield_op.values]
        for _ in producers:
            token = ktdf.CreateTokenOp()
            token.location = location
            block.add_op(token)
            values.append(token.result)
        block.add_op(ktdf.PrivateYieldOp(values))
        op = ktdf.PrivateOp([v.type for v in values], Region(block))
        op.location = location
        at.insert(op)
        if isinstance(template, ktdf.PrivateOp):
            for old, new in zip(template.res, op.res):
                self.mapping[old] = new
        first_token = len(values) - len(producers)
        for index, stage in enumerate(producers):
            self.tokens[id(stage)] = op.res[first_token + index]
        return op

    # -- bodies -------------------------------------------------------------
    def clone_stage_body(self, stage: ktdf.StageOp, at: InsertAt) -> None:
        for inner in stage.body.block.ops:
            if isinstance(inner, ktdf.DataTransferOp) and self.clone_transfer(inner, at):
                continue
            at.insert(inner.clone(self.mapping))

    def _expansion_of(self, value: SSAValue) -> Expansion | None:
        return next((e for e in self.expansions if self.value(e.buffer) is value), None)

    def expanded_alloc(self, alloc: memref.AllocOp, private: ktdf.PrivateOp) -> memref.AllocOp | None:
        """The alloc of an expanded buffer: the new dims first (dynamic ones as operands)."""
        assert private.yield_op is not None
        yielded = [private.res[i] for i, v in enumerate(private.yield_op.values) if v is alloc.memref]
        expansion = next((e for e in self.expansions if e.buffer in yielded), None)
        if expansion is None:
            return None
        old_type = alloc.memref.type
        assert isinstance(old_type, MemRefType)
        shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in expansion.sizes] + list(old_type.get_shape())
        dynamic = [self.value(s) for s in expansion.sizes if not isinstance(s, int)]
        dynamic += [self.value(s) for s in alloc.dynamic_sizes]
        new_type = MemRefType(old_type.element_type, shape, NoneAttr(), old_type.memory_space)
        new = memref.AllocOp(dynamic, [self.value(s) for s in alloc.symbol_operands], new_type, alloc.alignment)
        new.attributes.update(alloc.attributes)
        new.location = alloc.location
        new.memref.name_hint = alloc.memref.name_hint
        self.mapping[alloc.memref] = new.memref
        return new

    def clone_transfer(self, transfer: ktdf.DataTransferOp, at: InsertAt) -> bool:
        """Clone a transfer touching an expanded buffer with its new leading indices and sizes."""
        source, destination = self.value(transfer.source), self.value(transfer.destination)
        sides = {"source": self._expansion_of(source), "dest": self._expansion_of(destination)}
        if sides["source"] is None and sides["dest"] is None:
            return False
        args: dict[str, object] = {}
        for side, expansion in sides.items():
            indices = [self.value(v) for v in (transfer.source_indices if side == "source" else transfer.dest_indices)]
            amap_attr = transfer.source_map if side == "source" else transfer.dest_map
            sizes = transfer.mixed_sizes(side)
            sizes = None if sizes is None else [s if isinstance(s, int) else self.value(s) for s in sizes]
            amap = amap_attr.data if amap_attr is not None else None
            if expansion is not None:
                leading = [self.normalized_index(loop, transfer, at) for loop in expansion.loops]
                indices = leading + indices
                assert amap is not None and sizes is not None
                amap = prepend_dims(amap, len(leading))
                sizes = [1] * len(leading) + sizes
            args[f"{side}_indices"], args[f"{side}_map"], args[f"{side}_sizes"] = indices, amap, sizes
        new = ktdf.DataTransferOp(source, destination, args["source_map"], args["source_indices"],
                                  args["source_sizes"], args["dest_map"], args["dest_indices"],
                                  args["dest_sizes"], transfer.attributes)
        new.location = transfer.location
        at.insert(new)
        return True

    def normalized_index(self, loop: scf.ForOp, transfer: ktdf.DataTransferOp, at: InsertAt) -> SSAValue:
        """`(iv - lb) / step` of the copy of `loop` this transfer sits in."""
        offset = arith.SubiOp(self.value(loop.body.block.args[0]), self.value(loop.lb))
        index = arith.DivSIOp(offset.result, self.value(loop.step))
        for op in (offset, index):
            op.location = transfer.location
            at.insert(op)
        return index.result


# ---------------------------------------------------------------------------
# Scope correction (step 11)
# ---------------------------------------------------------------------------


def _rebuild_private(private: ktdf.PrivateOp, ops_first: Sequence[Operation], keep: Sequence[int],
                     new_values: Sequence[SSAValue]) -> ktdf.PrivateOp:
    """A private holding `ops_first` (moved in), then its own body; yields `new_values`
    followed by its old yields at `keep`. Uses of kept results follow; the old one is erased."""
    terminator = private.yield_op
    assert terminator is not None
    block = Block()
    for op in ops_first:
        op.detach()
        block.add_op(op)
    move_ops(private.body.block, block, keep=terminator)
    values = list(new_values) + [terminator.values[i] for i in keep]
    block.add_op(ktdf.PrivateYieldOp(values, terminator.attributes))
    return replace_private(private, [v.type for v in values], Region(block),
                           [(index, len(new_values) + position) for position, index in enumerate(keep)])


def correct_scopes(outer: ktdf.PipelineOp) -> None:
    """Move outer private results used only inside one inner pipeline into that pipeline.

    Their defining ops move to the front of the inner pipeline's private (a new private
    when it has none), all their results first; the outer private loses them. A defining
    op moves only when everything it defines goes to the same pipeline and its operands
    come from outside the outer private.
    """
    while True:
        private = outer.private
        if private is None or private.yield_op is None:
            return
        move = _next_scope_move(outer, private)
        if move is None:
            return
        target, ops = move
        _move_into(target, private, ops)


def _next_scope_move(outer: ktdf.PipelineOp, private: ktdf.PrivateOp):
    """The first inner pipeline (in private result order) that takes resources, and their ops."""
    terminator = private.yield_op
    assert terminator is not None
    body = private.body.block
    targets: dict[ktdf.PipelineOp, list[Operation]] = {}
    blocked: set[Operation] = set()
    for index, result in enumerate(private.res):
        if isinstance(result.type, ktdf.TokenType) or not result.uses:
            continue
        users = {nearest_pipeline(use.operation) for use in result.uses}
        value = terminator.values[index]
        owner = value.owner if isinstance(value, OpResult) else None
        if owner is None or owner.parent is not body:
            continue
        if len(users) != 1 or next(iter(users)) in (outer, None):
            blocked.add(owner)
            continue
        ops = targets.setdefault(next(iter(users)), [])
        if owner not in ops:
            ops.append(owner)
    for target, ops in targets.items():
        movable = [op for op in ops if op not in blocked and _can_move(op, target, private)]
        if movable:
            return target, movable
    return None


def _can_move(op: Operation, target: ktdf.PipelineOp, private: ktdf.PrivateOp) -> bool:
    terminator = private.yield_op
    assert terminator is not None
    if any(isinstance(v, OpResult) and v.owner.parent is private.body.block for v in op.operands):
        return False
    for result in op.results:
        for use in result.uses:
            if use.operation is not terminator:
                return False
            if {nearest_pipeline(u.operation) for u in private.res[use.index].uses} - {target}:
                return False
    return True


def _move_into(target: ktdf.PipelineOp, private: ktdf.PrivateOp, ops: Sequence[Operation]) -> None:
    terminator = private.yield_op
    assert terminator is not None
    moved_values = [r for op in ops for r in op.results]
    moved_indices = [i for i, v in enumerate(terminator.values) if isinstance(v, OpResult) and v.owner in ops]
    sources = {i: terminator.values[i] for i in moved_indices}
    inner = target.private
    if inner is None:
        inner = ktdf.PrivateOp([], Region(Block([ktdf.PrivateYieldOp()])))
        inner.location = private.location
        first = target.body.block.first_op
        if first is None:
            target.body.block.add_op(inner)
        else:
            target.body.block.insert_op_before(inner, first)
    new_inner = _rebuild_private(inner, ops, list(range(len(inner.res))), moved_values)
    for index in moved_indices:
        private.res[index].replace_all_uses_with(new_inner.res[moved_values.index(sources[index])])
    keep = [i for i in range(len(private.res)) if i not in moved_indices]
    _rebuild_private(private, [], keep, [])


__all__ = [
    "ALLOWED_BETWEEN_LOOPS",
    "Expansion",
    "InsertAt",
    "Materializer",
    "append_child",
    "correct_dependencies",
    "correct_scopes",
    "depends_on",
    "detach",
    "insert_child",
    "legalize",
    "new_node",
    "pre_order",
    "remove_lifting_children",
]
