"""Byte-compare `-ktir-to-dfir` between this checkout and another one (prints a table; asserts nothing).

    python benchmarks/compare_outputs.py --base DIR [--grid 40]... [--device D]... [--jobs 2] [KERNEL...]

A refactor of the backend (a faster collapse, a replicated grid, a tile-parametric form) must not
change a byte of what it prints. This compiles every kernel (default: `examples/*.mlir`), and a
copy of each with its `grid` set to each `--grid` (default 40; a 2-D grid becomes 1-D, as
`compile_time.py --grid` does), on every device (default: the shipped ones), with this checkout's
`dfsched-opt` and with DIR's (a `git archive` of the base commit with its own venv:
`DIR/.venv/bin/dfsched-opt`). A case differs when the exit status, the output or the diagnostics
differ once each checkout's own path is taken out of them. The copies are written to a temporary
folder, so both checkouts read the same files.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRID = re.compile(r"grid = \[[^\]]*\]")


def kernel_copies(kernels: list[str], grids: list[int], folder: str) -> list[str]:
    """Each kernel as it is, and with the first `grid` of its text set to each of `grids`."""
    out = []
    for kernel in kernels:
        with open(kernel, encoding="utf-8") as fh:
            text = fh.read()
        stem = os.path.splitext(os.path.basename(kernel))[0]
        variants = [(stem, text)] + [(f"{stem}.grid{g}", GRID.sub(f"grid = [{g}]", text, count=1))
                                     for g in grids if GRID.search(text)]
        for name, body in variants:
            path = os.path.join(folder, name + ".mlir")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(body)
            out.append(path)
    return out


def run(root: str, kernel: str, device: str) -> tuple[int, str, str]:
    tool = os.path.join(root, ".venv", "bin", "dfsched-opt")
    done = subprocess.run([tool, "-ktir-to-dfir", f"--device={device}", kernel], capture_output=True, text=True,
                          errors="replace")
    return done.returncode, done.stdout.replace(root, "<ROOT>"), done.stderr.replace(root, "<ROOT>")


def compare(case: tuple[str, str], base: str) -> dict:
    kernel, device = case
    ours, theirs = run(ROOT, kernel, device), run(base, kernel, device)
    what = [name for name, a, b in zip(("exit status", "output", "diagnostics"), ours, theirs) if a != b]
    return {"kernel": os.path.basename(kernel), "device": device, "status": ours[0], "differs": ", ".join(what)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--base", required=True, help="another checkout with its own .venv")
    ap.add_argument("--grid", type=int, action="append", help="a grid for the copies (repeat it; default 40)")
    ap.add_argument("--device", action="append", help="a device (repeat it; default: every shipped one)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    base = os.path.abspath(args.base)
    if not os.access(os.path.join(base, ".venv", "bin", "dfsched-opt"), os.X_OK):
        print(f"compare_outputs: error: {base}/.venv/bin/dfsched-opt is missing (install the base checkout)",
              file=sys.stderr)
        return 2
    devices = args.device or sorted(os.path.splitext(os.path.basename(d))[0]
                                    for d in glob.glob(os.path.join(ROOT, "arch", "devices", "*.mlir")))
    kernels = [os.path.abspath(k) for k in args.kernels] or sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    folder = tempfile.mkdtemp(prefix="compare-outputs-")
    try:
        cases = [(k, d) for k in kernel_copies(kernels, args.grid or [40], folder) for d in devices]
        results = []
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn()) as bar, ThreadPoolExecutor(args.jobs) as pool:
            task = bar.add_task(f"against {base}", total=len(cases))
            for result in pool.map(lambda c: compare(c, base), cases):
                results.append(result)
                bar.advance(task)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    differ = [r for r in results if r["differs"]]
    compiled = sum(r["status"] == 0 for r in results)
    print(f"{len(results)} cases ({compiled} compile, {len(results) - compiled} rejected here): "
          f"{len(differ)} differ from {base}")
    if differ:
        table = Table("kernel", "device", "exit status here", "what differs")
        for r in differ:
            table.add_row(r["kernel"], r["device"], str(r["status"]), r["differs"])
        Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
