"""The affine dialect as `mlir-opt` reads and prints it, and MLIR's affine-expression semantics.

xDSL 0.74 differs from MLIR here in ways FileCheck lines notice:
- it builds affine expressions with its own simplifier (it distributes `(d0 + 1) * 2`, rejects the
  semi-affine `d0 * s0` and keeps `95 - d0` as `-1 * d0 + 95` with other shapes);
- `affine.apply`/`affine.min` print `affine_map<...> (%i)` (space, inline map), `affine.max` is missing,
  `affine.if` prints only generically, and `affine.load`/`affine.store` subscripts have no `symbol(...)`.

`MLIRAffineParser` parses expressions with MLIR's `AffineExpr` operators, simplifications included (the
builders of `affine_subscripts`), so an expression parsed here prints exactly as MLIR prints it;
`compat.MLIRAffineParsing` is the parser mix-in that makes `affine_map<...>` and `affine_set<...>` parse with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType, MemRefType
from xdsl.ir import Dialect, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineConstraintExpr, AffineConstraintKind
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import ParseError, VerifyException

from dfsched.compat import AffineParserBase, MLIRTokenKind, consume_token, next_token, next_token_is
from dfsched.dialects.affine_subscripts import (affine_neg, affine_operator, affine_sub, canonical_map, parse_subscripts,
                                                print_subscripts)
from dfsched.dialects.syntax import (add_implicit_terminator, parse_instance, parse_optional_arrow_type_list,
                                    parse_type_of, print_optional_arrow_type_list)

# ---------------------------------------------------------------------------
# Parsing with MLIR semantics
# ---------------------------------------------------------------------------


class MLIRAffineParser(AffineParserBase):
    """xDSL's affine parser building expressions with MLIR's operators (semi-affine included)."""

    def parse_primary_expr(self, parse_optional_bare_id):
        if next_token_is(self, MLIRTokenKind.MINUS):
            consume_token(self)
            return affine_neg(self.parse_primary_expr(parse_optional_bare_id))
        return super().parse_primary_expr(parse_optional_bare_id)

    def create_binary_expr(self, lhs, rhs, binop):
        try:
            return affine_operator(binop.text, lhs, rhs)
        except KeyError:
            raise ParseError(binop.span, f"unknown binary operator {binop.text}") from None
        except ValueError as exc:
            raise ParseError(binop.span, str(exc)) from None

    def parse_constraint_expr(self, parse_optional_bare_id) -> AffineConstraintExpr:
        lhs = self.parse_expr(parse_optional_bare_id)
        op_pos = next_token(self).span
        op = consume_token(self).text + consume_token(self).text
        if op not in (">=", "<=", "=="):
            raise ParseError(op_pos, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint")
        rhs = self.parse_expr(parse_optional_bare_id)
        expr = affine_sub(rhs, lhs) if op == "<=" else affine_sub(lhs, rhs)
        kind = AffineConstraintKind.eq if op == "==" else AffineConstraintKind.ge
        return AffineConstraintExpr(kind, expr, AffineConstantExpr(0), canonicalize=False)


def _parse_affine_literal(parser: Parser, keyword: str, parse: Callable[[MLIRAffineParser], object],
                          attr_type: type, what: str):
    """`keyword<...>` parsed with MLIR semantics, or any attribute (an alias) of `attr_type`."""
    if parser.parse_optional_keyword(keyword):
        parser.parse_punctuation("<")
        value = parse(MLIRAffineParser.at(parser))
        parser.parse_punctuation(">")
        return attr_type(value)
    return parse_instance(parser, parser.parse_attribute, attr_type, f"expected {what}", span=True)


def parse_affine_map_attr(parser: Parser) -> AffineMapAttr:
    """An `affine_map<...>` (or `#alias`) operand of an op, parsed with MLIR semantics."""
    return _parse_affine_literal(parser, "affine_map", MLIRAffineParser.parse_affine_map, AffineMapAttr,
                                 "an affine map")


def parse_affine_set_attr(parser: Parser) -> AffineSetAttr:
    """An `affine_set<...>` (or `#alias`) operand of an op, parsed with MLIR semantics."""
    return _parse_affine_literal(parser, "affine_set", MLIRAffineParser.parse_affine_set, AffineSetAttr,
                                 "an integer set")


def parse_applied(parser: Parser, parse_attr: Callable[[Parser], AffineMapAttr | AffineSetAttr]):
    """MLIR's `#map(%d0, ...)[%s0, ...]` (or a set's): the attribute and its operands, checked
    against its arity."""
    pos = parser.pos
    attr = parse_attr(parser)
    dims = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType()))
    syms = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE,
                                                      lambda: parser.parse_operand(IndexType())) or []
    if len(dims) != attr.data.num_dims or len(syms) != attr.data.num_symbols:
        parser.raise_error("dimension or symbol index mismatch", pos, parser.pos)
    return attr, [*dims, *syms]


def print_dim_and_symbol_list(printer: Printer, operands: Sequence[SSAValue], num_dims: int) -> None:
    with printer.in_parens():
        printer.print_list(operands[:num_dims], printer.print_operand)
    if len(operands) > num_dims:
        with printer.in_square_brackets():
            printer.print_list(operands[num_dims:], printer.print_operand)


# ---------------------------------------------------------------------------
# Ops. Subclasses of xDSL's ops keep their definition (no re-decoration): they only replace the syntax.
# ---------------------------------------------------------------------------


class _MapSyntax:
    """Shared syntax of `affine.apply`, `affine.min` and `affine.max`: `#map(%d)[%s]`."""

    @classmethod
    def parse(cls, parser: Parser):
        m, operands = parse_applied(parser, parse_affine_map_attr)
        op = cls(operands, m)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.map)
        print_dim_and_symbol_list(printer, tuple(self.operands), self.map.data.num_dims)
        printer.print_op_attributes(self.attributes, reserved_attr_names=("map",))


class ApplyOp(_MapSyntax, xaffine.ApplyOp):
    """`affine.apply #map(%d)[%s]`."""


class _MinMaxOp(_MapSyntax, IRDLOperation):
    """The definition `affine.min` and `affine.max` share: index operands, one index result, a map, Pure."""

    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)

    traits = traits_def(Pure())

    def __init__(self, map_operands: Sequence[SSAValue], affine_map: AffineMapAttr):
        # Not super(): in MinOp's MRO the next __init__ is xDSL's MinOp.__init__, this same signature.
        IRDLOperation.__init__(self, operands=[map_operands], properties={"map": affine_map},
                               result_types=[IndexType()])


@irdl_op_definition
class MinOp(_MinMaxOp, xaffine.MinOp):
    """`affine.min #map(%d)[%s]`: the smallest result of the map.

    Re-defined (fields declared again, so xDSL's accessors are not taken for fields) to carry
    `Pure`, which xDSL's `MinOp` lacks: CSE and DCE may then merge or drop it. It stays an
    `xaffine.MinOp` and keeps that op's verifier."""

    name = "affine.min"


@irdl_op_definition
class MaxOp(_MinMaxOp):
    """`affine.max #map(%d)[%s]`: the largest result of the map (missing from xDSL)."""

    name = "affine.max"

    def verify_(self) -> None:
        m = self.map.data
        if len(self.operands) != m.num_dims + m.num_symbols:
            raise VerifyException(f"{self.name} expects {m.num_dims + m.num_symbols} operands, but got {len(self.operands)}")
        if not m.results:
            raise VerifyException("affine.max expects at least one result in its map")


class IfOp(xaffine.IfOp):
    """`affine.if #set(%d)[%s] -> (types) { ... } else { ... }`."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond, operands = parse_applied(parser, parse_affine_set_attr)
        result_types = parse_optional_arrow_type_list(parser)
        then_region = parser.parse_region()
        add_implicit_terminator(then_region, xaffine.YieldOp)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = parser.parse_region()
            add_implicit_terminator(else_region, xaffine.YieldOp)
        attrs = parser.parse_optional_attr_dict()
        return cls.build(operands=[operands], result_types=[result_types], properties={"condition": cond},
                         regions=[then_region, else_region], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.condition)
        print_dim_and_symbol_list(printer, tuple(self.args), self.condition.data.num_dims)
        types = self.result_types
        print_optional_arrow_type_list(printer, types)
        printer.print_string(" ")
        printer.print_region(self.then_region, print_entry_block_args=False,
                             print_block_terminators=bool(types))
        if self.else_region.blocks:
            printer.print_string(" else ")
            printer.print_region(self.else_region, print_entry_block_args=False,
                                 print_block_terminators=bool(types))
        printer.print_op_attributes(self.attributes, reserved_attr_names=("condition",))

    def verify_(self) -> None:
        type(self).get_irdl_definition().verify(self)
        s = self.condition.data
        if len(self.args) != s.num_dims + s.num_symbols:
            raise VerifyException("operand count and condition integer set dimension and symbol count must match")
        for region, label in ((self.then_region, "then"), (self.else_region, "else")):
            for block in region.blocks:
                last = block.last_op
                if not isinstance(last, xaffine.YieldOp):
                    raise VerifyException(f"expects the {label} region to end with 'affine.yield'")
                if tuple(last.operand_types) != tuple(self.result_types):
                    raise VerifyException(f"the {label} region must yield values of the result types")
        if self.result_types and not self.else_region.blocks:
            raise VerifyException("must have an else block if defining values")


class LoadOp(xaffine.LoadOp):
    """`affine.load %m[%i + 1, symbol(%n)] : memref<...>` as MLIR spells its subscript."""

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        memref = parser.parse_unresolved_operand()
        map_attr, indices, attrs, memref_type = _parse_access(parser)
        op = cls(parser.resolve_operand(memref, memref_type), indices, map_attr, memref_type.get_element_type())
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_access(printer, self)


class StoreOp(xaffine.StoreOp):
    """`affine.store %v, %m[%i + 1] : memref<...>`."""

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        map_attr, indices, attrs, memref_type = _parse_access(parser)
        op = cls(parser.resolve_operand(value, memref_type.get_element_type()),
                 parser.resolve_operand(memref, memref_type), indices, map_attr)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(",")
        _print_access(printer, self)


def _parse_access(parser: Parser):
    """After the memref of `affine.load`/`affine.store`: `[%i + 1] {attrs} : memref<...>`, read as
    (map, indices, attributes, memref type)."""
    map_attr, indices = parse_subscripts(parser).resolve(parser)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return map_attr, indices, attrs, parse_type_of(parser, MemRefType, "expected a memref type")


def _print_access(printer: Printer, op: LoadOp | StoreOp) -> None:
    """` %m[%i + 1] {attrs} : memref<...>`, what `_parse_access` reads after the memref."""
    printer.print_string(" ")
    printer.print_operand(op.memref)
    print_subscripts(printer, canonical_map(op.map.data), tuple(op.indices))  # MLIR's AffineMapOfSSAIds
    printer.print_op_attributes(op.attributes, reserved_attr_names=("map",))
    printer.print_string(" : ")
    printer.print_attribute(op.memref.type)


AFFINE = Dialect("affine", [
    ApplyOp, xaffine.ForOp, xaffine.ParallelOp, IfOp, StoreOp, LoadOp, MinOp, MaxOp, xaffine.YieldOp,
    xaffine.VectorLoadOp, xaffine.VectorStoreOp,
], [])
