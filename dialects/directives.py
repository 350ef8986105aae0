"""Custom directives for the dialects' declarative assembly formats (`custom<Name>(...)`).

xDSL 0.74 reads an op's `assembly_format` as MLIR's ODS does; what ODS spells with a C++
`custom<...>` directive upstream is spelled here, once for every dialect:

* `custom<BracketPairs>($a, $b)`: `[%a0 : %b0], [%a1 : %b1]` (a trailing comma is accepted).
* `custom<Token>(type($r))`: `!ktdf.token`, or nothing at all (MLIR's stripped spelling of a
  parameterless type of the op's own dialect).
* `custom<SlotType>(type($s))`: a FIFO slot type in MLIR's stripped form `<SRC -> DST, NxT>`
  (the full `!ktdf.fifo.slot<...>` is accepted too).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from dfsched.compat import UnresolvedOperand


def _printed(state: PrintingState) -> None:
    state.should_emit_space = True
    state.last_was_punctuation = False


def parse_bracket_pairs(parser: Parser) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand]]:
    """`[%a : %b], [%c : %d]` (outermost first); the trailing comma is optional."""
    first: list[UnresolvedOperand] = []
    second: list[UnresolvedOperand] = []
    while parser.parse_optional_punctuation("[") is not None:
        first.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        second.append(parser.parse_unresolved_operand())
        parser.parse_punctuation("]")
        parser.parse_optional_punctuation(",")
    return first, second


def print_bracket_pairs(printer: Printer, first: Sequence[SSAValue], second: Sequence[SSAValue]) -> None:
    for i, (a, b) in enumerate(zip(first, second)):
        if i:
            printer.print_string(", ")
        printer.print_string("[")
        printer.print_operand(a)
        printer.print_string(" : ")
        printer.print_operand(b)
        printer.print_string("]")


@irdl_custom_directive
class BracketPairs(CustomDirective):
    first: VariadicOperandVariable
    second: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        first, second = parse_bracket_pairs(parser)
        self.first.set(state, first)
        self.second.set(state, second)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        pairs = list(zip(self.first.get(op), self.second.get(op)))
        if not pairs:
            return
        state.print_whitespace(printer)
        print_bracket_pairs(printer, *zip(*pairs))
        _printed(state)

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.first.get(op))


@irdl_custom_directive
class Token(CustomDirective):
    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdf import TokenType

        self.type.set(state, (parser.parse_optional_type() or TokenType(),))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        self.type.print(printer, state, op)


@irdl_custom_directive
class SlotType(CustomDirective):
    type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        from dfsched.dialects.ktdf import parse_slot_type

        self.type.set(state, (parse_slot_type(parser),))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        from dfsched.dialects.ktdf import print_slot_type

        state.print_whitespace(printer)
        types: list[Attribute] = list(self.type.get(op))
        print_slot_type(printer, types[0])
        _printed(state)
