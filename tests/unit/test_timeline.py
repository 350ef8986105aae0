"""The Gantt chart of a DataflowIR simulation (`dfsched.interp.timeline`): its rows and segments
(computed values), the matplotlib figure built from them, and the files written.

The add_2tile example on the sample device (see test_dataflow_sim.py): 18 cycles, 5 units on
each of 2 cores; C0-mnilu transfers twice back to back (0-2, 2-4: one merged segment) and
then signals (4-5); C0-l1lu signals (0-1), then loads and sends twice (5-6, 6-8, 8-9, 9-11).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dfsched.interp.dataflow import SimResult, TimelineEntry, UnitStats
from dfsched.interp.timeline import (IDLE_LABEL, KIND_COLOURS, KIND_LABELS, RECT_BUDGET, Row, activity_kind,
                                     legend_kinds, output_format, timeline_figure, timeline_rows, unit_order,
                                     write_timeline)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def add_2tile():
    from dfsched.interp.dataflow import check_against_reference
    from dfsched.tools.dataflow_compile import compile_to_dfir
    from dfsched.interp.ktir import load_module

    kernel = ROOT / "examples" / "add_2tile.mlir"
    dfir = compile_to_dfir(kernel, "sample")
    result, differences = check_against_reference(load_module(kernel), dfir, device="sample")
    assert differences == []
    return result


def _hand_built(entries, total, stats=None, busy=None, launches=None):
    timeline = [TimelineEntry(*e) for e in entries]
    if busy is None:
        busy = {}
        for e in timeline:
            busy[e.unit] = busy.get(e.unit, 0) + e.end - e.start
    return SimResult(outputs={}, total_cycles=total, busy_cycles_per_unit=busy, timeline=timeline,
                     stats=stats or {}, launches=launches or [])


def _row(rows: list[Row], unit: str) -> Row:
    (row,) = [r for r in rows if r.unit == unit]
    return row


def _spans(row: Row) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.kind) for s in row.segments]


def _legend_texts(fig) -> list[str]:
    (legend,) = fig.legends
    return [t.get_text() for t in legend.get_texts()]


def test_activity_kinds():
    assert [activity_kind(w) for w in ["transfer ddr -> C0-l1", "vector_load x", "vector_store y", "send to C0-sfu",
                                       "receive from C0-l1lu", "sync_send to C1", "sync_recv", "vectorchain.binary"]] \
        == ["dma", "load", "store", "send", "receive", "sync", "sync", "compute"]
    # Okabe-Ito colours, one label per kind
    assert list(KIND_COLOURS.values()) == ["#0072B2", "#56B4E9", "#009E73", "#E69F00", "#F0E442", "#CC79A7", "#D55E00"]
    assert list(KIND_LABELS) == list(KIND_COLOURS)


def test_add_2tile_rows(add_2tile):
    result = add_2tile
    assert result.total_cycles == 18
    rows = timeline_rows(result)

    # one row per unit, in pipeline order: per core, kinds by their first data work
    units = [r.unit for r in rows]
    assert units == unit_order(result)
    assert sorted(units) == sorted(result.busy_cycles_per_unit) and len(units) == 10
    assert units[:5] == ["C0-mnilu", "C0-l1lu", "C0-sfu", "C0-l1su", "C0-mnisu"]
    assert [r.core for r in rows] == [0] * 5 + [1] * 5

    # the segments are the simulated intervals, back-to-back transfers merged
    assert _spans(_row(rows, "C0-mnilu")) == [(0, 4, "dma"), (4, 5, "sync")]
    assert [s.ops for s in _row(rows, "C0-mnilu").segments] == [2, 1]
    assert _spans(_row(rows, "C0-l1lu")) == [(0, 1, "sync"), (5, 6, "load"), (6, 8, "send"), (8, 9, "load"),
                                             (9, 11, "send")]
    assert all(not s.binned and s.opacity == 1.0 for r in rows for s in r.segments)

    # busy cycles and share per unit; every row's segments cover exactly its busy cycles
    for row in rows:
        assert row.busy_cycles == result.busy_cycles_per_unit[row.unit]
        assert row.share == pytest.approx(row.busy_cycles / 18)
        assert sum(s.end - s.start for s in row.segments) == row.busy_cycles
        assert sum(s.busy_cycles for s in row.segments) == row.busy_cycles
    assert _row(rows, "C0-mnilu").busy_cycles == 5

    assert legend_kinds(rows) == ["dma", "load", "store", "send", "sync", "compute"]


def test_add_2tile_figure(add_2tile):
    fig = timeline_figure(add_2tile, "add_2tile on sample")
    (ax,) = [a for a in fig.axes if a.get_yticklabels() and a.get_title(loc="left")]
    assert ax.get_title(loc="left") == "add_2tile on sample \u2014 18 cycles"
    assert [t.get_text() for t in ax.get_yticklabels()] == unit_order(add_2tile)
    assert ax.get_xlim() == (0, 18)
    assert ax.get_xlabel() == "cycles"
    # busy share at the row ends (the secondary axis on the right)
    shares = [[t.get_text() for t in a.get_yticklabels()] for a in ax.child_axes]
    assert shares == [[f"{r.share:.0%}" for r in timeline_rows(add_2tile)]]
    assert shares[0][:5] == ["28%", "39%", "17%", "11%", "17%"]
    # one bar collection per row and kind, in the kind's colour
    rows = timeline_rows(add_2tile)
    bars = [c for c in ax.collections if c.get_label() in KIND_COLOURS]
    assert sorted(c.get_label() for c in bars) == sorted(k for r in rows for k in {s.kind for s in r.segments})
    from matplotlib.colors import to_hex
    assert {c.get_label(): to_hex(c.get_facecolor()[0]) for c in bars} == {
        k: KIND_COLOURS[k].lower() for k in legend_kinds(rows)}
    # the legend: the kinds present, then what empty means
    assert _legend_texts(fig) == [KIND_LABELS[k] for k in legend_kinds(rows)] + [IDLE_LABEL]
    # a single launch: no launch lines
    assert [line for line in ax.lines if line.get_linestyle() == "--"] == []


@pytest.mark.parametrize("ext", ["svg", "png", "pdf"])
def test_write_formats(add_2tile, tmp_path, ext):
    path = tmp_path / f"add_2tile.{ext.upper() if ext == 'pdf' else ext}"
    write_timeline(add_2tile, str(path), title="add_2tile on sample")
    data = path.read_bytes()
    assert len(data) > 1000
    if ext == "svg":
        text = data.decode()
        assert text.startswith("<?xml") and "<svg" in text
        assert "add_2tile on sample \u2014 18 cycles" in text  # text kept as text (svg.fonttype none)
    elif ext == "png":
        from matplotlib.image import imread

        image = imread(path)
        assert image.ndim == 3 and image.shape[2] == 4 and image.shape[0] > 300 and image.shape[1] > 1000
        assert image.min() < 0.5 < image.max()  # something was drawn
    else:
        assert data.startswith(b"%PDF")


def test_unknown_extension_is_rejected(add_2tile, tmp_path):
    assert [output_format(p) for p in ["a.svg", "b.PNG", "c.d/e.pdf"]] == ["svg", "png", "pdf"]
    for name in ["out.jpg", "out", "out.svg.txt"]:
        with pytest.raises(ValueError, match="unknown timeline format .*use .svg, .png, .pdf"):
            write_timeline(add_2tile, str(tmp_path / name))
    assert list(tmp_path.iterdir()) == []


def test_hand_built_rows_kinds_and_order():
    stats = {name: UnitStats(name, kind, core, corelet) for name, kind, core, corelet in [
        ("C1-vpu", "VPU", 1, 0), ("C0L1-vpu", "VPU", 0, 1), ("C0-dma", "DMA", 0, 0), ("C0-vpu", "VPU", 0, 0),
        ("idle<&>", "X", None, None),
    ]}
    result = _hand_built([
        ("C0-vpu", 0, 3, "vectorchain.binary"),
        ("C0-vpu", 3, 5, "vectorchain.binary"),      # merged with the one before
        ("C0-vpu", 5, 6, "send to C0-vst"),
        ("C0-vpu", 8, 9, "send to C0-vst"),           # a gap: not merged
        ("C0-vpu", 9, 9, "send to C0-vst"),           # empty: ignored
        ("C0-dma", 0, 10, "transfer ddr -> C0-l1"),
        ("C1-vpu", 2, 4, "receive from C1-vld"),
        ("C0L1-vpu", 1, 2, "sync_send to C0-dma"),
    ], 10, stats)
    rows = timeline_rows(result)
    # core, kinds by first data work (ties by name), corelet; a unit without core last; an
    # idle unit still has its row
    assert [r.unit for r in rows] == ["C0-dma", "C0-vpu", "C0L1-vpu", "C1-vpu", "idle<&>"]
    assert [r.core for r in rows] == [0, 0, 0, 1, None]
    assert _row(rows, "idle<&>").segments == [] and _row(rows, "idle<&>").busy_cycles == 0
    assert [(s.start, s.end, s.kind, s.ops) for s in _row(rows, "C0-vpu").segments] == [
        (0, 5, "compute", 2), (5, 6, "send", 1), (8, 9, "send", 1)]
    assert _spans(_row(rows, "C1-vpu")) == [(2, 4, "receive")]
    assert _spans(_row(rows, "C0L1-vpu")) == [(1, 2, "sync")]
    assert _spans(_row(rows, "C0-dma")) == [(0, 10, "dma")]
    assert _row(rows, "C0-dma").share == 1.0 and _row(rows, "C0-vpu").share == pytest.approx(0.7)
    assert legend_kinds(rows) == ["dma", "send", "receive", "sync", "compute"]

    fig = timeline_figure(result, "hand <built>")
    ax = fig.axes[0]
    assert ax.get_title(loc="left") == "hand <built> \u2014 10 cycles"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["C0-dma", "C0-vpu", "C0L1-vpu", "C1-vpu", "idle<&>"]
    # rows of alternate cores shaded (core 1, not cores 0 and None), a line where the core changes
    assert [p.get_gid() for p in ax.patches if (p.get_gid() or "").startswith("shade:")] == ["shade:C1-vpu"]
    assert [x.get_gid() for x in ax.lines if (x.get_gid() or "").startswith("core-line:")] == [
        "core-line:C1-vpu", "core-line:idle<&>"]


def test_hand_built_without_busy_counts_uses_the_intervals():
    result = _hand_built([("C0-sfu", 0, 4, "x"), ("C0-sfu", 6, 8, "y")], 0, busy={})
    (row,) = timeline_rows(result)
    assert row.busy_cycles == 6 and row.share == pytest.approx(6 / 8)  # the chart spans up to the last end
    assert _spans(row) == [(0, 4, "compute"), (6, 8, "compute")]


def test_unit_order_follows_the_first_data_work_not_the_names():
    # "zdma" loads first, "acomp" computes later; an early sync of "acomp" does not count
    result = _hand_built([("C0-acomp", 0, 1, "sync_send to C0-zdma"), ("C0-acomp", 6, 7, "vectorchain.binary"),
                          ("C0-zdma", 1, 5, "transfer ddr -> C0-l1"), ("C0L1-acomp", 7, 8, "vectorchain.binary"),
                          ("C1-acomp", 0, 1, "vectorchain.binary"), ("C1-zdma", 2, 3, "transfer ddr -> C1-l1")], 8)
    assert unit_order(result) == ["C0-zdma", "C0-acomp", "C0L1-acomp", "C1-acomp", "C1-zdma"]


def test_unit_order_from_names_without_stats():
    result = _hand_built([("C10-sfu", 0, 1, "x"), ("C2-sfu", 0, 1, "x"), ("C2-l1lu", 0, 1, "x"),
                          ("C2L1-l1lu", 0, 1, "x")], 1)
    # everything starts at once: kinds by name, then corelet
    assert unit_order(result) == ["C2-l1lu", "C2L1-l1lu", "C2-sfu", "C10-sfu"]
    assert [r.core for r in timeline_rows(result)] == [2, 2, 2, 10]


def test_launch_boundaries():
    result = _hand_built([("C0-sfu", 0, 4, "x"), ("C0-sfu", 5, 9, "x"), ("C0-sfu", 10, 12, "x")], 12,
                         launches=[("main", 0, 5), ("second", 5, 10), ("third", 10, 12)])
    ax = timeline_figure(result).axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert sorted((line.get_gid(), line.get_xdata()[0]) for line in dashed) == [("launch:second", 5),
                                                                                ("launch:third", 10)]


def test_many_intervals_are_binned():
    # 20 000 one-cycle ops alternating compute / send (nothing merges), 320K cycles, 300 more units:
    # 40 ops a segment at 500 segments a row (100 000 ops took 5.6 s of the default run)
    n = 20_000
    entries = [("C0-sfu", 16 * i, 16 * i + 1, "vectorchain.binary" if i % 2 else "send to C0-l1su")
               for i in range(n)]
    entries += [(f"C{c}-unit{u}", 0, 16 * n, "transfer ddr -> l1") for c in range(3) for u in range(100)]
    result = _hand_built(entries, 16 * n)

    rows = timeline_rows(result, max_rects_per_row=500)
    assert len(rows) == 301
    sfu = _row(rows, "C0-sfu")
    assert 0 < len(sfu.segments) <= 500
    # the binned segments keep every op and busy cycle and span the busy range, in order
    assert sum(s.ops for s in sfu.segments) == n
    assert sum(s.busy_cycles for s in sfu.segments) == n == sfu.busy_cycles
    assert sfu.segments[0].start == 0 and sfu.segments[-1].end == 16 * (n - 1) + 1
    starts = [s.start for s in sfu.segments]
    assert starts == sorted(starts)
    assert all(s.binned and s.kind in ("compute", "send") and 0.3 <= s.opacity <= 1.0 for s in sfu.segments)
    assert {k for s in sfu.segments for k in s.busy} == {"compute", "send"}
    # 1 busy cycle in 16: the lowest opacity
    assert min(s.opacity for s in sfu.segments) == 0.3
    # the long transfers are one unbinned segment each
    assert _spans(_row(rows, "C2-unit99")) == [(0, 16 * n, "dma")]

    # by default at most RECT_BUDGET segments in the chart (at least 100 a row)
    default = timeline_rows(result)
    assert len(_row(default, "C0-sfu").segments) <= max(100, RECT_BUDGET // 301)

    # and it draws (how fast is for a benchmark, not a test: a loaded machine failed a time limit
    # here), the binned row beside one long transfer per core (laying out 301 rows' labels took
    # 4 s of matplotlib)
    drawn = _hand_built(entries[:n] + [(f"C{c}-unit0", 0, 16 * n, "transfer ddr -> l1") for c in range(3)], 16 * n)
    fig = timeline_figure(drawn, "many")
    fig.canvas.draw()
    assert _legend_texts(fig) == [KIND_LABELS[k] for k in ("dma", "send", "compute")] + [IDLE_LABEL]
    # the binned C0-sfu row shows both kinds, as bands of about half the bar's height each
    sfu_row = [r.unit for r in timeline_rows(drawn)].index("C0-sfu")
    bands = {c.get_label(): c for c in fig.axes[0].collections
             if c.get_label() in KIND_COLOURS and all(abs(p.vertices[:, 1].mean() - sfu_row) < 0.5
                                                      for p in c.get_paths())}
    assert set(bands) == {"send", "compute"}
    for c in bands.values():
        heights = [float(p.vertices[:, 1].max() - p.vertices[:, 1].min()) for p in c.get_paths()]
        assert all(0.39 < h < 0.41 for h in heights)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()][-1].endswith("k")


def test_empty_timeline(tmp_path):
    result = _hand_built([], 0, busy={"C0-sfu": 0})
    rows = timeline_rows(result)
    assert [(r.unit, r.busy_cycles, r.share, r.segments) for r in rows] == [("C0-sfu", 0, 0.0, [])]
    assert legend_kinds(rows) == []
    fig = timeline_figure(result)
    assert fig.axes[0].get_title(loc="left") == "DataflowIR timeline \u2014 0 cycles"
    assert _legend_texts(fig) == [IDLE_LABEL]
    write_timeline(result, str(tmp_path / "empty.png"))
    assert (tmp_path / "empty.png").stat().st_size > 0
    # no unit at all
    assert timeline_rows(_hand_built([], 0, busy={})) == []
    write_timeline(_hand_built([], 0, busy={}), str(tmp_path / "nothing.svg"))
    assert (tmp_path / "nothing.svg").stat().st_size > 0


def test_importing_does_not_load_matplotlib():
    code = ("import sys, dfsched.interp.timeline, dfsched.tools.opt, dfsched.tools.run; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_dfsched_run_draws_the_timeline(tmp_path, capsys):
    """`dfsched-run KERNEL --timeline OUT.png` compiles, simulates and writes the chart."""
    from matplotlib.image import imread

    from dfsched.tools.run import main

    png = tmp_path / "add.png"
    assert main([str(ROOT / "examples" / "add_2tile.mlir"), "--timeline", str(png)]) == 0
    printed = capsys.readouterr().out
    assert f"timeline: {png} (18 cycles; outputs match the reference)" in printed
    assert imread(png).shape[2] == 4

    # an unknown extension is a usage error, nothing written
    bad = tmp_path / "add.jpg"
    assert main([str(ROOT / "examples" / "add_2tile.mlir"), "--timeline", str(bad)]) == 1
    assert "unknown timeline format '.jpg'" in capsys.readouterr().err
    assert not bad.exists()
    # ... found before any work: no --check table is printed
    assert main([str(ROOT / "examples" / "add_2tile.mlir"), "--check", "--timeline", str(bad)]) == 1
    printed = capsys.readouterr()
    assert "unknown timeline format '.jpg'" in printed.err and not printed.out
