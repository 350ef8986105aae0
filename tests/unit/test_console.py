"""The console scripts (`tools/console.py`) end with `os._exit`: what a normal exit gives must
still come out: the whole output on a pipe, the exit status, atexit handlers."""

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
ADD = Path(__file__).resolve().parents[2] / "examples" / "add.mlir"


def test_whole_output_on_a_pipe_and_the_status(tmp_path):
    done = subprocess.run([str(BIN / "dfsched-opt"), "--device=sample", "-ktir-to-dfir", str(ADD)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("}") and "dataflow.program_unit" in done.stdout
    absent = subprocess.run([str(BIN / "dfsched-opt"), str(ADD) + ".absent"], capture_output=True, text=True)
    assert absent.returncode == 2 and "could not open input file" in absent.stderr
    broken = tmp_path / "broken.mlir"
    broken.write_text("func.func @f(\n")
    bad = subprocess.run([str(BIN / "dfsched-opt"), str(broken)], capture_output=True, text=True)
    assert bad.returncode == 1 and f"{broken}:2:1: error:" in bad.stderr, bad.stderr
    usage = subprocess.run([str(BIN / "dfsched-run"), "--no-such-flag"], capture_output=True, text=True)
    assert usage.returncode == 2


def test_exit_runs_atexit_handlers_and_flushes(tmp_path):
    marker = tmp_path / "ran"
    code = ("import atexit, sys\n"
            "from dfsched.tools.console import exit_now\n"
            f"atexit.register(lambda: open({str(marker)!r}, 'w').write('yes'))\n"
            "sys.stdout.write('unflushed')\n"
            "exit_now(3)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stdout, marker.read_text()) == (3, "unflushed", "yes")
