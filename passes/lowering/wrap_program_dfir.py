"""`wrap-program-dfir`: each program becomes what it is and what it is compiled from.

A program module `@P` (a named child module of the top module holding DataflowIR, not yet
wrapped) whose function `@P` declares symbols (`symbol.create_id` in its entry block) becomes:

    module @P {
      func.func private @P_body()
      func.func @P(<the old signature>) {   // the symbol declarations, over the real arguments
        ...symbol.create_id...
        call @P_body() : () -> ()
        return
      }
      module {
        func.func @P_body() attributes {...} { ...the DataflowIR, no arguments... }
      }
    }

Only the entry-block ops the declarations are computed from move (those also used by the body
are copied). A program computing with one of its arguments is left as it is. The unnamed
declaration module and already wrapped programs are not touched.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from dfsched.diagnostics import error
from dfsched.dialects.dataflow import ProgramUnitOp
from dfsched.dialects.symbol import CreateIdOp
from dfsched.passes.lowering.uniform_grid import expand_uniform_grids
from dfsched.passes.lowering.working_prefix import restore_working_prefix_grids

PASS = "wrap-program-dfir"
BODY_SUFFIX = "_body"


def _holds_dataflow(module: ModuleOp) -> bool:
    return any(isinstance(op, ProgramUnitOp) for op in module.walk())


def _symbol_ops(program: func.FuncOp, entry: Block) -> tuple[list[Operation], set[Operation]] | None:
    """(declaration ops in block order, the ones only declarations read); None: leave as is."""
    for op in program.walk():
        if isinstance(op, CreateIdOp) and op.parent_block() is not entry:
            raise error(op, f"{PASS}: a symbol is declared outside the program's entry block, so what it is "
                            "could not be moved out of the DataflowIR")
    wanted: set[Operation] = set()
    pending: list[SSAValue] = []
    for op in entry.ops:
        if isinstance(op, CreateIdOp):
            wanted.add(op)
            pending.extend(op.operands)
    while pending:
        value = pending.pop()
        owner = value.owner
        if not isinstance(owner, Operation):
            if isinstance(value, BlockArgument) and value.block is entry:
                continue
            raise error(program, f"{PASS}: a symbol is said over a value that exists only inside the program's "
                                 "body, so it cannot be declared beside the program")
        if owner.parent_block() is not entry or owner in wanted:
            continue
        wanted.add(owner)
        pending.extend(owner.operands)
    for arg in entry.args:
        if any(use.operation not in wanted for use in arg.uses):
            return None
    ordered = [op for op in entry.ops if op in wanted]
    erasable = {op for op in ordered if all(use.operation in wanted for r in op.results for use in r.uses)}
    return ordered, erasable


def _rename_symbol_uses(root: Operation, old: str, new: str) -> None:
    """Point every flat reference to `@old` under `root` at `@new` (MLIR `SymbolTable::rename`)."""

    def renamed(attr: Attribute) -> Attribute:
        if isinstance(attr, SymbolRefAttr) and attr.root_reference.data == old:
            return SymbolRefAttr(new, [n.data for n in attr.nested_references.data])
        return attr

    for op in root.walk():
        for table in (op.properties, op.attributes):
            for key, value in list(table.items()):
                new_value = renamed(value)
                if new_value is not value:
                    table[key] = new_value


def _wrap(program_module: ModuleOp) -> None:
    name = program_module.sym_name.data
    body_name = name + BODY_SUFFIX
    program = None
    for op in program_module.body.block.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            program = op
    if program is None:
        raise error(program_module, f"{PASS}: program '{name}' holds no function of its own name to compile from")
    entry = program.body.blocks.first
    if entry is None:
        raise error(program, f"{PASS}: program '{name}' has no body to compile from")
    found = _symbol_ops(program, entry)
    if found is None:
        return
    ordered, erasable = found
    if any(isinstance(op, func.FuncOp) and op.sym_name.data == body_name for op in program_module.walk()):
        raise error(program_module, f"{PASS}: '{name}' already holds a '{body_name}', which is the name the "
                                    "DataflowIR it is compiled from has to take")
    old_type = program.function_type
    arg_attrs = program.arg_attrs

    _rename_symbol_uses(program_module, name, body_name)
    program.sym_name = StringAttr(body_name)
    program.sym_visibility = None

    # Everything the program module holds moves into an unnamed inner module.
    contents = program_module.body.block
    inner_block = Block()
    for op in list(contents.ops):
        op.detach()
        inner_block.add_op(op)
    inner = ModuleOp(Region(inner_block))

    declaration = func.FuncOp.external(body_name, [], [])
    caller_block = Block(arg_types=old_type.inputs.data)
    mapping: dict[SSAValue, SSAValue] = {old: new for old, new in zip(entry.args, caller_block.args)}
    for op in ordered:
        caller_block.add_op(op.clone(value_mapper=mapping))
    caller_block.add_op(func.CallOp(body_name, [], []))
    caller_block.add_op(func.ReturnOp())
    caller = func.FuncOp(name, old_type, Region(caller_block))
    if isinstance(arg_attrs, ArrayAttr):
        caller.arg_attrs = ArrayAttr([a if isinstance(a, DictionaryAttr) else DictionaryAttr({})
                                      for a in arg_attrs.data])
    contents.add_op(declaration)
    contents.add_op(caller)
    contents.add_op(inner)

    for op in reversed(ordered):
        if op in erasable:
            Rewriter.erase_op(op)
    for arg in reversed(list(entry.args)):
        entry.erase_arg(arg)
    program.function_type = FunctionType.from_lists([], list(old_type.outputs.data))
    program.arg_attrs = None


@dataclass(frozen=True)
class WrapProgramDfir(ModulePass):
    """Split each program into its symbol declarations and a body function to compile."""

    name = "wrap-program-dfir"

    expand_grids: bool = True
    """Replicate the functions lowered on a few cores of a uniform grid (Decision 121); false:
    leave them folded for a printer that writes the other cores (`uniform_grid.grids_for_the_printer`,
    `dfsched-opt` when it only prints the result)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        programs = [
            child for child in op.body.block.ops
            if isinstance(child, ModuleOp) and child.sym_name is not None and _holds_dataflow(child)
            and not any(isinstance(inner, ModuleOp) for inner in child.body.block.ops)
        ]
        for program_module in programs:
            _wrap(program_module)
        if self.expand_grids:
            expand_uniform_grids(op)
        restore_working_prefix_grids(op)
