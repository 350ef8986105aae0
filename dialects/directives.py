"""Custom directives for the dialects' declarative assembly formats (`custom<Name>(...)`).

xDSL 0.74 reads an op's `assembly_format` as MLIR's ODS does; what ODS spells with a C++
`custom<...>` directive upstream is spelled here, once for every dialect:

* `custom<BracketPairs>($a, $b)`: `[%a0 : %b0], [%a1 : %b1]` (a trailing comma is accepted).
* `custom<Token>(type($r))`: `!ktdf.token`, or nothing at all (MLIR's stripped spelling of a
  parameterless type of the op's own dialect).
* `custom<OwnType>(type($v))`: a type of the op's own dialect in MLIR's stripped form, its
  parameters without its name (`<SRC -> DST, NxT>` for `!ktdf.fifo.slot<SRC -> DST, NxT>`); the
  full spelling is accepted too. The type class is the one the operand or result declares.
* `custom<Body>($r)`: a single-block region printed as MLIR prints a `SingleBlock` region: no
  entry-block arguments, an empty block as `{\n}`, and an op's implicit terminator elided
  when it carries nothing; `{}` parses to one empty block (plus that terminator).
* `custom<CellOrSlot>($v, $indices, $map, $sizes, $static_sizes)`: one side of a data transfer,
  `%m[%i + 3, %j] size [1, %n, 64]` for a memref (subscripts by `affine_subscripts`) or
  `%slot size [64]` for a fifo slot; the `size` list mixes literals and index values.
* `custom<BareI64>($p)`: an i64 property written as a bare integer (`modulo(size : 4)`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, IntegerAttr, MemRefType, i64
from xdsl.ir import Block, ParametrizedAttribute, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    OperandVariable,
    ParsingState,
    PrintingState,
    RegionVariable,
    ResultVariable,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator

from dfsched.compat import MLIRTokenKind, UnresolvedOperand
from dfsched.dialects.affine_subscripts import parse_optional_subscripts, print_subscripts

KDYNAMIC = -(2**63)
"""MLIR's `ShapedType::kDynamic`: the placeholder for a dynamic fifo count or size entry."""


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
        from dfsched.dialects.ktdf_types import TokenType

        self.type.set(state, (parser.parse_optional_type() or TokenType(),))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        self.type.print(printer, state, op)


@irdl_custom_directive
class OwnType(CustomDirective):
    type: TypeDirective

    def _base(self, op_type: type[IRDLOperation]) -> type[ParametrizedAttribute]:
        """The one type class the operand or result admits (its declared constraint)."""
        op_def = op_type.get_irdl_definition()
        inner = self.type.inner
        defs = op_def.results if isinstance(inner, ResultVariable) else op_def.operands
        constr = dict(defs)[inner.name].constr
        while not hasattr(constr, "get_bases"):  # a single operand is a range of length one
            constr = getattr(constr, "constraint", None) or constr.constr
        (base,) = constr.get_bases()
        return base

    def parse(self, parser: Parser, state: ParsingState) -> None:
        base = self._base(state.op_type)
        if parser._current_token.kind == MLIRTokenKind.LESS:
            self.type.set(state, (base.new(base.parse_parameters(parser)),))
            return
        start = parser.pos
        full = parser.parse_type()
        if not isinstance(full, base):
            parser.raise_error(f"expected '!{base.name}' type, but got '{full}'", start, parser.pos)
        self.type.set(state, (full,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        (type_,) = self.type.get(op)
        if isinstance(type_, self._base(type(op))):
            type_.print_parameters(printer)
        else:
            printer.print_attribute(type_)
        _printed(state)


@irdl_custom_directive
class Body(CustomDirective):
    region: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        implicit = state.op_type.get_trait(SingleBlockImplicitTerminator)
        block = region.block
        if implicit is not None and (block.last_op is None
                                     or not block.last_op.has_trait(IsTerminator, value_if_unregistered=False)):
            block.add_op(implicit.op_type.create())
        self.region.set(state, region)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        region: Region = self.region.get(op)
        last = region.block.last_op if region.blocks else None
        elide = (op.has_trait(SingleBlockImplicitTerminator) and last is not None
                 and not last.operands and not last.attributes and not last.properties)
        state.print_whitespace(printer)
        printer.print_region(region, print_entry_block_args=False, print_empty_block=False,
                             print_block_terminators=not elide)
        _printed(state)


@irdl_custom_directive
class BareI64(CustomDirective):
    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, IntegerAttr(parser.parse_integer(allow_boolean=False), i64))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.value.get(op)
        state.print_whitespace(printer)
        printer.print_string(str(attr.value.data) if isinstance(attr, IntegerAttr) else str(attr))
        _printed(state)

    def is_present(self, op: IRDLOperation) -> bool:
        return self.value.get(op) is not None

    def is_anchorable(self) -> bool:
        return True


@irdl_custom_directive
class CellOrSlot(CustomDirective):
    value: OperandVariable
    indices: VariadicOperandVariable
    map: AttributeVariable
    sizes: VariadicOperandVariable
    static_sizes: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, parser.parse_unresolved_operand())
        sub = parse_optional_subscripts(parser)
        if sub is not None:
            self.map.set(state, AffineMapAttr(sub.map))
        self.indices.set(state, list(sub.operands) if sub is not None else [])
        dynamic: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("size") is not None:

            def entry() -> int:
                operand = parser.parse_optional_unresolved_operand()
                if operand is not None:
                    dynamic.append(operand)
                    return KDYNAMIC
                value = parser.parse_optional_integer(allow_boolean=False)
                if value is None:
                    parser.raise_error("expected an integer or an SSA value in the size list")
                return value

            static = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
            self.static_sizes.set(state, DenseArrayBase.from_list(i64, static))
        self.sizes.set(state, dynamic)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        value: SSAValue = self.value.get(op)
        printer.print_operand(value)
        if isinstance(value.type, MemRefType):
            amap = self.map.get(op)
            print_subscripts(printer, amap.data if isinstance(amap, AffineMapAttr) else AffineMap(0, 0, ()),
                             self.indices.get(op))
        static = self.static_sizes.get(op)
        if isinstance(static, DenseArrayBase):
            printer.print_string(" size [")
            values = iter(self.sizes.get(op))
            for i, size in enumerate(static.get_values()):
                if i:
                    printer.print_string(", ")
                if size == KDYNAMIC:
                    dynamic = next(values, None)
                    printer.print_operand(dynamic) if dynamic is not None else printer.print_string("?")
                else:
                    printer.print_string(str(size))
            printer.print_string("]")
        _printed(state)
