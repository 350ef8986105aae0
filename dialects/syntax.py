"""Pieces of MLIR's op syntax that the dialects' hand-written parsers and printers share.

- `parse_operand_list`, `parse_type_list`: undelimited, possibly empty, comma-separated lists;
- `parse_arrow_type_list` / `print_arrow_type_list`: result types after `->` (`T`, `(T, U)`, `()`), and
  MLIR's `parse_optional_arrow_type_list` / `print_optional_arrow_type_list` with the arrow;
- `split_inherent`, `split_attr_dict`: a parsed `{...}` split into properties and discardable
  attributes;
- `sorted_attrs`, `print_attr_dict`: MLIR's declarative `attr-dict`, inherent and discardable
  attributes in one dictionary sorted by name, `operandSegmentSizes` never shown;
- `op_class`: one op of a family declared in a table row instead of a class statement;
- `add_implicit_terminator`: MLIR's implicit terminator of a parsed single-block region;
- `parse_instance` / `parse_type_of`: an attribute or type of given classes, else a located parse error.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from dfsched.compat import UnresolvedOperand

SEGMENTS = "operandSegmentSizes"


def _parse_optional_list(parser: Parser, optional_item, item) -> list:
    first = optional_item()
    if first is None:
        return []
    items = [first]
    while parser.parse_optional_punctuation(",") is not None:
        items.append(item())
    return items


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """An undelimited, possibly empty, comma-separated list of SSA operands (`%a, %b#1`)."""
    return _parse_optional_list(parser, parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand)


def parse_type_list(parser: Parser) -> list[Attribute]:
    """An undelimited, possibly empty, comma-separated list of types."""
    return _parse_optional_list(parser, parser.parse_optional_type, parser.parse_type)


def parse_arrow_type_list(parser: Parser) -> list[Attribute]:
    """After `->`: `(T, U)`, `()` or one type without parentheses (MLIR's function result types)."""
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        return types
    return [parser.parse_type()]


def print_arrow_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    """What `parse_arrow_type_list` reads: one type bare, otherwise `(T, U)` (`()` when empty)."""
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        printer.print_string("(")
        printer.print_list(types, printer.print_attribute)
        printer.print_string(")")


def add_implicit_terminator(region: Region, terminator: type[Operation]) -> None:
    """MLIR's implicit terminator, added by the parser: a region without blocks gets one, and a
    last block that does not end in a terminator gets `terminator` (an unregistered op is not one)."""
    if not region.blocks:
        region.add_block(Block())
    last = region.blocks.last.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        region.blocks.last.add_op(terminator.create())


def parse_instance(parser: Parser, parse: Callable[[], Attribute], kinds: type | tuple[type, ...], message: str,
                   *, span: bool = False) -> Any:
    """What `parse()` reads if it is an instance of `kinds`, else the parse error `message` where
    it starts (over all of it with `span`)."""
    start = parser.pos
    parsed = parse()
    if not isinstance(parsed, kinds):
        parser.raise_error(message, start, parser.pos if span else None)
    return parsed


def parse_type_of(parser: Parser, kinds: type | tuple[type, ...], message: str) -> Any:
    """A type that is an instance of `kinds`, else the parse error `message` located on it."""
    return parse_instance(parser, parser.parse_type, kinds, message, span=True)


def parse_optional_arrow_type_list(parser: Parser) -> list[Attribute]:
    """MLIR's `parseOptionalArrowTypeList`: `-> T`, `-> (T, U)`, or nothing (no types)."""
    return parse_arrow_type_list(parser) if parser.parse_optional_punctuation("->") is not None else []


def print_optional_arrow_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    """MLIR's `printOptionalArrowTypeList`: ` -> T` or ` -> (T, U)`; nothing without types."""
    if types:
        printer.print_string(" -> ")
        print_arrow_type_list(printer, types)


def split_inherent(
    attrs: Mapping[str, Attribute], names: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Split a parsed attribute dictionary into (the entries named `names`, the others)."""
    names = set(names)
    return {k: v for k, v in attrs.items() if k in names}, {k: v for k, v in attrs.items() if k not in names}


def split_attr_dict(
    op_class: type[IRDLOperation], attrs: Mapping[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Split an op's parsed `{...}` into (its properties, its discardable attributes)."""
    return split_inherent(attrs, op_class.get_irdl_definition().properties)


def sorted_attrs(op: Operation, elided: Iterable[str] = ()) -> dict[str, Attribute]:
    """The op's properties and attributes in one dictionary sorted by name, without `elided`
    and `operandSegmentSizes`."""
    hidden = {SEGMENTS, *elided}
    merged = {**op.properties, **op.attributes}
    return {k: merged[k] for k in sorted(merged) if k not in hidden}


def print_attr_dict(printer: Printer, op: Operation, elided: Iterable[str] = (), keyword: bool = False) -> None:
    """Print ` {...}` (` attributes {...}` with `keyword`) as an MLIR declarative `attr-dict`:
    `sorted_attrs(op, elided)`, nothing when empty."""
    printer.print_op_attributes(sorted_attrs(op, elided), print_keyword=keyword)


def op_class(class_name: str, bases: type | tuple[type, ...], op_name: str | None, doc: str | None = None,
             **namespace) -> type:
    """The op class `class_name` deriving from `bases` with `namespace` (fields, constants,
    methods) and the op name `op_name`, IRDL-defined unless `op_name` is None (an xDSL op whose
    syntax a mixin corrects keeps its definition): a family of similar ops as a table."""
    body = {"__module__": sys._getframe(1).f_globals["__name__"], "__doc__": doc, **namespace}  # the caller's
    if op_name is None:
        return type(class_name, bases if isinstance(bases, tuple) else (bases,), body)
    from xdsl.irdl import irdl_op_definition

    body["name"] = op_name
    return irdl_op_definition(type(class_name, bases if isinstance(bases, tuple) else (bases,), body))
