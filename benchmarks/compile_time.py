"""Compile time of `-ktir-to-dfir` (prints tables; asserts nothing).

    python benchmarks/compile_time.py [--device sample] [--repeat 3] [--only softmax ...] [--cached-bytecode]
    python benchmarks/compile_time.py --grid 500 4000 100000 [--device sample]
    python benchmarks/compile_time.py --grid 4000 65536 --kernel examples/row_bias_tiled.mlir

Table 1: every kernel in examples/ (or those `--only` names), the full pipeline next to a bare
parse+print of the same input: CPU seconds of the compiler process (user + system, median of
`--repeat` runs, the two commands interleaved; the machine may be shared, so wall time would
measure the other jobs) and their ratio. The runs inherit the environment: with
PYTHONDONTWRITEBYTECODE set, every run compiles dfsched's sources again (the header says so);
`--cached-bytecode` gives them a bytecode cache in a temporary folder, warmed by one run of each
command, as an installed compiler runs after its first start. Table 2 (wall seconds): how the time grows with kernel size, on generated elementwise-add kernels with
more compute groups (programs) and more compute tiles (grid size).
`--grid N...` instead times `-ktir-to-dfir` on `add_kernel(1, N)` for each N, once: CPU seconds
of the compiler process (the machine may be shared), peak memory and output size. With
`--kernel FILE`, on FILE with its `grid` attribute set to `[N]` instead (the examples whose tiles
do not index their views compile at any grid: issue 19's 65,536-tile fuzz mutants).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_seconds(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """User + system CPU seconds of one run of `cmd`; a failing command is reported, not timed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def timed(cmd: list[str], repeat: int) -> float:
    """Median wall time of `cmd`; a failing command is reported, not timed."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    return statistics.median(times)


def add_kernel(groups: int, tiles: int, rows_per_tile: int = 2) -> str:
    """A kernel with `groups` independent f16 adds over a 1-D grid of `tiles` compute tiles."""
    rows = tiles * rows_per_tile
    size = rows * 64 * 2
    lines = [
        f"// {groups} independent adds of {rows}x64 f16 over {tiles} tiles (generated).",
        f"#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, -d1 + 63 >= 0)>",
        f"#tile_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows_per_tile - 1} >= 0, d1 >= 0, -d1 + 63 >= 0)>",
        "#row_major = affine_map<(d0, d1) -> (d0, d1)>",
        "module {",
        f"  func.func @adds() attributes {{grid = [{tiles}]}} {{",
        "    %zero = arith.constant 0 : index",
        f"    %rows_per_tile = arith.constant {rows_per_tile} : index",
        "    %tile = ktdp.get_compute_tile_id : index",
        "    %first = arith.muli %tile, %rows_per_tile : index",
    ]
    for g in range(groups):
        names = {}
        for k, role in enumerate("abc"):
            addr = (3 * g + k) * size
            names[role] = f"%{role}{g}"
            lines += [
                f"    %{role}{g}_addr = arith.constant {addr} : index",
                f"    %{role}{g} = ktdp.construct_memory_view %{role}{g}_addr, sizes: [{rows}, 64], strides: [64, 1] "
                "{coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} "
                f": memref<{rows}x64xf16>",
                f"    %{role}{g}_t = ktdp.construct_access_tile %{role}{g}[%first, %zero] "
                "{access_tile_set = #tile_rows, access_tile_order = #row_major} "
                f": memref<{rows}x64xf16> -> !ktdp.access_tile<{rows_per_tile}x64xindex>",
            ]
        t = f"tensor<{rows_per_tile}x64xf16>"
        lines += [
            f"    %x{g} = ktdp.load %a{g}_t : <{rows_per_tile}x64xindex> -> {t}",
            f"    %y{g} = ktdp.load %b{g}_t : <{rows_per_tile}x64xindex> -> {t}",
            f"    %e{g} = tensor.empty() : {t}",
            f"    %s{g} = linalg.add ins(%x{g}, %y{g} : {t}, {t}) outs(%e{g} : {t}) -> {t}",
            f"    ktdp.store %s{g}, %c{g}_t : {t}, <{rows_per_tile}x64xindex>",
        ]
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def grid_scaling(opt: str, device: str, tile_counts: list[int], kernel: str | None = None) -> None:
    """One compile per tile count: CPU seconds, peak memory, output size."""
    what = f"{os.path.basename(kernel)} with grid = [N]" if kernel else "add_kernel(1, N)"
    print(f"grid scaling on device '{device}' ({what}, one run each)")
    print(f"{'tiles':>7} {'CPU s':>8} {'ms/tile':>8} {'peak MB':>8} {'output MB':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for tiles in tile_counts:
            path = os.path.join(tmp, f"adds_{tiles}.mlir")
            with open(path, "w") as fh:
                fh.write(with_grid(kernel, tiles) if kernel else add_kernel(1, tiles))
            out = os.path.join(tmp, "out.mlir")
            code = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
                    "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
                    "print(r.ru_utime + r.ru_stime, r.ru_maxrss); sys.exit(p.returncode)")
            proc = subprocess.run([sys.executable, "-c", code, opt, f"--device={device}", "-ktir-to-dfir",
                                   path, "-o", out], capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"failed at {tiles} tiles:\n{proc.stderr}")
            cpu, peak_kb = proc.stdout.split()
            size = os.path.getsize(out) / 1e6
            print(f"{tiles:>7} {float(cpu):>8.1f} {1000 * float(cpu) / tiles:>8.2f} {int(peak_kb) / 1024:>8.0f} "
                  f"{size:>10.1f}")


def with_grid(kernel: str, tiles: int) -> str:
    """The text of `kernel` with every `grid = [...]` set to `[tiles]`."""
    with open(kernel) as fh:
        return re.sub(r"grid = \[[^\]]*\]", f"grid = [{tiles}]", fh.read())


def examples_table(opt: str, args: argparse.Namespace) -> None:
    """Table 1: CPU seconds of parse+print and of the pipeline per example, and their ratio."""
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    if args.only:
        paths = [p for p in paths if os.path.basename(p)[: -len(".mlir")] in args.only]
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as pycache:
        if args.cached_bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pycache
            bytecode = "bytecode cached"
        elif env.get("PYTHONDONTWRITEBYTECODE"):
            bytecode = "PYTHONDONTWRITEBYTECODE is set: each run compiles dfsched's sources"
        else:
            bytecode = "bytecode as the environment caches it"
        print(f"examples on device '{args.device}' (CPU seconds, median of {args.repeat}, load "
              f"{os.getloadavg()[0]:.1f}; {bytecode})")
        print(f"{'kernel':<24} {'parse+print':>12} {'-ktir-to-dfir':>14} {'ratio':>6}")
        for path in paths:
            commands = [[opt, path, "-o", os.devnull],
                        [opt, f"--device={args.device}", "-ktir-to-dfir", path, "-o", os.devnull]]
            if args.cached_bytecode:
                for cmd in commands:
                    cpu_seconds(cmd, env)
            runs: list[list[float]] = [[], []]
            for _ in range(args.repeat):
                for times, cmd in zip(runs, commands):
                    times.append(cpu_seconds(cmd, env))
            parse, full = (statistics.median(times) for times in runs)
            print(f"{os.path.basename(path):<24} {parse:>12.3f} {full:>14.3f} {full / parse:>5.2f}x", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="sample")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--grid", type=int, nargs="+", metavar="N", help="time add_kernel(1, N) for each N")
    ap.add_argument("--kernel", metavar="FILE", help="with --grid: time FILE at grid = [N] instead")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="table 1 on these examples only (no table 2)")
    ap.add_argument("--cached-bytecode", action="store_true",
                    help="run the compiler with a bytecode cache in a temporary folder (see above)")
    args = ap.parse_args()
    opt = shutil.which("dfsched-opt") or sys.exit("dfsched-opt is not on PATH")
    if args.grid:
        grid_scaling(opt, args.device, args.grid, args.kernel)
        return

    def row(path: str) -> tuple[float, float]:
        parse = timed([opt, path], args.repeat)
        full = timed([opt, f"--device={args.device}", "-ktir-to-dfir", path], args.repeat)
        return parse, full

    examples_table(opt, args)
    if args.only:
        return

    print("\ngrowth with kernel size (generated adds)")
    print(f"{'programs':>8} {'tiles':>6} {'parse+print':>12} {'-ktir-to-dfir':>14}")
    with tempfile.TemporaryDirectory() as tmp:
        for groups, tiles in [(1, 2), (1, 8), (1, 32), (2, 32), (4, 32), (8, 32)]:
            path = os.path.join(tmp, f"adds_{groups}_{tiles}.mlir")
            with open(path, "w") as fh:
                fh.write(add_kernel(groups, tiles))
            parse, full = row(path)
            print(f"{groups:>8} {tiles:>6} {parse:>12.3f} {full:>14.3f}")


if __name__ == "__main__":
    main()
