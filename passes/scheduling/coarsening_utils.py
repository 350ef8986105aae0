"""The machinery behind `stage-coarsening` (`docs/passes.md#stage-coarsening`).

* **Tree editing** on the shared `PipelineTree` nodes (`dfsched.passes.scheduling.utils`):
  append, insert at a position, detach, and remove a node lifting its children.
* **Legalizer** (step 7): wrap loose loops of a pipeline in a stage, give stages
  under a loop their own nested pipeline, and give a pipeline whose stages wait on each
  other a private to hold the tokens.
* **Materializer** (step 9): builds the IR of a rearranged tree before the original
  loop nest. Loops copy their template's bounds, attributes and tiling ops; stages clone
  their original body into their innermost loop; buffers marked for expansion get the
  loop dims in front and every transfer touching them one index per added dim.
* **Scope correction** (step 11): outer private results used only inside one inner
  pipeline move into that pipeline's private.

Everything keeps IR order (Decision 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, MemRefType, NoneAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from dfsched.dialects import ktdf
from dfsched.passes.scheduling.utils import (
    NodeKind,
    PipelineTree,
    TreeNode,
    depends_on,
    is_inside,
    move_ops,
    nearest_pipeline,
    substitute,
)

# ---------------------------------------------------------------------------
# IR queries
# ---------------------------------------------------------------------------

ALLOWED_BETWEEN_LOOPS = (ktdf.TilingDeriveSizeOp, ktdf.TilingLinearizeIndexOp)
"""Ops a loop of a sunk nest may hold besides the next loop (what tiling puts there)."""


def defined_inside(value: SSAValue, container: Operation) -> bool:
    """True when `value` is defined by an op in `container` (or is one of its block arguments)."""
    if isinstance(value, OpResult):
        return is_inside(value.owner, container)
    if isinstance(value, BlockArgument):
        return is_inside(value.block.parent_op(), container)
    return False


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
    new = ktdf.PrivateOp([v.type for v in values], Region(block), private.attributes)
    new.location = private.location
    parent = private.parent
    assert parent is not None
    parent.insert_op_before(new, private)
    for position, index in enumerate(keep):
        private.res[index].replace_all_uses_with(new.res[len(new_values) + position])
    parent.erase_op(private, safe_erase=False)
    return new


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
    "defined_inside",
    "depends_on",
    "detach",
    "insert_child",
    "is_inside",
    "legalize",
    "new_node",
    "pre_order",
    "remove_lifting_children",
]
