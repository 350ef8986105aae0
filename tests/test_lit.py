"""Run the whole lit suite from pytest, so one `pytest` run covers every test."""

import os
import subprocess
import sys

LIT_DIR = os.path.join(os.path.dirname(__file__), "lit")


def test_lit_suite():
    lit = os.path.join(os.path.dirname(sys.executable), "lit")
    jobs = str(os.cpu_count() or 2)
    proc = subprocess.run([lit, "-q", "-j", jobs, LIT_DIR], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]
