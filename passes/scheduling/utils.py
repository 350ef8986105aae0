"""Structural helpers shared by the scheduling passes (`docs/passes.md`).

* **PipelineTree**: the loops, pipelines, stages and privates under a root op, stage
  edges from token flow, topological order of a pipeline's stages (Kahn, seeded in
  sibling order), unmaterialized stage nodes with a template op.
* **Linear chains**: `linear_stage_chain(pipeline)` for passes that need the stages of a
  pipeline as one producer→consumer chain.
* **Token re-materialization**: `TokenPlan` gives a rebuilt pipeline one fresh token per
  stage that has a successor, yielded after all resources, in stage order.
* **Private helpers**: `extend_private` (add resources and tokens to a private),
  `cleanup_private` (drop unused results and the body ops only they needed) and `move_ops`
  (a block's ops into another block).
* **Scopes**: `pipeline_enclosing_scope` (the `scf.for` ancestors of a pipeline,
  innermost first) and `is_parallel_loop`.
* **Affine subscripts**: `fold_subscript_map_and_operands` (duplicate operands merged,
  constant dim operands folded into the map, unused dims dropped).
* **Retyping**: `retype_private_results` (a wider buffer, a bigger FIFO slot: the defining
  `memref.alloc` / `ktdf.fifo.allocate` and the private are rebuilt, every use follows).
* **Transfers**: `set_transfer_side` (a new map and index list for one side).
* Small IR helpers: `post_order`, `pipelines_post_order`, `stage_ops`, `nearest_ancestor`,
  `nearest_stage`, `nearest_pipeline`, `contains_pipeline`, `enclosing_function`,
  `index_constant_at_function_entry`, `zero_map`.

Everything here keeps IR order (Decision 5): no result depends on hashing or pointers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, i32
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSymExpr

from dfsched.passes.walk import nearest_ancestor
from dfsched.dialects import ktdf
from dfsched.dialects.constants import constant_int, index_constant
from dfsched.dialects.affine_subscripts import (
    affine_add,
    affine_ceildiv,
    affine_floordiv,
    affine_mod,
    affine_mul,
)

# ---------------------------------------------------------------------------
# Walking
# ---------------------------------------------------------------------------


OpT = TypeVar("OpT", bound=Operation)


def stage_ops(stage: ktdf.StageOp) -> list[Operation]:
    """The ops of `stage`, nested ones included, except those of stages nested in it."""
    return [op for op in stage.walk() if op is not stage and nearest_stage(op) is stage]


def nearest_stage(op: Operation) -> ktdf.StageOp | None:
    """The closest `ktdf.stage` holding `op`."""
    return nearest_ancestor(op, ktdf.StageOp)


def nearest_pipeline(op: Operation) -> ktdf.PipelineOp | None:
    """The closest `ktdf.pipeline` holding `op`."""
    return nearest_ancestor(op, ktdf.PipelineOp)


def contains_pipeline(op: Operation) -> bool:
    return any(isinstance(inner, ktdf.PipelineOp) for inner in op.walk() if inner is not op)


# ---------------------------------------------------------------------------
# PipelineTree
# ---------------------------------------------------------------------------


class NodeKind(Enum):
    ROOT = "root"
    LOOP = "loop"
    PIPELINE = "pipeline"
    STAGE = "stage"
    PRIVATE = "private"


@dataclass(eq=False)
class TreeNode:
    """A node of a PipelineTree.

    `op` is the IR op; an *unmaterialized* node has none and carries a `template` whose
    bounds and attributes are copied when it is built. Stage nodes number themselves in
    walk order (`stage_id`) and list the stages that wait for them (`successors`).
    """

    kind: NodeKind
    op: Operation | None = None
    template: Operation | None = None
    parent: TreeNode | None = None
    children: list[TreeNode] = field(default_factory=list)
    stage_id: int = -1
    successors: list[TreeNode] = field(default_factory=list)

    @property
    def materialized(self) -> bool:
        return self.op is not None

    @property
    def op_or_template(self) -> Operation | None:
        return self.op if self.op is not None else self.template

    @property
    def stages(self) -> list[TreeNode]:
        return [c for c in self.children if c.kind is NodeKind.STAGE]

    @property
    def private(self) -> TreeNode | None:
        return next((c for c in self.children if c.kind is NodeKind.PRIVATE), None)

    def insert_child(self, node: TreeNode, after: TreeNode | None = None) -> None:
        """Add `node` as a child, right after `after` (first when `after` is None)."""
        node.parent = self
        index = 0 if after is None else self.children.index(after) + 1
        self.children.insert(index, node)

    def predecessors(self) -> list[TreeNode]:
        """Stages this stage waits for, in sibling order."""
        if self.parent is None:
            return []
        return [s for s in self.parent.stages if self in s.successors]

    def __repr__(self) -> str:
        label = f"stage {self.stage_id}" if self.kind is NodeKind.STAGE else self.kind.value
        return f"<{label}{'' if self.materialized else ' (unmaterialized)'}>"


_SELECTED = (scf.ForOp, ktdf.PipelineOp, ktdf.StageOp, ktdf.PrivateOp)


class PipelineTree:
    """Loops, pipelines, stages and privates under `root`, with stage edges from tokens.

    A node's parent is its nearest selected ancestor below `root` (or the root node).
    Stage S precedes stage T when a token in T's `depends_in` is in S's `depends_out`
    (the last stage listing a token in `depends_out` produces it).
    """

    def __init__(self, root: Operation):
        self.root = TreeNode(NodeKind.ROOT)
        self._nodes: dict[Operation, TreeNode] = {}
        self._next_stage_id = 0
        self._build(root)

    def _build(self, root: Operation) -> None:
        for op in root.walk():
            if not isinstance(op, _SELECTED):
                continue
            node = self._new_node(op)
            parent = self.root
            ancestor = op.parent_op() if op is not root else None
            while ancestor is not None:
                if ancestor in self._nodes:
                    parent = self._nodes[ancestor]
                    break
                if ancestor is root:
                    break
                ancestor = ancestor.parent_op()
            parent.children.append(node)
            node.parent = parent
        for op, node in self._nodes.items():
            if node.kind is NodeKind.PIPELINE:
                self._link_stages(node)

    def _new_node(self, op: Operation) -> TreeNode:
        if isinstance(op, scf.ForOp):
            kind = NodeKind.LOOP
        elif isinstance(op, ktdf.PipelineOp):
            kind = NodeKind.PIPELINE
        elif isinstance(op, ktdf.StageOp):
            kind = NodeKind.STAGE
        else:
            kind = NodeKind.PRIVATE
        node = TreeNode(kind, op)
        if kind is NodeKind.STAGE:
            node.stage_id = self._next_stage_id
            self._next_stage_id += 1
        self._nodes[op] = node
        return node

    def _link_stages(self, pipeline: TreeNode) -> None:
        producers: dict[SSAValue, TreeNode] = {}
        for stage in pipeline.stages:
            assert isinstance(stage.op, ktdf.StageOp)
            for token in stage.op.depends_out:
                producers[token] = stage
        for stage in pipeline.stages:
            assert isinstance(stage.op, ktdf.StageOp)
            for token in stage.op.depends_in:
                producer = producers.get(token)
                if producer is not None:
                    producer.successors.append(stage)

    # -- queries ----------------------------------------------------------
    def node_for(self, op: Operation) -> TreeNode | None:
        return self._nodes.get(op)

    def create_stage(self, template: Operation | None = None) -> TreeNode:
        """A new unmaterialized stage node (not yet attached to a pipeline)."""
        node = TreeNode(NodeKind.STAGE, None, template, stage_id=self._next_stage_id)
        self._next_stage_id += 1
        return node

    @staticmethod
    def topological_stages(pipeline: TreeNode) -> list[TreeNode] | None:
        """Stages in dependency order (Kahn's algorithm seeded in sibling order); None on a cycle."""
        stages = pipeline.stages
        in_degree = {id(s): 0 for s in stages}
        for stage in stages:
            for succ in stage.successors:
                in_degree[id(succ)] = in_degree.get(id(succ), 0) + 1
        queue = [s for s in stages if in_degree[id(s)] == 0]
        order: list[TreeNode] = []
        while queue:
            current = queue.pop(0)
            order.append(current)
            for succ in current.successors:
                in_degree[id(succ)] -= 1
                if in_degree[id(succ)] == 0:
                    queue.append(succ)
        return order if len(order) == len(stages) else None

    @staticmethod
    def sources(pipeline: TreeNode) -> list[TreeNode]:
        return [s for s in pipeline.stages if not s.predecessors()]

    @staticmethod
    def sinks(pipeline: TreeNode) -> list[TreeNode]:
        return [s for s in pipeline.stages if not s.successors]


class ChainError(Exception):
    """The stages of a pipeline do not form one linear chain (the reason is the message)."""


def linear_stage_chain(pipeline: ktdf.PipelineOp) -> list[ktdf.StageOp]:
    """The stages of `pipeline` in chain order; `ChainError` unless they form one linear chain."""
    tree = PipelineTree(pipeline)
    node = tree.node_for(pipeline)
    assert node is not None
    if not node.stages:
        return []
    order = tree.topological_stages(node)
    if order is None:
        raise ChainError("the stage dependencies form a cycle")
    incoming: dict[int, int] = {}
    for stage in order:
        if len(stage.successors) > 1:
            raise ChainError(f"stage {stage.stage_id} has {len(stage.successors)} successors")
        for succ in stage.successors:
            incoming[id(succ)] = incoming.get(id(succ), 0) + 1
    for stage in order:
        if incoming.get(id(stage), 0) > 1:
            raise ChainError(f"stage {stage.stage_id} has {incoming[id(stage)]} predecessors")
    sources = sum(1 for s in order if incoming.get(id(s), 0) == 0)
    sinks = sum(1 for s in order if not s.successors)
    if sources != 1 or sinks != 1:
        raise ChainError(f"the stages form {sources} chains, not one")
    return [s.op for s in order if isinstance(s.op, ktdf.StageOp)]


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------


class TokenPlan:
    """Token re-materialization for a rebuilt pipeline.

    `stages` are stage keys in sibling order and `successors` maps a key to the keys that
    wait for it. Every stage with a successor gets one token, numbered in stage order;
    `depends_out` is that token, `depends_in` the predecessors' tokens in sibling order.
    """

    def __init__(self, stages: Sequence[object], successors: dict[int, list[object]] | None = None):
        self.stages = list(stages)
        if successors is None:  # a linear chain in list order
            successors = {id(s): [t] for s, t in zip(self.stages, self.stages[1:])}
        self.successors = successors
        self.producers = [s for s in self.stages if self.successors.get(id(s))]
        self._index = {id(s): i for i, s in enumerate(self.producers)}
        self.tokens: list[SSAValue] = []

    @property
    def count(self) -> int:
        return len(self.producers)

    def bind(self, tokens: Sequence[SSAValue]) -> None:
        """The token values (private results), one per producer, in order."""
        assert len(tokens) == self.count
        self.tokens = list(tokens)

    def depends_out(self, stage: object) -> list[SSAValue]:
        index = self._index.get(id(stage))
        return [] if index is None else [self.tokens[index]]

    def depends_in(self, stage: object) -> list[SSAValue]:
        out: list[SSAValue] = []
        for other in self.stages:
            if any(s is stage for s in self.successors.get(id(other), ())):
                out.append(self.tokens[self._index[id(other)]])
        return out


# ---------------------------------------------------------------------------
# Privates
# ---------------------------------------------------------------------------


def extend_private(
    private: ktdf.PrivateOp, resources: Sequence[Operation], token_count: int = 0
) -> tuple[ktdf.PrivateOp, list[SSAValue], list[SSAValue]]:
    """Replace `private` by one that also yields `resources`' results, then fresh tokens.

    The resource ops (detached, or in any block) move to the end of the body, in order;
    `token_count` `ktdf.create_token` ops follow them. Uses of the old results move to the
    new ones, and uses of the resource ops' results *outside* the private move to the new
    private's matching results. Returns the new private, its resource results and its
    token results.
    """
    old_yield = private.yield_op
    assert old_yield is not None
    old_values = list(old_yield.values)
    body = private.body.block
    extra_values: list[SSAValue] = []
    for op in resources:
        if op.parent is not None:
            op.detach()
        extra_values.extend(op.results)
    tokens = [ktdf.CreateTokenOp() for _ in range(token_count)]
    types = [r.type for r in private.res] + [v.type for v in extra_values] + [ktdf.TokenType()] * token_count
    new_region = Region(Block())
    new_block = new_region.block
    move_ops(body, new_block, keep=old_yield)
    for op in resources:
        new_block.add_op(op)
    for token in tokens:
        new_block.add_op(token)
    yielded = old_values + extra_values + [t.result for t in tokens]
    new_block.add_op(ktdf.PrivateYieldOp(yielded, old_yield.attributes))
    count = len(private.res)
    new_private = replace_private(private, types, new_region, [(i, i) for i in range(count)])
    extra_results = list(new_private.res[count : count + len(extra_values)])
    for value, result in zip(extra_values, extra_results):
        value.replace_uses_with_if(result, lambda use: not is_inside(use.operation, new_private))
    token_results = list(new_private.res[count + len(extra_values) :])
    return new_private, extra_results, token_results


def replace_private(private: ktdf.PrivateOp, types: Sequence[Attribute], region: Region,
                    result_map: Iterable[tuple[int, int]]) -> ktdf.PrivateOp:
    """Put a new `ktdf.private` of `types` over `region` in place of `private` (its attributes
    and location kept); each (old, new) pair of `result_map` moves the old result's uses to
    the new result. The old private is erased."""
    new_private = ktdf.PrivateOp(types, region, private.attributes)
    new_private.location = private.location
    parent = private.parent
    assert parent is not None
    parent.insert_op_before(new_private, private)
    for old, new in result_map:
        private.res[old].replace_all_uses_with(new_private.res[new])
    parent.erase_op(private, safe_erase=False)
    return new_private


def move_ops(source: Block, destination: Block, keep: Operation | None = None) -> None:
    """Move the ops of `source`, in order and except `keep` (its terminator, say), to the end
    of `destination`."""
    for op in list(source.ops):
        if op is keep:
            continue
        op.detach()
        destination.add_op(op)


def is_inside(op: Operation | None, container: Operation) -> bool:
    """True when `op` is `container` or nested in it."""
    while op is not None:
        if op is container:
            return True
        op = op.parent_op()
    return False


def depends_on(value: SSAValue, target: SSAValue) -> bool:
    """True when `value` is `target` or is computed from it (through defining ops' operands)."""
    seen: set[SSAValue] = set()
    work = [value]
    while work:
        current = work.pop()
        if current is target:
            return True
        if current in seen:
            continue
        seen.add(current)
        if isinstance(current, OpResult):
            work.extend(current.owner.operands)
    return False


def cleanup_private(private: ktdf.PrivateOp) -> ktdf.PrivateOp:
    """Drop unused results and keep only the body ops the remaining yields need.

    As upstream, a private whose results are all used is left exactly as it is.
    """
    terminator = private.yield_op
    assert terminator is not None
    live = [i for i, r in enumerate(private.res) if r.uses]
    if len(live) == len(private.res):
        return private
    body = private.body.block
    needed: set[Operation] = set()
    worklist = [terminator.values[i] for i in live]
    while worklist:
        value = worklist.pop()
        if not isinstance(value, OpResult):
            continue
        owner = value.owner
        if owner.parent is not body or owner is terminator or owner in needed:
            continue
        needed.add(owner)
        worklist.extend(owner.operands)
    new_region = Region(Block())
    new_block = new_region.block
    mapping: dict[SSAValue, SSAValue] = {}
    for op in body.ops:
        if op is terminator or op not in needed:
            continue
        new_block.add_op(op.clone(mapping))
    new_block.add_op(ktdf.PrivateYieldOp([mapping.get(terminator.values[i], terminator.values[i]) for i in live],
                                         terminator.attributes))
    return replace_private(private, [private.res[i].type for i in live], new_region,
                           [(old, new) for new, old in enumerate(live)])


def retype_private_results(private: ktdf.PrivateOp, new_types: dict[int, Attribute]) -> ktdf.PrivateOp:
    """Give results of `private` new types (e.g. a wider buffer, a bigger FIFO slot).

    Each changed result must be yielded straight from a `memref.alloc` without dynamic
    sizes, or from a `ktdf.fifo.allocate` (its other slots keep their types); that op is
    rebuilt with the new type, then the private itself, and every use follows.
    Returns the new private (the old one is erased).
    """
    from xdsl.dialects import memref

    terminator = private.yield_op
    assert terminator is not None
    rebuilt: dict[Operation, Operation] = {}
    for index, new_type in new_types.items():
        value = terminator.values[index]
        assert isinstance(value, OpResult)
        owner = rebuilt.get(value.owner, value.owner)
        if isinstance(owner, memref.AllocOp):
            new_owner: Operation = memref.AllocOp([], [], new_type, owner.alignment)
        elif isinstance(owner, ktdf.FifoAllocateOp):
            types = [s.type for s in owner.slots]
            types[value.index] = new_type
            new_owner = ktdf.FifoAllocateOp(types, list(owner.dynamic_sizes), owner.attributes)
        else:
            raise ValueError(f"cannot retype a private result defined by {owner.name}")
        new_owner.location = owner.location
        block = owner.parent
        assert block is not None
        block.insert_op_before(new_owner, owner)
        for old, new in zip(owner.results, new_owner.results):
            old.replace_all_uses_with(new)
        block.erase_op(owner)
        rebuilt[value.owner] = new_owner
    types = [new_types.get(i, r.type) for i, r in enumerate(private.res)]
    region = private.detach_region(private.body)
    return replace_private(private, types, region, [(i, i) for i in range(len(types))])


def private_result_source(value: SSAValue) -> SSAValue | None:
    """For a `ktdf.private` result, the value its yield returns at that position."""
    if isinstance(value, OpResult) and isinstance(value.owner, ktdf.PrivateOp):
        terminator = value.owner.yield_op
        if terminator is not None and value.index < len(terminator.values):
            return terminator.values[value.index]
    return None


# ---------------------------------------------------------------------------
# Scopes
# ---------------------------------------------------------------------------


def is_parallel_loop(loop: Operation) -> bool:
    """True when the loop carries `loop_type = #ktdf.loop_type<parallel_loop>`."""
    loop_type = loop.attributes.get("loop_type")
    return isinstance(loop_type, ktdf.LoopTypeAttr) and loop_type.data == ktdf.LoopType.PARALLEL_LOOP


def pipeline_enclosing_scope(pipeline: ktdf.PipelineOp) -> list[scf.ForOp]:
    """The `scf.for` ancestors of `pipeline`, innermost first.

    The walk stops at the first ancestor that is not an `scf.for`, and before a loop whose
    body holds another pipeline that is not on the way to `pipeline`.
    """
    scope: list[scf.ForOp] = []
    child: Operation = pipeline
    parent = pipeline.parent_op()
    while isinstance(parent, scf.ForOp):
        others = [p for p in parent.walk() if isinstance(p, ktdf.PipelineOp) and p is not pipeline
                  and not is_inside(pipeline, p) and not is_inside(p, child)]
        if others:
            break
        scope.append(parent)
        child = parent
        parent = parent.parent_op()
    return scope


# ---------------------------------------------------------------------------
# Transfers
# ---------------------------------------------------------------------------


def set_transfer_side(transfer: ktdf.DataTransferOp, side: str, amap: AffineMap, indices: Sequence[SSAValue]) -> None:
    """Give one side (`"source"` or `"dest"`) of `transfer` a new map and index list (operand
    segments follow)."""
    groups = [
        [transfer.source], list(transfer.source_indices), list(transfer.source_sizes),
        [transfer.destination], list(transfer.dest_indices), list(transfer.dest_sizes),
    ]
    groups[1 if side == "source" else 4] = list(indices)
    transfer.operands = [v for group in groups for v in group]
    transfer.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(g) for g in groups])
    transfer.properties[f"{side}_map"] = AffineMapAttr(amap)


# ---------------------------------------------------------------------------
# Constants and functions
# ---------------------------------------------------------------------------


def enclosing_function(op: Operation) -> func.FuncOp | None:
    return nearest_ancestor(op, func.FuncOp)


def index_constant_at_function_entry(op: Operation, value: int) -> SSAValue | None:
    """A new `arith.constant <value> : index` at the start of `op`'s function (None outside one)."""
    function = enclosing_function(op)
    if function is None or not function.body.blocks:
        return None
    constant = index_constant(value)
    entry = function.body.blocks[0]
    first = entry.first_op
    if first is None:
        entry.add_op(constant)
    else:
        entry.insert_op_before(constant, first)
    return constant.result


# ---------------------------------------------------------------------------
# Affine subscripts
# ---------------------------------------------------------------------------


def substitute(expr: AffineExpr, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr] = ()) -> AffineExpr:
    """`expr` with dims and symbols replaced, folding constants as MLIR's builders do."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = substitute(expr.lhs, dims, symbols)
        rhs = substitute(expr.rhs, dims, symbols)
        combine = {
            AffineBinaryOpKind.Add: affine_add,
            AffineBinaryOpKind.Mul: affine_mul,
            AffineBinaryOpKind.FloorDiv: affine_floordiv,
            AffineBinaryOpKind.CeilDiv: affine_ceildiv,
            AffineBinaryOpKind.Mod: affine_mod,
        }[expr.kind]
        return combine(lhs, rhs)
    return expr


def fold_subscript_map_and_operands(
    amap: AffineMap, operands: Sequence[SSAValue]
) -> tuple[AffineMap, list[SSAValue]]:
    """Subscript maps as path expansion wants them (not MLIR's `canonicalizeMapAndOperands`,
    which `cleanup.affine_utils` implements: that one keeps constant dims and may turn dims into
    symbols). Operands defined by index constants fold into the map, repeated operands share one
    dim, and dims the map no longer uses are dropped (dims renumbered in operand order).
    Symbols are kept as they are.
    """
    num_dims = amap.num_dims
    dim_operands = list(operands[:num_dims])
    sym_operands = list(operands[num_dims:])
    used = set()
    for result in amap.results:
        used |= _used_dims(result)
    replacement: list[AffineExpr] = []
    kept: list[SSAValue] = []
    seen: dict[SSAValue, int] = {}
    for position, value in enumerate(dim_operands):
        if position not in used:
            replacement.append(AffineConstantExpr(0))  # never referenced
            continue
        constant = constant_int(value)
        if constant is not None:
            replacement.append(AffineConstantExpr(constant))
            continue
        if value in seen:
            replacement.append(AffineDimExpr(seen[value]))
            continue
        seen[value] = len(kept)
        replacement.append(AffineDimExpr(len(kept)))
        kept.append(value)
    symbols = [AffineSymExpr(i) for i in range(amap.num_symbols)]
    results = tuple(substitute(r, replacement, symbols) for r in amap.results)
    return AffineMap(len(kept), amap.num_symbols, results), kept + sym_operands


def _used_dims(expr: AffineExpr) -> set[int]:
    if isinstance(expr, AffineDimExpr):
        return {expr.position}
    if isinstance(expr, AffineBinaryOpExpr):
        return _used_dims(expr.lhs) | _used_dims(expr.rhs)
    return set()


def zero_map(rank: int) -> AffineMap:
    """`() -> (0, ..., 0)`: the subscripts of a whole scratchpad buffer."""
    return AffineMap(0, 0, tuple(AffineConstantExpr(0) for _ in range(rank)))

