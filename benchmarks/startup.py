"""Start-up and parse+print times of dfsched-opt (prints a table; asserts nothing).

    python benchmarks/startup.py [--repeat N]

Measures `dfsched-opt --show-dialects` (import cost of the driver: dialects and passes load
lazily), `dfsched-opt --help` (which imports every pass to list its summary and options) and
`dfsched-opt EXAMPLE` (parse, verify, print) for every kernel in examples/.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd: list[str], repeat: int) -> float:
    """Median wall time of `cmd` over `repeat` runs (after one warm-up run)."""
    subprocess.run(cmd, capture_output=True)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    opt = shutil.which("dfsched-opt") or sys.exit("dfsched-opt is not on PATH")
    rows = [("dfsched-opt --show-dialects", timed([opt, "--show-dialects"], args.repeat)),
            ("dfsched-opt --help (imports every pass)", timed([opt, "--help"], args.repeat))]
    xdsl = shutil.which("xdsl-opt")
    if xdsl:
        rows.append(("xdsl-opt --help (reference)", timed([xdsl, "--help"], args.repeat)))
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        rows.append((f"parse+print {os.path.basename(path)}", timed([opt, path], args.repeat)))
    width = max(len(name) for name, _ in rows)
    print(f"{'what':<{width}}  median (s)")
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds:.3f}")


if __name__ == "__main__":
    main()
