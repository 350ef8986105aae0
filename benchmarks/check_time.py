"""Time of `dfsched-run --check` and of the engines it runs (prints a table; asserts nothing).

    python benchmarks/check_time.py [--device sample] [--seed 0] [--no-examples] [--against REV] [KERNEL ...]

Every kernel in examples/ (unless `--no-examples`), then each KERNEL named (big kernels are not
defaults: `tests/lit/pipeline/Inputs/big_rows_add.mlir`, for one, takes minutes). Per kernel:

* `ktir`: the KTIR reference interpreter on the seeded inputs (`ktir.run`), seconds, and
  `ops`, the ops it interpreted;
* `sched`: one ScheduleIR interpreter run (`schedule.run_schedule`) of the scheduled IR, the
  kernel compiled by `-ktir-to-dfir` up to `tile-size-selection`, at the reference's layout;
  `ops`: the ops it interpreted, `us/op` the time per op;
* `dfsim`: one DataflowIR simulation (`dataflow.simulate`) of the fully compiled kernel
  (`dataflow_compile.compile_to_dfir`), seconds;
* `check`: the whole `dfsched-run KERNEL --check` (`tools.run.check_kernel`: the reference,
  every pass, a ScheduleIR run or a simulation after each), seconds, with its verdict (`OK`,
  or `FAILED` when a row mismatches, errs or a pass fails).

Then the public KTIR corpus (`--corpus DIR`, by default ../shared/reference/ktir-corpus next to
the repository; a note says when it is absent; `--no-corpus` skips it): the reference run alone
(`ktir`, `ops`) of its three big Triton kernels, `CORPUS_KERNELS`, in element units with the scalar
values its peer's registry binds (see `corpus_accuracy.py`), the run [corpus 1/4]'s speed targets name
(their full `--check` is minutes: `ktir_corpus.py --check --check-args=--tiles 2`).

A step that fails shows `FAILED` in its column and the reason below the table. Times are the
process's CPU seconds of one run each (`time.process_time`): on a shared machine wall clock
mostly measures the other jobs.

`--against REV` times the git revision REV too, kernel by kernel in the same run (each kernel
first on REV, in a subprocess that imports REV's `dfsched` exported to a temporary directory,
then on the working tree), and adds `REV` columns and the speedups (REV time / this time).
A revision whose `compile_to_dfir` cannot stop after a pass (`through`, from 2026-12-02) gets its
`sched` IR from its own `dfsched-opt --passes=...` up to SCHEDULED_AFTER.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import inspect
import io
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEDULED_AFTER = "tile-size-selection"


def scheduled_module(path: str, device: str):
    """`path` compiled by `-ktir-to-dfir` up to and including SCHEDULED_AFTER."""
    try:
        from dfsched.tools.dataflow_compile import compile_to_dfir
    except ImportError:  # a revision from before it moved (`--against`)
        from dfsched.interp.dataflow_compile import compile_to_dfir
    if "through" in inspect.signature(compile_to_dfir).parameters:
        return compile_to_dfir(path, device, through=SCHEDULED_AFTER)
    return scheduled_module_by_opt(path, device)


def scheduled_module_by_opt(path: str, device: str):
    """SCHEDULED_AFTER's IR by `dfsched-opt --passes=...`, for a revision whose `compile_to_dfir` cannot stop."""
    from dfsched import pipeline
    from dfsched.interp.ktir import load_module
    from dfsched.tools.opt import main as opt_main

    passes = pipeline.KTIR_TO_DFIR[: pipeline.KTIR_TO_DFIR.index(SCHEDULED_AFTER) + 1]
    with tempfile.TemporaryDirectory(prefix="dfsched-check-time-") as tmp:
        out = os.path.join(tmp, "scheduled.mlir")
        args = [path, f"--device={device}", "--passes=" + ",".join(passes), "-o", out]
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = opt_main(args)
        if status != 0 or not os.path.exists(out):
            raise RuntimeError(f"dfsched-opt {' '.join(args)} failed: {err.getvalue().strip()}")
        return load_module(out, verify=False)


def timed(fn):
    start = time.process_time()
    value = fn()
    return value, time.process_time() - start


def measure(path: str, device: str, seed: int) -> tuple[dict[str, str], list[str]]:
    """One table row for `path`, and the reasons of the steps that failed."""
    from dfsched.interp import ktir, schedule
    from dfsched.interp.dataflow import simulate
    try:
        from dfsched.tools.dataflow_compile import compile_to_dfir
    except ImportError:  # a revision from before it moved (`--against`)
        from dfsched.interp.dataflow_compile import compile_to_dfir
    from dfsched.tools.run import check_kernel

    row: dict[str, str] = {"kernel": os.path.relpath(path, ROOT) if path.startswith(ROOT) else path}
    problems: list[str] = []
    try:
        module = ktir.load_module(path)
        inputs = ktir.make_inputs(module, seed)
        reference, seconds = timed(lambda: ktir.run(module, inputs))
        row["ktir"], row["ops"] = f"{seconds:.2f}", str(reference.ops_run)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
        row["ktir"] = "FAILED"
        problems.append(f"ktir: {type(exc).__name__}: {exc}")
        return row, problems
    try:
        scheduled = scheduled_module(path, device)
        result, seconds = timed(lambda: schedule.run_schedule(scheduled, inputs, layout=reference.layout,
                                                              reserve_size="auto"))
        ops = result.stats["ops"]
        row["sched"], row["sched ops"] = f"{seconds:.2f}", str(ops)
        row["us/op"] = f"{seconds / max(ops, 1) * 1e6:.1f}"
    except Exception as exc:  # noqa: BLE001
        row["sched"] = "FAILED"
        problems.append(f"sched: {type(exc).__name__}: {exc}")
    try:
        dfir = compile_to_dfir(path, device)
        sim, seconds = timed(lambda: simulate(dfir, inputs, device, layout=reference.layout))
        row["dfsim"], row["cycles"] = f"{seconds:.2f}", str(int(sim.total_cycles))
    except Exception as exc:  # noqa: BLE001
        row["dfsim"] = "FAILED"
        problems.append(f"dfsim: {type(exc).__name__}: {exc}")
    try:
        report, seconds = timed(lambda: check_kernel(path, device=device, seed=seed))
        row["check"] = f"{seconds:.1f}"
        row["verdict"] = "FAILED" if report.failed else "OK"
        if report.failed:
            problems.append("check: " + report.details().splitlines()[0])
    except Exception as exc:  # noqa: BLE001
        row["check"] = "FAILED"
        problems.append(f"check: {type(exc).__name__}: {exc}")
    return row, problems


CORPUS_KERNELS = ("triton-ktir/layernorm_fwd_ktir.mlir", "triton-ktir/matmul_fwd_ktir.mlir",
                  "triton-ktir/softmax_fwd_ktir.mlir")


def measure_corpus(corpus: str, rel: str, seed: int) -> tuple[dict[str, str], list[str]]:
    """The reference-run row of corpus kernel `rel` (element units, the registry's scalars)."""
    from corpus_accuracy import bindings

    from dfsched.interp import ktir

    row: dict[str, str] = {"kernel": "corpus:" + rel}
    try:
        module = ktir.load_module(os.path.join(corpus, "examples", rel))
        names = ktir.kernel_info(module, None).arg_names
        scalars = {k: v for k, v in bindings(corpus).get(rel, [{}])[0].items() if k in names}
        inputs = ktir.make_inputs(module, seed, scalars=scalars, unit="element")
        reference, seconds = timed(lambda: ktir.run(module, inputs, unit="element"))
        row["ktir"], row["ops"] = f"{seconds:.2f}", str(reference.ops_run)
        return row, []
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
        row["ktir"] = "FAILED"
        return row, [f"ktir: {type(exc).__name__}: {exc}"]


COLUMNS = ("kernel", "ktir", "ops", "sched", "sched ops", "us/op", "dfsim", "cycles", "check", "verdict")
TIMED = ("sched", "dfsim", "check")


def print_table(rows: list[dict[str, str]], columns=COLUMNS) -> None:
    widths = [max([len(c)] + [len(r.get(c, "-")) for r in rows]) for c in columns]
    print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(columns, widths))))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        cells = [r.get(c, "-") for c in columns]
        print("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(cells, widths))))


def export_revision(rev: str, where: str) -> str:
    """`rev` of this repository as an importable `dfsched` package under `where`; returns `where`."""
    target = os.path.join(where, "dfsched")
    os.makedirs(target)
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", target], input=archive, check=True)
    return where


def measure_elsewhere(path: str, device: str, seed: int, pythonpath: str) -> tuple[dict[str, str], list[str]]:
    """`measure` in a subprocess whose `dfsched` is the one under `pythonpath`."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--row-json", path, "--device", device,
                           "--seed", str(seed)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"kernel": path}, [f"{proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else 'failed'}"]
    row, problems = json.loads(proc.stdout)
    return row, problems


def with_baseline(row: dict[str, str], old: dict[str, str], rev: str) -> dict[str, str]:
    """`row` plus REV's times and the speedups."""
    out = dict(row)
    for c in TIMED:
        out[f"{c}@{rev}"] = old.get(c, "-")
        try:
            out[f"{c} x"] = f"{float(old[c]) / max(float(row[c]), 1e-3):.1f}"
        except (KeyError, ValueError):
            out[f"{c} x"] = "-"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernels", nargs="*", help="more kernels to time (after the examples)")
    ap.add_argument("--device", default="sample")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-examples", action="store_true", help="time only the kernels named")
    ap.add_argument("--no-corpus", action="store_true", help="skip the public KTIR corpus rows")
    ap.add_argument("--corpus", default=None, metavar="DIR",
                    help="the public KTIR corpus (default: ../shared/reference/ktir-corpus next to the repository)")
    ap.add_argument("--against", metavar="REV", default=None,
                    help="also time git revision REV, kernel by kernel, and print the speedups")
    ap.add_argument("--row-json", metavar="KERNEL", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.row_json:  # one row, for --against's subprocess
        print(json.dumps(measure(os.path.abspath(args.row_json), args.device, args.seed)))
        return 0
    paths = [] if args.no_examples else sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    paths += [os.path.abspath(p) for p in args.kernels]
    rows, notes = [], []
    with tempfile.TemporaryDirectory(prefix="dfsched-check-time-rev-") as tmp:
        baseline = export_revision(args.against, tmp) if args.against else None
        for path in paths:
            old = None
            if baseline is not None:
                old, old_problems = measure_elsewhere(path, args.device, args.seed, baseline)
                notes += [f"{old.get('kernel', path)} @{args.against}: {p}" for p in old_problems]
            row, problems = measure(path, args.device, args.seed)
            rows.append(row if old is None else with_baseline(row, old, args.against))
            notes += [f"{row['kernel']}: {p}" for p in problems]
            print(f"  timed {row['kernel']}", file=sys.stderr)
    columns = COLUMNS
    if args.against:
        columns = ("kernel", "sched", f"sched@{args.against}", "sched x", "dfsim", f"dfsim@{args.against}",
                   "dfsim x", "check", f"check@{args.against}", "check x", "cycles", "verdict")
    from corpus_accuracy import DEFAULT_CORPUS
    corpus = args.corpus or DEFAULT_CORPUS
    if not args.no_corpus and not os.path.isdir(corpus):
        notes.append(f"corpus rows skipped: no KTIR corpus at {corpus} (give --corpus DIR)")
    elif not args.no_corpus:
        for rel in CORPUS_KERNELS:
            row, problems = measure_corpus(corpus, rel, args.seed)
            rows.append(row)
            notes += [f"{row['kernel']}: {p}" for p in problems]
            print(f"  timed {row['kernel']}", file=sys.stderr)
    print_table(rows, columns)
    if notes:
        print()
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
