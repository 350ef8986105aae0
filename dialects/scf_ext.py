"""The scf dialect as `mlir-opt` reads it.

xDSL 0.74 reads the result types of `scf.for ... iter_args(...) -> (T)` and `scf.if %c -> (T)`
only in parentheses. MLIR reads them with `parseOptionalArrowTypeList`, which also takes a single
type without parentheses (`-> tensor<4xf16>`), and an empty `()`; it prints them in
parentheses, as xDSL does. `ForOp` and `IfOp` here are subclasses of xDSL's ops that only
replace the parser, so passes matching xDSL's classes still match them. Every other scf op is
xDSL's own (`scf.parallel` keeps xDSL's generic-only syntax: no upstream test spells it).
"""

from __future__ import annotations

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.dialects.utils import parse_assignment
from xdsl.ir import Attribute, Dialect
from xdsl.parser import Parser
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

from dfsched.compat import UnresolvedOperand
from dfsched.dialects.syntax import add_implicit_terminator, parse_arrow_type_list, parse_optional_arrow_type_list


class ForOp(xscf.ForOp):
    """`scf.for %i = %lb to %ub step %s [iter_args(%a = %x) -> T|(T, ...)] [: type] { ... }`."""

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        unresolved_indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        ub = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()

        pos = parser.pos
        assignments: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        iter_arg_types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            assignments = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: parse_assignment(parser))
            parser.parse_punctuation("->")
            iter_arg_types = parse_arrow_type_list(parser)
            if len(iter_arg_types) != len(assignments):
                parser.raise_error(f"expected {len(assignments)} result types for the iter_args, "
                                   f"got {len(iter_arg_types)}", pos, parser.pos)

        init_values = parser.resolve_operands([operand for _, operand in assignments], iter_arg_types, pos)
        iter_args = [arg.resolve(t) for (arg, _), t in zip(assignments, iter_arg_types)]
        indvar_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        bounds = [parser.resolve_operand(value, indvar_type) for value in (lb, ub, step)]
        indvar = unresolved_indvar.resolve(indvar_type)
        body = parser.parse_region((indvar, *iter_args))
        attrs = parser.parse_optional_attr_dict()

        for_op = cls(*bounds, init_values, body)
        for_op.attributes |= attrs
        if not iter_args:
            for trait in for_op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(for_op, trait)
        return for_op


class IfOp(xscf.IfOp):
    """`scf.if %c [-> T|(T, ...)] { ... } [else { ... }]`."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand(i1)
        return_types = parse_optional_arrow_type_list(parser)
        then_region = parser.parse_region()
        else_region = parser.parse_region() if parser.parse_optional_keyword("else") else None
        attr_dict = parser.parse_optional_attr_dict()
        if_op = cls(cond, return_types, then_region, else_region, attr_dict)
        if not return_types:
            add_implicit_terminator(if_op.true_region, xscf.YieldOp)
            if else_region is not None:
                add_implicit_terminator(if_op.false_region, xscf.YieldOp)
        return if_op


_REPLACED = {xscf.ForOp: ForOp, xscf.IfOp: IfOp}
SCF = Dialect("scf", [_REPLACED.get(op, op) for op in xscf.Scf.operations], list(xscf.Scf.attributes))

__all__ = ["SCF", "ForOp", "IfOp", "parse_arrow_type_list"]
