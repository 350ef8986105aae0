"""Compile a KTIR kernel to DataflowIR in-process, for the simulator's tests and benchmarks.

    from dfsched.interp.dataflow_compile import compile_to_dfir, CompileError
    dfir = compile_to_dfir("examples/add_2tile.mlir", device="sample")
    dfir = compile_to_dfir(path, disable=["double-buffering"])   # a variant
    dfir = compile_to_dfir(path, options={"tile-size-selection": "strategy=largest"})

It runs `dfsched-opt --device=DEVICE -ktir-to-dfir` followed by whichever of
`ktdflowering-to-dfir` and `wrap-program-dfir` the named pipeline does not run yet (so it keeps
working as the backend passes join the pipeline), with `--disable-<pass>` for every pass in
`disable`, and parses the result. A failure raises `CompileError` with dfsched-opt's
diagnostics.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import warnings
from collections.abc import Iterable
from pathlib import Path

BACKEND_TAIL = ("ktdflowering-to-dfir", "wrap-program-dfir")


class CompileError(Exception):
    """dfsched-opt failed; the message holds its diagnostics."""


def pipeline_passes() -> str:
    """The text of the `-ktir-to-dfir` pipeline (one entry per line)."""
    from dfsched import pipeline

    return "\n".join(pipeline.KTIR_TO_DFIR)


def in_pipeline(name: str) -> bool:
    """Whether `-ktir-to-dfir` runs pass `name` (so `--disable-<name>` changes something)."""
    import re

    return re.search(rf"(^|[(,\s]){re.escape(name)}($|[{{),\s])", pipeline_passes(), re.M) is not None


def compile_args(kernel: str | os.PathLike[str], device: str = "sample", disable: Iterable[str] = (),
                 options: dict[str, str] | None = None, extra_args: Iterable[str] = ()) -> list[str]:
    """`options`: pass name -> option text (`strategy=search`) for passes of the pipeline;
    `extra_args`: more dfsched-opt flags (`--bind`, `--unit`)."""
    if options:
        from dfsched import pipeline

        # the front door first, as the named pipeline runs it (an explicit -p list does not)
        entries = [*pipeline.FRONT_DOOR,
                   *(f"{e}{{{options[e]}}}" if e in options else e for e in pipeline.KTIR_TO_DFIR)]
        args = [str(kernel), f"--device={device}", "-p", ",".join(entries)]
    else:
        args = [str(kernel), f"--device={device}", "-ktir-to-dfir"]
    args += [f"-{name}" for name in BACKEND_TAIL if not in_pipeline(name)]
    args += [f"--disable-{name}" for name in disable]
    return args + list(extra_args)


def compile_to_dfir(kernel: str | os.PathLike[str], device: str = "sample", disable: Iterable[str] = (),
                    options: dict[str, str] | None = None, extra_args: Iterable[str] = ()):
    """The DataflowIR module of `kernel` (parsed; `extra_args`: more dfsched-opt flags, such as
    `--bind`); raises CompileError on failure."""
    from dfsched.interp.ktir import load_module
    from dfsched.tools.opt import main

    with tempfile.TemporaryDirectory(prefix="dfsched-sim-") as tmp:
        out = Path(tmp) / (Path(kernel).stem + ".dfir.mlir")
        args = compile_args(kernel, device, disable, options, extra_args) + ["-o", str(out)]
        stderr = io.StringIO()
        # as on the command line: a pass's use of a deprecated xDSL name warns, it does not
        # fail (pytest turns dfsched's DeprecationWarnings into errors)
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()), \
                warnings.catch_warnings():
            warnings.simplefilter("default", DeprecationWarning)
            try:
                status = main(args)
            except SystemExit as exc:  # argparse
                status = exc.code if isinstance(exc.code, int) else 1
        if status != 0 or not out.exists():
            raise CompileError(f"dfsched-opt {' '.join(args)} failed:\n{stderr.getvalue().strip()}")
        return load_module(out)


__all__ = ["BACKEND_TAIL", "CompileError", "compile_args", "compile_to_dfir", "in_pipeline", "pipeline_passes"]
