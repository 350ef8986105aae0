"""What the `agen` ops share (`agen.py`, `agen_peripheral.py`): the direction attribute, the
`agen.yield` terminator, and the syntax pieces and checks of accesses: `%mem[subscripts]`,
the load induction variable, time symbols, multicast, the attribute dictionary with a body
region, and the access-set checks of the verifiers.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType
from xdsl.ir import Attribute, Operation, Region, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import EnumAttribute, UnresolvedOperand
from dfsched.dialects.affine_subscripts import Subscripts, parse_subscripts, print_subscripts
from dfsched.dialects.dataflow import (RoutingDirection, ensure_implicit_terminator, newline,
                                       print_attr_dict)

INDEX = IndexType()

# ---------------------------------------------------------------------------
# Enum attribute and terminator
# ---------------------------------------------------------------------------


@irdl_attr_definition
class RoutingDirectionAttr(EnumAttribute[RoutingDirection], SpacedOpaqueSyntaxAttribute):
    """`#agen<direction Clockwise>`: routing direction of a composite transfer (DataflowIR's
    `RoutingDirection` values)."""

    name = "agen.direction"


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminator of agen region ops (implicit when it yields nothing)."""

    name = "agen.yield"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator())
    assembly_format = "attr-dict ($values^ `:` type($values))?"


IMPLICIT_YIELD = SingleBlockImplicitTerminator(YieldOp)


# ---------------------------------------------------------------------------
# Shared syntax pieces
# ---------------------------------------------------------------------------


def parse_access(parser: Parser, keyword: str | None = None) -> tuple[UnresolvedOperand, Subscripts]:
    """`[keyword:]%mem[subscripts]`."""
    if keyword is not None:
        parser.parse_keyword(keyword)
        parser.parse_punctuation(":")
    mem = parser.parse_unresolved_operand()
    return mem, parse_subscripts(parser)


def print_access(printer: Printer, mem: SSAValue, affine_map: AffineMapAttr | None, operands: Sequence[SSAValue],
                  keyword: str | None = None) -> None:
    """`[keyword:]%mem[subscripts]`; `%mem[]` when the map is absent (an optional one)."""
    printer.print_string(f" {keyword}:" if keyword else " ")
    printer.print_operand(mem)
    if affine_map is not None:
        print_subscripts(printer, affine_map, operands)
    else:
        printer.print_string("[]")


def parse_paren_operands(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)


def parse_load_iv(parser: Parser, keyword: str = "load_iv") -> Parser.Argument:
    """`load_iv(%v:vector<64xf16>)`, the region argument carrying the vector of one time step."""
    if keyword:
        parser.parse_keyword(keyword)
    parser.parse_punctuation("(")
    arg = parser.parse_argument(expect_type=False)
    parser.parse_punctuation(":")
    arg = arg.resolve(parser.parse_type())
    parser.parse_punctuation(")")
    return arg


def print_load_iv(printer: Printer, region: Region, keyword: str = "load_iv") -> None:
    arg = region.blocks.first.args[0]
    printer.print_string(f"{keyword}(" if keyword else "(")
    printer.print_operand(arg)
    printer.print_string(":")
    printer.print_attribute(arg.type)
    printer.print_string(")")


def parse_time_symbols(parser: Parser) -> list[UnresolvedOperand]:
    parser.parse_keyword("time_symbols")
    return parse_paren_operands(parser)


def print_time_symbols(printer: Printer, time_symbols: Sequence[SSAValue]) -> None:
    printer.print_string(" time_symbols(")
    printer.print_list(time_symbols, printer.print_operand)
    printer.print_string(")")


def parse_optional_multicast(parser: Parser) -> list[UnresolvedOperand]:
    if parser.parse_optional_keyword("multicast_info"):
        parser.parse_punctuation("=")
        return [parser.parse_unresolved_operand()]
    return []


def print_multicast(printer: Printer, multicast: SSAValue | None) -> None:
    if multicast is not None:
        printer.print_string(" multicast_info = ")
        printer.print_operand(multicast)


def index_operands(parser: Parser, operands: Sequence[UnresolvedOperand]) -> list[SSAValue]:
    return [parser.resolve_operand(o, INDEX) for o in operands]


def check_access_set(kind: str, affine_set: AffineSetAttr, order: AffineMapAttr, affine_map: AffineMapAttr | None,
                      array: str) -> None:
    """The `{kind}_set` of an access against the memref's subscript map and against its order map;
    `array` names the memref in the message (`src array`, `Array`, ...)."""
    if affine_map is not None and affine_set.data.num_dims < len(affine_map.data.results):
        raise VerifyException(f"{kind} set and {array} dimensions should match")
    if affine_set.data.num_dims != order.data.num_dims:
        raise VerifyException(f"{kind} set and order dimensions should match")


def check_region_arg(op: Operation, region: Region) -> None:
    block = region.blocks.first
    if block is None or len(block.args) != 1:
        raise VerifyException("region must have exactly one argument, the vector loaded at each time step")


def finish(op: Operation) -> Operation:
    return ensure_implicit_terminator(op, YieldOp)


def parse_attrs_and_body(parser: Parser, args: Sequence[Parser.Argument] = ()) -> tuple[dict[str, Attribute], Region]:
    """`{attrs} {region} :` of the composite ops (the types follow)."""
    attrs = parser.parse_optional_attr_dict()
    body = parser.parse_region(args)
    parser.parse_punctuation(":")
    return attrs, body


def print_attrs_and_body(printer: Printer, op: Operation, elided: Sequence[str], types: Sequence[Attribute]) -> None:
    """`{attrs}` (bar the `elided` ones), the region with its terminator, `: types`."""
    print_attr_dict(printer, op, elided=elided)
    newline(printer)
    printer.print_region(op.body, print_entry_block_args=False, print_block_terminators=True)
    printer.print_string(" : ")
    printer.print_list(types, printer.print_attribute)
