"""The token DAGs between stages (`docs/passes.md#ktdf-to-ktdflowering`): one pipeline's
(`analyze_stage_dependencies`, `topological_sort`), the root/leaf stages of a stage that wraps a
pipeline, and the global DAG over leaf stages (`build_global_stage_dag`).

Everything iterates in IR order (Decision 5): maps are keyed by ops but only ever walked in the
order their keys were inserted, which is IR order (`op_positions` gives it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from dfsched.dialects import ktdf
from dfsched.passes.aliasing import memref_aliases, writes_to
from dfsched.passes.walk import nearest_ancestor, pipelines_post_order, post_order, runs_compute_ops_in_sequence


def direct_stages(pipeline: ktdf.PipelineOp) -> list[ktdf.StageOp]:
    return [op for op in pipeline.body.block.ops if isinstance(op, ktdf.StageOp)]


def op_positions(root: Operation) -> dict[Operation, int]:
    """Pre-order position of every op under `root`: the IR order used to sort."""
    return {op: i for i, op in enumerate(root.walk())}


# ---------------------------------------------------------------------------
# Stage dependency DAGs
# ---------------------------------------------------------------------------


@dataclass
class StageDAG:
    """Edges between stages; successor and predecessor lists keep insertion order, no duplicates."""

    successors: dict[Operation, list[Operation]] = field(default_factory=dict)
    predecessors: dict[Operation, list[Operation]] = field(default_factory=dict)

    def add_node(self, stage: Operation) -> None:
        self.successors.setdefault(stage, [])
        self.predecessors.setdefault(stage, [])

    def add_edge(self, producer: Operation, consumer: Operation) -> None:
        self.add_node(producer)
        self.add_node(consumer)
        if consumer not in self.successors[producer]:
            self.successors[producer].append(consumer)
            self.predecessors[consumer].append(producer)

    def has_edge(self, producer: Operation, consumer: Operation) -> bool:
        return consumer in self.successors.get(producer, ())

    def edges(self) -> list[tuple[Operation, Operation]]:
        return [(p, c) for p, succs in self.successors.items() for c in succs]

    def edges_in_ir_order(self, position: dict[Operation, int]) -> list[tuple[Operation, Operation]]:
        """Edges sorted by the producer's IR position, then the consumer's."""
        return sorted(self.edges(), key=lambda e: (position[e[0]], position[e[1]]))


class CircularDependency(Exception):
    def __init__(self, stage: ktdf.StageOp):
        super().__init__("Circular token dependency detected in pipeline")
        self.stage = stage


def analyze_stage_dependencies(stages: Sequence[ktdf.StageOp]) -> StageDAG:
    """Producer→consumer edges of the stages of one pipeline, from their tokens.

    A token in a stage's `depends_in` connects it to the stage listing the token in
    `depends_out` (the last such stage). Raises `CircularDependency` on a cycle.
    """
    dag = StageDAG()
    producer: dict[SSAValue, ktdf.StageOp] = {}
    for stage in stages:
        dag.add_node(stage)
        for token in stage.depends_out:
            producer[token] = stage
    for stage in stages:
        for token in stage.depends_in:
            if token in producer:
                dag.add_edge(producer[token], stage)
    _check_acyclic(stages, dag)
    return dag


def _check_acyclic(stages: Sequence[ktdf.StageOp], dag: StageDAG) -> None:
    color: dict[Operation, int] = {}  # absent: unvisited, 1: on the stack, 2: done
    for start in stages:
        if start in color:
            continue
        stack: list[tuple[Operation, Iterator[Operation]]] = [(start, iter(dag.successors[start]))]
        color[start] = 1
        while stack:
            node, successors = stack[-1]
            nxt = next(successors, None)
            if nxt is None:
                color[node] = 2
                stack.pop()
            elif color.get(nxt) == 1:
                raise CircularDependency(start)
            elif nxt not in color:
                color[nxt] = 1
                stack.append((nxt, iter(dag.successors[nxt])))


def topological_sort(stages: Sequence[ktdf.StageOp], dag: StageDAG) -> list[ktdf.StageOp] | None:
    """Kahn's algorithm with a FIFO queue seeded in stage order (None if a cycle remains)."""
    in_degree = {s: len(dag.predecessors.get(s, ())) for s in stages}
    queue = [s for s in stages if in_degree[s] == 0]
    order: list[ktdf.StageOp] = []
    while queue:
        current = queue.pop(0)
        order.append(current)
        for succ in dag.successors.get(current, ()):
            in_degree[succ] -= 1
            if in_degree[succ] == 0:
                queue.append(succ)
    return order if len(order) == len(stages) else None


def nested_pipeline(stage: ktdf.StageOp) -> ktdf.PipelineOp | None:
    """The first pipeline a post-order walk of `stage` reaches (the deepest on the first path)."""
    for op in post_order(stage):
        if isinstance(op, ktdf.PipelineOp):
            return op
    return None


def root_stages(stage: ktdf.StageOp) -> list[ktdf.StageOp]:
    """The leaf stages that start `stage`: itself, or the roots of its nested pipeline's sources."""
    return _boundary_stages(stage, sources=True)


def leaf_stages(stage: ktdf.StageOp) -> list[ktdf.StageOp]:
    """The leaf stages that end `stage`: itself, or the leaves of its nested pipeline's sinks."""
    return _boundary_stages(stage, sources=False)


def _boundary_stages(stage: ktdf.StageOp, sources: bool) -> list[ktdf.StageOp]:
    inner_pipeline = nested_pipeline(stage)
    if inner_pipeline is None:
        return [stage]
    inner = direct_stages(inner_pipeline)
    try:
        dag = analyze_stage_dependencies(inner)
    except CircularDependency:
        return [stage]
    result: list[ktdf.StageOp] = []
    for s in inner:
        neighbours = dag.predecessors[s] if sources else dag.successors[s]
        if not neighbours:
            result.extend(_boundary_stages(s, sources))
    return result


def build_global_stage_dag(root: Operation) -> StageDAG:
    """Edges between leaf stages across every nesting level under `root`.

    Pipelines are taken outermost first; each local edge P→C of a pipeline adds
    leaves(P) × roots(C). In a program of several compute ops (Decision 47), pipelines that follow
    each other in one block add edges from the leaves of the earlier one's last stages to every
    leaf stage of the later one: a later stage may read what the earlier pipeline wrote,
    whichever stage it is. (Elsewhere upstream's DAG stands: a hoisted load's pipeline is
    ordered through the DMA unit it shares with the loop's load stage.) Raises `CircularDependency` when a pipeline has a token cycle.
    """
    dag = StageDAG()
    pipelines = list(reversed(pipelines_post_order(root)))
    for pipeline in pipelines:
        stages = direct_stages(pipeline)
        if not stages:
            continue
        local = analyze_stage_dependencies(stages)
        for producer, consumer in local.edges():
            for leaf in leaf_stages(producer):
                for first in root_stages(consumer):
                    dag.add_edge(leaf, first)
    siblings = _consecutive_siblings(pipelines) if runs_compute_ops_in_sequence(root) else []
    for earlier, later in siblings:
        consumers = [s for s in later.walk() if isinstance(s, ktdf.StageOp) and nested_pipeline(s) is None]
        for producer in _last_stages(earlier):
            for leaf in leaf_stages(producer):
                for consumer in consumers:
                    dag.add_edge(leaf, consumer)
    return dag


def _consecutive_siblings(pipelines: Sequence[ktdf.PipelineOp]) -> list[tuple[ktdf.PipelineOp, ktdf.PipelineOp]]:
    """Outermost pipelines that follow each other in one block, directly or inside the loops a
    block holds (a program's compute ops in order, a hoisted load before its consumer): the
    first one of the later op starts after the last one of the earlier op ends."""
    outermost = [p for p in pipelines if nearest_ancestor(p, ktdf.PipelineOp) is None]
    holders: dict[Operation, list[ktdf.PipelineOp]] = {}
    for pipeline in outermost:
        holder: Operation = pipeline
        while holder.parent_op() is not None and not isinstance(holder.parent_op(), FuncOp):
            holder = holder.parent_op()  # type: ignore[assignment]
        holders.setdefault(holder, []).append(pipeline)
    pairs = []
    for holder, inside in holders.items():
        following = holder.next_op
        while following is not None and following not in holders:
            following = following.next_op
        if following is not None:
            pairs.append((inside[-1], holders[following][0]))
    return pairs


def _last_stages(pipeline: ktdf.PipelineOp) -> list[ktdf.StageOp]:
    """The stages of `pipeline` without successors."""
    stages = direct_stages(pipeline)
    local = analyze_stage_dependencies(stages)
    return [s for s in stages if not local.successors[s]]


def address_list_edges(root: Operation) -> list[tuple[ktdf.StageOp, ktdf.StageOp]]:
    """Writer → mover edges of every `ktdf.indirect_view` under `root`: the leaf stages that
    write its address list (the address program's store) before the stages whose transfers
    move its rows. They are in different pipelines, which tokens do not order."""
    edges: list[tuple[ktdf.StageOp, ktdf.StageOp]] = []
    leaves = [s for s in post_order(root, ktdf.StageOp) if nested_pipeline(s) is None]
    for view in post_order(root, ktdf.IndirectViewOp):
        aliases = memref_aliases(view.addresses)
        writers = [s for s in leaves if any(writes_to(op, aliases) for op in s.walk())]
        movers = [s for s in leaves if any(isinstance(op, ktdf.DataTransferOp)
                                           and view.result in (op.source, op.destination) for op in s.walk())]
        edges.extend((writer, mover) for writer in writers for mover in movers if writer is not mover)
    return edges
