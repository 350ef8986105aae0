"""Helpers the unit tests share (fixtures shared by several files are in conftest.py)."""

from __future__ import annotations


def run_main(capsys, *argv) -> tuple[int, str, str]:
    """`dfsched-run ARGV...` in-process: its exit status, stdout and stderr."""
    from dfsched.tools.run import main

    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def box(*extents: int) -> str:
    """`affine_set` of the box [0, e0) x [0, e1) x ..."""
    dims = ", ".join(f"d{i}" for i in range(len(extents)))
    cons = ", ".join(f"d{i} >= 0, -d{i} + {e - 1} >= 0" for i, e in enumerate(extents))
    return f"affine_set<({dims}) : ({cons})>"
