"""The SVG Gantt chart of a DataflowIR simulation (`dfsched.interp.timeline`).

The add_2tile example on the sample device (see test_dataflow_sim.py): 18 cycles, 5 units on
each of 2 cores; C0-mnilu transfers twice back to back (0-2, 2-4: one merged rectangle) and
then signals (4-5); C0-l1lu signals (0-1), then loads and sends twice (5-6, 6-8, 8-9, 9-11).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dfsched.interp.dataflow import SimResult, TimelineEntry, UnitStats
from dfsched.interp.timeline import activity_kind, timeline_svg, unit_order, write_timeline_svg

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def add_2tile():
    from dfsched.interp.dataflow import check_against_reference
    from dfsched.interp.dataflow_compile import compile_to_dfir
    from dfsched.interp.ktir import load_module

    kernel = ROOT / "examples" / "add_2tile.mlir"
    dfir = compile_to_dfir(kernel, "sample")
    result, differences = check_against_reference(load_module(kernel), dfir, device="sample")
    assert differences == []
    return result


def _parse(path) -> ET.Element:
    return ET.parse(path).getroot()


def _rects(root: ET.Element, unit: str) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "activity" and r.get("data-unit") == unit]


def _labels(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "row-label"]


def _expected(timeline, unit):
    """The simulated intervals of `unit`, touching ones of the same kind merged."""
    merged: list[list] = []
    for e in sorted((e for e in timeline if e.unit == unit), key=lambda e: e.start):
        kind = activity_kind(e.what)
        if merged and merged[-1][2] == kind and e.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e.end)
        else:
            merged.append([e.start, e.end, kind])
    return [tuple(m) for m in merged]


def _geometry(root: ET.Element, rect: ET.Element) -> tuple[float, float]:
    """(start, end) in cycles, from the rectangle's x and width on the chart's scale."""
    left, scale = float(root.get("data-plot-left")), float(root.get("data-scale"))
    x, width = float(rect.get("x")), float(rect.get("width"))
    return (x - left) / scale, (x + width - left) / scale


def test_add_2tile_chart(add_2tile, tmp_path):
    result = add_2tile
    path = tmp_path / "add_2tile.svg"
    write_timeline_svg(result, str(path), title="add_2tile on sample")
    root = _parse(path)
    assert root.tag == f"{SVG}svg"

    # the title (document title and visible text) gives the total cycle count
    assert result.total_cycles == 18
    doc_title = root.find(f"{SVG}title").text
    assert doc_title.startswith("add_2tile on sample") and "18 cycles" in doc_title
    visible = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "title"]
    assert visible == [doc_title]
    assert root.get("data-total-cycles") == "18"

    # one row label per unit, in core, corelet, kind order
    labels = _labels(root)
    assert sorted(labels) == sorted(result.busy_cycles_per_unit)
    assert len(labels) == len(set(labels)) == 10
    assert labels == unit_order(result)
    assert labels[:5] == ["C0-l1lu", "C0-l1su", "C0-mnilu", "C0-mnisu", "C0-sfu"]

    # C0-mnilu: the rectangles are the simulated intervals, back-to-back transfers merged
    for unit, want in [("C0-mnilu", [(0, 4, "dma"), (4, 5, "sync")]),
                       ("C0-l1lu", [(0, 1, "sync"), (5, 6, "load"), (6, 8, "send"), (8, 9, "load"), (9, 11, "send")])]:
        assert _expected(result.timeline, unit) == want
        rects = _rects(root, unit)
        got = [(*_geometry(root, r), r.get("data-kind")) for r in rects]
        assert [k for _, _, k in got] == [k for _, _, k in want]
        assert [(s, e) for s, e, _ in got] == [(pytest.approx(s, abs=1e-3), pytest.approx(e, abs=1e-3))
                                               for s, e, _ in want]
        assert [(int(r.get("data-start")), int(r.get("data-end"))) for r in rects] == [(s, e) for s, e, _ in want]
        # a tooltip per rectangle names the unit, the kind and the cycles
        for r, (s, e, kind) in zip(rects, want):
            tip = r.find(f"{SVG}title").text
            assert tip.startswith(f"{unit}: {kind}, cycles {s}\u2013{e}")

    # every unit's rectangles cover exactly its busy cycles
    for unit, busy in result.busy_cycles_per_unit.items():
        assert sum(int(r.get("data-end")) - int(r.get("data-start")) for r in _rects(root, unit)) == busy

    # the axis ends at the total, and the legend lists the kinds that occur
    ticks = [int(t.get("data-cycle")) for t in root.iter(f"{SVG}text") if t.get("class") == "tick"]
    assert 0 in ticks and 18 in ticks
    legend = root.find(f".//{SVG}g[@class='legend']")
    assert {r.get("data-kind") for r in legend.iter(f"{SVG}rect")} == {"dma", "load", "store", "send", "sync",
                                                                        "compute"}


def _hand_built(entries, total, stats=None, busy=None):
    timeline = [TimelineEntry(*e) for e in entries]
    if busy is None:
        busy = {}
        for e in timeline:
            busy[e.unit] = busy.get(e.unit, 0) + e.end - e.start
    return SimResult(outputs={}, total_cycles=total, busy_cycles_per_unit=busy, timeline=timeline,
                     stats=stats or {})


def test_hand_built_result_rows_kinds_and_escaping():
    stats = {name: UnitStats(name, kind, core, corelet) for name, kind, core, corelet in [
        ("C1-vpu", "VPU", 1, 0), ("C0L1-vpu", "VPU", 0, 1), ("C0-dma", "DMA", 0, 0), ("C0-vpu", "VPU", 0, 0),
        ("idle<&>", "X", None, None),
    ]}
    result = _hand_built([
        ("C0-vpu", 0, 3, "vectorchain.binary"),
        ("C0-vpu", 3, 5, "vectorchain.binary"),      # merged with the one before
        ("C0-vpu", 5, 6, "send to C0-vst"),
        ("C0-vpu", 8, 9, "send to C0-vst"),           # a gap: not merged
        ("C0-dma", 0, 10, "transfer ddr -> C0-l1"),
        ("C1-vpu", 2, 4, "receive from C1-vld"),
        ("C0L1-vpu", 1, 2, "sync_send to C0-dma"),
    ], 10, stats)
    root = ET.fromstring(timeline_svg(result, "hand <built>"))
    assert "10 cycles" in root.find(f"{SVG}title").text and "hand <built>" in root.find(f"{SVG}title").text
    # core, corelet, kind; a unit without core or corelet last; an idle unit still has its row
    assert _labels(root) == ["C0-dma", "C0-vpu", "C0L1-vpu", "C1-vpu", "idle<&>"]
    assert _rects(root, "idle<&>") == []
    got = [(int(r.get("data-start")), int(r.get("data-end")), r.get("data-kind"), r.get("data-ops"))
           for r in _rects(root, "C0-vpu")]
    assert got == [(0, 5, "compute", "2"), (5, 6, "send", "1"), (8, 9, "send", "1")]
    assert [r.get("data-kind") for r in _rects(root, "C1-vpu")] == ["receive"]
    assert [r.get("data-kind") for r in _rects(root, "C0L1-vpu")] == ["sync"]
    # the scale maps cycle 10 to the right end of the plot
    (dma,) = _rects(root, "C0-dma")
    assert float(dma.get("x")) == float(root.get("data-plot-left"))
    assert float(dma.get("width")) == pytest.approx(float(root.get("data-plot-width")))


def test_unit_order_from_names_without_stats():
    result = _hand_built([("C10-sfu", 0, 1, "x"), ("C2-sfu", 0, 1, "x"), ("C2-l1lu", 0, 1, "x"),
                          ("C2L1-l1lu", 0, 1, "x")], 1)
    assert unit_order(result) == ["C2-l1lu", "C2-sfu", "C2L1-l1lu", "C10-sfu"]


def test_many_intervals_are_capped_per_row():
    # 60 000 one-cycle ops alternating compute / send (nothing merges), 1e6 cycles, 300 units
    entries = [("C0-sfu", 16 * i, 16 * i + 1, "vectorchain.binary" if i % 2 else "send to C0-l1su")
               for i in range(60_000)]
    entries += [(f"C{c}-unit{u}", 0, 1_000_000, "transfer ddr -> l1") for c in range(3) for u in range(100)]
    result = _hand_built(entries, 1_000_000)
    root = ET.fromstring(timeline_svg(result, max_rects_per_row=500))
    assert len(_labels(root)) == 301
    rects = _rects(root, "C0-sfu")
    assert 0 < len(rects) <= 500
    # the binned rectangles keep every op and span the busy range, in order
    assert sum(int(r.get("data-ops")) for r in rects) == 60_000
    assert int(rects[0].get("data-start")) == 0 and int(rects[-1].get("data-end")) == 16 * 59_999 + 1
    starts = [int(r.get("data-start")) for r in rects]
    assert starts == sorted(starts)
    assert all(r.find(f"{SVG}title").text.startswith("C0-sfu: mostly ") for r in rects)
    ticks = [int(t.get("data-cycle")) for t in root.iter(f"{SVG}text") if t.get("class") == "tick"]
    assert ticks[-1] == 1_000_000 and 5 <= len(set(ticks)) <= 20


def test_empty_timeline():
    root = ET.fromstring(timeline_svg(_hand_built([], 0, busy={"C0-sfu": 0})))
    assert root.find(f"{SVG}title").text == "DataflowIR timeline \u2014 0 cycles"
    assert _labels(root) == ["C0-sfu"]
    assert _rects(root, "C0-sfu") == []


def test_dfsched_run_draws_the_timeline(tmp_path, capsys):
    """`dfsched-run KERNEL --timeline OUT.svg` compiles, simulates and writes the chart."""
    import os
    import xml.etree.ElementTree as ET

    from dfsched.tools.run import main

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    svg = tmp_path / "add.svg"
    assert main([os.path.join(root, "examples", "add_2tile.mlir"), "--timeline", str(svg)]) == 0
    printed = capsys.readouterr().out
    assert "outputs match the reference" in printed
    tree = ET.parse(svg)
    assert tree.getroot().get("data-total-cycles") == printed.split("(")[-1].split(" cycles")[0]
