"""A Gantt chart of a DataflowIR simulation (`dataflow.simulate`): what each unit did when.

    from dfsched.interp.dataflow import simulate
    from dfsched.interp.timeline import timeline_rows, write_timeline

    result = simulate(dfir, inputs, "sample", layout=reference.layout)
    rows = timeline_rows(result)        # the data: one Row per unit, its Segments
    write_timeline(result, "add_2tile.png", title="add_2tile on sample")   # .svg, .png or .pdf

Data (`timeline_rows`, plain Python; matplotlib is imported only to draw):

* One `Row` per unit: every unit of `result.stats`, `result.busy_cycles_per_unit` and
  `result.timeline` (so an idle unit still has its empty row), in pipeline order: by core, then
  engine kinds in the order they first move or compute data on that core (a sync does not
  count), then corelet and name (`unit_order`; without stats these come from the name,
  `C<core>[L<corelet>]-<kind>`),
  with its busy cycles and share of the run (`max(total_cycles, last end, 1)`).
* A row's `Segment`s are its timeline intervals (`TimelineEntry`) coloured by kind
  (`activity_kind`: `dma`, `load`, `store`, `send`, `receive`, `sync`, `compute`). The
  simulator does not record waiting (FIFO, signal, data in flight): it is the empty background.
  Touching intervals of one kind merge. A row with more than `max_rects_per_row` segments
  (default: RECT_BUDGET / rows, between 100 and 1000) is binned into that many equal spans of
  cycles: each span's activity becomes one segment (first to last busy cycle, the kind that
  took most cycles there, opacity = busy share of that extent, at least 0.3), touching spans of
  one kind merge again; a 100K-interval row draws fast.

Drawing (`timeline_figure`, `write_timeline`; matplotlib's Agg canvas, no pyplot): one bar row
per unit (a `PolyCollection` per kind; a binned segment is drawn as stacked bands, one per kind
it holds, as high as that kind's share of its busy cycles), rows of alternate cores shaded, the busy share at the row's
right end, x axis in cycles, dashed lines between launches (`result.launches`) when there are
several, a legend of the kinds present, the title (`title`, then the total cycle count). The
output format comes from the file's extension (`FORMATS`).
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections import Counter

from dfsched.fileio import write_bytes_atomic
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FORMATS", "IDLE_LABEL", "KIND_COLOURS", "KIND_LABELS", "RECT_BUDGET", "Row", "Segment",
           "activity_kind", "legend_kinds", "output_format", "timeline_figure", "timeline_rows", "unit_order",
           "write_timeline"]

#: activity kind -> fill colour (Okabe-Ito, readable by colour-blind people), in legend order.
KIND_COLOURS: dict[str, str] = {
    "dma": "#0072B2",
    "load": "#56B4E9",
    "store": "#009E73",
    "send": "#E69F00",
    "receive": "#F0E442",
    "sync": "#CC79A7",
    "compute": "#D55E00",
}

KIND_LABELS: dict[str, str] = {
    "dma": "DMA transfer",
    "load": "vector load",
    "store": "vector store",
    "send": "FIFO send",
    "receive": "FIFO receive",
    "sync": "sync send",
    "compute": "compute",
}

IDLE_LABEL = "empty: idle or waiting (FIFO, sync, data in flight)"

#: file extension -> matplotlib output format
FORMATS: dict[str, str] = {".svg": "svg", ".png": "png", ".pdf": "pdf"}

RECT_BUDGET = 50_000  # segments in the whole chart, by default
MAX_RECTS_PER_ROW = 1000  # about one per pixel of the plot
MIN_RECTS_PER_ROW = 100

_PREFIXES = (
    ("transfer ", "dma"),
    ("vector_load", "load"),
    ("vector_store", "store"),
    ("send to", "send"),
    ("receive from", "receive"),
    ("sync_send", "sync"),
    ("sync_recv", "sync"),
)


@functools.lru_cache(maxsize=4096)
def activity_kind(what: str) -> str:
    """The kind (a key of `KIND_COLOURS`) of a `TimelineEntry.what`."""
    for prefix, kind in _PREFIXES:
        if what.startswith(prefix):
            return kind
    return "compute"


# ---------------------------------------------------------------------------------------
# unit order
# ---------------------------------------------------------------------------------------


def _natural(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


_NAME = re.compile(r"^C(?P<core>\d+)(?:L(?P<corelet>\d+))?-(?P<kind>.+)$", re.I)


def _unit_place(name: str, stats: Any) -> tuple:
    """(core, corelet, kind) of a unit, from its stats or else its name."""
    core = getattr(stats, "core", None)
    corelet = getattr(stats, "corelet", None)
    kind = getattr(stats, "kind", None)
    match = _NAME.match(name)
    if match:
        if core is None:
            core = int(match["core"])
        if corelet is None and match["corelet"] is not None:
            corelet = int(match["corelet"])
        if kind is None:
            kind = match["kind"].upper()
    if core is not None and corelet is None:
        corelet = 0  # `C2-sfu` is corelet 0 of core 2
    big = 1 << 30  # units without a core (or corelet) after those with one
    return (big if core is None else core, big if corelet is None else corelet, kind or "")


def unit_order(result) -> list[str]:
    """Every unit of `result` in pipeline order (the chart's rows): by core; within a core, the
    engine kinds in the order they first move or compute data there (so a DMA load comes
    before the FIFO load it feeds, whatever the units are called), then corelet and name."""
    stats = dict(getattr(result, "stats", None) or {})
    names = set(stats) | set(getattr(result, "busy_cycles_per_unit", None) or {})
    names |= {e.unit for e in result.timeline}
    place = {n: _unit_place(n, stats.get(n)) for n in names}
    first: dict[tuple, int] = {}  # (core, kind) -> first cycle of data work
    for e in result.timeline:
        if e.end > e.start and activity_kind(e.what) != "sync":
            core, _, kind = place[e.unit]
            first[(core, kind)] = min(first.get((core, kind), e.start), e.start)

    def key(n: str) -> tuple:
        core, corelet, kind = place[n]
        return (core, first.get((core, kind), 1 << 62), kind, corelet, _natural(n))

    return sorted(names, key=key)


# ---------------------------------------------------------------------------------------
# rows and segments: merged (and, if needed, binned) intervals of one unit
# ---------------------------------------------------------------------------------------


@dataclass
class Segment:
    """One bar of a row: cycles [start, end) of one kind."""

    start: int
    end: int
    kind: str
    ops: int = 1  # timeline entries it holds
    busy: Counter = field(default_factory=Counter)  # kind -> cycles inside [start, end)
    binned: bool = False

    @property
    def busy_cycles(self) -> int:
        return sum(self.busy.values())

    @property
    def opacity(self) -> float:
        """1 unless binned; then the busy share of [start, end), at least 0.3."""
        if not self.binned:
            return 1.0
        return max(0.3, min(1.0, self.busy_cycles / max(1, self.end - self.start)))


@dataclass
class Row:
    """One unit of the chart."""

    unit: str
    core: int | None
    busy_cycles: int
    share: float  # busy_cycles / the chart's total cycles
    segments: list[Segment]


def _merge(segments: list[Segment]) -> list[Segment]:
    """Merge touching (or overlapping) neighbours of one kind; `segments` sorted by start."""
    merged: list[Segment] = []
    for s in segments:
        last = merged[-1] if merged else None
        if last is not None and last.kind == s.kind and s.start <= last.end:
            last.end = max(last.end, s.end)
            last.ops += s.ops
            last.busy.update(s.busy)
            last.binned = last.binned or s.binned
        else:
            merged.append(s)
    return merged


def _bin(runs: list[list], total: int, bins: int) -> list[Segment]:
    """One segment per non-empty span of ceil(total / bins) cycles (see the module docstring);
    `runs`: merged `[start, end, kind, first, last]` (entry indices), sorted by start."""
    width = max(1, -(-total // bins))
    spans: dict[int, Segment] = {}
    for start, end, kind, first_entry, last_entry in runs:
        first, last = start // width, (max(end, start + 1) - 1) // width
        for b in range(first, last + 1):
            lo, hi = max(start, b * width), min(end, (b + 1) * width)
            span = spans.get(b)
            if span is None:
                span = spans[b] = Segment(lo, hi, kind, 0, binned=True)
            elif hi > span.end:
                span.end = hi
            span.busy[kind] += hi - lo
            if b == first:
                span.ops += last_entry - first_entry + 1
    order = list(KIND_COLOURS)
    out = []
    for b in sorted(spans):
        span = spans[b]
        span.kind = max(span.busy, key=lambda k: (span.busy[k], -order.index(k)))
        out.append(span)
    return _merge(out)


def _segments(entries: list, total: int, max_rects: int) -> list[Segment]:
    """The segments of one unit's timeline entries (merged, binned if more than `max_rects`)."""
    entries = sorted(entries, key=lambda e: (e.start, e.end))
    runs: list[list] = []  # [start, end, kind, first entry, last entry]
    for i, e in enumerate(entries):
        kind = activity_kind(e.what)
        if runs and runs[-1][2] == kind and e.start <= runs[-1][1]:
            run = runs[-1]
            run[1] = max(run[1], e.end)
            run[4] = i
        else:
            runs.append([e.start, e.end, kind, i, i])
    if len(runs) > max_rects:
        return _bin(runs, total, max_rects)
    segments = []
    for start, end, kind, first, last in runs:
        busy = Counter({kind: sum(e.end - e.start for e in entries[first:last + 1])})
        segments.append(Segment(start, end, kind, last - first + 1, busy))
    return segments


def _chart_cycles(result) -> int:
    """The x extent: the run's cycles, or the last interval's end if later; at least 1."""
    return max([int(getattr(result, "total_cycles", 0) or 0)] + [e.end for e in result.timeline] + [1])


def timeline_rows(result, max_rects_per_row: int | None = None) -> list[Row]:
    """The chart's rows (see the module docstring). `result`: a `SimResult`, or anything with
    `.timeline` (entries with `unit`, `start`, `end`, `what`) and `.total_cycles`."""
    if max_rects_per_row is not None and max_rects_per_row < 1:
        raise ValueError("max_rects_per_row must be at least 1")
    total = _chart_cycles(result)
    units = unit_order(result)
    stats = dict(getattr(result, "stats", None) or {})
    busy_per_unit = dict(getattr(result, "busy_cycles_per_unit", None) or {})
    by_unit: dict[str, list] = {u: [] for u in units}
    for e in result.timeline:
        if e.end > e.start:
            by_unit[e.unit].append(e)
    if not busy_per_unit:
        busy_per_unit = {u: sum(e.end - e.start for e in es) for u, es in by_unit.items()}
    if max_rects_per_row is None:
        max_rects_per_row = max(MIN_RECTS_PER_ROW, min(MAX_RECTS_PER_ROW, RECT_BUDGET // max(1, len(units))))
    rows = []
    for unit in units:
        core = _unit_place(unit, stats.get(unit))[0]
        busy = busy_per_unit.get(unit, 0)
        rows.append(Row(unit, None if core == 1 << 30 else core, busy, busy / total,
                        _segments(by_unit[unit], total, max_rects_per_row)))
    return rows


def legend_kinds(rows: list[Row]) -> list[str]:
    """The kinds that occur in `rows` (binned ones included), in `KIND_COLOURS` order."""
    present = {k for row in rows for s in row.segments for k, c in s.busy.items() if c > 0}
    return [k for k in KIND_COLOURS if k in present]


# ---------------------------------------------------------------------------------------
# drawing
# ---------------------------------------------------------------------------------------


def output_format(path: str) -> str:
    """The matplotlib format of `path` from its extension; ValueError if not one of `FORMATS`."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in FORMATS:
        raise ValueError(f"unknown timeline format {ext or '(no extension)'!r} of {str(path)!r}: "
                         f"use {', '.join(FORMATS)}")
    return FORMATS[ext]


def _tick_formatter(total: int):
    """Cycle tick labels: `1,500` below 10 000 cycles, then `1.5k`, from 10 million `1.5M`."""
    def label(value: float, _pos=None) -> str:
        if total >= 10_000_000:
            return f"{value / 1_000_000:g}M" if value else "0"
        if total >= 10_000:
            return f"{value / 1000:g}k" if value else "0"
        return f"{value:,.0f}" if value == int(value) else f"{value:g}"
    return label


def _layout(n_rows: int) -> tuple[float, float]:
    """(row height in inches, font size in points) for `n_rows` rows."""
    if n_rows <= 40:
        return 0.3, 9.0
    if n_rows <= 120:
        return 0.2, 7.0
    return max(0.06, min(0.14, 300 / n_rows)), 5.0 if n_rows <= 400 else 4.0


BAR_HEIGHT = 0.8  # of a row


def _bars(row: Row, y: float) -> dict[str, tuple[list[tuple], list[float]]]:
    """kind -> (boxes (x0, x1, y0, y1), opacities) of a row centred on `y`. A plain segment
    fills the bar's height; a binned one is split into one band per kind it holds, each as
    high as its share of the bin's busy cycles (in legend order, top down), so a kind that is
    never the majority of a bin still shows."""
    order = list(KIND_COLOURS)
    out: dict[str, tuple[list[tuple], list[float]]] = {}
    top = y - BAR_HEIGHT / 2
    for s in row.segments:
        if not s.binned or len(s.busy) < 2:
            boxes, alphas = out.setdefault(s.kind, ([], []))
            boxes.append((s.start, s.end, top, top + BAR_HEIGHT))
            alphas.append(s.opacity)
            continue
        busy = s.busy_cycles
        y0 = top
        for kind in sorted(s.busy, key=order.index):
            height = BAR_HEIGHT * s.busy[kind] / busy
            boxes, alphas = out.setdefault(kind, ([], []))
            boxes.append((s.start, s.end, y0, y0 + height))
            alphas.append(s.opacity)
            y0 += height
    return out


def timeline_figure(result, title: str = "", *, max_rects_per_row: int | None = None, width: float = 12.0):
    """The chart of `result` as a matplotlib `Figure` (on an Agg canvas; see the module docstring)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    rows = timeline_rows(result, max_rects_per_row)
    total = _chart_cycles(result)
    run_cycles = int(getattr(result, "total_cycles", 0) or 0) or max([e.end for e in result.timeline] + [0])
    n = max(1, len(rows))
    row_h, font = _layout(len(rows))

    fig = Figure(figsize=(width, n * row_h + 1.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(f"{title or 'DataflowIR timeline'} \u2014 {run_cycles:,} cycles", loc="left",
                 fontsize=font + 3, fontweight="bold")

    # rows: shading of alternate cores, a thin line between cores
    core_rank = {c: i for i, c in enumerate(dict.fromkeys(r.core for r in rows))}
    for i, row in enumerate(rows):
        if core_rank[row.core] % 2:
            ax.axhspan(i - 0.5, i + 0.5, color="#ececec", zorder=0, linewidth=0, gid=f"shade:{row.unit}")
        if i and row.core != rows[i - 1].core:
            ax.axhline(i - 0.5, color="#999999", linewidth=0.5, zorder=0.5, gid=f"core-line:{row.unit}")

    # bars: one collection per row and kind
    for i, row in enumerate(rows):
        for kind, (boxes, alphas) in _bars(row, i).items():
            verts = [[(x0, y0), (x0, y1), (x1, y1), (x1, y0)] for x0, x1, y0, y1 in boxes]
            ax.add_collection(PolyCollection(verts, facecolors=[(KIND_COLOURS[kind], a) for a in alphas],
                                             edgecolors="none", linewidths=0, zorder=2, label=kind))

    # y: unit names on the left, busy share on the right
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_yticks(range(len(rows)), [r.unit for r in rows], fontsize=font)
    ax.tick_params(axis="y", length=0)
    share = ax.secondary_yaxis("right")
    share.set_yticks(range(len(rows)), [f"{r.share:.0%}" for r in rows], fontsize=font, color="#555555")
    share.tick_params(axis="y", length=0)
    share.set_ylabel("busy", fontsize=font, color="#555555")

    # x: cycles
    ax.set_xlim(0, total)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, steps=[1, 2, 2.5, 5, 10], integer=True, min_n_ticks=2))
    ax.xaxis.set_major_formatter(FuncFormatter(_tick_formatter(total)))
    ax.tick_params(axis="x", labelsize=font, top=len(rows) > 30, labeltop=len(rows) > 30)
    ax.set_xlabel("cycles", fontsize=font)
    ax.grid(axis="x", color="#d0d0d0", linewidth=0.5, zorder=1)
    ax.set_axisbelow(True)
    ax.margins(x=0)
    for side in ("top", "right"):
        ax.spines[side].set_visible(len(rows) > 30 if side == "top" else False)

    # launch boundaries
    launches = list(getattr(result, "launches", None) or [])
    if len(launches) > 1:
        for _name, start, _end in launches[1:]:
            ax.axvline(start, color="#444444", linestyle="--", linewidth=0.9, zorder=3, gid=f"launch:{_name}")

    # legend: the kinds present, and what the empty background means
    handles = [Patch(facecolor=KIND_COLOURS[k], label=KIND_LABELS[k]) for k in legend_kinds(rows)]
    handles.append(Patch(facecolor="white", edgecolor="#999999", label=IDLE_LABEL))
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 4), fontsize=font,
               frameon=False)
    return fig


def write_timeline(result, path: str, title: str = "", **options) -> None:
    """Draw `timeline_figure(result, title, **options)` into `path`, in the format of its
    extension (.svg, .png or .pdf; ValueError otherwise, before drawing anything)."""
    fmt = output_format(path)
    import matplotlib

    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
    with matplotlib.rc_context({"svg.hashsalt": "dfsched-timeline", "svg.fonttype": "none"}):
        fig = timeline_figure(result, title, **options)
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=150, metadata=metadata)
    write_bytes_atomic(path, buffer.getvalue())
