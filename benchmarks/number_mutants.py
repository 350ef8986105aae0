"""Every mutant that sets one integer literal of the examples to one value (prints a table of the
slow and the bad; asserts nothing).

    python benchmarks/number_mutants.py [--value 65536] [--cpu 30] [--jobs 2] [--device sample] [KERNEL...]

The random fuzz (`../shared/tools/fuzz.py`, issue 19) replaces a number with 65536 in about one
mutant of 49, so the few such mutants that are slow or crash turn up by chance. This runs all of
them: each integer literal of each kernel (default: `examples/*.mlir`) in turn set to `--value`,
compiled by `dfsched-opt -ktir-to-dfir` with `--cpu` seconds of CPU (`RLIMIT_CPU`; wall time would
measure the machine's other jobs). A case is bad when it prints a traceback or an internal error,
dies from a signal, or runs out of CPU; slow cases (over a third of `--cpu`) are listed too.
The mutants are written next to their kernel (hidden `.mutant-*` files, removed after), so
relative device imports still resolve.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import resource
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = re.compile(r"\b\d+\b")  # what fuzz.py's "number" mutation replaces


def mutants(kernels: list[str], value: str):
    """(kernel, line, text) for each integer literal of each kernel set to `value`."""
    for kernel in kernels:
        with open(kernel, encoding="utf-8") as fh:
            text = fh.read()
        for m in NUMBER.finditer(text):
            if m.group() != value:
                yield kernel, text.count("\n", 0, m.start()) + 1, text[:m.start()] + value + text[m.end():]


def compile_case(case, device: str, cpu: int) -> dict:
    kernel, line, text = case
    fd, path = tempfile.mkstemp(suffix=".mlir", prefix=".mutant-", dir=os.path.dirname(kernel))
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    try:
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as err:
            child = subprocess.Popen(["dfsched-opt", "-ktir-to-dfir", f"--device={device}", path, "-o", os.devnull],
                                     stdout=subprocess.DEVNULL, stderr=err,
                                     preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu)))
            _, wait_status, usage = os.wait4(child.pid, 0)  # this child's own CPU time
            child.returncode = os.waitstatus_to_exitcode(wait_status)
            err.seek(0)
            stderr = err.read()
    finally:
        os.unlink(path)
    seconds = usage.ru_utime + usage.ru_stime
    crashed = "Traceback" in stderr or "internal error" in stderr
    status = "signal" if child.returncode < 0 else "crash" if crashed else "ok" if child.returncode == 0 else "rejected"
    return {"kernel": os.path.basename(kernel), "line": line, "status": status, "seconds": seconds,
            "message": stderr.strip().splitlines()[0][:120] if crashed else ""}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--value", default="65536")
    ap.add_argument("--cpu", type=int, default=30, help="CPU seconds per case (default 30, fuzz.py's timeout)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--device", default="sample")
    args = ap.parse_args()
    kernels = args.kernels or sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    cases = list(mutants([os.path.abspath(k) for k in kernels], args.value))
    results = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar, \
            ThreadPoolExecutor(args.jobs) as pool:
        task = bar.add_task(f"mutants with a number set to {args.value}", total=len(cases))
        for result in pool.map(lambda c: compile_case(c, args.device, args.cpu), cases):
            results.append(result)
            bar.advance(task)
    counts = {s: sum(r["status"] == s for r in results) for s in ("ok", "rejected", "crash", "signal")}
    print(f"{len(results)} mutants on '{args.device}': " + ", ".join(f"{n} {s}" for s, n in counts.items())
          + " (signal: out of CPU, or killed)")
    shown = [r for r in results if r["status"] in ("crash", "signal") or r["seconds"] > args.cpu / 3]
    table = Table("kernel", "line", "status", "CPU s", "first line of the error")
    for r in sorted(shown, key=lambda r: -r["seconds"]):
        table.add_row(r["kernel"], str(r["line"]), r["status"], f"{r['seconds']:.1f}", r["message"])
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
