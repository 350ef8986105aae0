"""The structure of scheduled pipelines, shared by the scheduling passes (`docs/passes.md`).

* **PipelineTree**: the loops, pipelines, stages and privates under a root op, stage
  edges from token flow, topological order of a pipeline's stages (Kahn, seeded in
  sibling order), unmaterialized stage nodes with a template op.
* **Linear chains**: `linear_stage_chain(pipeline)` for passes that need the stages of a
  pipeline as one producer->consumer chain.
* **Scopes**: `pipeline_enclosing_scope` (the `scf.for` ancestors of a pipeline,
  innermost first) and `is_parallel_loop`.
* Where an op stands: `stage_ops`, `nearest_stage`, `nearest_pipeline`, `contains_pipeline`.

Everything here keeps IR order (Decision 5): no result depends on hashing or pointers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue

from dfsched.passes.walk import nearest_ancestor
from dfsched.dialects import ktdf


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
                  and not p.is_ancestor(pipeline) and not child.is_ancestor(p)]
        if others:
            break
        scope.append(parent)
        child = parent
        parent = parent.parent_op()
    return scope
