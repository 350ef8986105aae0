"""`dfsched build KERNEL_OR_DIR... [--device D] [--bind NAME=VALUE] [--jobs N] [--ray [ADDRESS]]`.

Compiles many kernels through the artifact cache, to fill it ahead of time (a model's kernels,
a CI warm-up). A folder stands for every `*.mlir` file under it. Without `--device` each kernel
runs on the device it declares. Kernels are compiled by a local process pool (`--jobs`, default:
the CPU count), or with `--ray` as Ray tasks on the cluster at ADDRESS (none: a local Ray),
writing into the same cache folder (on a cluster it must be a shared file system).

A progress bar is shown on a terminal; at the end a table of every kernel (hit, miss or failed,
seconds) and a summary line; below it each kernel's warnings and each failure's located error.
One kernel's failure never stops the others; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path


def parse_bind(text: str) -> tuple[str, int | float]:
    """`NAME=VALUE` with a number VALUE (int, else float)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{text}'")
    for convert in (int, float):
        try:
            return name, convert(value)
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(f"the value of '{name}' is not a number: '{value}'")


def kernels_in(paths: Iterable[str]) -> list[str]:
    """Every kernel file named, folders expanded to their `*.mlir` files (sorted)."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            out.extend(str(p) for p in sorted(Path(path).rglob("*.mlir")) if p.is_file())
        else:
            out.append(path)
    return out


def build_one(kernel: str, device: str | None, binds: dict, cache_root: str | None) -> dict:
    """Compile one kernel through the cache; never raises (a failure is a result)."""
    from dfsched import api

    start = time.perf_counter()
    messages = io.StringIO()
    result = {"kernel": kernel, "status": "failed", "key": "", "error": ""}
    with contextlib.redirect_stderr(messages):
        try:
            artifact = api.compile(Path(kernel), device, binds=binds,
                                   cache=cache_root if cache_root is not None else False)
            result.update(status="hit" if artifact.hit else "miss", key=artifact.key)
        except api.CompileError as exc:
            result["error"] = str(exc)
        except Exception as exc:  # never lose the other kernels' results
            result["error"] = f"{kernel}: error: internal error: {type(exc).__name__}: {exc}"
    result["seconds"] = time.perf_counter() - start
    result["warnings"] = messages.getvalue()
    return result


def answer_from_cache(kernels: list[str], args: tuple) -> tuple[list[dict], list[str]]:
    """Results of the kernels whose exact bytes are cached (no worker needed), and the others."""
    device, binds, cache_root = args
    if cache_root is None:
        return [], kernels
    from dfsched import api

    answered, left = [], []
    for kernel in kernels:
        start = time.perf_counter()
        artifact = api.lookup(Path(kernel), device, binds, cache_root)
        if artifact is None:
            left.append(kernel)
        else:
            answered.append({"kernel": kernel, "status": "hit", "key": artifact.key, "error": "",
                             "seconds": time.perf_counter() - start, "warnings": ""})
    return answered, left


# ---------------------------------------------------------------------------
# Executors: each yields results as they complete
# ---------------------------------------------------------------------------


def run_local(kernels: list[str], jobs: int, args: tuple) -> Iterable[dict]:
    if jobs <= 1:
        for kernel in kernels:
            yield build_one(kernel, *args)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(build_one, kernel, *args) for kernel in kernels]
        for future in as_completed(futures):
            yield future.result()


def run_ray(kernels: list[str], address: str | None, cpus: int | None, args: tuple) -> Iterable[dict]:
    """Every kernel a Ray task: on the cluster at `address`, else on a local Ray of `cpus` CPUs."""
    import ray

    if address:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    else:
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        task = ray.remote(build_one)
        pending = [task.remote(kernel, *args) for kernel in kernels]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done)
    finally:
        ray.shutdown()


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def _with_progress(results: Iterable[dict], total: int, show: bool) -> list[dict]:
    if not show:
        return list(results)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    out = []
    columns = (TextColumn("compiling"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True) as progress:
        bar = progress.add_task("compile", total=total)
        for result in results:
            out.append(result)
            progress.advance(bar)
    return out


def report(results: list[dict], seconds: float, write: Callable[[str], None] = print) -> None:
    """The summary table (every kernel, in the order given), warnings and the failures' errors,
    a total line."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=None)
    for column, justify in (("kernel", "left"), ("result", "left"), ("seconds", "right"), ("key", "left")):
        table.add_column(column, justify=justify)
    for r in results:
        table.add_row(r["kernel"], r["status"], f"{r['seconds']:.2f}", r["key"][:16])
    console = Console(file=io.StringIO(), width=max(100, max((len(r["kernel"]) for r in results), default=0) + 50))
    console.print(table)
    write(console.file.getvalue().rstrip("\n"))
    for r in results:
        if r["warnings"].strip():
            write(r["warnings"].rstrip("\n"))
        if r["status"] == "failed":
            write(r["error"].rstrip("\n"))
    counts = {s: sum(r["status"] == s for r in results) for s in ("hit", "miss", "failed")}
    write(f"{len(results)} kernels: {counts['hit']} hits, {counts['miss']} misses, "
          f"{counts['failed']} failed in {seconds:.1f} s")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="dfsched build", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", metavar="KERNEL_OR_DIR")
    ap.add_argument("--device", default=None, help="device file or shipped name (default: each kernel's own)")
    ap.add_argument("--bind", action="append", type=parse_bind, default=[], metavar="NAME=VALUE",
                    help="fix a scalar argument (repeatable)")
    ap.add_argument("--jobs", "-j", type=int, default=None,
                    help="worker processes (default: the CPU count); with --ray, the CPUs of a local Ray")
    ap.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                    help="run every kernel as a Ray task (on the cluster at ADDRESS, else a local Ray)")
    ap.add_argument("--no-cache", action="store_true", help="compile without the artifact cache")
    args = ap.parse_args(argv)
    args.jobs_given = args.jobs is not None
    args.jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    kernels = kernels_in(args.inputs)
    if not kernels:
        print("dfsched build: error: no kernel files found", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("dfsched build: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.ray is not None and importlib.util.find_spec("ray") is None:
        print("dfsched build: error: --ray needs Ray: pip install 'dfsched[ray]'", file=sys.stderr)
        return 2
    from dfsched.cache.store import default_root

    cache_root = None if args.no_cache else str(default_root().absolute())
    task_args = (args.device, dict(args.bind), cache_root)
    start = time.perf_counter()
    answered, left = answer_from_cache(kernels, task_args)
    if not left:
        results: Iterable[dict] = iter(())
    elif args.ray is not None:
        results = run_ray(left, args.ray, args.jobs if args.jobs_given else None, task_args)
    else:
        results = run_local(left, args.jobs, task_args)
    finished = answered + _with_progress(results, len(left), sys.stderr.isatty())
    order = {kernel: i for i, kernel in enumerate(kernels)}
    finished.sort(key=lambda r: order[r["kernel"]])
    report(finished, time.perf_counter() - start)
    return 1 if any(r["status"] == "failed" for r in finished) else 0
