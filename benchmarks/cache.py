"""What the artifact cache saves (prints tables; asserts nothing).

    python benchmarks/cache.py [--device sample] [--variants 200] [--skip-build]

Table 1: per example, a cold compile (`dfsched.compile` into an empty cache) against a warm hit
in a fresh process (raw key: no parsing), both timed inside the process (interpreter start-up
aside), and the ratio. Table 2: `dfsched build` of N generated kernel variants (elementwise adds
of `benchmarks/compile_time.py`, varying grid and rows per tile) with `--jobs 1` and `--jobs 2`,
cold (empty cache) and warm (every kernel a hit).
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compile_time import add_kernel  # noqa: E402  (one generator for every benchmark)

TIMED_COMPILE = """
import sys, time
import dfsched
start = time.perf_counter()
artifact = dfsched.compile(sys.argv[1], sys.argv[2], cache=sys.argv[3])
print(time.perf_counter() - start, "hit" if artifact.hit else "miss")
"""


def timed_compile(kernel: str, device: str, cache: str) -> tuple[float, str]:
    proc = subprocess.run([sys.executable, "-c", TIMED_COMPILE, kernel, device, cache], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {kernel}\n{proc.stderr}")
    seconds, outcome = proc.stdout.split()
    return float(seconds), outcome


def cold_and_warm(device: str) -> None:
    print(f"{'example':<16} {'cold (s)':>9} {'warm hit (s)':>13} {'warm/cold':>10}")
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        with tempfile.TemporaryDirectory() as cache:
            cold, first = timed_compile(path, device, cache)
            warm, second = timed_compile(path, device, cache)
        assert (first, second) == ("miss", "hit"), (first, second)
        name = os.path.splitext(os.path.basename(path))[0]
        print(f"{name:<16} {cold:>9.3f} {warm:>13.4f} {100 * warm / cold:>9.2f}%")


def variants(folder: str, count: int) -> None:
    """`count` distinct generated kernels: grids of 1.. tiles, 1 or 2 rows per tile."""
    for i in range(count):
        tiles, rows = i // 2 + 1, i % 2 + 1
        with open(os.path.join(folder, f"add_{tiles}x{rows}.mlir"), "w") as stream:
            stream.write(add_kernel(1, tiles, rows))


def timed_build(folder: str, device: str, jobs: int, cache: str) -> tuple[float, str]:
    dfsched = shutil.which("dfsched") or sys.exit("dfsched is not on PATH")
    start = time.perf_counter()
    proc = subprocess.run([dfsched, "build", folder, "--device", device, "--jobs", str(jobs)], capture_output=True,
                          text=True, env=dict(os.environ, DFSCHED_CACHE_DIR=cache))
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"dfsched build failed\n{proc.stdout}\n{proc.stderr}")
    return seconds, proc.stdout.strip().splitlines()[-1]


def build_table(device: str, count: int) -> None:
    print(f"\ndfsched build of {count} generated variants")
    print(f"{'jobs':>4} {'cold (s)':>9} {'warm (s)':>9}  summary (warm)")
    with tempfile.TemporaryDirectory() as folder:
        variants(folder, count)
        for jobs in (1, 2):
            with tempfile.TemporaryDirectory() as cache:
                cold, _ = timed_build(folder, device, jobs, cache)
                warm, summary = timed_build(folder, device, jobs, cache)
            print(f"{jobs:>4} {cold:>9.1f} {warm:>9.1f}  {summary}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="sample")
    ap.add_argument("--variants", type=int, default=200)
    ap.add_argument("--skip-build", action="store_true", help="only the per-example table")
    args = ap.parse_args()
    cold_and_warm(args.device)
    if not args.skip_build:
        build_table(args.device, args.variants)


if __name__ == "__main__":
    main()
