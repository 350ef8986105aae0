"""Schedule quality: simulated cycles of each example's DataflowIR against the device bound
(prints a table; asserts nothing).

    python benchmarks/schedule_quality.py [--device sample] [--seed 0] [--details] [--no-search] [EXAMPLE ...]

For every kernel in examples/ (or those named), the full schedule (`-ktir-to-dfir`, then the
backend passes the pipeline does not run yet, see `tools/dataflow_compile.py`) is simulated
by `dfsched.interp.dataflow.simulate` on seeded inputs and checked against the KTIR reference
interpreter as `dfsched-run --check` checks it (reductions accumulated as the device declares,
within 8 f16 ulps): "ok", or "WRONG" with the differences below the table. The table shows

* `model`: simulated cycles of the whole run (the default schedule: tile sizes chosen by the
  cost model, `tile-size-selection{strategy=model}`);
* `bound`: the device bound (DataflowIR simulator docstring): the DMA units' bytes over their
  datapaths' bytes per cycle and the vector work over the compute units' throughput, spread
  over every instance (cores of the grid x corelets), whichever is larger (`dma`/`vec`);
* `eff`: bound / cycles;
* `DDR / compulsory`: the bytes the schedule's DMA units read from or wrote to the device-level
  memory, over the kernel's compulsory traffic (every global byte the reference's tiles read,
  once, plus every byte they wrote, once): 1.00 when nothing goes to DDR twice;
* `largest`, `search`: the same with `tile-size-selection{strategy=largest}` (the largest
  tile that fits) and `{strategy=search}` (the best few by the model, and the largest,
  compiled and simulated; the fastest kept), each with its efficiency against the default
  schedule's bound; `--no-search` leaves `search` out. A note gives each search's time (wall
  and CPU: on a loaded machine the CPU time is the figure to read);
* `no-DB`, `no-CL`: the same with `--disable-double-buffering` and with
  `--disable-parallelize-loops-across-instances` (cycles and efficiency against the full
  schedule's bound); "n/a" when that pass is not in the pipeline.

`check` is "ok", "WRONG" (outputs differ from the reference; a kernel that reduces may differ
by the checker's reduction tolerance, as in `dfsched-run --check`) or "RACE" (two units touch one
byte without synchronisation ordering them: the schedule is wrong whatever the timing; its
cycles are then simulated without the race check). A kernel the backend cannot compile, or
whose simulation fails, shows FAILED and the reason below the table.
`--details` adds, per kernel, every unit kind's busy share.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STRATEGIES = ["largest", "search"]  # tile-size-selection strategies besides the default (`model`)
COLUMN = {"largest": "largest", "search": "search (best)"}

VARIANTS = [
    ("no-DB", "double-buffering"),
    ("no-CL", "parallelize-loops-across-instances"),
]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    # skip the command line CompileError starts with
    for line in text:
        if "error" in line:
            return line.strip()
    return text[0] if text else type(exc).__name__


def simulate_kernel(path: str, device: str, seed: int, disable=(), strategy: str | None = None):
    """(result, problems, race, compulsory) of the kernel's schedule, or raises with the reason;
    `compulsory`: the bytes of global memory the reference's tiles read plus those they wrote.

    A schedule with a race (see the simulator's `check_races`) is simulated again without the
    check, for its cycles; `race` is then the race's message (else None).
    """
    from dfsched.diagnostics import DiagnosticError
    from dfsched.interp import ktir
    from dfsched.interp.dataflow import simulate
    from dfsched.tools.dataflow_compile import compile_to_dfir
    from dfsched.interp.schedule import has_reduction, output_differences
    from dfsched.tools.run import device_accumulation

    kernel = ktir.load_module(path)
    inputs = ktir.make_inputs(kernel, seed=seed)
    # as dfsched-run --check: reductions accumulate as the device declares, within f16 ulps
    reference = ktir.run(kernel, inputs, accumulate=device_accumulation(device))
    options = {"tile-size-selection": f"strategy={strategy}"} if strategy else None
    dfir = compile_to_dfir(path, device, disable, options)
    race = None
    try:
        result = simulate(dfir, inputs, device, layout=reference.layout, record_timeline=False)
    except DiagnosticError as exc:
        if "(a race)" not in str(exc):
            raise
        race = exc.diagnostic.render()
        result = simulate(dfir, inputs, device, layout=reference.layout, record_timeline=False, check_races=False)
    compulsory = sum(reference.global_memory.slots_touched())
    _, problems = output_differences(reference.outputs, result.outputs, has_reduction(kernel))
    return result, problems, race, compulsory


def variant_cells(label: str, bound, notes: list[str], *args, **kwargs) -> list[str]:
    """The cycles and efficiency cells of one variant (`simulate_kernel(*args, **kwargs)`),
    its problems added to `notes`."""
    try:
        variant, problems, race, _ = simulate_kernel(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 (a table cell, whatever failed)
        notes.append(f"{label}: {_first_line(exc)}")
        return ["FAILED", ""]
    check = _check(problems, race)
    mark = "" if check == "ok" else f" {check}"
    if race:
        notes.append(f"{label}: {race.splitlines()[0]}")
    if problems:
        notes.append(f"{label}: " + "; ".join(problems))
    return [f"{variant.total_cycles}{mark}", f"{bound.cycles / max(1, variant.total_cycles):.0%}"]


def _check(problems, race) -> str:
    return "WRONG" if problems else "RACE" if race else "ok"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("examples", nargs="*", help="example names or paths (default: all of examples/)")
    ap.add_argument("--device", default="sample")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--details", action="store_true", help="busy share of every unit kind")
    ap.add_argument("--no-search", action="store_true", help="leave out the (slow) `search` column")
    args = ap.parse_args()

    from dfsched.tools.dataflow_compile import in_pipeline

    paths = []
    for name in args.examples or sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        path = name if os.path.exists(name) else os.path.join(ROOT, "examples", f"{name}.mlir")
        if not os.path.exists(path):
            sys.exit(f"no example {name}")
        paths.append(path)

    strategies = [s for s in STRATEGIES if s != "search" or not args.no_search]
    header = ["kernel", "check", "model", "bound", "eff", "DDR / compulsory"]
    for label in strategies:
        header += [COLUMN[label], "eff"]
    for label, _ in VARIANTS:
        header += [label, "eff"]
    rows: list[list[str]] = []
    notes: list[str] = []
    details: list[str] = []
    start = time.perf_counter()
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            result, problems, race, compulsory = simulate_kernel(path, args.device, args.seed)
        except Exception as exc:  # noqa: BLE001 (a table row, whatever failed)
            rows.append([name, "FAILED", "-", "-", "-", "-"] + ["-", "-"] * (len(VARIANTS) + len(strategies)))
            notes.append(f"{name}: {_first_line(exc)}")
            continue
        bound = result.bound()
        which = "dma" if bound.dma_cycles >= bound.compute_cycles else "vec"
        row = [name, _check(problems, race), str(result.total_cycles), f"{bound.cycles} {which}",
               f"{bound.cycles / max(1, result.total_cycles):.0%}",
               f"{result.global_dma_bytes() / max(1, compulsory):.2f}"]
        for strategy in strategies:
            started, cpu = time.perf_counter(), time.process_time()
            row += variant_cells(f"{name} {strategy}", bound, notes, path, args.device, args.seed, strategy=strategy)
            if strategy == "search":
                notes.append(f"{name}: search compiled and simulated in {time.perf_counter() - started:.1f} s "
                             f"({time.process_time() - cpu:.1f} s of CPU)")
        for label, pass_name in VARIANTS:
            if not in_pipeline(pass_name):
                row += ["n/a", ""]
                continue
            row += variant_cells(f"{name} {label}", bound, notes, path, args.device, args.seed, [pass_name])
        rows.append(row)
        if race:
            notes.append(f"{name}: {race.splitlines()[0]}")
        if problems:
            notes.append(f"{name}: " + "; ".join(problems))
        if args.details:
            kinds: dict[str, list[int]] = {}
            for s in result.stats.values():
                kinds.setdefault(s.kind, []).append(s.busy)
            share = ", ".join(f"{k} {sum(v) / (len(v) * max(1, result.total_cycles)):.0%}" for k, v in kinds.items())
            details.append(f"{name}: units busy on average: {share}; {len(result.launches)} launch(es); "
                           f"bound per kind {bound.per_kind}")

    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print(f"device {args.device}, seed {args.seed}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    for line in details:
        print(line)
    if notes:
        print()
        for line in notes:
            print(line)
    print(f"\n({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
