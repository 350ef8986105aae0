"""What the `agen` ops share (`agen.py`, `agen_peripheral.py`): the direction attribute, the
`agen.yield` terminator, and the syntax of the access ops.

Upstream writes the syntax of most access ops by hand (`hasCustomAssemblyFormat`); here an op
lists it as a sequence of pieces (`SYNTAX`: accesses `[keyword:]%mem[subscripts]`, time symbols,
the load induction variable, multicast, line breaks) that `AccessOp` reads, prints and checks,
followed by `{attrs}`, the body region when the op has one, and `: types`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType, StringAttr
from xdsl.ir import Operation, Region, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, VarOperandDef, irdl_attr_definition, opt_prop_def,
                       prop_def, region_def, traits_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import EnumAttribute, UnresolvedOperand
from dfsched.dialects.affine_subscripts import (Subscripts, check_subscript_operands, parse_subscripts,
                                                print_subscripts)
from dfsched.dialects.dataflow import (RegionYieldOp, RoutingDirection, ensure_implicit_terminator, newline,
                                       print_attr_dict, split_attr_dict)
from dfsched.dialects.syntax import op_class

INDEX = IndexType()

# ---------------------------------------------------------------------------
# Enum attribute and terminator
# ---------------------------------------------------------------------------


@irdl_attr_definition
class RoutingDirectionAttr(EnumAttribute[RoutingDirection], SpacedOpaqueSyntaxAttribute):
    """`#agen<direction Clockwise>`: routing direction of a composite transfer (DataflowIR's
    `RoutingDirection` values)."""

    name = "agen.direction"


YieldOp = op_class("YieldOp", RegionYieldOp, "agen.yield", "Terminator of the agen region ops.")


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


def parse_time_symbols(parser: Parser) -> list[UnresolvedOperand]:
    parser.parse_keyword("time_symbols")
    return parse_paren_operands(parser)


def print_time_symbols(printer: Printer, time_symbols: Sequence[SSAValue]) -> None:
    printer.print_string(" time_symbols(")
    printer.print_list(time_symbols, printer.print_operand)
    printer.print_string(")")


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


def finish(op: Operation) -> Operation:
    return ensure_implicit_terminator(op, YieldOp)


def print_body(printer: Printer, region: Region) -> None:
    """An access op's body: its terminator always shown, its argument never (the syntax binds it)."""
    printer.print_region(region, print_entry_block_args=False, print_block_terminators=True)


@dataclass
class _Parsed:
    """What the pieces of an access op's syntax have read so far."""

    typed: list[tuple[str, UnresolvedOperand]] = field(default_factory=list)  # their types follow the `:`
    indices: dict[str, list[UnresolvedOperand]] = field(default_factory=dict)  # index operands
    maps: dict[str, tuple[str, Subscripts]] = field(default_factory=dict)  # map field -> (its operands, subscripts)
    region_args: list[Parser.Argument] = field(default_factory=list)


class Piece:
    """One piece of an access op's syntax: what it reads, prints and checks (each does nothing by default)."""

    def parse(self, parser: Parser, parsed: _Parsed) -> None:
        pass

    def print(self, printer: Printer, op: Operation) -> None:
        pass

    def verify(self, op: Operation) -> None:
        pass


@dataclass(frozen=True)
class Access(Piece):
    """`[keyword:]%mem[subscripts]`: the fields of the memref, its map and the map's operands; an
    `optional` access (its keyword present or not) prints `%mem[]` when it has no map."""

    mem: str
    map: str
    indices: str
    keyword: str | None = None
    optional: bool = False

    def parse(self, parser: Parser, parsed: _Parsed) -> None:
        if self.optional and parser.parse_optional_keyword(self.keyword) is None:
            return
        if self.optional:
            parser.parse_punctuation(":")
        mem, sub = parse_access(parser, None if self.optional else self.keyword)
        parsed.typed.append((self.mem, mem))
        parsed.maps[self.map] = (self.indices, sub)

    def print(self, printer: Printer, op: Operation) -> None:
        if (mem := getattr(op, self.mem)) is not None:
            print_access(printer, mem, getattr(op, self.map), getattr(op, self.indices), self.keyword)

    def verify(self, op: Operation) -> None:
        affine_map = getattr(op, self.map)
        if getattr(op, self.mem) is not None and affine_map is None:
            raise VerifyException(f"'{self.map}' is required when the {self.keyword} memref is present")
        if affine_map is not None:
            check_subscript_operands(affine_map, len(getattr(op, self.indices)),
                                     f"{self.keyword} map" if self.keyword else "map")


@dataclass(frozen=True)
class Operand(Piece):
    """` %value`, typed after the `:` (the vector an indirect store writes)."""

    field: str

    def parse(self, parser: Parser, parsed: _Parsed) -> None:
        parsed.typed.append((self.field, parser.parse_unresolved_operand()))

    def print(self, printer: Printer, op: Operation) -> None:
        printer.print_string(" ")
        printer.print_operand(getattr(op, self.field))


class NewLine(Piece):
    def print(self, printer: Printer, op: Operation) -> None:
        newline(printer)


class TimeSymbols(Piece):
    """` time_symbols(%t, ...)`."""

    def parse(self, parser: Parser, parsed: _Parsed) -> None:
        parsed.indices["time_symbols"] = parse_time_symbols(parser)

    def print(self, printer: Printer, op: Operation) -> None:
        print_time_symbols(printer, op.time_symbols)


@dataclass(frozen=True)
class LoadIv(Piece):
    """`, load_iv(%v:vector<64xf16>)`: the body's argument, the vector loaded at each time step
    (`comma` and `keyword` off: `(%v:T)` right after the time symbols)."""

    comma: bool = True
    keyword: str = "load_iv"

    def parse(self, parser: Parser, parsed: _Parsed) -> None:
        if self.comma:
            parser.parse_punctuation(",")
        if self.keyword:
            parser.parse_keyword(self.keyword)
        parser.parse_punctuation("(")
        arg = parser.parse_argument(expect_type=False)
        parser.parse_punctuation(":")
        parsed.region_args.append(arg.resolve(parser.parse_type()))
        parser.parse_punctuation(")")

    def print(self, printer: Printer, op: Operation) -> None:
        arg = op.body.blocks.first.args[0]
        printer.print_string(f"{', ' if self.comma else ''}{self.keyword}(")
        printer.print_operand(arg)
        printer.print_string(":")
        printer.print_attribute(arg.type)
        printer.print_string(")")

    def verify(self, op: Operation) -> None:
        block = op.body.blocks.first
        if block is None or len(block.args) != 1:
            raise VerifyException("region must have exactly one argument, the vector loaded at each time step")


@dataclass(frozen=True)
class Multicast(Piece):
    """An optional `multicast_info = %m`, after `prefix` (`" "` or `", "`), followed by `suffix`."""

    prefix: str = " "
    suffix: str = ""

    def parse(self, parser: Parser, parsed: _Parsed) -> None:
        if "," in self.prefix:
            if parser.parse_optional_punctuation(",") is None:
                return
            parser.parse_keyword("multicast_info")
        elif parser.parse_optional_keyword("multicast_info") is None:
            return
        parser.parse_punctuation("=")
        parsed.indices["multicast_info"] = [parser.parse_unresolved_operand()]

    def print(self, printer: Printer, op: Operation) -> None:
        if op.multicast_info is not None:
            printer.print_string(f"{self.prefix}multicast_info = ")
            printer.print_operand(op.multicast_info)
            printer.print_string(self.suffix)


NEWLINE, TIME_SYMBOLS = NewLine(), TimeSymbols()


class AccessOp(IRDLOperation):
    """An agen op written as `SYNTAX`, then `{attrs}` (the accesses' maps elided), a line break,
    its body when it has one, and `: T, ...`, the types of the accessed values and the results;
    verified piece by piece, then each of `ACCESS_SETS`: (`load`/`store`, the map field its set
    is checked against, the name of that memref in the message)."""

    SYNTAX: ClassVar[tuple[Piece, ...]]
    ACCESS_SETS: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    @classmethod
    def parse(cls, parser: Parser) -> AccessOp:
        parsed = _Parsed()
        for piece in cls.SYNTAX:
            piece.parse(parser, parsed)
        attrs = parser.parse_optional_attr_dict()
        op_def = cls.get_irdl_definition()
        regions = [parser.parse_region(parsed.region_args)] if op_def.regions else []
        parser.parse_punctuation(":")
        values: dict[str, list[SSAValue]] = {}
        for i, (name, operand) in enumerate(parsed.typed):
            if i:
                parser.parse_punctuation(",")
            values[name] = [parser.resolve_operand(operand, parser.parse_type())]
        result_types = []
        for _ in op_def.results:
            parser.parse_punctuation(",")
            result_types.append(parser.parse_type())
        props, others = split_attr_dict(cls, attrs)
        for map_name, (indices, sub) in parsed.maps.items():
            props[map_name], values[indices] = sub.resolve(parser)
        values.update((name, index_operands(parser, operands)) for name, operands in parsed.indices.items())
        operands = [values.get(name, []) if isinstance(d, VarOperandDef) else values[name][0]
                    for name, d in op_def.operands]
        op = cls.build(operands=operands, result_types=result_types, properties=props, attributes=others,
                       regions=regions)
        return finish(op) if regions else op

    def print(self, printer: Printer) -> None:
        for piece in self.SYNTAX:
            piece.print(printer, self)
        print_attr_dict(printer, self, elided=[p.map for p in self.SYNTAX if isinstance(p, Access)])
        newline(printer)
        if self.regions:
            print_body(printer, self.body)
        printer.print_string(" : ")
        typed = [getattr(self, p.mem if isinstance(p, Access) else p.field) for p in self.SYNTAX
                 if isinstance(p, Access | Operand)]
        printer.print_list([v.type for v in typed if v is not None] + [r.type for r in self.results],
                           printer.print_attribute)

    def verify_(self) -> None:
        for piece in self.SYNTAX:
            piece.verify(self)
        for kind, map_name, array in self.ACCESS_SETS:
            check_access_set(kind, getattr(self, f"{kind}_set"), getattr(self, f"{kind}_order"),
                             getattr(self, map_name), array)


class TimedAccessOp(AccessOp):
    """A composite access: repeated over the time steps of `time_set`, in `time_order`, its body
    run at each (its own fields precede these)."""

    dbgName = opt_prop_def(StringAttr)
    time_set = prop_def(AffineSetAttr)
    time_order = prop_def(AffineMapAttr)
    body = region_def("single_block")

    traits = traits_def(IMPLICIT_YIELD)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
