"""The memref dialect with MLIR's custom syntax for the ops xDSL 0.74 prints only generically.

`memref.cast`, `memref.memory_space_cast`, `memref.copy` and `memref.global` get their `mlir-opt`
spelling (parse and print; the generic form still parses). Each is a subclass of xDSL's op that only
replaces the syntax, so passes matching xDSL's classes still match them. Every other op is xDSL's own.
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (DenseIntOrFPElementsAttr, IntegerAttr, MemRefType, StringAttr,
                                   SymbolNameConstraint, TensorType, UnitAttr, UnrankedMemRefType)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from dfsched.dialects.syntax import parse_type_of


class _CastSyntax:
    """`%src[, %dst] attr-dict : T1 to T2`, MLIR's format for the memref casts (T2: the result's
    type) and `memref.copy` (T2: the destination's)."""

    NUM_OPERANDS = 1

    @classmethod
    def parse(cls, parser: Parser):
        names = [parser.parse_unresolved_operand()]
        if cls.NUM_OPERANDS == 2:
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parse_type_of(parser, (MemRefType, UnrankedMemRefType), "expected a memref type")]
        parser.parse_keyword("to")
        types.append(parse_type_of(parser, (MemRefType, UnrankedMemRefType), "expected a memref type"))
        return cls.build(operands=[parser.resolve_operand(n, t) for n, t in zip(names, types)],
                         result_types=types[len(names):], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([*self.operand_types, *self.result_types], printer.print_attribute, " to ")  # source, dest


class CastOp(_CastSyntax, xmemref.CastOp):
    """`memref.cast %m : memref<4xf32> to memref<?xf32>`."""


class MemorySpaceCastOp(_CastSyntax, xmemref.MemorySpaceCastOp):
    """`memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>`."""

    def verify_(self) -> None:
        type(self).get_irdl_definition().verify(self)
        src, dst = self.source.type, self.dest.type
        if isinstance(src, MemRefType) and isinstance(dst, MemRefType):
            if src.get_shape() != dst.get_shape():
                raise VerifyException("Expected source and destination to have the same shape.")
        if getattr(src, "element_type", None) != getattr(dst, "element_type", None):
            raise VerifyException("Expected source and destination to have the same element type.")


class CopyOp(_CastSyntax, xmemref.CopyOp):
    """`memref.copy %a, %b : memref<4xf32> to memref<4xf32, 1>`."""

    NUM_OPERANDS = 2


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """`memref.global "private" constant @x : memref<4xf32> = dense<0.0> {alignment = 64 : i64}`.

    Unlike xDSL's op, visibility and initial value are optional (a public external global has neither).
    """

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(UnitAttr | DenseIntOrFPElementsAttr)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr)

    traits = traits_def(SymbolOpInterface())

    def verify_(self) -> None:
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or value & (value - 1):
                raise VerifyException(f"alignment attribute value {value} is not a power of 2")
        init = self.initial_value
        if isinstance(init, DenseIntOrFPElementsAttr):
            shape = tuple(self.type.get_shape())
            if tuple(init.get_shape() or ()) != shape or init.get_element_type() != self.type.element_type:
                raise VerifyException("initial value expected to be of type "
                                      f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{self.type.element_type}>")

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        if (visibility := parser.parse_optional_str_literal()) is not None:
            props["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        props["type"] = memref_type = parse_type_of(parser, MemRefType, "type should be static shaped memref")
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                props["initial_value"] = UnitAttr()
            else:
                props["initial_value"] = _parse_initial_value(parser, memref_type)
        attrs = parser.parse_optional_attr_dict()
        if "alignment" in attrs:
            props["alignment"] = attrs.pop("alignment")
        return cls.build(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        init = self.initial_value
        if init is not None:
            printer.print_string(" = ")
            if isinstance(init, UnitAttr):
                printer.print_string("uninitialized")
            elif hasattr(printer, "print_attribute_without_type"):
                printer.print_attribute_without_type(init)  # type: ignore[attr-defined]
            else:
                init.print_without_type(printer)
        attrs = dict(self.attributes)
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs)


def _parse_initial_value(parser: Parser, memref_type: MemRefType) -> Attribute:
    """`dense<1.0>`: typed by the global's memref type, as MLIR's custom directive does."""
    pos = parser.pos
    if parser.parse_optional_keyword("dense") is None:
        parser.raise_error("expected a dense elements initial value", pos, parser.pos)
    tensor_type = TensorType(memref_type.element_type, memref_type.get_shape())
    return parser.parse_dense_int_or_fp_elements_attr(tensor_type)


_REPLACED = {xmemref.CastOp: CastOp, xmemref.MemorySpaceCastOp: MemorySpaceCastOp, xmemref.CopyOp: CopyOp,
             xmemref.GlobalOp: GlobalOp}
MEMREF = Dialect("memref", [_REPLACED.get(op, op) for op in xmemref.MemRef.operations], list(xmemref.MemRef.attributes))
