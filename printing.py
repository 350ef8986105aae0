"""How dfsched prints IR: as `mlir-opt` does, wherever a FileCheck line would notice.

`print_module` is the one entry point the tools use.
"""

from __future__ import annotations

from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer


def print_module(module: ModuleOp, stream: IO[str], generic: bool = False, debuginfo: bool = False) -> None:
    printer = Printer(stream=stream, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.print_op(module)
    stream.write("\n")
