"""Compile a KTIR kernel to DataflowIR in-process, for the simulator's callers (dfsched-run
`--timeline`, tests, benchmarks).

    from dfsched.tools.dataflow_compile import compile_to_dfir, CompileError
    dfir = compile_to_dfir("examples/add_2tile.mlir", device="sample")
    dfir = compile_to_dfir(path, disable=["double-buffering"])   # a variant
    dfir = compile_to_dfir(path, options={"tile-size-selection": "strategy=largest"})

It builds the passes `dfsched-opt --device=DEVICE -ktir-to-dfir` would run (the front door
first, then the pipeline, then whichever of `ktdflowering-to-dfir` and `wrap-program-dfir` the
named pipeline does not run yet, so it keeps working as the backend passes join the pipeline),
leaves out every pass in `disable`, and applies them to the parsed kernel: no command line, no
temporary file, no re-parse. A failure raises `CompileError` with the located diagnostic as
dfsched-opt prints it.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable

BACKEND_TAIL = ("ktdflowering-to-dfir", "wrap-program-dfir")


class CompileError(Exception):
    """The kernel does not compile; the message holds the diagnostic."""


def pipeline_passes() -> str:
    """The text of the `-ktir-to-dfir` pipeline (one entry per line)."""
    from dfsched import pipeline

    return "\n".join(pipeline.KTIR_TO_DFIR)


def in_pipeline(name: str) -> bool:
    """Whether `-ktir-to-dfir` runs pass `name` (so `--disable-<name>` changes something)."""
    return re.search(rf"(^|[(,\s]){re.escape(name)}($|[{{),\s])", pipeline_passes(), re.M) is not None


def compile_args(kernel: str | os.PathLike[str], device: str = "sample", disable: Iterable[str] = (),
                 options: dict[str, str] | None = None, extra_args: Iterable[str] = ()) -> list[str]:
    """The dfsched-opt flags of the compile. `options`: pass name -> option text
    (`strategy=search`) for passes of the pipeline; `extra_args`: more flags (`--bind`, `--unit`)."""
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
                    options: dict[str, str] | None = None, extra_args: Iterable[str] = (), through: str | None = None):
    """The DataflowIR module of `kernel` (`extra_args`: more dfsched-opt flags, such as
    `--bind`; `through`: stop after that pass, for the IR of an earlier stage); raises
    CompileError on failure."""
    from xdsl.utils.exceptions import ParseError

    from dfsched import compat
    from dfsched.diagnostics import DiagnosticError
    from dfsched.fileio import read_source
    from dfsched.tools.opt import DfschedOptMain, UsageError
    from dfsched.tools.pipeline_syntax import PipelineSyntaxError

    name = str(kernel)
    text = ""
    tool = None
    try:
        tool = DfschedOptMain(compile_args(kernel, device, disable, options, extra_args))
        text = read_source(name)
        tool.source_manager.add(name, text)
        # as on the command line: a pass's use of a deprecated xDSL name warns, it does not
        # fail (pytest turns dfsched's DeprecationWarnings into errors)
        with warnings.catch_warnings():
            warnings.simplefilter("default", DeprecationWarning)
            built = tool.front_door_passes() + tool.build_passes()
            module = tool.parse(name, text)
            tool.verify(module)
            for request, instance in built:
                tool.apply_pass(module, request, instance)
                if request.name == through:
                    break
        return module
    except DiagnosticError as exc:
        raise CompileError(exc.diagnostic.render(tool.source_manager if tool else None)) from None
    except ParseError as exc:
        raise CompileError(compat.parse_error_diagnostic(exc, name, text).render(
            tool.source_manager if tool else None)) from None
    except (UsageError, PipelineSyntaxError, OSError) as exc:
        raise CompileError(f"{name}: {exc}") from None
    except SystemExit:  # argparse refused a flag (and printed why)
        raise CompileError(f"{name}: invalid dfsched-opt flags: {' '.join(compile_args(kernel, device, disable, options, extra_args))}") from None
    except Exception as exc:  # an internal error, reported as dfsched-opt reports it
        raise CompileError(f"{name}: internal error: {type(exc).__name__}: {exc}") from None


__all__ = ["BACKEND_TAIL", "CompileError", "compile_args", "compile_to_dfir", "in_pipeline", "pipeline_passes"]
