"""Run the lit suite from pytest, one item per folder of tests/lit (big folders in parts), so one
`pytest` run covers every test and pytest-xdist spreads the lit tests over the cores along with
the unit tests.

A folder with more than `RUNS_PER_ITEM` RUN lines is cut into parts of about that many (its
files in name order, `dialects-part1`, `dialects-part2`, ...): as one item, `dialects` kept a
worker busy for half the run while the other finished everything else. Under xdist each item
runs lit with one job (the workers already use every core); run alone (`pytest -n 0`) it uses
all of them. `pytest tests/test_lit.py -k NAME` runs one folder (all its parts).

The items of one pytest process share one fork server of the tools (`lit/forkserver.py`): each
lit run would otherwise start its own and import the tools again (about 0.4 s of CPU an item)."""

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).parent / "lit"
SKIPPED = {"Output", "Inputs"}
RUNS_PER_ITEM = 40


def _tests(folder: Path) -> list[Path]:
    return sorted(f for f in folder.rglob("*") if f.suffix in (".mlir", ".test")
                  and not SKIPPED.intersection(f.relative_to(folder).parts))


def _runs(test: Path) -> int:
    return max(1, sum(1 for line in test.read_text().splitlines() if "RUN:" in line))


def _parts(tests: list[Path]) -> list[list[Path]]:
    """`tests` cut, in order, into parts of about `RUNS_PER_ITEM` RUN lines each."""
    runs = [_runs(t) for t in tests]
    count = math.ceil(sum(runs) / RUNS_PER_ITEM)
    target = sum(runs) / count
    parts: list[list[Path]] = [[]]
    done = 0
    for test, n in zip(tests, runs):
        if parts[-1] and done + n / 2 > target * len(parts):
            parts.append([])
        parts[-1].append(test)
        done += n
    return parts


def _suites() -> list[tuple[str, int, list[Path]]]:
    """(id, RUN lines, paths) of each item, the ones with most RUN lines first (xdist hands items
    out in this order, so long ones do not start last); top-level test files as one more item."""
    suites = []
    for folder in (p for p in LIT_DIR.iterdir() if p.is_dir() and p.name not in SKIPPED):
        tests = _tests(folder)
        runs = sum(map(_runs, tests))
        if runs <= RUNS_PER_ITEM:
            suites.append((folder.name, runs, [folder]))
            continue
        for i, part in enumerate(_parts(tests), 1):
            suites.append((f"{folder.name}-part{i}", sum(map(_runs, part)), part))
    loose = sorted(f for f in LIT_DIR.iterdir() if f.is_file() and f.suffix in (".mlir", ".test"))
    if loose:
        suites.append(("top-level", sum(map(_runs, loose)), loose))
    return sorted(suites, key=lambda s: (-s[1], s[0]))


SUITES = _suites()


@pytest.fixture(scope="module")
def lit_environment():
    """The environment lit runs in: naming this process's fork server when it starts."""
    env = dict(os.environ)
    if env.get("DFSCHED_LIT_FORKSERVER") == "off":
        yield env
        return
    sys.path.insert(0, str(LIT_DIR))
    import forkserver

    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    started = forkserver.start(env)
    if started is None:
        yield env
        return
    env["DFSCHED_LIT_FORKSERVER"], stop = started
    yield env
    stop()


@pytest.mark.parametrize("paths", [s[2] for s in SUITES], ids=[s[0] for s in SUITES])
def test_lit(paths, lit_environment):
    lit = os.path.join(os.path.dirname(sys.executable), "lit")
    jobs = "1" if "PYTEST_XDIST_WORKER" in os.environ else str(os.cpu_count() or 2)
    proc = subprocess.run([lit, "-q", "-j", jobs, *map(str, paths)], capture_output=True, text=True,
                          env=lit_environment)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]
