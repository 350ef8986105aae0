"""Run the lit suite from pytest, one item per folder of tests/lit, so one `pytest` run covers
every test and pytest-xdist spreads the lit folders over the cores along with the unit tests.

Under xdist each item runs lit with one job (the workers already use every core); run alone
(`pytest -n 0`) it uses all of them. `pytest tests/test_lit.py -k NAME`
runs one folder."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).parent / "lit"
SKIPPED = {"Output", "Inputs"}


def _suites():
    """Each folder of tests/lit, the ones with most test files first (xdist hands items out in
    this order, so the long ones do not finish last); top-level test files as one more item."""
    folders = [p for p in LIT_DIR.iterdir() if p.is_dir() and p.name not in SKIPPED]
    size = {p: sum(1 for f in p.rglob("*") if f.suffix in (".mlir", ".test") and "Inputs" not in f.parts)
            for p in folders}
    suites = [[p] for p in sorted(folders, key=lambda p: (-size[p], p.name))]
    loose = sorted(f for f in LIT_DIR.iterdir() if f.is_file() and f.suffix in (".mlir", ".test"))
    if loose:
        suites.append(loose)
    return suites


SUITES = _suites()


@pytest.mark.parametrize("paths", SUITES, ids=[s[0].name if len(s) == 1 else "top-level" for s in SUITES])
def test_lit(paths):
    lit = os.path.join(os.path.dirname(sys.executable), "lit")
    jobs = "1" if "PYTEST_XDIST_WORKER" in os.environ else str(os.cpu_count() or 2)
    proc = subprocess.run([lit, "-q", "-j", jobs, *map(str, paths)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]
