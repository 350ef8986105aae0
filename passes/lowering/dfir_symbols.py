"""Symbolic start addresses (`docs/passes.md#ktdflowering-to-dfir`).

A tensor whose address is computed from one of the run's inputs (a kernel argument) has no
value inside DataflowIR: its view reads a `symbol.create_symbol` instead, and the definition of
that symbol (an expression over the input) is recorded by a `symbol.create_id` at function
level, which `wrap-program-dfir` later moves beside the program.

* `SymbolAllocator(top)`: numbers the run's inputs once per module (the kernels' `index`
  arguments get -1, -2, ... by position, declared with `symbol.create_id` at each kernel's
  entry) and hands out the ids of derived addresses (memoised per definition);
* `take_address_apart(address, pu, symbols)`: None when no input is reached; otherwise the
  input, the ops computing the address from it and its per-unit leaves (constant
  `uniform.query_map`s), or a located error naming what cannot be written as a symbol;
* `take_displacement_apart(offset, pu)`: the `reinterpret_cast` offset, common or per unit;
* `emit_symbolic_start_address(...)`: the view's start operand (one symbol, or one per unit
  gathered in a unit-keyed uniform map), definitions emitted at the function-level point.

Address unit (Decision 8): a symbol stands for a byte address, like every view start address
in DataflowIR and like the inputs the run hands over. A displacement counted in elements is
converted to bytes before it becomes a term of a definition, and an address that is the input
itself reads the input's own symbol. (Upstream divides each symbol by the word size of the
units reading it, so that its views start in words; dfsched leaves that conversion to whatever
turns DataflowIR into unit instructions, so one unit holds from address assignment on.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import Rewriter

from dfsched.diagnostics import error
from dfsched.dialects.dataflow import ProgramUnitOp
from dfsched.dialects.symbol import CreateIdOp, CreateSymbolOp
from dfsched.dialects.constants import constant_int, index_constant
from dfsched.passes.builder import Builder
from dfsched.passes.walk import ancestors, each_once
from dfsched.passes.lowering.dfir_utils import iter_arg_of, queried_mapping, uniform_map_query

MAX_CALL_DEPTH = 8

# Operators whose definition whatever resolves symbols can read back.
READABLE = (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp, arith.RemSIOp, arith.MinSIOp,
            arith.CeilDivSIOp, arith.DivUIOp, arith.RemUIOp)

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


def _outermost_module(op: Operation) -> ModuleOp | None:
    return next((parent for parent in reversed(list(ancestors(op))) if isinstance(parent, ModuleOp)), None)


def _callee_name(call: CallOp) -> str:
    return call.callee.root_reference.data


def _calls_by_callee(top: Operation) -> dict[str, list[CallOp]]:
    """The `func.call`s under `top` by callee name (one walk for all functions: the walk
    crosses a grid's thousands of per-core ops)."""
    calls: dict[str, list[CallOp]] = {}
    for op in top.walk():
        if isinstance(op, CallOp):
            calls.setdefault(_callee_name(op), []).append(op)
    return calls


def _function_argument(value: SSAValue) -> BlockArgument | None:
    """`value` as an argument of its function's entry block (not of an inner region)."""
    if not isinstance(value, BlockArgument):
        return None
    block = value.block
    func = block.parent_op()
    if not isinstance(func, FuncOp) or func.body.blocks.first is not block:
        return None
    return value


def _functions(top: Operation):
    """Every `func.func` under `top` (modules are entered, functions are not)."""
    for region in top.regions:
        for block in region.blocks:
            for op in block.ops:
                if isinstance(op, FuncOp):
                    yield op
                elif isinstance(op, ModuleOp):
                    yield from _functions(op)


class SymbolAllocator:
    """The run's symbol numbering (upstream `SymbolAllocator`)."""

    def __init__(self, top: ModuleOp):
        self.top = top
        # Read once: numbering symbols adds and removes no call (issue #19: a walk per input
        # traced crossed every per-core op of the grid).
        self.calls = _calls_by_callee(top)
        kernels = [f for f in _functions(top)
                   if f.body.blocks.first is not None and len(self.calls.get(f.sym_name.data, ())) != 1]
        next_input = -1
        # Where each kernel's numbering starts (upstream numbers every kernel from -1 when it
        # traces an input back, which disagrees with its own declarations as soon as there
        # are two kernels; dfsched reads the kernel's own first id instead).
        self.first_input_of: dict[FuncOp, int] = {}
        for kernel in kernels:
            self.first_input_of[kernel] = next_input
            builder = Builder.at_start(kernel.body.blocks.first)
            for arg in kernel.body.blocks.first.args:
                if isinstance(arg.type, IndexType):
                    builder.insert(CreateIdOp(arg, next_input))
                next_input -= 1
        self.next_derived = next_input
        self.derived: dict[tuple, int] = {}

    def derived_id(self, root: SSAValue, displacement: int, terms: Sequence[int]) -> tuple[int, bool]:
        """(id, whether it is new) of the address `root + terms + displacement` (memoised)."""
        key = (root, displacement, tuple(terms))
        if key in self.derived:
            return self.derived[key], False
        ident = self.next_derived
        self.next_derived -= 1
        self.derived[key] = ident
        return ident, True

    def input_id(self, value: SSAValue) -> int | None:
        """Which run input `value` is (following the calls that pass it along), or None."""
        arg = _function_argument(value)
        if arg is None:
            return None
        for _ in range(MAX_CALL_DEPTH + 1):
            func = arg.block.parent_op()
            assert isinstance(func, FuncOp)
            top = _outermost_module(func)
            calls = (self.calls if top is self.top else _calls_by_callee(top) if top is not None else {}
                     ).get(func.sym_name.data, ())
            call = calls[0] if len(calls) == 1 else None
            if call is None:
                if not isinstance(arg.type, IndexType):
                    return None
                return self.first_input_of.get(func, -1) - arg.index
            if arg.index >= len(call.arguments):
                return None
            outer = _function_argument(call.arguments[arg.index])
            if outer is None:
                return None
            arg = outer
        return None

    def declare_inputs_in(self, func: FuncOp, builder: Builder) -> None:
        for arg in func.body.blocks.first.args:
            ident = self.input_id(arg)
            if ident is not None:
                builder.insert(CreateIdOp(arg, ident))


# ---------------------------------------------------------------------------
# Taking an address apart
# ---------------------------------------------------------------------------


def per_unit_constants(value: SSAValue) -> dict[SSAValue, int] | None:
    """The constants of a `uniform.query_map` over an all-constant mapping, keyed by unit."""
    found = queried_mapping(value)
    if found is None:
        return None
    mapping = found[1]
    out: dict[SSAValue, int] = {}
    for key, mapped in zip(mapping.keys, mapping.values):
        constant = constant_int(mapped)
        if constant is None:
            return None
        out[key] = constant
    return out


@dataclass
class SymbolicAddress:
    input: int = 0
    root: SSAValue | None = None
    expression: list[Operation] = field(default_factory=list)  # operands first
    per_unit_leaves: list[SSAValue] = field(default_factory=list)
    per_unit_terms: list[tuple[SSAValue, list[int]]] = field(default_factory=list)


def _site(value: SSAValue, pu: Operation) -> Operation:
    return value.owner if isinstance(value.owner, Operation) else pu


def take_address_apart(address: SSAValue, pu: ProgramUnitOp, symbols: SymbolAllocator) -> SymbolicAddress | None:
    reached: set[SSAValue] = set()
    pending = [address]
    rooted = False
    while pending:
        value = pending.pop()
        if value in reached:
            continue
        reached.add(value)
        if symbols.input_id(value) is not None:
            rooted = True
            break
        if isinstance(value.owner, Operation):
            pending.extend(value.owner.operands)
    if not rooted:
        return None

    taken = SymbolicAddress()
    visited: set[SSAValue] = set()
    worklist = [address]
    ops: list[Operation] = []
    tables: list[dict[SSAValue, int]] = []
    while worklist:
        value = worklist.pop()
        if value in visited:
            continue
        visited.add(value)
        ident = symbols.input_id(value)
        if ident is not None:
            if taken.root is not None and taken.root is not value:
                raise error(_site(address, pu), "start address is computed from more than one run input, so no "
                                                "single symbol stands for it")
            taken.input, taken.root = ident, value
            continue
        if constant_int(value) is not None:
            continue
        table = per_unit_constants(value)
        if table is not None:
            taken.per_unit_leaves.append(value)
            tables.append(table)
            continue
        op = value.owner
        if not isinstance(op, Operation):
            raise error(_site(address, pu), "start address is computed from a run input and from a value that "
                                            "only exists while the program runs, so no symbol stands for it")
        if not isinstance(op, READABLE):
            raise error(op, "start address is computed from a run input by an operation whose definition "
                            "cannot be written as a symbol expression")
        ops.append(op)
        worklist.extend(op.operands)
    taken.expression = list(reversed(ops))
    if taken.per_unit_leaves:
        for unit in pu.units:
            terms = []
            for table in tables:
                if unit not in table:
                    raise error(pu, "a per-grid term of a symbolic start address says nothing for one of the "
                                    "units the program runs on, so the address cannot be resolved there")
                terms.append(table[unit])
            taken.per_unit_terms.append((unit, terms))
    return taken


# ---------------------------------------------------------------------------
# Displacements
# ---------------------------------------------------------------------------


def _evaluate(op_type: type, lhs: int, rhs: int) -> int | None:
    if op_type is arith.AddiOp:
        result = lhs + rhs
    elif op_type is arith.SubiOp:
        result = lhs - rhs
    elif op_type is arith.MuliOp:
        result = lhs * rhs
    elif op_type is arith.MinSIOp:
        return min(lhs, rhs)
    elif rhs == 0:
        return None
    elif op_type is arith.DivSIOp:
        quotient = abs(lhs) // abs(rhs)
        return quotient if (lhs >= 0) == (rhs > 0) else -quotient
    elif op_type is arith.RemSIOp:
        remainder = abs(lhs) % abs(rhs)
        return remainder if lhs >= 0 else -remainder
    elif op_type is arith.CeilDivSIOp and lhs >= 0 and rhs > 0:
        return (lhs + rhs - 1) // rhs
    elif op_type in (arith.DivUIOp, arith.RemUIOp) and lhs >= 0 and rhs > 0:
        # a 2-D tile id rebuilt from the flat one (normalize-grid-to-1d): `(id / 2, id mod 2)`
        return lhs // rhs if op_type is arith.DivUIOp else lhs % rhs
    else:
        return None
    return result if I64_MIN <= result <= I64_MAX else None


def evaluate_at_units(value: SSAValue, units: Sequence[SSAValue],
                      memo: dict[SSAValue, list[int | None]] | None = None) -> list[int | None]:
    """`value` at each of `units` (None where it is not known there). Each value's per-unit
    table is read once for all units: per unit, a 65,536-tile grid would read it 65,536 times."""
    memo = {} if memo is None else memo
    if value in memo:
        return memo[value]
    constant = constant_int(value)
    if constant is not None:
        result: list[int | None] = [constant] * len(units)
    elif (table := per_unit_constants(value)) is not None:
        result = [table.get(unit) for unit in units]
    elif not isinstance(op := value.owner, READABLE) or len(op.operands) != 2:
        result = [None] * len(units)
    else:
        lhs = evaluate_at_units(op.operands[0], units, memo)
        rhs = evaluate_at_units(op.operands[1], units, memo)
        result = [None if a is None or b is None else _evaluate(type(op), a, b) for a, b in zip(lhs, rhs)]
    memo[value] = result
    return result


@dataclass
class Displacement:
    """Elements (bytes after `scale`) added to a symbolic start: known per unit, or at run time.

    `runtime` is an offset computed inside the program from its own arguments (a row index the
    orchestrator's host loop passes to each call): it has no value when symbols are defined, so
    it is added to the symbol by the unit itself (times `runtime_scale`).
    """
    common: int = 0
    per_unit: dict[SSAValue, int] = field(default_factory=dict)
    runtime: SSAValue | None = None
    runtime_scale: int = 1

    def varies(self) -> bool:
        return bool(self.per_unit)

    def at(self, unit: SSAValue) -> int:
        return self.per_unit.get(unit, self.common)

    def scale(self, factor: int) -> None:
        self.common *= factor
        self.per_unit = {u: o * factor for u, o in self.per_unit.items()}
        self.runtime_scale *= factor


def _computed_from_program_arguments(value: SSAValue) -> bool:
    """Whether `value` is readable operators over constants, per-unit constants and arguments
    of the program's function (what its call passes, e.g. a host loop's row), and reaches one
    such argument: a value each call's units can compute, unlike a raw tile id or a loaded one."""
    reaches_argument = False
    for current, pending in each_once(value):
        if _function_argument(current) is not None:
            reaches_argument = True
            continue
        if constant_int(current) is not None or per_unit_constants(current) is not None:
            continue
        op = current.owner
        if not isinstance(op, READABLE):
            return False
        pending.extend(op.operands)
    return reaches_argument


def take_displacement_apart(offset: int | SSAValue, pu: ProgramUnitOp) -> Displacement:
    if isinstance(offset, int):
        return Displacement(offset)
    constant = constant_int(offset)
    if constant is not None:
        return Displacement(constant)
    units = list(pu.units)
    values = evaluate_at_units(offset, units)
    if None in values:
        if _computed_from_program_arguments(offset):
            return Displacement(runtime=offset)
        site = offset.owner if isinstance(offset.owner, Operation) else pu
        raise error(site, "the start address is computed from a run input and displaced by a value only "
                          "known while the program runs, so no symbol stands for it")
    if len(set(values)) <= 1:
        return Displacement(values[0] if values else 0)
    return Displacement(0, dict(zip(units, values)))


# ---------------------------------------------------------------------------
# Emitting
# ---------------------------------------------------------------------------


def _fold(op: Operation, operands: list[SSAValue]) -> int | SSAValue | None:
    """The folds MLIR's arith folders do on the readable operators (constants, identities)."""
    if len(operands) != 2:
        return None
    lhs, rhs = operands
    a, b = constant_int(lhs), constant_int(rhs)
    if a is not None and b is not None:
        return _evaluate(type(op), a, b)
    if isinstance(op, arith.AddiOp):
        if b == 0:
            return lhs
        if a == 0:
            return rhs
    if isinstance(op, arith.SubiOp) and b == 0:
        return lhs
    if isinstance(op, arith.MuliOp):
        if b == 1:
            return lhs
        if a == 1:
            return rhs
        if a == 0 or b == 0:
            return 0
    if isinstance(op, arith.DivSIOp | arith.CeilDivSIOp) and b == 1:
        return lhs
    if isinstance(op, arith.RemSIOp) and b == 1:
        return 0
    return None


def _declare_derived(taken: SymbolicAddress, terms: Sequence[int], displacement: int, symbols: SymbolAllocator,
                     builder: Builder) -> int:
    """The id of the symbol for the input plus this unit's terms plus `displacement` (bytes).

    The expression is rebuilt with the per-unit leaves replaced by their constants, folding as
    it goes; when it comes back to the input itself the input's own id is the answer. A new
    derived address is declared once (`symbol.create_id` on the value computing it); what was
    built for an address already declared is erased again.
    """
    built: list[Operation] = []

    def note(op: Operation) -> SSAValue:
        builder.insert(op)
        built.append(op)
        return op.results[0]

    def discard() -> None:
        for op in reversed(built):
            if all(not r.uses for r in op.results):
                Rewriter.erase_op(op)

    mapping: dict[SSAValue, SSAValue] = {}
    for leaf, term in zip(taken.per_unit_leaves, terms):
        mapping[leaf] = note(index_constant(term))
    result = taken.root
    for op in taken.expression:
        operands = [mapping.get(v, v) for v in op.operands]
        folded = _fold(op, operands)
        if isinstance(folded, SSAValue):
            mapping[op.results[0]] = folded
            result = folded
            continue
        if isinstance(folded, int):
            value = note(index_constant(folded))
        else:
            value = note(op.clone(value_mapper=dict(mapping)))
        mapping[op.results[0]] = value
        result = value
    if displacement != 0:
        by = note(index_constant(displacement))
        result = note(arith.AddiOp(result, by))
    if result is taken.root:
        discard()
        return taken.input
    ident, fresh = symbols.derived_id(taken.root, displacement, terms)
    if not fresh:
        discard()
        return ident
    builder.insert(CreateIdOp(result, ident))
    return ident


def emit_symbolic_start_address(taken: SymbolicAddress, displacement: Displacement, pu: ProgramUnitOp,
                                symbols: SymbolAllocator, at_view: Builder, definitions: Builder) -> SSAValue:
    """The view's start operand: one `symbol.create_symbol`, or one per unit in a unit-keyed map,
    plus the run-time part of the displacement, if any, added by the unit."""
    start = _symbolic_start(taken, displacement, pu, symbols, at_view, definitions)
    if displacement.runtime is None:
        return start
    offset = displacement.runtime
    if displacement.runtime_scale != 1:
        offset = at_view.value(arith.MuliOp(offset, at_view.constant(displacement.runtime_scale)))
    return at_view.value(arith.AddiOp(start, offset))


def _symbolic_start(taken: SymbolicAddress, displacement: Displacement, pu: ProgramUnitOp,
                    symbols: SymbolAllocator, at_view: Builder, definitions: Builder) -> SSAValue:
    if not taken.per_unit_terms and not displacement.varies():
        ident = _declare_derived(taken, [], displacement.common, symbols, definitions)
        return at_view.value(CreateSymbolOp(ident))
    per_unit_terms = taken.per_unit_terms or [(unit, []) for unit in pu.units]
    keys: list[SSAValue] = []
    values: list[SSAValue] = []
    for unit, terms in per_unit_terms:
        ident = _declare_derived(taken, terms, displacement.at(unit), symbols, definitions)
        keys.append(unit)
        values.append(at_view.value(CreateSymbolOp(ident)))
    return uniform_map_query(at_view, keys, values, iter_arg_of(pu))


def element_size_bytes(element_type) -> int:
    width = getattr(element_type, "bitwidth", None)
    if width is None and isinstance(element_type, IntegerType):
        width = element_type.width.data
    if width is None:
        width = 8
    return max(1, (width + 7) // 8)


__all__ = [
    "SymbolAllocator",
    "take_address_apart",
    "take_displacement_apart",
    "emit_symbolic_start_address",
    "element_size_bytes",
]
