"""The routing graph of a device and the shortest routes path expansion follows.

Built exactly as upstream's RoutingGraph (`docs/devices.md#the-model-in-one-page`): one pass over the device body
in textual order; the first group of each kind is entered, later groups of that kind
collapse into one Compute node per result; unkinded groups are always entered, so their
contents are duplicated. Every datapath is an edge of cost 1, kept in insertion order.

Routes are breadth-first from the source, neighbours in edge insertion order, so ties
break as upstream's `findShortestPath`. (`networkx.shortest_path` runs a bidirectional
search that breaks ties differently; it must not be used here.)

The networkx graph is built, and networkx imported (about 0.2 s of CPU, a fifth of a small
compile), on the first route that needs a search. A route the datapaths leave no choice about
is read from the edge lists: the destination one datapath away, or behind one unit, at the end
of a chain of resources with a single way out (DDR -> its load unit -> the scratchpad -> the
compute unit's load unit -> the compute unit). Every kind-to-kind route of the shipped devices
is such a route; routes between cores over the core links, and any other, search the graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Block, SSAValue

from dfsched.arch.intrinsics import CoreLinks, read_features
from dfsched.arch.views import kind_name
from dfsched.dialects.ktdf_arch import DatapathOp, DeviceOp, ExecUnitOp, GroupOp, MemoryOp, YieldOp

if TYPE_CHECKING:
    import networkx as nx


class NodeClass(Enum):
    MEMORY = "Memory"
    LOAD_STORE_UNIT = "LoadStoreUnit"
    COMPUTE = "Compute"


@dataclass(frozen=True)
class RouteNode:
    """A routing-graph node: its id, resource kind, class and (memories) capacity."""

    id: int
    resource: Attribute
    cls: NodeClass
    capacity: int | None = None
    core: int | None = None  # a scratchpad on the core-to-core links: which core's

    @property
    def name(self) -> str:
        name = kind_name(self.resource)
        return "?" if name is None else name

    @property
    def label(self) -> str:
        """The kind, with the core for a node of the core-to-core links (`LX@core3`)."""
        return self.name if self.core is None else f"{self.name}@core{self.core}"


class RoutingGraph:
    """Nodes and directed edges between device resources, queried by resource kind."""

    def __init__(self) -> None:
        self.nodes: list[RouteNode] = []
        self._edges: list[tuple[int, int, dict]] = []  # (src, dst, facts) in insertion order
        self._successors: dict[int, list[int]] = {}  # each node's successors, first edge first

    # -- construction -----------------------------------------------------
    @classmethod
    def from_device(cls, device: DeviceOp) -> RoutingGraph:
        routing = cls()
        if device.block is not None:
            _Builder(routing).visit(device.block)
        return routing

    def add_node(self, resource: Attribute, cls: NodeClass, capacity: int | None = None) -> int:
        node = RouteNode(len(self.nodes), resource, cls, capacity)
        self.nodes.append(node)
        self._successors[node.id] = []
        return node.id

    def add_edge(self, src: int, dst: int, cost: int = 1, **facts) -> None:
        self._edges.append((src, dst, dict(facts, cost=cost, seq=len(self._edges))))
        if dst not in self._successors[src]:
            self._successors[src].append(dst)

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The networkx graph of the nodes and edges (built on first use: routes that search it)."""
        import networkx as nx

        graph = nx.MultiDiGraph()
        for node in self.nodes:
            facts = {"core": node.core} if node.core is not None else {}
            graph.add_node(node.id, resource=node.label, cls=node.cls.value, capacity=node.capacity, **facts)
        for src, dst, facts in self._edges:
            graph.add_edge(src, dst, **facts)
        return graph

    def add_core_links(self, scratchpad: Attribute, capacity: int | None, cores: int, links: CoreLinks) -> None:
        """One node per core's scratchpad and the device's `ktdf_arch.core_links` between them.

        The nodes are apart from the rest of the graph: upstream's routes between kinds (and a
        kind's round trip to itself) stay what they were; `core_path` routes between them.
        """
        first = len(self.nodes)
        for core in range(cores):
            node = RouteNode(len(self.nodes), scratchpad, NodeClass.MEMORY, capacity, core)
            self.nodes.append(node)
            self._successors[node.id] = []
        pairs = [(core, (core + 1) % cores) for core in range(cores)] if cores > 1 else []
        if cores == 2:
            pairs = pairs[:1]  # a ring of two is one link each way
        if links.bidirectional or cores == 2:
            pairs += [(b, a) for a, b in pairs]
        for a, b in pairs:
            self.add_edge(first + a, first + b, bandwidth=links.bandwidth, latency=links.latency)

    def core_node(self, core: int) -> RouteNode | None:
        return next((n for n in self.nodes if n.core == core), None)

    def core_path(self, src_core: int, dst_core: int) -> list[int] | None:
        """The cores a transfer from `src_core`'s scratchpad to `dst_core`'s crosses, both included
        (breadth-first over the core-to-core links; None without a route)."""
        src, dst = self.core_node(src_core), self.core_node(dst_core)
        if src is None or dst is None:
            return None
        path = self.shortest_path(src.id, dst.id)
        return None if path is None else [self.nodes[i].core for i in path]  # type: ignore[misc]

    # -- queries ----------------------------------------------------------
    def node_for(self, kind: str | Attribute) -> RouteNode | None:
        """The lowest-numbered node of that resource kind."""
        for node in self.nodes:
            if (node.resource == kind) if isinstance(kind, Attribute) else (node.name == kind):
                return node
        return None

    def edges(self) -> list[tuple[int, int]]:
        """Edges in insertion order (parallel edges kept)."""
        return [(u, v) for u, v, _ in self._edges]

    def successors(self, node: int) -> list[int]:
        """The nodes one edge away from `node`, in the order of their first edge."""
        return self._successors[node]

    def has_edge(self, src: int, dst: int) -> bool:
        return dst in self._successors[src]

    def shortest_path(self, src: int, dst: int) -> list[int] | None:
        """Breadth-first path from node `src` to node `dst`, None when unreachable."""
        if src == dst:
            return [src]
        path = self._unbranched_path(src, dst)
        if path is not None:
            return path
        import networkx as nx

        parents: dict[int, int] = {}
        for parent, child in nx.bfs_edges(self.graph, src):
            parents[child] = parent
            if child == dst:
                break
        if dst not in parents:
            return None
        path = [dst]
        while path[-1] != src:
            path.append(parents[path[-1]])
        return path[::-1]

    def _unbranched_path(self, src: int, dst: int) -> list[int] | None:
        """The breadth-first path when the edges leave no choice, else None (a search decides).

        From `src` along nodes with one successor, until `dst` is one edge away, or two edges
        away through the first successor (in edge order) that reaches it: what breadth-first
        search finds, since every route out of a single-successor chain passes along it.
        """
        path = [src]
        while dst not in self._successors[path[-1]]:
            ahead = self._successors[path[-1]]
            if len(ahead) == 1 and ahead[0] not in path:
                path.append(ahead[0])
                continue
            through = next((node for node in ahead if node not in path and dst in self._successors[node]), None)
            return None if through is None else [*path, through, dst]
        return [*path, dst]

    def route(self, src_kind: str | Attribute, dst_kind: str | Attribute) -> list[RouteNode] | None:
        """Nodes from the `src_kind` node to the `dst_kind` node; None if a kind or path is missing."""
        src, dst = self.node_for(src_kind), self.node_for(dst_kind)
        if src is None or dst is None:
            return None
        path = self.shortest_path(src.id, dst.id)
        return None if path is None else [self.nodes[i] for i in path]

    # -- output -----------------------------------------------------------
    def to_dot(self, name: str = "device") -> str:
        """Graphviz DOT text: one box per node (id, kind, class, capacity), edges in order."""
        lines = [f'digraph "{name}" {{', "  rankdir=LR;"]
        for node in self.nodes:
            shape = {"Memory": "cylinder", "LoadStoreUnit": "box", "Compute": "box3d"}[node.cls.value]
            label = f"{node.id}: {node.label}\\n{node.cls.value}"
            if node.capacity is not None:
                label += f" {node.capacity} B"
            lines.append(f'  n{node.id} [label="{label}", shape={shape}];')
        for src, dst in self.edges():
            lines.append(f"  n{src} -> n{dst};")
        lines.append("}")
        return "\n".join(lines) + "\n"


class _Builder:
    """One pass over the device body, mapping SSA values to node ids (`docs/devices.md#the-model-in-one-page`)."""

    def __init__(self, routing: RoutingGraph):
        self.routing = routing
        self.values: dict[SSAValue, int] = {}
        self.group_kinds: list[Attribute] = []

    def visit(self, block: Block) -> None:
        for op in block.ops:
            if isinstance(op, MemoryOp):
                self.values[op.result] = self.routing.add_node(op.kind_attr, NodeClass.MEMORY, op.size_bytes)
            elif isinstance(op, ExecUnitOp):
                features = read_features(op)
                cls = NodeClass.LOAD_STORE_UNIT if features.load or features.store else NodeClass.COMPUTE
                self.values[op.result] = self.routing.add_node(op.kind_attr or StringAttr("exec_unit"), cls)
            elif isinstance(op, GroupOp):
                self.visit_group(op)
            elif isinstance(op, DatapathOp):
                src, dst = self.values.get(op.src), self.values.get(op.dst)
                if src is not None and dst is not None and src != dst:  # switch ports are not routed
                    self.routing.add_edge(src, dst)

    def visit_group(self, group: GroupOp) -> None:
        kind = group.kind_attr
        if kind is not None and kind in self.group_kinds:
            for result in group.results:  # a later copy of a kinded group: one node per result
                self.values[result] = self.routing.add_node(kind, NodeClass.COMPUTE)
            return
        if kind is not None:
            self.group_kinds.append(kind)
        for operand, arg in zip(group.operands, group.body.block.args):
            if operand in self.values:
                self.values[arg] = self.values[operand]
        self.visit(group.body.block)
        terminator = group.yield_op
        if isinstance(terminator, YieldOp):
            for result, value in zip(group.results, terminator.operands):
                if value in self.values:
                    self.values[result] = self.values[value]
