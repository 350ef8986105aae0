"""What a runtime needs to know about an artifact, read off the compiled module.

* `launch`: the kernel's name, grid and arguments; each `index` argument is an input the
  runtime hands over at launch (a tensor's byte address), with the symbol id (-1, -2, ...)
  the DataflowIR reads it as (`symbol.create_id` at the kernel's entry). One artifact is
  launched many times with different addresses by filling those symbols.
* `programs`: one per `local_schedule_N.mlir`, with how many `dataflow.program_unit`s it holds
  and how many units they run on.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp

from dfsched.dialects.dataflow import ProgramUnitOp
from dfsched.dialects.symbol import CreateIdOp


def _kernels(top: ModuleOp) -> list[func.FuncOp]:
    """Function definitions carrying a `grid`, outside the program modules."""
    out = []
    for op in top.body.block.ops:
        if isinstance(op, ModuleOp) and op.sym_name is None:
            out.extend(f for f in op.body.block.ops
                       if isinstance(f, func.FuncOp) and f.body.blocks and "grid" in f.attributes)
        elif isinstance(op, func.FuncOp) and op.body.blocks and "grid" in op.attributes:
            out.append(op)
    return out


def _grid(function: func.FuncOp) -> list[int]:
    grid = function.attributes.get("grid")
    if isinstance(grid, ArrayAttr):
        return [a.value.data for a in grid.data if isinstance(a, IntegerAttr)]
    return []


def launch_table(top: ModuleOp) -> list[dict]:
    """Per kernel: name, grid and arguments (position, type, symbol id or None)."""
    table = []
    for kernel in _kernels(top):
        entry = kernel.body.blocks.first
        symbols = {}
        for op in entry.ops:
            if isinstance(op, CreateIdOp) and op.operands and op.operands[0] in entry.args:
                symbols[entry.args.index(op.operands[0])] = op.symbol_id.value.data
        arguments = [{"position": i, "type": str(arg.type), "symbol": symbols.get(i)}
                     for i, arg in enumerate(entry.args)]
        table.append({"kernel": kernel.sym_name.data, "grid": _grid(kernel), "arguments": arguments})
    return table


def program_table(top: ModuleOp) -> list[dict]:
    """Per program module: its file, program units and the units they run on."""
    table = []
    for op in top.body.block.ops:
        if isinstance(op, ModuleOp) and op.sym_name is not None:
            units = [inner for inner in op.walk() if isinstance(inner, ProgramUnitOp)]
            if units:
                table.append({"name": op.sym_name.data, "file": f"{op.sym_name.data}.mlir",
                              "program_units": len(units), "units": sum(len(u.units) for u in units)})
    return table
