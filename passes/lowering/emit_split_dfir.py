"""`emit-split-dfir{output-dir=DIR}`: write the scheduled kernel as files (Decision 2).

* `global.mlir`: the declaration module's functions (the kernel and the programs' forward
  declarations); definitions become public (so nothing reading the file drops them as unused
  private symbols), declarations stay private (MLIR rejects a public declaration);
* one file per program: `<program>.mlir` holding every function definition of the program's
  module, the wrapped program's inner module included (after `wrap-program-dfir` that is the
  program `@P` declaring its symbols and `@P_body`, the DataflowIR code generation compiles),
  all public. Any number of programs; an unnamed module holding DataflowIR directly (older
  layout) gives one file per function holding a `dataflow.program_unit`, named after it.

The IR is not modified. Without `output-dir` the files go beside the input file. The files
are written all or nothing (`fileio.write_files_atomically`: staged, then moved in; files of an
earlier run into the folder that this one does not write are removed); a program whose name is
not a plain file name (`../x`, `/x`) is a located error, so nothing lands outside the folder. A module
without any program is reported as a warning, as upstream does, and only `global.mlir` is
written. Nothing is written when the module cannot be split.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from dfsched.diagnostics import Diagnostic, DiagnosticError, error, location_of, make_diagnostic
from dfsched.dialects.dataflow import ProgramUnitOp
from dfsched.fileio import OutputError, check_file_name, write_files_atomically

PASS = "emit-split-dfir"
STDIN_NAMES = ("-", "<stdin>", "<unknown>", "")


def _holds_dataflow(op: Operation) -> bool:
    return any(isinstance(inner, ProgramUnitOp) for inner in op.walk())


def _public_clone(function: func.FuncOp) -> func.FuncOp:
    clone = function.clone()
    if clone.body.blocks:
        clone.sym_visibility = None
    return clone


def _definitions(module: ModuleOp) -> list[func.FuncOp]:
    """Function definitions of `module` and of the modules nested in it, in IR order."""
    out: list[func.FuncOp] = []
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and op.body.blocks:
            out.append(op)
        elif isinstance(op, ModuleOp):
            out.extend(_definitions(op))
    return out


def _render(functions: list[func.FuncOp]) -> str:
    from dfsched import printing

    module = ModuleOp([_public_clone(f) for f in functions])
    stream = StringIO()
    printing.print_module(module, stream)
    text = stream.getvalue()
    return text if text.endswith("\n") else text + "\n"


def _output_dir(top: ModuleOp, configured: str) -> str:
    if configured:
        return configured
    filename = location_of(top)[0]
    if filename is None:
        filename = next((location_of(op)[0] for op in top.walk() if location_of(op)[0] is not None), None)
    if filename is None or filename in STDIN_NAMES:
        raise error(top, "output-dir not specified and source location unavailable")
    return os.path.dirname(os.path.abspath(filename))


def split(top: ModuleOp) -> dict[str, str]:
    """File name → text of every file the module splits into (global.mlir first)."""
    children = [op for op in top.body.block.ops if isinstance(op, ModuleOp)]
    if not children:
        raise error(top, f"{PASS}: expects a declaration module and program modules, got no child module")
    declaration = next((m for m in children if m.sym_name is None and not _holds_dataflow(m)), children[0])
    files: dict[str, str] = {
        "global.mlir": _render([op for op in declaration.body.block.ops if isinstance(op, func.FuncOp)])
    }
    for module in children:
        if module is declaration or not _holds_dataflow(module):
            continue
        if module.sym_name is not None:
            groups = [(module.sym_name.data, _definitions(module))]
        else:
            groups = [(f.sym_name.data, [f]) for f in module.body.block.ops
                      if isinstance(f, func.FuncOp) and _holds_dataflow(f)]
        for name, functions in groups:
            filename = f"{name}.mlir"
            try:
                check_file_name(filename)
            except OutputError:
                raise error(module, f"{PASS}: program name '{name}' cannot be a file name in the output "
                                    "folder (it holds a path separator, or is '..')") from None
            if filename in files:
                raise error(module, f"{PASS}: two programs would both be written to '{filename}'")
            files[filename] = _render(functions)
    return files


@dataclass(frozen=True)
class EmitSplitDfir(ModulePass):
    """Write global.mlir and one file per program (the IR is not changed)."""

    name = "emit-split-dfir"

    output_dir: str = ""
    """Where to write the files (default: the input file's folder)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        write_split_files(split(op), _output_dir(op, self.output_dir), op)


def write_split_files(files: dict[str, str], directory: str, op: Operation | None = None) -> None:
    """Write the files `split` made into `directory`, all or nothing; errors located on `op` when given.

    `dfsched -kEmitDFIR` calls it with the files of a (possibly cached) artifact.
    """
    if len(files) == 1:
        message = "SplitDFIROutputPass: no implementation functions with dataflow.program_unit ops found"
        warning = make_diagnostic(op, message, "warning") if op is not None else Diagnostic("warning", message)
        print(warning.render(), file=sys.stderr)
    try:
        write_files_atomically(directory, files)
    except OutputError as exc:
        if op is None:
            raise DiagnosticError(Diagnostic("error", f"{PASS}: {exc}")) from None
        raise error(op, f"{PASS}: {exc}") from None
