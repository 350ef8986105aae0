"""The affine dialect as `mlir-opt` reads and prints it, and MLIR's affine-expression semantics.

xDSL 0.74 differs from MLIR here in ways FileCheck lines notice:
- it builds affine expressions with its own simplifier (it distributes `(d0 + 1) * 2`, rejects the
  semi-affine `d0 * s0` and keeps `95 - d0` as `-1 * d0 + 95` with other shapes);
- `affine.apply`/`affine.min` print `affine_map<...> (%i)` (space, inline map), `affine.max` is missing,
  `affine.if` prints only generically, and `affine.load`/`affine.store` subscripts have no `symbol(...)`.

The expression builders below (`add`, `mul`, `floordiv`, `ceildiv`, `mod`, `neg`, `sub`) follow MLIR's
`AffineExpr` operators, simplifications included, so an expression built or parsed here prints exactly as
MLIR prints the same expression. `MLIRAffineParsing` is a parser mix-in that makes `affine_map<...>`,
`affine_set<...>` and SSA subscripts parse with these semantics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType
from xdsl.ir import Attribute, Dialect, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

Add, Mul = AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul
FloorDiv, CeilDiv, Mod = AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.Mod

# ---------------------------------------------------------------------------
# MLIR affine-expression semantics
# ---------------------------------------------------------------------------


def const(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


def _as_expr(e: AffineExpr | int) -> AffineExpr:
    return AffineConstantExpr(e) if isinstance(e, int) else e


def _cval(e: AffineExpr) -> int | None:
    return e.value if isinstance(e, AffineConstantExpr) else None


def _bin(e: AffineExpr, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr | None:
    return e if isinstance(e, AffineBinaryOpExpr) and e.kind == kind else None


def is_symbolic_or_constant(e: AffineExpr) -> bool:
    """True when `e` involves no dimension (MLIR's `isSymbolicOrConstant`)."""
    if isinstance(e, AffineDimExpr):
        return False
    if isinstance(e, AffineBinaryOpExpr):
        return is_symbolic_or_constant(e.lhs) and is_symbolic_or_constant(e.rhs)
    return True


def largest_known_divisor(e: AffineExpr) -> int:
    """MLIR's `getLargestKnownDivisor`: a number `e` is always a multiple of."""
    if isinstance(e, AffineConstantExpr):
        return abs(e.value)
    if isinstance(e, AffineBinaryOpExpr):
        if e.kind == Mul:
            return largest_known_divisor(e.lhs) * largest_known_divisor(e.rhs)
        if e.kind in (Add, Mod):
            return math.gcd(largest_known_divisor(e.lhs), largest_known_divisor(e.rhs))
    return 1


def add(lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:
    lhs, rhs = _as_expr(lhs), _as_expr(rhs)
    return _simplify_add(lhs, rhs) or AffineBinaryOpExpr(Add, lhs, rhs)


def mul(lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:
    lhs, rhs = _as_expr(lhs), _as_expr(rhs)
    return _simplify_mul(lhs, rhs) or AffineBinaryOpExpr(Mul, lhs, rhs)


def floordiv(lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:
    lhs, rhs = _as_expr(lhs), _as_expr(rhs)
    return _simplify_floordiv(lhs, rhs) or AffineBinaryOpExpr(FloorDiv, lhs, rhs)


def ceildiv(lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:
    lhs, rhs = _as_expr(lhs), _as_expr(rhs)
    return _simplify_ceildiv(lhs, rhs) or AffineBinaryOpExpr(CeilDiv, lhs, rhs)


def mod(lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:
    lhs, rhs = _as_expr(lhs), _as_expr(rhs)
    return _simplify_mod(lhs, rhs) or AffineBinaryOpExpr(Mod, lhs, rhs)


def neg(e: AffineExpr | int) -> AffineExpr:
    return mul(e, -1)


def sub(lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:
    return add(lhs, neg(rhs))


BUILDERS: dict[AffineBinaryOpKind, Callable[[AffineExpr, AffineExpr], AffineExpr]] = {
    Add: add, Mul: mul, FloorDiv: floordiv, CeilDiv: ceildiv, Mod: mod,
}


def _simplify_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lc, rc = _cval(lhs), _cval(rhs)
    if lc is not None and rc is not None:
        return const(lc + rc)
    # Only the right-hand side may be constant; a lone symbolic operand goes right too.
    if lc is not None or (is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs)):
        return add(rhs, lhs)
    if rc == 0:
        return lhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    # (d0 + 2) + 3 -> d0 + 5
    if lbin is not None and rc is not None and lbin.kind == Add and _cval(lbin.rhs) is not None:
        return add(lbin.lhs, _cval(lbin.rhs) + rc)
    # c1 * e + c2 * e -> (c1 + c2) * e
    lmul, rmul = _bin(lhs, Mul), _bin(rhs, Mul)
    first, c1 = (lmul.lhs, _cval(lmul.rhs)) if lmul is not None and _cval(lmul.rhs) is not None else (lhs, 1)
    second, c2 = (rmul.lhs, _cval(rmul.rhs)) if rmul is not None and _cval(rmul.rhs) is not None else (rhs, 1)
    if first == second:
        return mul(first, c1 + c2)
    # (d0 + 2) + d1 -> (d0 + d1) + 2
    if lbin is not None and lbin.kind == Add and _cval(lbin.rhs) is not None:
        return add(add(lbin.lhs, rhs), lbin.rhs)
    return _detect_mod(lhs, rhs)


def _detect_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    """`e - (e floordiv q) * q` -> `e mod q`, as MLIR's simplifyAdd does."""
    rbin = rhs if isinstance(rhs, AffineBinaryOpExpr) else None
    if rbin is None:
        return None
    lrhs, rrhs = rbin.lhs, rbin.rhs
    lrhs_mul = _bin(lrhs, Mul)
    if _cval(rrhs) == -1 and lrhs_mul is not None:
        inner = _bin(lrhs_mul.lhs, FloorDiv)
        if inner is None:
            return None
        if inner.rhs == lrhs_mul.rhs and lhs == inner.lhs:
            return mod(lhs, lrhs_mul.rhs)
    lrhs_div = _bin(lrhs, FloorDiv)
    if lrhs_div is None:
        return None
    if lhs == lrhs_div.lhs and lrhs_div.rhs == neg(rrhs):
        return mod(lhs, lrhs_div.rhs)
    return None


def _simplify_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lc, rc = _cval(lhs), _cval(rhs)
    if lc is not None and rc is not None:
        return const(lc * rc)
    if not is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs):
        return None
    # The constant (or symbolic) factor goes right.
    if not is_symbolic_or_constant(rhs) or lc is not None:
        return mul(rhs, lhs)
    if rc == 1:
        return lhs
    if rc == 0:
        return rhs
    lbin = _bin(lhs, Mul)
    if lbin is not None and _cval(lbin.rhs) is not None:
        if rc is not None:  # (d0 * 2) * 3 -> d0 * 6
            return mul(lbin.lhs, _cval(lbin.rhs) * rc)
        return mul(mul(lbin.lhs, rhs), lbin.rhs)  # (d0 * 2) * s0 -> (d0 * s0) * 2
    return None


def _simplify_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lc, rc = _cval(lhs), _cval(rhs)
    if rc is None or rc < 1:
        return None
    if lc is not None:
        return const(lc // rc)
    if rc == 1:
        return lhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == Mul and _cval(lbin.rhs) is not None and _cval(lbin.rhs) % rc == 0:
        return mul(lbin.lhs, _cval(lbin.rhs) // rc)
    if lbin is not None and lbin.kind == Add:
        if largest_known_divisor(lbin.lhs) % rc == 0 or largest_known_divisor(lbin.rhs) % rc == 0:
            return add(floordiv(lbin.lhs, rc), floordiv(lbin.rhs, rc))
    return None


def _simplify_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lc, rc = _cval(lhs), _cval(rhs)
    if rc is None or rc < 1:
        return None
    if lc is not None:
        return const(-(-lc // rc))
    if rc == 1:
        return lhs
    lbin = _bin(lhs, Mul)
    if lbin is not None and _cval(lbin.rhs) is not None and _cval(lbin.rhs) % rc == 0:
        return mul(lbin.lhs, _cval(lbin.rhs) // rc)
    return None


def _simplify_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lc, rc = _cval(lhs), _cval(rhs)
    if rc is None or rc < 1:
        return None
    if lc is not None:
        return const(lc % rc)
    if largest_known_divisor(lhs) % rc == 0:
        return const(0)
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == Add:
        if largest_known_divisor(lbin.lhs) % rc == 0:
            return mod(lbin.rhs, rc)
        if largest_known_divisor(lbin.rhs) % rc == 0:
            return mod(lbin.lhs, rc)
    if lbin is not None and lbin.kind == Mod:
        inner = _cval(lbin.rhs)
        if inner is not None and inner >= 1 and inner % rc == 0:
            return mod(lbin.lhs, rc)
    return None


def rebuild(e: AffineExpr) -> AffineExpr:
    """`e` rebuilt bottom-up with MLIR's operators: the form MLIR would hold for it."""
    if isinstance(e, AffineBinaryOpExpr):
        return BUILDERS[e.kind](rebuild(e.lhs), rebuild(e.rhs))
    return e


def negate_distributing(e: AffineExpr) -> AffineExpr:
    """`-e` pushed through sums: undoes xDSL's `lhs - rhs <= 0` canonical form of a `<=` constraint."""
    if isinstance(e, AffineBinaryOpExpr) and e.kind == Add:
        return add(negate_distributing(e.lhs), negate_distributing(e.rhs))
    return neg(e)


def canonical_map(m: AffineMap) -> AffineMap:
    return AffineMap(m.num_dims, m.num_symbols, tuple(rebuild(r) for r in m.results))


def canonical_constraints(s: AffineSet) -> list[tuple[AffineExpr, bool]]:
    """The set's constraints as MLIR holds them: `(expr, is_equality)` meaning `expr >= 0` / `expr == 0`."""
    out: list[tuple[AffineExpr, bool]] = []
    for c in s.constraints:
        lhs, rhs = rebuild(c.lhs), rebuild(c.rhs)
        if c.kind == AffineConstraintKind.le:
            expr = negate_distributing(lhs) if _cval(rhs) == 0 else sub(rhs, lhs)
        else:
            expr = lhs if _cval(rhs) == 0 else sub(lhs, rhs)
        out.append((expr, c.kind == AffineConstraintKind.eq))
    return out


# ---------------------------------------------------------------------------
# Parsing with MLIR semantics
# ---------------------------------------------------------------------------


class MLIRAffineParser(AffineParser):
    """xDSL's affine parser building expressions with MLIR's operators (semi-affine included)."""

    def _parse_primary(self, parse_optional_bare_id):
        if self._current_token.kind == MLIRTokenKind.MINUS:
            self._consume_token()
            return neg(self._parse_primary(parse_optional_bare_id))
        return super()._parse_primary(parse_optional_bare_id)

    def _create_binop_expr(self, lhs, rhs, binop):
        text = binop.text
        if text == "*" and not is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs):
            raise ParseError(binop.span, "non-affine expression: at least one of the multiply operands "
                                         "has to be either a constant or symbolic")
        if text in ("floordiv", "ceildiv", "mod") and not is_symbolic_or_constant(rhs):
            raise ParseError(binop.span, f"non-affine expression: right operand of {text} has to be "
                                         "either a constant or symbolic")
        match text:
            case "+":
                return add(lhs, rhs)
            case "-":
                return sub(lhs, rhs)
            case "*":
                return mul(lhs, rhs)
            case "floordiv":
                return floordiv(lhs, rhs)
            case "ceildiv":
                return ceildiv(lhs, rhs)
            case "mod":
                return mod(lhs, rhs)
        raise ParseError(binop.span, f"unknown binary operator {text}")

    def _parse_affine_constraint(self, parse_optional_bare_id) -> AffineConstraintExpr:
        lhs = self._parse_affine_expr(parse_optional_bare_id)
        op_pos = self._current_token.span
        op = self._consume_token().text + self._consume_token().text
        if op not in (">=", "<=", "=="):
            raise ParseError(op_pos, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint")
        rhs = self._parse_affine_expr(parse_optional_bare_id)
        expr = sub(rhs, lhs) if op == "<=" else sub(lhs, rhs)
        kind = AffineConstraintKind.eq if op == "==" else AffineConstraintKind.ge
        return AffineConstraintExpr(kind, expr, const(0), canonicalize=False)

    def parse_affine_map_of_mlir_ssa_ids(self) -> tuple[AffineMap, list, list]:
        """`[%i + 3, symbol(%n) * 2]`: each new `%x` is the next dim, `symbol(%x)` the next symbol.

        Returns the map and the spans of its dim and symbol operands (dims first, as MLIR stores them).
        """
        dims: dict[str, int] = {}
        syms: dict[str, int] = {}
        dim_spans: list = []
        sym_spans: list = []

        def parse_id() -> AffineExpr | None:
            if self._current_token.kind == MLIRTokenKind.BARE_IDENT and self._current_token.text == "symbol":
                self._consume_token()
                self._parse_token(MLIRTokenKind.L_PAREN, "expected '('")
                tok = self._parse_token(MLIRTokenKind.PERCENT_IDENT, "expected ssa identifier")
                self._parse_token(MLIRTokenKind.R_PAREN, "expected ')'")
                name = tok.span.text
                if name in dims:
                    return AffineDimExpr(dims[name])
                if name not in syms:
                    syms[name] = len(syms)
                    sym_spans.append(tok.span)
                return AffineSymExpr(syms[name])
            tok = self._parse_optional_token(MLIRTokenKind.PERCENT_IDENT)
            if tok is None:
                return None
            name = tok.span.text
            if name in syms:
                return AffineSymExpr(syms[name])
            if name not in dims:
                dims[name] = len(dims)
                dim_spans.append(tok.span)
            return AffineDimExpr(dims[name])

        exprs = self.parse_comma_separated_list(self.Delimiter.SQUARE, lambda: self._parse_affine_expr(parse_id))
        return AffineMap(len(dims), len(syms), tuple(exprs)), dim_spans, sym_spans


class MLIRAffineParsing:
    """Parser mix-in: `affine_map`/`affine_set` literals parse with MLIR's expression semantics.

    Use as `class MyParser(MLIRAffineParsing, Parser)`.
    """

    def parse_affine_map(self) -> AffineMap:
        return MLIRAffineParser(self._parser_state).parse_affine_map()  # type: ignore[attr-defined]

    def parse_affine_set(self) -> AffineSet:
        return MLIRAffineParser(self._parser_state).parse_affine_set()  # type: ignore[attr-defined]


def parse_affine_map_of_ssa_ids(parser: Parser) -> tuple[AffineMap, list[SSAValue]]:
    """Parse MLIR's `[%i + 3, symbol(%n)]` subscript; operands are index values, dims first."""
    from xdsl.parser import UnresolvedOperand

    affine_map, dim_spans, sym_spans = MLIRAffineParser(parser._parser_state).parse_affine_map_of_mlir_ssa_ids()
    operands = [parser.resolve_operand(UnresolvedOperand(span, 0), IndexType()) for span in (*dim_spans, *sym_spans)]
    return affine_map, operands


def parse_affine_map_attr(parser: Parser) -> AffineMapAttr:
    """An `affine_map<...>` (or `#alias`) operand of an op, parsed with MLIR semantics."""
    pos = parser.pos
    if parser._current_token.kind == MLIRTokenKind.BARE_IDENT and parser._current_token.text == "affine_map":
        parser._consume_token()
        parser.parse_punctuation("<")
        m = MLIRAffineParser(parser._parser_state).parse_affine_map()
        parser.parse_punctuation(">")
        return AffineMapAttr(m)
    attr = parser.parse_attribute()
    if not isinstance(attr, AffineMapAttr):
        parser.raise_error("expected an affine map", pos, parser.pos)
    return attr


def parse_affine_set_attr(parser: Parser) -> AffineSetAttr:
    pos = parser.pos
    if parser._current_token.kind == MLIRTokenKind.BARE_IDENT and parser._current_token.text == "affine_set":
        parser._consume_token()
        parser.parse_punctuation("<")
        s = MLIRAffineParser(parser._parser_state).parse_affine_set()
        parser.parse_punctuation(">")
        return AffineSetAttr(s)
    attr = parser.parse_attribute()
    if not isinstance(attr, AffineSetAttr):
        parser.raise_error("expected an integer set", pos, parser.pos)
    return attr


def parse_dim_and_symbol_list(parser: Parser, num_dims: int, num_symbols: int, pos: int) -> list[SSAValue]:
    """MLIR's `(%d0, ...)[%s0, ...]` operand list of a map, checked against the map's arity."""
    dims = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType()))
    syms = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
    ) or []
    if len(dims) != num_dims or len(dims) + len(syms) != num_dims + num_symbols:
        parser.raise_error("dimension or symbol index mismatch", pos, parser.pos)
    return [*dims, *syms]


def print_dim_and_symbol_list(printer: Printer, operands: Sequence[SSAValue], num_dims: int) -> None:
    printer.print_string("(")
    printer.print_list(operands[:num_dims], printer.print_operand)
    printer.print_string(")")
    if len(operands) > num_dims:
        printer.print_string("[")
        printer.print_list(operands[num_dims:], printer.print_operand)
        printer.print_string("]")


def _print_ssa_subscript(printer: Printer, affine_map: AffineMap, operands: Sequence[SSAValue]) -> None:
    from dfsched.printing import print_affine_map_of_ssa_ids

    print_affine_map_of_ssa_ids(printer, affine_map, operands)


# ---------------------------------------------------------------------------
# Ops. Subclasses of xDSL's ops keep their definition (no re-decoration): they only replace the syntax.
# ---------------------------------------------------------------------------


class ApplyOp(xaffine.ApplyOp):
    """`affine.apply #map(%d)[%s]`."""

    @classmethod
    def parse(cls, parser: Parser) -> ApplyOp:
        pos = parser.pos
        m = parse_affine_map_attr(parser)
        operands = parse_dim_and_symbol_list(parser, m.data.num_dims, m.data.num_symbols, pos)
        attrs = parser.parse_optional_attr_dict()
        op = cls(operands, m)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.map)
        print_dim_and_symbol_list(printer, tuple(self.mapOperands), self.map.data.num_dims)
        printer.print_op_attributes(self.attributes, reserved_attr_names=("map",))


class _MinMaxMixin:
    """Shared syntax of `affine.min` and `affine.max`: `#map(%d)[%s]`."""

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        m = parse_affine_map_attr(parser)
        operands = parse_dim_and_symbol_list(parser, m.data.num_dims, m.data.num_symbols, pos)
        attrs = parser.parse_optional_attr_dict()
        op = cls(operands, m)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.map)
        print_dim_and_symbol_list(printer, tuple(self.operands), self.map.data.num_dims)
        printer.print_op_attributes(self.attributes, reserved_attr_names=("map",))


class MinOp(_MinMaxMixin, xaffine.MinOp):
    """`affine.min #map(%d)[%s]`: the smallest result of the map."""


@irdl_op_definition
class MaxOp(_MinMaxMixin, IRDLOperation):
    """`affine.max #map(%d)[%s]`: the largest result of the map (missing from xDSL)."""

    name = "affine.max"
    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)

    traits = traits_def(Pure())

    def __init__(self, map_operands: Sequence[SSAValue], affine_map: AffineMapAttr):
        super().__init__(operands=[map_operands], properties={"map": affine_map}, result_types=[IndexType()])

    def verify_(self) -> None:
        m = self.map.data
        if len(self.operands) != m.num_dims + m.num_symbols:
            raise VerifyException(
                f"{self.name} expects {m.num_dims + m.num_symbols} operands, but got {len(self.operands)}"
            )
        if not m.results:
            raise VerifyException("affine.max expects at least one result in its map")


class IfOp(xaffine.IfOp):
    """`affine.if #set(%d)[%s] -> (types) { ... } else { ... }`."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        pos = parser.pos
        cond = parse_affine_set_attr(parser)
        operands = parse_dim_and_symbol_list(parser, cond.data.num_dims, cond.data.num_symbols, pos)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                    parser.parse_punctuation(")")
            else:
                result_types = [parser.parse_type()]
        then_region = parser.parse_region()
        _ensure_yield(then_region)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = parser.parse_region()
            _ensure_yield(else_region)
        attrs = parser.parse_optional_attr_dict()
        op = cls.build(
            operands=[operands],
            result_types=[result_types],
            properties={"condition": cond},
            regions=[then_region, else_region],
        )
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.condition)
        print_dim_and_symbol_list(printer, tuple(self.args), self.condition.data.num_dims)
        types = self.result_types
        if types:
            printer.print_string(" -> ")
            if len(types) == 1:
                printer.print_attribute(types[0])
            else:
                printer.print_string("(")
                printer.print_list(types, printer.print_attribute)
                printer.print_string(")")
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


def _ensure_yield(region: Region) -> None:
    """MLIR's implicit `affine.yield`: a missing terminator (or block) is added by the parser."""
    from xdsl.ir import Block

    if not region.blocks:
        region.add_block(Block())
    block = region.blocks.first
    assert block is not None
    if not isinstance(block.last_op, xaffine.YieldOp):
        block.add_op(xaffine.YieldOp.get())


class LoadOp(xaffine.LoadOp):
    """`affine.load %m[%i + 1, symbol(%n)] : memref<...>` as MLIR spells its subscript."""

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        memref = parser.parse_unresolved_operand()
        affine_map, indices = parse_affine_map_of_ssa_ids(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = _parse_memref_type(parser)
        op = cls(parser.resolve_operand(memref, memref_type), indices, AffineMapAttr(affine_map),
                 memref_type.get_element_type())
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        _print_ssa_subscript(printer, self.map.data, tuple(self.indices))
        printer.print_op_attributes(self.attributes, reserved_attr_names=("map",))
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


class StoreOp(xaffine.StoreOp):
    """`affine.store %v, %m[%i + 1] : memref<...>`."""

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        affine_map, indices = parse_affine_map_of_ssa_ids(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = _parse_memref_type(parser)
        op = cls(parser.resolve_operand(value, memref_type.get_element_type()),
                 parser.resolve_operand(memref, memref_type), indices, AffineMapAttr(affine_map))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.memref)
        _print_ssa_subscript(printer, self.map.data, tuple(self.indices))
        printer.print_op_attributes(self.attributes, reserved_attr_names=("map",))
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


def _parse_memref_type(parser: Parser):
    from xdsl.dialects.builtin import MemRefType

    pos = parser.pos
    memref_type = parser.parse_type()
    if not isinstance(memref_type, MemRefType):
        parser.raise_error("expected a memref type", pos, parser.pos)
    return memref_type


AFFINE = Dialect(
    "affine",
    [
        ApplyOp,
        xaffine.ForOp,
        xaffine.ParallelOp,
        IfOp,
        StoreOp,
        LoadOp,
        MinOp,
        MaxOp,
        xaffine.YieldOp,
        xaffine.VectorLoadOp,
        xaffine.VectorStoreOp,
    ],
    [],
)

__all__ = [
    "AFFINE", "ApplyOp", "IfOp", "LoadOp", "MaxOp", "MinOp", "StoreOp", "MLIRAffineParser",
    "MLIRAffineParsing", "add", "mul", "floordiv", "ceildiv", "mod", "neg", "sub", "rebuild", "canonical_map",
    "canonical_constraints", "parse_affine_map_of_ssa_ids", "parse_affine_map_attr", "parse_affine_set_attr",
]
