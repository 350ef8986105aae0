"""`dfsched-arch`: look at a device description the way the scheduler sees it.

    dfsched-arch list                       shipped devices and their short names
    dfsched-arch show DEVICE                memories, units and their features, hierarchy, links
    dfsched-arch route DEVICE SRC DST...    the route path expansion takes (DDR -> ... -> SFU);
                                            between cores: `route DEVICE core0 core5` (the core links)
    dfsched-arch dot DEVICE                 the routing graph in Graphviz DOT

DEVICE is a file or a shipped device's short name (`sample`, `quad_corelet`, `spyre`);
`--name` picks one device of a file holding several. Bad input is reported as
`file:line:col: error: ...` and exits 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dfsched.diagnostics import Diagnostic, DiagnosticError, SourceManager
from dfsched.fileio import OutputError, read_source, write_text_atomic


def main(argv: Sequence[str] | None = None) -> int:
    parser = _argument_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "list":
            return _list()
        from dfsched.arch.loading import load_device

        model = load_device(args.device, args.name)
        if args.command == "show":
            text = _show(model)
        elif args.command == "route":
            text = _route(model, args.kinds) + "\n"
        else:
            text = model.routing.to_dot(model.name)
        _write(text, args.output)
        return 0
    except DiagnosticError as exc:
        print(_render(exc.diagnostic), file=sys.stderr)
        return 1
    except (OSError, OutputError) as exc:
        print(f"dfsched-arch: error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug, but still no traceback for the user
        print(f"dfsched-arch: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dfsched-arch", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the shipped devices")
    for name, helptext in (
        ("show", "describe a device"),
        ("route", "print the shortest route between resource kinds"),
        ("dot", "print the routing graph as Graphviz DOT"),
    ):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("device", help="device file or short name (sample, quad_corelet, spyre)")
        if name == "route":
            cmd.add_argument("kinds", nargs="+", metavar="KIND", help="source, (waypoints,) destination")
        cmd.add_argument("--name", default=None, help="device to use when the file holds several")
        cmd.add_argument("-o", "--output", default=None, help="write to this file instead of stdout")
    return parser


def _route(model, kinds: list[str]) -> str:
    """Kinds joined by arrows; `coreN` names (all of them) route over the core-to-core links."""
    import re

    cores = [re.fullmatch(r"core(\d+)", kind) for kind in kinds]
    if not all(cores):
        return " -> ".join(model.route_through(kinds))
    numbers = [int(match.group(1)) for match in cores]  # type: ignore[union-attr]
    path = [numbers[0]]
    for src, dst in zip(numbers, numbers[1:]):
        path += model.core_route(src, dst)[1:]
    return " -> ".join(f"core{core}" for core in path)


def _write(text: str, output: str | None) -> None:
    if output:
        write_text_atomic(output, text)
    else:
        sys.stdout.write(text)


def _render(diag: Diagnostic) -> str:
    sources = SourceManager()
    for item in [diag, *diag.notes]:
        if item.file:
            try:
                sources.add(item.file, read_source(item.file))
            except (OSError, DiagnosticError):
                pass
    return diag.render(sources)


def _list() -> int:
    from dfsched.arch.loading import shipped_devices

    by_file: dict[str, list[str]] = {}
    for short, path in shipped_devices().items():
        by_file.setdefault(str(path), []).append(short)
    for path, names in by_file.items():
        print(f"{' '.join(sorted(names, key=len))}\t{path}")
    return 0


# ---------------------------------------------------------------------------
# show
# ---------------------------------------------------------------------------


def _space(attr) -> str:
    from dfsched.arch.views import kind_name

    return kind_name(attr) or "?"


def _load_store(label: str, feature) -> str:
    parts = [label]
    if feature.word_sizes:
        parts.append("word_size " + " ".join(f"{_space(s)}={n}" for s, n in feature.word_sizes))
    if feature.accesses:
        shapes = []
        for space, accesses in feature.accesses:
            listed = ", ".join(f"{a.size_in_words}/{a.align_in_words}" for a in accesses)
            shapes.append(f"{_space(space)}=[{listed}]")
        parts.append("access(size/align words) " + " ".join(shapes))
    return " ".join(parts)


def _unit_facts(model, unit) -> list[str]:
    facts = []
    if unit.compute:
        facts.append("compute" + (f" accumulate {unit.features.accumulate}" if unit.features.accumulate else ""))
    if unit.load is not None:
        facts.append(_load_store("load", unit.load))
    if unit.store is not None:
        facts.append(_load_store("store", unit.store))
    if unit.simd is not None:
        simd = ["simd"]
        if unit.simd.splat:
            simd.append("splat")
        if unit.simd.zero_pad:
            simd.append("zero_pad")
        if unit.simd.lanes:
            simd.append("lanes " + " ".join(f"{t}={n}" for t, n in unit.lanes().items()))
        facts.append(" ".join(simd))
    if unit.features.address_list_memory is not None:
        facts.append(f"address lists from {unit.features.address_list_memory}")
    if unit.matrix is not None:
        m, n, k = unit.matrix.tile
        from dfsched.dialects.ktdf_arch import attribute_text

        types = " ".join(f"{attribute_text(t)}->{acc}" for t, acc in unit.matrix.types)
        facts.append(f"matrix tile {m}x{n}x{k} (MxNxK) {types} {unit.matrix.cycles_per_tile} cycles/tile "
                     f"({unit.matrix.macs_per_cycle:g} MACs/cycle)")
    if unit.double_buffer_last:
        facts.append("double_buffer_last")
    local = model.local_memories.get(unit.kind)
    if local:
        facts.append(f"local memory {local}")
    return facts


def _link_facts(link) -> str:
    facts = []
    if link.transfer_granularity:
        facts.append("granularity [" + ", ".join(map(str, link.transfer_granularity)) + "]")
    if link.queue is not None:
        queue = ["queue"]
        if link.queue.depth is not None:
            queue.append(f"depth {link.queue.depth}")
        if link.queue.size is not None:
            queue.append(f"size {link.queue.size}")
        if link.queue.ordered:
            queue.append("ordered")
        facts.append(" ".join(queue))
    if link.bandwidth is not None:
        facts.append(f"bandwidth {link.bandwidth}")
    return ", ".join(facts)


def _core_links(model) -> str:
    links = model.core_links
    if links is None:
        return "(none)"
    direction = "both directions" if links.bidirectional else "one direction"
    memory = model.core_memory.kind if model.core_memory is not None else "?"
    return (f"{links.topology} over {model.cores} cores' {memory}, {direction}, "
            f"{links.bandwidth} bytes/cycle per link, {links.latency} cycles per hop")


def _show(model) -> str:
    lines = [f"device @{model.name}"]
    if model.source:
        lines.append(f"  file: {model.source}")
    lines.append(f"cores: {model.cores}")
    lines.append(f"corelets per core: {model.corelets_per_core}")
    lines.append(f"compute unit: {model.compute_kind or '(none)'}")
    lines.append(f"core links: {_core_links(model)}")

    lines.append("")
    lines.append("memories:")
    width = max((len(k) for k in model.memories), default=0)
    levels = {"global": "global", "scratchpad": "per-core scratchpad", "below": "below scratchpad"}
    for kind, memory in model.memories.items():
        size = f"{memory.size} bytes" if memory.size is not None else "size unknown"
        lines.append(f"  {kind:<{width}}  {size:>18}  {levels[memory.level]}")

    lines.append("")
    lines.append("units:")
    width = max((len(k) for k in model.units), default=0)
    for kind, unit in model.units.items():
        facts = _unit_facts(model, unit)
        lines.append(f"  {kind:<{width}}  " + ("; ".join(facts) if facts else "-"))

    lines.append("")
    lines.append("lanes:")
    any_lanes = False
    for kind, unit in model.units.items():
        if unit.lanes():
            any_lanes = True
            lines.append(f"  {kind}: " + ", ".join(f"{t} = {n}" for t, n in unit.lanes().items()))
    if not any_lanes:
        lines.append("  (none)")

    lines.append("")
    lines.append("links:")
    counted: dict[tuple[str, str], int] = {}
    for link in model.links:
        key = (f"{link.source} -> {link.target}", _link_facts(link))
        counted[key] = counted.get(key, 0) + 1
    width = max((len(k[0]) for k in counted), default=0)
    for (ends, facts), count in counted.items():
        copies = f" (x{count})" if count > 1 else ""
        lines.append(f"  {ends:<{width}}  {facts}{copies}".rstrip())
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
