"""The routing graph: nodes, edges and breadth-first routes as upstream builds them (`docs/devices.md#the-model-in-one-page`)."""

import pytest

from dfsched.arch.loading import load_device
from dfsched.arch.model import DeviceModel
from dfsched.arch.routing import NodeClass, RoutingGraph
from dfsched.compat import LocatingParser
from dfsched.dialects import make_context


def model_of_text(text: str) -> DeviceModel:
    module = LocatingParser(make_context(), text, "inline.mlir").parse_module()
    return DeviceModel.from_module(module)


def test_sample_nodes_and_edges():
    graph = load_device("sample").routing
    assert [(n.id, n.name, n.cls, n.capacity) for n in graph.nodes] == [
        (0, "DDR", NodeClass.MEMORY, 1073741824),
        (1, "L1", NodeClass.MEMORY, 1048576),
        (2, "MNILU", NodeClass.LOAD_STORE_UNIT, None),
        (3, "MNISU", NodeClass.LOAD_STORE_UNIT, None),
        (4, "SFU_REG", NodeClass.MEMORY, 2048),
        (5, "SFU", NodeClass.COMPUTE, None),
        (6, "L1LU", NodeClass.LOAD_STORE_UNIT, None),
        (7, "L1SU", NodeClass.LOAD_STORE_UNIT, None),
        (8, "SFU_Block", NodeClass.COMPUTE, None),  # the second SFU_Block, collapsed
        (9, "L1LU", NodeClass.LOAD_STORE_UNIT, None),  # unkinded sub-cores are duplicated
        (10, "L1SU", NodeClass.LOAD_STORE_UNIT, None),
    ]
    assert graph.edges() == [
        (0, 2), (2, 1), (1, 3), (3, 0), (1, 6), (6, 5), (5, 7), (7, 1), (1, 9), (9, 8), (8, 10), (10, 1)
    ]
    assert graph.node_for("L1LU").id == 6  # the lowest id of a kind
    assert graph.shortest_path(0, 5) == [0, 2, 1, 6, 5]
    assert graph.shortest_path(5, 0) == [5, 7, 1, 3, 0]
    assert graph.shortest_path(4, 0) is None


TIE = """
ktdf_arch.device @tie {{
  %src = memory {{kind = "SRC"}}
  %dst = memory {{kind = "DST"}}
  %a = exec_unit {{kind = "A"}}
  %b = exec_unit {{kind = "B"}}
  {first}
  {second}
  datapath %a to %dst : exec_unit, memory
  datapath %b to %dst : exec_unit, memory
}}
"""


@pytest.mark.parametrize(
    "first, second, via",
    [
        ("datapath %src to %a : memory, exec_unit", "datapath %src to %b : memory, exec_unit", "A"),
        ("datapath %src to %b : memory, exec_unit", "datapath %src to %a : memory, exec_unit", "B"),
    ],
)
def test_ties_break_by_edge_insertion_order(first, second, via):
    model = model_of_text(TIE.format(first=first, second=second))
    assert model.route("SRC", "DST") == ["SRC", via, "DST"]


def test_shortest_wins_over_insertion_order():
    model = model_of_text(
        """
        ktdf_arch.device @short {
          %s = memory {kind = "S"}
          %t = memory {kind = "T"}
          %x = exec_unit {kind = "X"}
          %y = exec_unit {kind = "Y"}
          %z = exec_unit {kind = "Z"}
          datapath %s to %x : memory, exec_unit
          datapath %x to %y : exec_unit, exec_unit
          datapath %y to %t : exec_unit, memory
          datapath %s to %z : memory, exec_unit
          datapath %z to %t : exec_unit, memory
        }
        """
    )
    assert model.route("S", "T") == ["S", "Z", "T"]


def test_kinded_groups_collapse_and_unkinded_groups_repeat():
    model = model_of_text(
        """
        ktdf_arch.device @groups {
          %m = memory {kind = "M"}
          %a = group {kind = "pod"} share(%m) {
            %u = exec_unit {kind = "U"}
            datapath %m to %u : memory, exec_unit
            yield %u
          } -> exec_unit
          %b = group {kind = "pod"} share(%m) {
            %u = exec_unit {kind = "U"}
            datapath %m to %u : memory, exec_unit
            yield %u
          } -> exec_unit
          group share(%m) {
            %w = exec_unit
          }
          group share(%m) {
            %w = exec_unit
          }
          datapath %b to %m : exec_unit, memory
        }
        """
    )
    graph = model.routing
    assert [(n.id, n.name) for n in graph.nodes] == [(0, "M"), (1, "U"), (2, "pod"), (3, "exec_unit"), (4, "exec_unit")]
    assert graph.edges() == [(0, 1), (2, 0)]
    assert model.route("M", "U") == ["M", "U"]


def test_switch_ports_are_not_routed():
    graph = model_of_text(
        """
        ktdf_arch.device @switched {
          %e = exec_unit {kind = "E"}
          %p:2 = switch [2]
          datapath %e to %p#0 : exec_unit, port
        }
        """
    ).routing
    assert graph.edges() == []


def test_dot_output_lists_every_node_and_edge():
    text = load_device("quad_corelet").routing.to_dot("quad")
    assert text.startswith('digraph "quad" {')
    assert '[label="0: GMEM\\nMemory 4294967296 B", shape=cylinder];' in text
    assert text.count(" -> ") == len(load_device("quad_corelet").routing.edges())


def test_routing_graph_is_built_once_per_model():
    model = load_device("sample")
    assert model.routing is model.routing
    assert isinstance(model.routing, RoutingGraph)


# ---------------------------------------------------------------------------------------
# core-to-core links (ktdf_arch.core_links)
# ---------------------------------------------------------------------------------------


def test_core_links_are_read_from_the_device():
    ring4, spyre = load_device("ring4"), load_device("spyre")
    assert (ring4.cores, ring4.core_links.topology, ring4.core_links.bidirectional) == (4, "ring", False)
    assert (ring4.core_links.bandwidth, ring4.core_links.latency) == (64, 4)
    assert (spyre.cores, spyre.core_links.bidirectional, spyre.core_links.bandwidth) == (32, True, 128)
    assert load_device("sample").core_links is None


def test_core_links_add_one_scratchpad_node_per_core_apart_from_the_kinds():
    model = load_device("ring4")
    graph = model.routing
    cores = [n for n in graph.nodes if n.core is not None]
    assert [(n.label, n.cls, n.capacity) for n in cores] == [
        (f"L1@core{c}", NodeClass.MEMORY, 1048576) for c in range(4)]
    # one way round the ring, each edge carrying the link's figures
    first = cores[0].id
    ring = [(u - first, v - first, d["bandwidth"], d["latency"])
            for u, v, d in graph.graph.edges(data=True) if u >= first]
    assert ring == [(0, 1, 64, 4), (1, 2, 64, 4), (2, 3, 64, 4), (3, 0, 64, 4)]
    # the kinds' nodes and routes are those of a device without links
    assert graph.node_for("L1").core is None
    assert model.route("L1", "L1") == ["L1"] and model.route("DDR", "SFU") == ["DDR", "MNILU", "L1", "L1LU", "SFU"]


def test_core_route_follows_the_ring_breadth_first():
    ring4, spyre = load_device("ring4"), load_device("spyre")
    assert ring4.core_route(0, 3) == [0, 1, 2, 3]  # one way: the long way round
    assert ring4.core_route(3, 0) == [3, 0]
    assert ring4.core_route(2, 2) == [2]
    assert spyre.core_route(0, 31) == [0, 31]  # both ways: the short way round
    assert len(spyre.core_route(0, 16)) == 17


def test_core_route_errors_name_the_device_and_the_cores():
    with pytest.raises(Exception) as exc:
        load_device("sample").core_route(0, 1)
    assert "no core-to-core links ('ktdf_arch.core_links')" in str(exc.value)
    with pytest.raises(Exception) as exc:
        load_device("ring4").core_route(1, 7)
    assert "no core 7: the device has 4 core(s)" in str(exc.value)


def test_a_ring_of_two_cores_is_one_link_each_way():
    model = model_of_text(
        """
        ktdf_arch.device @pair attributes {ktdf_arch.core_links = {topology = "ring", bandwidth = 8, latency = 2}} {
          %g = memory {kind = "G"}
          group {kind = "core"} share(%g) {
            %m = memory {kind = "M"}
            %u = exec_unit {kind = "U", ktdf_arch.features = {ktdf_arch.feature.compute}}
          }
          group {kind = "core"} share(%g) {
            %m = memory {kind = "M"}
            %u = exec_unit {kind = "U", ktdf_arch.features = {ktdf_arch.feature.compute}}
          }
        }
        """
    )
    assert model.cores == 2
    assert model.core_route(0, 1) == [0, 1] and model.core_route(1, 0) == [1, 0]
    first = next(n.id for n in model.routing.nodes if n.core == 0)
    assert sorted((u - first, v - first) for u, v in model.routing.graph.edges() if u >= first) == [(0, 1), (1, 0)]


def _searched_path(graph: RoutingGraph, src: int, dst: int) -> list[int] | None:
    """The breadth-first path networkx's search gives (the reference for the unbranched routes)."""
    import networkx as nx

    if src == dst:
        return [src]
    parents = {child: parent for parent, child in nx.bfs_edges(graph.graph, src)}
    if dst not in parents:
        return None
    path = [dst]
    while path[-1] != src:
        path.append(parents[path[-1]])
    return path[::-1]


@pytest.mark.parametrize("device", ["sample", "quad_corelet", "spyre", "ring4", "matrix_unit", "test_patterns"])
def test_routes_read_without_a_search_are_the_searched_ones(device):
    """Routes along single-successor chains skip networkx (Decision 115): on every pair of nodes
    of the shipped devices they equal the search's, and each route between a memory and a compute
    unit (what path expansion asks) is one; routes to a load/store unit and over the core links
    still search."""
    graph = load_device(device).routing
    pairs = [(a.id, b.id) for a in graph.nodes for b in graph.nodes]
    assert [graph.shortest_path(a, b) for a, b in pairs] == [_searched_path(graph, a, b) for a, b in pairs]
    ends = [n.id for n in graph.nodes if n.core is None and n.cls is not NodeClass.LOAD_STORE_UNIT]
    searched = [(a, b) for a in ends for b in ends if a != b and _searched_path(graph, a, b) is not None
                and graph._unbranched_path(a, b) is None]
    assert searched == []
