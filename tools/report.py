"""`--report` / `--report-json FILE`: what the scheduler decided for each program, and why.

The driver calls `ReportCollector.before_pass` before every pass and `finish` after the last
one. Two points of the pipeline are read, because later passes erase what they show:

* before `tile-size-selection`: each placeholder's chosen size and the constraint that bound
  it (Decision 11, `docs/passes.md#tile-size-selection`), by running the pass's own selection
  (`choose_sizes`, then the cost model's `rank` of the default strategy) on the unchanged IR;
* before `ktdf-to-ktdflowering` (the last ScheduleIR, addresses assigned): pipelines and
  stages with their units, every buffer (memory, address, bytes, double-buffered, the units
  writing and reading it), scratchpad use per memory counted as `tile-size-selection` counts
  it (copies per corelet instance and per rolling pipeline set), and the corelet count.

With `--simulate` the final DataflowIR runs on the simulator with the reference interpreter's
inputs: simulated cycles, the device bound (`SimResult.bound`, the simulator's one home for
it) and the efficiency.

`render` prints one table per program; `as_json` gives the same facts for tools (and for the
compile cache). Extension point: `TileReport.candidates` carries every size the selection
could take (largest first); a column shows up in the table by adding it to `TILE_COLUMNS`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import FixedBitwidthType, IndexType, MemRefType, ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation, SSAValue

TILE_POINT = "tile-size-selection"
SCHEDULE_POINT = "ktdf-to-ktdflowering"


@dataclass
class BufferReport:
    memory: str
    address: int
    bytes: int
    type: str
    double_buffered: bool
    written_by: list[str]
    read_by: list[str]


@dataclass
class TileReport:
    size: int
    loop_totals: list[int]
    bound_by: str  # "loop extent", "constraints", "scratchpad <KIND>" or "cost model"
    reason: str
    candidates: list[int]  # every size the selection could take, largest first


@dataclass
class TileCandidate:
    """One size combination `tile-size-selection` ranked (one size per placeholder, IR order)."""

    sizes: list[int]
    predicted: int | None  # the cost model's cycles (None: no device to predict with)
    chosen: bool


@dataclass
class MemoryUse:
    memory: str
    used: int
    capacity: int | None

    @property
    def percent(self) -> float | None:
        return None if not self.capacity else 100.0 * self.used / self.capacity


@dataclass
class ProgramReport:
    name: str
    grid: str
    pipelines: list[str] = field(default_factory=list)
    buffers: list[BufferReport] = field(default_factory=list)
    memories: list[MemoryUse] = field(default_factory=list)
    tiles: list[TileReport] = field(default_factory=list)
    tile_candidates: list[TileCandidate] = field(default_factory=list)  # best first
    corelets: int = 1
    device_corelets: int | None = None


@dataclass
class SimulationReport:
    cycles: int | None = None
    bound: int | None = None
    bound_by: str | None = None  # "DMA" or "vector"
    efficiency: float | None = None
    outputs_match: bool | None = None
    error: str | None = None


@dataclass
class Report:
    device: str | None
    programs: list[ProgramReport]
    simulation: SimulationReport | None = None
    problems: list[str] = field(default_factory=list)  # what the report could not read (a bug)

    @classmethod
    def from_json(cls, data: dict) -> Report:
        """The report `as_json` gave (a cached artifact's `report.json`)."""
        programs = []
        for raw in data["programs"]:
            fields = dict(raw)
            fields["buffers"] = [BufferReport(**b) for b in raw["buffers"]]
            fields["memories"] = [MemoryUse(m["memory"], m["used"], m["capacity"]) for m in raw["memories"]]
            fields["tiles"] = [TileReport(**t) for t in raw["tiles"]]
            fields["tile_candidates"] = [TileCandidate(**c) for c in raw.get("tile_candidates", [])]
            programs.append(ProgramReport(**fields))
        simulation = SimulationReport(**data["simulation"]) if data.get("simulation") else None
        return cls(data["device"], programs, simulation, list(data.get("problems", [])))

    def as_json(self) -> dict:
        data = asdict(self)
        for program, raw in zip(self.programs, data["programs"]):
            for use, raw_use in zip(program.memories, raw["memories"]):
                raw_use["percent"] = None if use.percent is None else round(use.percent, 2)
        return data


# ---------------------------------------------------------------------------------------
# collecting
# ---------------------------------------------------------------------------------------


class ReportCollector:
    """Reads the IR at the two points above while the driver runs the passes."""

    def __init__(self, device: str | None, simulate: bool = False):
        self.device = device
        self.simulate = simulate
        self.tiles: dict[str, tuple[list[TileReport], list[TileCandidate]]] = {}
        self.programs: list[ProgramReport] | None = None
        self.problems: list[str] = []

    def before_pass(self, name: str, module: ModuleOp) -> None:
        """Read the IR at the two points; a report that cannot be made never fails the compile."""
        try:
            if name == TILE_POINT:
                self.tiles = tile_decisions(module, self.device)
            elif name == SCHEDULE_POINT and self.programs is None:
                self.programs = program_reports(module, self.device)
        except Exception as exc:  # noqa: BLE001 - the report says what it could not read
            self.problems.append(f"before {name}: {type(exc).__name__}: {exc}")

    def finish(self, module: ModuleOp, kernel_name: str, kernel_text: str) -> Report:
        programs = self.programs
        if programs is None:
            try:
                programs = program_reports(module, self.device)
            except Exception as exc:  # noqa: BLE001
                self.problems.append(f"after the passes: {type(exc).__name__}: {exc}")
                programs = []
        for program in programs:
            program.tiles, program.tile_candidates = self.tiles.get(program.name, ([], []))
        simulation = simulate(module, kernel_name, kernel_text, self.device) if self.simulate else None
        return Report(self.device or _declared_device(module), programs, simulation, self.problems)


def _declared_device(module: ModuleOp) -> str | None:
    for op in module.walk():
        if op.name == "ktdf_arch.device":
            return op.properties["sym_name"].data if "sym_name" in op.properties else None  # type: ignore[union-attr]
    return None


def _model(op: Operation, device: str | None):
    from dfsched.arch.loading import device_model_for
    from dfsched.diagnostics import DiagnosticError

    try:
        return device_model_for(op, device=device)
    except DiagnosticError:
        return None


def _program_name(op: Operation) -> str:
    while op is not None and not isinstance(op, func.FuncOp):
        op = op.parent_op()
    return op.sym_name.data if op is not None else "?"


# -- tile sizes (Decision 11) ------------------------------------------------------------


def tile_decisions(module: ModuleOp, device: str | None) -> dict[str, tuple[list[TileReport], list[TileCandidate]]]:
    """Per program, what `tile-size-selection` will choose, what bound each choice, and the
    combinations the cost model ranked (best first)."""
    from dfsched.diagnostics import DiagnosticError
    from dfsched.dialects import ktdf
    from dfsched.passes.scheduling import tile_size_selection as tss

    out: dict[str, list[TileReport]] = {}
    placeholders = [r for r in module.walk() if isinstance(r, ktdf.TilingReserveSizeOp)]
    for program, members in tss.group_by_program(placeholders):
        try:
            tiles = [t for t in (tss.Placeholder.of(r) for r in members) if t.loops]
            if not tiles:
                continue
            budget = tss.ScratchpadBudget.of(program, tiles[0].op, device)
            tss.choose_sizes(tiles, budget)
            largest = {t.op: t.size for t in tiles}
            decision = tss.TileSizeSelection(device=device).rank(module, program, tiles, budget)
        except DiagnosticError:
            continue  # the pass itself reports it
        reports = []
        for tile in tiles:  # IR order: outermost tiled dimension first
            if tile.size != largest[tile.op]:
                reports.append(_by_model(tile, tuple(largest[t.op] for t in tiles), decision))
            else:
                reports.append(_explain(tile, largest, budget))
        ranked = [TileCandidate(list(c.sizes), c.predicted, c.sizes == decision.chosen) for c in decision.candidates]
        out[_program_name(program)] = (reports, ranked)
    return out


def _by_model(tile, largest: tuple[int, ...], decision) -> TileReport:
    """A size the cost model chose below the largest that fits (the pass's default strategy)."""
    chosen = decision.candidates[0]
    reason = f"{chosen.predicted} cycles predicted"
    biggest = next((c for c in decision.candidates if c.sizes == largest), None)
    if biggest is not None and biggest.predicted is not None:
        reason += f"; the largest that fits ({', '.join(map(str, largest))}): {biggest.predicted}"
    return TileReport(tile.size, list(tile.totals), "cost model", reason, list(tile.candidates))


def _explain(tile, env: dict, budget) -> TileReport:
    size, candidates = tile.size, list(tile.candidates)
    totals = list(tile.totals)
    if size == candidates[0]:
        whole = math.gcd(*totals) if totals else size
        if size == whole:
            bound, reason = "loop extent", f"the whole loop ({whole}) in one tile"
        else:
            bound, reason = "constraints", (f"largest size with min_value {tile.min_value}, divisibility "
                                            f"{tile.divisibility} dividing {', '.join(map(str, totals))}")
        return TileReport(size, totals, bound, reason, candidates)
    larger = candidates[candidates.index(size) - 1]
    used = budget.usage({**env, tile.op: larger})
    capacities = budget.capacities()
    kind = next((k for k, cap in capacities.items() if used.get(k, 0) > cap), next(iter(capacities), "?"))
    reason = f"{larger} would need {used.get(kind, 0)} bytes of {kind}, which holds {capacities.get(kind)}"
    return TileReport(size, totals, f"scratchpad {kind}", reason, candidates)


# -- pipelines, buffers, memories, corelets --------------------------------------------


def program_reports(module: ModuleOp, device: str | None) -> list[ProgramReport]:
    from dfsched.dialects import ktdf

    programs = []
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp) or not any(isinstance(o, ktdf.StageOp) for o in fn.walk()):
            continue
        grid = fn.attributes.get("grid")
        report = ProgramReport(fn.sym_name.data, _grid_text(grid))
        model = _model(fn, device)
        report.pipelines = [_pipeline_text(p) for p in fn.walk()
                            if isinstance(p, ktdf.PipelineOp) and _outermost_pipeline(p)]
        report.buffers = _buffers(fn, model)
        report.memories = _memory_use(fn, report.buffers, model)
        instances = [p.num_instances.value.data for p in fn.walk() if isinstance(p, ktdf.ParallelOp)]
        report.corelets = max(instances, default=1)
        report.device_corelets = getattr(model, "corelets_per_core", None) if model is not None else None
        programs.append(report)
    return programs


def _grid_text(grid) -> str:
    if grid is None:
        return "-"
    data = getattr(grid, "data", None)
    if isinstance(data, tuple):
        return "x".join(str(getattr(getattr(d, "value", d), "data", d)) for d in data)
    return str(grid)


def _outermost_pipeline(op: Operation) -> bool:
    from dfsched.dialects import ktdf

    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, ktdf.PipelineOp):
            return False
        parent = parent.parent_op()
    return True


def _units(stage) -> list[str]:
    units = stage.applicable_units
    return [u.data for u in units.data] if units is not None else []


def _pipeline_text(pipeline) -> str:
    """`MNILU -> [L1LU -> SFU -> L1SU] x2 -> MNISU`; the header says loops and modulo."""
    loops = 0
    parent = pipeline.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        loops += isinstance(parent, scf.ForOp)
        parent = parent.parent_op()
    head = f"{loops} loop(s) around"
    if pipeline.modulo is not None:
        head += f", modulo {pipeline.modulo.value.data}"
    return f"{head}: {_stages_text(pipeline)}"


def _stages_text(pipeline) -> str:
    from dfsched.dialects import ktdf

    parts = []
    for stage in pipeline.body.block.ops:
        if not isinstance(stage, ktdf.StageOp):
            continue
        inner = [p for p in stage.walk() if isinstance(p, ktdf.PipelineOp) and p.parent_op() is not None
                 and _nearest(p.parent_op(), ktdf.StageOp) is stage]
        if inner:
            text = " ; ".join(_stages_text(p) for p in inner)
            parallel = [p for p in stage.walk() if isinstance(p, ktdf.ParallelOp)]
            suffix = f" x{parallel[0].num_instances.value.data} corelets" if parallel else ""
            parts.append(f"[{text}]{suffix}")
        else:
            parts.append("/".join(_units(stage)) or "?")
    return " -> ".join(parts)


def _nearest(op: Operation | None, kind: type) -> Operation | None:
    while op is not None and not isinstance(op, kind):
        op = op.parent_op()
    return op


def _buffers(fn: func.FuncOp, model) -> list[BufferReport]:
    out = []
    for op in fn.walk():
        if not isinstance(op, UnrealizedConversionCastOp) or len(op.results) != 1:
            continue
        type_ = op.results[0].type
        source = op.operands[0].owner if op.operands else None
        if not isinstance(type_, MemRefType) or not isinstance(source, arith.ConstantOp):
            continue
        address = source.value.value.data  # type: ignore[union-attr]
        kind = _memory_kind(type_, model)
        written, read, double = _uses(op.results[0])
        out.append(BufferReport(kind, address, _bytes(type_), _type_text(type_), double, written, read))
    return out


def _memory_kind(type_: MemRefType, model) -> str:
    space = type_.memory_space
    if model is not None:
        from dfsched.diagnostics import DiagnosticError

        try:
            return model.memory_for_space(space).kind
        except DiagnosticError:
            pass
    return getattr(space, "data", str(space))


def _bytes(type_: MemRefType) -> int:
    element = type_.element_type
    width = 8 if isinstance(element, IndexType) else (
        max(1, math.ceil(element.bitwidth / 8)) if isinstance(element, FixedBitwidthType) else 0)
    return math.prod(max(0, d) for d in type_.get_shape()) * width


def _type_text(type_: MemRefType) -> str:
    return "x".join(str(d) for d in type_.get_shape()) + f"x{type_.element_type}"


def _uses(value: SSAValue) -> tuple[list[str], list[str], bool]:
    """(units writing it, units reading it, double-buffered) through casts, selects and privates."""
    from dfsched.dialects import ktdf
    from dfsched.passes.walk import each_once

    written: list[str] = []
    read: list[str] = []
    double = False
    for v, work in each_once(value):
        for use in v.uses:
            user = use.operation
            if isinstance(user, ktdf.SelectMemrefOp):
                double |= use.index > 0
                work.append(user.results[0])
            elif isinstance(user, memref.CastOp | memref.ReinterpretCastOp | memref.SubviewOp):
                work.append(user.results[0])
            elif isinstance(user, ktdf.PrivateYieldOp):
                work.append(user.parent_op().results[use.index])
            else:
                stage = _nearest(user, ktdf.StageOp)
                units = _units(stage) if stage is not None else []
                transfer = isinstance(user, ktdf.DataTransferOp)
                destination = 1 + len(user.source_indices) + len(user.source_sizes) if transfer else -1
                outputs = getattr(user, "outputs", None)  # linalg ops write their `outs`
                is_write = (transfer and use.index == destination) or (outputs is not None and v in outputs) \
                    or (isinstance(user, memref.CopyOp) and use.index == 1)
                is_read = not transfer or use.index == 0
                for unit in units:
                    if is_write and unit not in written:
                        written.append(unit)
                    if is_read and unit not in read:
                        read.append(unit)
    return written, read, double


def _memory_use(fn: func.FuncOp, buffers: list[BufferReport], model) -> list[MemoryUse]:
    """Bytes per memory below the device level, counted with copies as tile-size-selection does."""
    from dfsched.passes.scheduling.tile_size_selection import copies_of

    used: dict[str, int] = {}
    casts = [op for op in fn.walk() if isinstance(op, UnrealizedConversionCastOp) and len(op.results) == 1
             and isinstance(op.results[0].type, MemRefType) and op.operands
             and isinstance(op.operands[0].owner, arith.ConstantOp)]
    for op, buffer in zip(casts, buffers):
        used[buffer.memory] = used.get(buffer.memory, 0) + buffer.bytes * copies_of(op, fn)
    out = []
    for kind, total in used.items():
        memory = model.memories.get(kind) if model is not None else None
        if memory is not None and memory.level == "global":
            continue
        out.append(MemoryUse(kind, total, memory.size if memory is not None else None))
    return out


# -- simulation ---------------------------------------------------------------------------


def simulate(module: ModuleOp, kernel_name: str, kernel_text: str, device: str | None) -> SimulationReport:
    """Run the final DataflowIR on the reference inputs of the kernel it was compiled from."""
    from dfsched.diagnostics import DiagnosticError
    from dfsched.interp import ktir
    from dfsched.interp.dataflow import check_against_reference

    try:
        kernel = ktir.parse_module(kernel_text, kernel_name)
        result, differences = check_against_reference(kernel, module, device=device, record_timeline=False)
    except DiagnosticError as exc:
        return SimulationReport(error=exc.diagnostic.message)
    except Exception as exc:  # noqa: BLE001 - the report says why it has no figures
        return SimulationReport(error=f"{type(exc).__name__}: {exc}")
    bound = result.bound()
    return SimulationReport(result.total_cycles, bound.cycles,
                            "DMA" if bound.dma_cycles >= bound.compute_cycles else "vector",
                            round(result.efficiency(), 4), not differences)


# ---------------------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------------------

BUFFER_COLUMNS = ("memory", "address", "bytes", "type", "double-buffered", "written by", "read by")
MEMORY_COLUMNS = ("memory", "used bytes", "capacity", "use")
TILE_COLUMNS = ("size", "loop totals", "bound by", "why")  # add "candidates" here to show them
CANDIDATE_COLUMNS = ("sizes", "predicted cycles", "chosen")
SHOWN_CANDIDATES = 8
"""Candidates the table lists (best first); the JSON holds all of them."""


def _tile_cell(tile: TileReport, column: str) -> str:
    return {
        "size": str(tile.size),
        "loop totals": ",".join(map(str, tile.loop_totals)),
        "bound by": tile.bound_by,
        "why": tile.reason,
        "candidates": ",".join(map(str, tile.candidates)),
    }[column]


def _candidate_rows(candidates: list[TileCandidate]) -> list[str]:
    shown = candidates[:SHOWN_CANDIDATES]
    shown += [c for c in candidates[SHOWN_CANDIDATES:] if c.chosen]
    rows = [(",".join(map(str, c.sizes)), "-" if c.predicted is None else str(c.predicted), "yes" if c.chosen else "")
            for c in shown]
    more = len(candidates) - len(shown)
    return table(CANDIDATE_COLUMNS, rows) + ([f"  ... {more} more (--report-json lists all)"] if more > 0 else [])


def table(headers: tuple[str, ...], rows: list[tuple[str, ...]], indent: str = "  ") -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    lines = [indent + "  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines += [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return lines


def render(report: Report) -> str:
    lines = []
    for p in report.programs:
        lines.append(f"== program @{p.name}: grid {p.grid}, device {report.device or '-'} ==")
        lines.append("pipelines (stages by unit; [...] a nested pipeline)")
        lines += [f"  {i}. {text}" for i, text in enumerate(p.pipelines, 1)] or ["  none"]
        lines.append("buffers")
        lines += table(BUFFER_COLUMNS, [(b.memory, str(b.address), str(b.bytes), b.type,
                                         "yes" if b.double_buffered else "no", ",".join(b.written_by) or "-",
                                         ",".join(b.read_by) or "-") for b in p.buffers])
        lines.append("scratchpad use")
        lines += table(MEMORY_COLUMNS, [(m.memory, str(m.used), "-" if m.capacity is None else str(m.capacity),
                                         "-" if m.percent is None else f"{m.percent:.1f}%") for m in p.memories])
        lines.append("tile sizes")
        lines += table(TILE_COLUMNS, [tuple(_tile_cell(t, c) for c in TILE_COLUMNS) for t in p.tiles]) \
            if p.tiles else ["  none (no loop was tiled)"]
        if len(p.tile_candidates) > 1:
            lines.append("tile candidates (cost model, best first)")
            lines += _candidate_rows(p.tile_candidates)
        device = f" (device: {p.device_corelets} per core)" if p.device_corelets else ""
        lines.append(f"corelets: {p.corelets}{device}")
    if not report.programs:
        lines.append("== no scheduled program ==")
    lines += [f"report incomplete: {problem}" for problem in report.problems]
    sim = report.simulation
    if sim is not None:
        if sim.error:
            lines.append(f"simulation: failed: {sim.error}")
        else:
            verdict = "outputs match the reference" if sim.outputs_match else "outputs DIFFER from the reference"
            lines.append(f"simulation: {sim.cycles} cycles, device bound {sim.bound} ({sim.bound_by}), "
                         f"efficiency {sim.efficiency:.0%}, {verdict}")
    return "\n".join(lines) + "\n"


def write_json(reports: list[Report], path: str) -> None:
    from dfsched.fileio import write_text_atomic

    data: Any = [r.as_json() for r in reports]
    write_text_atomic(path, json.dumps(data[0] if len(data) == 1 else data, indent=2) + "\n")
