"""The console scripts (`dfsched-opt`, `dfsched`, `dfsched-run`, `dfsched-arch`): each tool's
`main`, then an exit that skips tearing the interpreter down.

A finished run leaves many small objects behind (xDSL's classes, the IR, the device); letting
CPython free them one by one at exit cost a third of the CPU of a small `dfsched-opt` run
(0.13 s of 0.38 s), paid by every lit RUN line and every user. The exit here runs what a
normal exit runs for others (atexit handlers: Ray's shutdown, thread-pool joins, logging),
flushes the standard streams and leaves. The tools' `main` functions, called in-process by
tests and by `dfsched.compile`, return as before.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys


def _run(module: str) -> None:
    main = importlib.import_module(f"dfsched.tools.{module}").main
    try:
        code = main()
    except SystemExit as exc:  # argparse's --help and usage errors
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else _report(exc.code))
    exit_now(code)


def _report(message) -> int:
    print(message, file=sys.stderr)
    return 1


def exit_now(code: int) -> None:
    """Exit with `code` as `sys.exit` would, without freeing every object first."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`): CPython's own exit status
            code = 120
    os._exit(code)


def opt() -> None:
    _run("opt")


def driver() -> None:
    _run("driver")


def run() -> None:
    _run("run")


def arch() -> None:
    _run("arch_cli")
