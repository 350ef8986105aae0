"""The KTIR reference interpreter on the public KTIR corpus: time, memory, accuracy (asserts nothing).

    python benchmarks/corpus_accuracy.py [--corpus DIR] [--only SUBSTR] [--timeout S]

The corpus (torch-spyre/ktir-cpu's examples) is read from ../shared/reference/ktir-corpus next to
the repository unless `--corpus` names it; without it the script says so and exits 0. Each kernel
runs in a child process, once per scalar binding its peer's registry (conftest.py) lists, with
`unit="element"` (the corpus's address unit) and no device (reductions accumulate in f32):

* `s`: wall-clock seconds of `ktir.run` (layout dry run included), `cpu s`: its CPU seconds (what
  a shared, loaded machine still measures fairly), `MB`: the child's peak resident memory during that run;
* `ulps`: the largest difference between the reference's outputs and a float64 evaluation of
  the same kernel on the same inputs (`dtypes.float64_evaluation`: every f16/f32 value held and
  computed as f64, rounded to the output type once), in f16 ulps of that output's largest
  float64 magnitude; the README lists the kernels above 2 and why.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "reference", "ktir-corpus")


def bindings(corpus: str) -> dict[str, list[dict]]:
    """Relative path -> scalar bindings, from conftest.py's EXAMPLE_PARAMS (read, not imported)."""
    tree = ast.parse(open(os.path.join(corpus, "conftest.py")).read())
    params: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "EXAMPLE_PARAMS":
            params = ast.literal_eval(node.value)
    out: dict[str, list[dict]] = {}
    for entries in params.values():
        for e in entries:
            if "exception_msg" in e:
                continue
            kw = {k: v for k, v in e.get("execute_kwargs", {}).items() if v is not None}
            lists = [k for k, v in kw.items() if isinstance(v, list)]
            cases = [{**kw, lists[0]: v} for v in kw[lists[0]]] if lists else [kw]
            out.setdefault(e["path"], []).extend(cases)
    return out


def touched_values(output):
    """An output as one array: a generated-on-touch buffer's touched pages, in order (both runs
    of a kernel touch the same pages), any other output as it is."""
    import numpy as np

    from dfsched.interp.memory import TouchedBuffer

    if isinstance(output, TouchedBuffer):
        return np.concatenate([values for _, values in output.runs]) if output.runs else output.element.zeros((0,))
    return np.asarray(output)


def held_in_float64(source):
    """A float generated-on-touch input (a paged pool) for the float64 evaluation: the values the
    reference drew in the buffer's own type, held as f64 (the float64 run reads its pages as f64;
    the f16 bits of the plain input would read as zeros there)."""
    import dataclasses

    from xdsl.dialects.builtin import f64

    from dfsched.interp.dtypes import element_type
    from dfsched.interp.memory import GeneratedInput

    @dataclasses.dataclass(frozen=True)
    class HeldInFloat64(GeneratedInput):
        drawn: GeneratedInput | None = None

        def values(self, first: int, count: int):
            return self.element.cast(self.drawn.values(first, count))

    if source.element.kind != "float":
        return source
    return HeldInFloat64(source.shape, element_type(f64), source.seed, source.key, source.low, source.high,
                         drawn=source)


def ulps(reference: dict, exact: dict) -> float:
    """Largest |reference - exact| over float outputs, in f16 ulps of that output's largest |exact|."""
    import numpy as np

    worst = 0.0
    for key, want in exact.items():
        want = touched_values(want)
        if want.dtype.kind != "f" or key not in reference:
            continue
        got = touched_values(reference[key]).astype(np.float64)
        finite = np.isfinite(want) & np.isfinite(got)
        if not np.array_equal(np.isfinite(want), np.isfinite(got)):
            return float("inf")
        if not finite.any():
            continue
        scale = float(np.abs(want[finite]).max())
        ulp = float(np.spacing(np.float16(min(scale, 65504.0))))
        worst = max(worst, float(np.abs(got[finite] - want[finite]).max()) / ulp)
    return worst


def run_one(path: str, binds: dict) -> dict:
    """Child process: run one kernel, return the figures (or the error)."""
    import numpy as np

    from dfsched.diagnostics import DiagnosticError
    from dfsched.interp import ktir
    from dfsched.interp.dtypes import float64_evaluation
    from dfsched.interp.memory import GeneratedInput

    try:
        module = ktir.load_module(path)
        kernel = ktir.kernel_info(module, None)
        scalars = {k: v for k, v in binds.items() if k in kernel.arg_names}
        inputs = ktir.make_inputs(module, 0, scalars=scalars, unit="element")
        start, cpu = time.perf_counter(), time.process_time()
        reference = ktir.run(module, inputs, unit="element")
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before the float64 run
        with float64_evaluation():
            held = {k: held_in_float64(v) if isinstance(v, GeneratedInput) else np.asarray(v) for k, v in inputs.items()}
            exact = ktir.run(ktir.load_module(path), held, unit="element")
        error = ulps(reference.outputs, exact.outputs)
    except DiagnosticError as exc:
        return {"error": exc.diagnostic.render().splitlines()[0]}
    except Exception as exc:  # noqa: BLE001 - a table row, not a crash
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"seconds": seconds, "cpu": cpu, "mb": mb, "ulps": error}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        result = run_one(args.one[0], json.loads(args.one[1]))
        result.setdefault("mb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        print(json.dumps(result))
        return 0
    if not os.path.isdir(args.corpus):
        print(f"no KTIR corpus at {args.corpus}: nothing to measure (--corpus DIR)")
        return 0
    examples = os.path.join(args.corpus, "examples")
    registry = bindings(args.corpus)
    print(f"{'kernel':60} {'s':>7} {'cpu s':>7} {'MB':>6} {'ulps':>8}")
    for dirpath, _, files in sorted(os.walk(examples)):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, name), examples)
            if not name.endswith((".mlir", ".ktir")) or args.only not in rel:
                continue
            for binds in registry.get(rel, [{}]):
                tag = rel + (" [" + ",".join(f"{k}={v}" for k, v in binds.items()) + "]" if binds else "")
                cmd = [sys.executable, __file__, "--one", os.path.join(examples, rel), json.dumps(binds)]
                try:
                    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                    row = json.loads(out.stdout.strip().splitlines()[-1]) if out.stdout.strip() else {
                        "error": (out.stderr.strip().splitlines() or ["no output"])[-1]}
                except subprocess.TimeoutExpired:
                    row = {"error": f"timeout after {args.timeout:g} s"}
                if "error" in row:
                    print(f"{tag[:60]:60} {'-':>7} {'-':>7} {row.get('mb', 0):6.0f} {'-':>8}  {row['error'][:120]}")
                else:
                    print(f"{tag[:60]:60} {row['seconds']:7.1f} {row['cpu']:7.1f} {row['mb']:6.0f} {row['ulps']:8.2f}",
                          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
