"""An SVG Gantt chart of a DataflowIR simulation (`dataflow.simulate`): what each unit did when.

    from dfsched.interp.dataflow import simulate
    from dfsched.interp.timeline import timeline_svg, write_timeline_svg

    result = simulate(dfir, inputs, "sample", layout=reference.layout)
    write_timeline_svg(result, "add_2tile.svg", title="add_2tile on sample")

Plain SVG text, written by hand (no plotting library), readable in any browser.

* One row per unit: every unit of `result.stats`, `result.busy_cycles_per_unit` and
  `result.timeline` (so a unit that never worked still has its empty row), sorted by core,
  corelet, engine kind, then name (`UnitStats.core/corelet/kind`; without stats they come
  from the name, `C<core>[L<corelet>]-<kind>`). Rows of alternate cores are shaded. The row
  label's tooltip gives the unit's busy cycles and share of the run; the busy share is also
  printed at the end of the row.
* One rectangle per activity interval, coloured by its kind (`activity_kind`): the timeline
  holds the ops that took time (`TimelineEntry.what`): `dma` (agen.composite_load_and_store,
  "transfer A -> B"), `load` / `store` (vector_load / vector_store), `send` / `receive` (FIFO
  traffic), `sync` (sync_send) and `compute` (every other op, by op name). The simulator does
  not record waiting (a unit blocked on a FIFO, a signal or data in flight), so waiting shows
  as the empty background between rectangles.
* Each rectangle has a `<title>` tooltip ("unit: kind, cycles start-end (n ops: what, ...)")
  and `data-unit`, `data-kind`, `data-start`, `data-end`, `data-ops` attributes; its x is
  `PLOT_LEFT + start * scale` and its width `(end - start) * scale`, where the root `<svg>`
  carries `data-plot-left`, `data-scale` (pixels per cycle) and `data-total-cycles`.
* Intervals of one unit that touch and have the same kind are merged into one rectangle.
  A row that still has more than `max_rects_per_row` rectangles (by default one per pixel of
  the plot, at most 50 000 / rows, at least 100) is binned: the run is cut
  into `max_rects_per_row` equal spans of cycles and each span's activity becomes one
  rectangle (from its first busy cycle to its last, in the colour of the kind that took most
  cycles there, its opacity the busy share of that extent; touching spans of one kind merge
  again); the tooltip says how many cycles of each kind it holds.
* A cycle axis with "nice" ticks (1, 2, 5 x 10^k) and grid lines at the top and bottom, dashed
  lines between launches (`result.launches`) when there are several, a legend of the kinds
  present, and the title (`title`, then the total cycle count) both as visible text and as
  the document's `<title>`.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = ["KIND_COLOURS", "RECT_BUDGET", "activity_kind", "timeline_svg", "unit_order", "write_timeline_svg"]

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

DEFAULT_WIDTH = 1200
RECT_BUDGET = 50_000  # rectangles in the whole chart, by default

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
# rows
# ---------------------------------------------------------------------------------------


def _natural(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


_NAME = re.compile(r"^C(?P<core>\d+)(?:L(?P<corelet>\d+))?-(?P<kind>.+)$", re.I)


def _unit_key(name: str, stats: Any) -> tuple:
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
    return (big if core is None else core, big if corelet is None else corelet, kind or "", _natural(name))


def unit_order(result) -> list[str]:
    """Every unit of `result`, sorted by core, corelet, engine kind and name (the chart's rows)."""
    stats = dict(getattr(result, "stats", None) or {})
    names = set(stats) | set(getattr(result, "busy_cycles_per_unit", None) or {})
    names |= {e.unit for e in result.timeline}
    return sorted(names, key=lambda n: _unit_key(n, stats.get(n)))


def _core_of(name: str, result) -> Any:
    stats = (getattr(result, "stats", None) or {}).get(name)
    return _unit_key(name, stats)[0]


# ---------------------------------------------------------------------------------------
# segments: merged (and, if needed, binned) intervals of one unit
# ---------------------------------------------------------------------------------------


@dataclass
class _Segment:
    start: int
    end: int
    kind: str
    ops: int = 1
    busy: Counter = field(default_factory=Counter)  # kind -> cycles inside [start, end)
    whats: Counter = field(default_factory=Counter)  # TimelineEntry.what -> count
    binned: bool = False

    @property
    def busy_cycles(self) -> int:
        return sum(self.busy.values())


def _merge(segments: list[_Segment]) -> list[_Segment]:
    """Merge touching (or overlapping) neighbours of one kind; `segments` sorted by start."""
    merged: list[_Segment] = []
    for s in segments:
        last = merged[-1] if merged else None
        if last is not None and last.kind == s.kind and s.start <= last.end:
            last.end = max(last.end, s.end)
            last.ops += s.ops
            last.busy.update(s.busy)
            last.whats.update(s.whats)
            last.binned = last.binned or s.binned
        else:
            merged.append(s)
    return merged


def _bin(runs: list[list], total: int, bins: int) -> list[_Segment]:
    """One segment per non-empty span of ceil(total / bins) cycles (see the module docstring);
    `runs`: merged `[start, end, kind, first, last]` (entry indices), sorted by start."""
    width = max(1, -(-total // bins))
    spans: dict[int, _Segment] = {}
    for start, end, kind, first_entry, last_entry in runs:
        first, last = start // width, (max(end, start + 1) - 1) // width
        for b in range(first, last + 1):
            lo, hi = max(start, b * width), min(end, (b + 1) * width)
            span = spans.get(b)
            if span is None:
                span = spans[b] = _Segment(lo, hi, kind, 0, binned=True)
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


def _segments(entries: list, total: int, max_rects: int) -> list[_Segment]:
    """The rectangles of one unit's timeline entries (merged, binned if more than `max_rects`)."""
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
        group = entries[first:last + 1]
        busy = Counter({kind: sum(e.end - e.start for e in group)})
        segments.append(_Segment(start, end, kind, len(group), busy, Counter(e.what for e in group)))
    return segments


# ---------------------------------------------------------------------------------------
# drawing
# ---------------------------------------------------------------------------------------


def _fmt(n: float) -> str:
    return f"{n:.3f}".rstrip("0").rstrip(".") if n != int(n) else str(int(n))


def _cycles(n: int) -> str:
    return f"{n:,}"


def _tick_label(n: int) -> str:
    if n >= 1_000_000 and n % 100_000 == 0:
        return _fmt(n / 1_000_000) + "M"
    if n >= 10_000 and n % 1000 == 0:
        return _fmt(n / 1000) + "k"
    return str(n)


def _tick_step(total: int, target: int) -> int:
    raw = max(1.0, total / max(1, target))
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def _layout(n_rows: int) -> tuple[int, int]:
    """(row height, font size) for `n_rows` rows."""
    if n_rows <= 40:
        return 20, 12
    if n_rows <= 120:
        return 14, 10
    return 10, 8


def _describe(unit: str, s: _Segment) -> str:
    span = f"cycles {_cycles(s.start)}\u2013{_cycles(s.end)}"
    if s.binned:
        total = s.end - s.start
        parts = ", ".join(f"{k} {_cycles(round(c))}" for k, c in s.busy.most_common() if round(c) > 0)
        return (f"{unit}: mostly {s.kind}, {span}, busy {_cycles(round(s.busy_cycles))} of {_cycles(total)} "
                f"({parts}; {s.ops} op(s), merged to fit)")
    whats = ", ".join(f"{w} x{n}" if n > 1 else w for w, n in s.whats.most_common(3))
    if len(s.whats) > 3:
        whats += ", ..."
    ops = f"{s.ops} ops: " if s.ops > 1 else ""
    return f"{unit}: {s.kind}, {span} ({ops}{whats})"


def timeline_svg(result, title: str = "", *, width: int = DEFAULT_WIDTH,
                 max_rects_per_row: int | None = None) -> str:
    """The Gantt chart of `result` (a `SimResult`, or anything with `.timeline` of entries with
    `unit`, `start`, `end`, `what` and `.total_cycles`) as SVG text (see the module docstring)."""
    if max_rects_per_row is not None and max_rects_per_row < 1:
        raise ValueError("max_rects_per_row must be at least 1")
    entries = list(result.timeline)
    total = max([int(getattr(result, "total_cycles", 0) or 0)] + [e.end for e in entries] + [1])
    units = unit_order(result)
    busy_per_unit = dict(getattr(result, "busy_cycles_per_unit", None) or {})
    by_unit: dict[str, list] = {u: [] for u in units}
    for e in entries:
        if e.end > e.start:
            by_unit[e.unit].append(e)
    if not busy_per_unit:
        busy_per_unit = {u: sum(e.end - e.start for e in es) for u, es in by_unit.items()}

    row_h, font = _layout(len(units))
    char_w = font * 0.62
    label_w = int(max([len(u) for u in units] + [4]) * char_w) + 16
    left = label_w + 8
    right_w = int(5 * char_w) + 16  # "100%"
    plot_w = max(200, width - left - right_w)
    width = left + plot_w + right_w
    scale = plot_w / total
    if max_rects_per_row is None:  # about one a pixel, fewer when there are many rows
        max_rects_per_row = max(100, min(plot_w, RECT_BUDGET // max(1, len(units))))
    run_cycles = int(getattr(result, "total_cycles", 0) or 0) or max([e.end for e in entries] + [0])
    title_text = f"{title or 'DataflowIR timeline'} \u2014 {_cycles(run_cycles)} cycles"
    top = 30  # title
    axis_h = font + 12
    rows_top = top + axis_h
    rows_h = row_h * max(1, len(units))
    bottom_axis = rows_top + rows_h
    present = {activity_kind(what) for what in {e.what for e in entries}}
    kinds_present = [k for k in KIND_COLOURS if k in present] or ["compute"]
    legend_top = bottom_axis + axis_h + 8
    legend_h = font + 10
    height = legend_top + legend_h + font + 10

    def x_of(cycle: float) -> float:
        return left + cycle * scale

    out: list[str] = []
    w = out.append
    w('<?xml version="1.0" encoding="UTF-8"?>')
    w(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
      f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{font}" '
      f'data-total-cycles="{total}" data-plot-left="{left}" data-plot-width="{plot_w}" '
      f'data-scale="{scale!r}" data-units="{len(units)}">')
    w(f"<title>{escape(title_text)}</title>")
    w(f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="white"/>')
    w(f'<text class="title" x="{left}" y="20" font-size="{font + 4}" font-weight="bold">{escape(title_text)}</text>')

    # row bands (alternate cores shaded) and separators between cores
    w('<g class="rows">')
    cores = [_core_of(u, result) for u in units]
    core_rank = {c: i for i, c in enumerate(dict.fromkeys(cores))}
    for i, unit in enumerate(units):
        y = rows_top + i * row_h
        if core_rank[cores[i]] % 2:
            w(f'<rect x="0" y="{y}" width="{width}" height="{row_h}" fill="#f2f2f2"/>')
        if i and cores[i] != cores[i - 1]:
            w(f'<line x1="0" y1="{y}" x2="{width}" y2="{y}" stroke="#999" stroke-width="0.5"/>')
    w("</g>")

    # axis ticks and grid
    step = _tick_step(total, max(2, plot_w // 90))
    w('<g class="axis" fill="#333" stroke="none">')
    w(f'<line x1="{left}" y1="{rows_top}" x2="{left + plot_w}" y2="{rows_top}" stroke="#333"/>')
    w(f'<line x1="{left}" y1="{bottom_axis}" x2="{left + plot_w}" y2="{bottom_axis}" stroke="#333"/>')
    ticks = list(range(0, total + 1, step))
    if total - ticks[-1] > step * 0.4:
        ticks.append(total)
    for t in ticks:
        x = _fmt(x_of(t))
        anchor = "end" if t == total and t != 0 else ("start" if t == 0 else "middle")
        w(f'<line class="grid" x1="{x}" y1="{rows_top}" x2="{x}" y2="{bottom_axis}" stroke="#ddd" stroke-width="0.5"/>')
        w(f'<line x1="{x}" y1="{rows_top - 4}" x2="{x}" y2="{rows_top}" stroke="#333"/>')
        w(f'<line x1="{x}" y1="{bottom_axis}" x2="{x}" y2="{bottom_axis + 4}" stroke="#333"/>')
        w(f'<text class="tick" x="{x}" y="{rows_top - 6}" text-anchor="{anchor}" '
          f'data-cycle="{t}">{_tick_label(t)}</text>')
        w(f'<text class="tick" x="{x}" y="{bottom_axis + font + 4}" text-anchor="{anchor}" '
          f'data-cycle="{t}">{_tick_label(t)}</text>')
    w(f'<text x="{left + plot_w + 6}" y="{bottom_axis + font + 4}">cycles</text>')
    w("</g>")

    # launch boundaries
    launches = list(getattr(result, "launches", None) or [])
    if len(launches) > 1:
        w('<g class="launches" stroke="#555" stroke-dasharray="4 3">')
        for name, start, end in launches[1:]:
            x = _fmt(x_of(start))
            w(f'<line x1="{x}" y1="{rows_top}" x2="{x}" y2="{bottom_axis}">'
              f"<title>{escape(f'launch {name}: cycles {_cycles(start)}–{_cycles(end)}')}</title></line>")
        w("</g>")

    # labels, rectangles, busy share
    pad = max(1, row_h // 8)
    for i, unit in enumerate(units):
        y = rows_top + i * row_h
        busy = busy_per_unit.get(unit, 0)
        share = busy / total
        w(f'<g class="row" data-unit={quoteattr(unit)}>')
        w(f'<text class="row-label" x="{label_w}" y="{_fmt(y + row_h / 2 + font * 0.35)}" text-anchor="end">'
          f"{escape(unit)}<title>{escape(f'{unit}: busy {_cycles(busy)} of {_cycles(total)} cycles ({share:.0%})')}"
          f"</title></text>")
        for s in _segments(by_unit[unit], total, max_rects_per_row):
            opacity = ""
            if s.binned:
                density = min(1.0, s.busy_cycles / max(1, s.end - s.start))
                opacity = f' fill-opacity="{max(0.3, density):.2f}"'
            w(f'<rect class="activity" x="{_fmt(x_of(s.start))}" y="{y + pad}" '
              f'width="{_fmt((s.end - s.start) * scale)}" height="{row_h - 2 * pad}" '
              f'fill="{KIND_COLOURS[s.kind]}"{opacity} data-unit={quoteattr(unit)} data-kind="{s.kind}" '
              f'data-start="{s.start}" data-end="{s.end}" data-ops="{s.ops}">'
              f"<title>{escape(_describe(unit, s))}</title></rect>")
        w(f'<text class="busy" x="{left + plot_w + 6}" y="{_fmt(y + row_h / 2 + font * 0.35)}" fill="#555">'
          f"{share:.0%}</text>")
        w("</g>")

    # legend
    w(f'<g class="legend" transform="translate({left},{legend_top})">')
    x = 0
    for kind in kinds_present:
        label = KIND_LABELS[kind]
        w(f'<rect x="{x}" y="0" width="{font}" height="{font}" fill="{KIND_COLOURS[kind]}" data-kind="{kind}"/>')
        w(f'<text x="{x + font + 4}" y="{_fmt(font * 0.85)}">{escape(label)}</text>')
        x += font + 4 + int(len(label) * char_w) + 16
    w(f'<text x="{x}" y="{_fmt(font * 0.85)}" fill="#666">empty = idle or waiting (FIFO, sync, data in flight)</text>')
    w("</g>")
    w("</svg>")
    return "\n".join(out) + "\n"


def write_timeline_svg(result, path: str, title: str = "", **options) -> None:
    """Write `timeline_svg(result, title, **options)` to `path` (UTF-8)."""
    Path(path).write_text(timeline_svg(result, title, **options), encoding="utf-8")
