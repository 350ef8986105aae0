"""Affine subscripts written with SSA names: `%m[%i + 3, %j * 2, symbol(%s), 0]`.

MLIR ops such as `affine.load`, `agen.vector_load` and `ktdf.data_transfer` spell an affine
map applied to SSA operands inline, as one list of affine expressions over SSA names. This
module is the one place dfsched reads and writes that syntax, with MLIR's rules:

- each distinct SSA name (`%i`, `%r#1`) becomes one affine *dimension*, numbered in order of
  first appearance; a repeated name reuses its dimension (`[%c0, %c0]` is `(d0) -> (d0, d0)`
  with one operand);
- `symbol(%s)` makes a *symbol* instead; operands are stored dims first, then symbols;
- expressions are built with MLIR's construction-time simplifications (constants on the
  right, `(d0 + 2) + 3` is `d0 + 5`, `2 * d0` is `d0 * 2`, ...), so what is printed back is
  what `mlir-opt` would print;
- printing writes each result with its dims/symbols replaced by the operand names (symbols
  as `symbol(%s)`); constant results print as integers.

API (used by the `agen` and `ktdf` dialects):

    sub = parse_subscripts(parser)                 # `[...]`, operands still unresolved
    map_attr, operands = sub.resolve(parser)       # operands resolved as `index`
    print_subscripts(printer, map_attr, operands)  # writes `[...]` back
    check_subscript_operands(map_attr, n, "src")   # verifier helper

`format_affine_expr(expr)` prints any affine expression the way MLIR does (`d0 * 64 - 3`),
with optional callbacks naming dims and symbols; `format_affine_map` / `format_affine_set` print
the bodies of `affine_map<...>` / `affine_set<...>` with MLIR's canonical expressions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import SSAValue
from xdsl.ir.affine import (AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineConstraintKind,
                            AffineDimExpr, AffineExpr, AffineMap, AffineSet, AffineSymExpr)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dfsched.compat import UnresolvedOperand

# ---------------------------------------------------------------------------
# Building expressions the way MLIR does (AffineExpr.cpp's simplify* rules)
# ---------------------------------------------------------------------------

Add, Mul, Mod = AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul, AffineBinaryOpKind.Mod
FloorDiv, CeilDiv = AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv


def _const(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """True when `expr` uses no dimension (MLIR's `isSymbolicOrConstant`)."""
    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def _as_const(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def _binary(expr: AffineExpr, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr | None:
    return expr if isinstance(expr, AffineBinaryOpExpr) and expr.kind == kind else None


def largest_known_divisor(expr: AffineExpr) -> int:
    """A positive integer known to divide `expr` for every value of its dims and symbols."""
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = largest_known_divisor(expr.lhs), largest_known_divisor(expr.rhs)
        if expr.kind == Mul:
            return lhs * rhs
        if expr.kind in (FloorDiv, CeilDiv):
            divisor = _as_const(expr.rhs)
            if divisor and lhs % divisor == 0:
                return abs(lhs // divisor)
            return 1
        return math.gcd(lhs, rhs)
    return 1


def affine_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _as_const(lhs), _as_const(rhs)
    if lc is not None and rc is not None:
        return _const(lc + rc)
    # Only the right operand may be constant; a symbolic operand goes right of a dim one.
    if lc is not None or (is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs)):
        return affine_add(rhs, lhs)
    if rc == 0:
        return lhs
    lbin = _binary(lhs, Add)
    if lbin is not None and rc is not None and (c := _as_const(lbin.rhs)) is not None:
        return affine_add(lbin.lhs, _const(c + rc))
    # c1 * e + c2 * e  ->  (c1 + c2) * e
    lmul, rmul = _binary(lhs, Mul), _binary(rhs, Mul)
    l_factor, l_base = (lmul.rhs.value, lmul.lhs) if lmul and isinstance(lmul.rhs, AffineConstantExpr) else (1, lhs)
    r_factor, r_base = (rmul.rhs.value, rmul.lhs) if rmul and isinstance(rmul.rhs, AffineConstantExpr) else (1, rhs)
    if l_base == r_base:
        # MLIR builds `e * 0` here without folding, which re-parses as `0`; fold it now so
        # printing stays a fixpoint.
        if l_factor + r_factor == 0:
            return _const(0)
        return AffineBinaryOpExpr(Mul, l_base, _const(l_factor + r_factor))
    # e + (e floordiv c) * -c  ->  e mod c
    if rmul is not None and (q := _binary(rmul.lhs, FloorDiv)) is not None:
        c = _as_const(q.rhs)
        if c is not None and _as_const(rmul.rhs) == -c and q.lhs == lhs:
            return affine_mod(lhs, _const(c))
    # (d0 + 2) + d1  ->  (d0 + d1) + 2
    if lbin is not None and (c := _as_const(lbin.rhs)) is not None:
        return affine_add(affine_add(lbin.lhs, rhs), _const(c))
    return AffineBinaryOpExpr(Add, lhs, rhs)


def affine_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """Product; one side must be symbolic or constant (the parser checks that first)."""
    lc, rc = _as_const(lhs), _as_const(rhs)
    if lc is not None and rc is not None:
        return _const(lc * rc)
    if not is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs):
        return AffineBinaryOpExpr(Mul, lhs, rhs)
    if not is_symbolic_or_constant(rhs) or lc is not None:
        return affine_mul(rhs, lhs)
    if rc == 1:
        return lhs
    if rc == 0:
        return _const(0)
    lbin = _binary(lhs, Mul)
    if lbin is not None and rc is not None and (c := _as_const(lbin.rhs)) is not None:
        return affine_mul(lbin.lhs, _const(c * rc))
    if lbin is not None and (c := _as_const(lbin.rhs)) is not None:
        return affine_mul(affine_mul(lbin.lhs, rhs), _const(c))
    return AffineBinaryOpExpr(Mul, lhs, rhs)


def affine_neg(expr: AffineExpr) -> AffineExpr:
    return affine_mul(expr, _const(-1))


def affine_sub(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return affine_add(lhs, affine_neg(rhs))


def affine_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _as_const(lhs), _as_const(rhs)
    if rc is None or rc == 0:
        return AffineBinaryOpExpr(FloorDiv, lhs, rhs)
    if lc is not None:
        return _const(lc // rc)
    if rc == 1:
        return lhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == Mul and (c := _as_const(lbin.rhs)) is not None and c % rc == 0:
        return affine_mul(lbin.lhs, _const(c // rc))
    if lbin is not None and lbin.kind == Add:
        if largest_known_divisor(lbin.lhs) % rc == 0 or largest_known_divisor(lbin.rhs) % rc == 0:
            return affine_add(affine_floordiv(lbin.lhs, rhs), affine_floordiv(lbin.rhs, rhs))
    return AffineBinaryOpExpr(FloorDiv, lhs, rhs)


def affine_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _as_const(lhs), _as_const(rhs)
    if rc is None or rc == 0:
        return AffineBinaryOpExpr(CeilDiv, lhs, rhs)
    if lc is not None:
        return _const(-(-lc // rc))
    if rc == 1:
        return lhs
    lbin = _binary(lhs, Mul)
    if lbin is not None and (c := _as_const(lbin.rhs)) is not None and c % rc == 0:
        return affine_mul(lbin.lhs, _const(c // rc))
    return AffineBinaryOpExpr(CeilDiv, lhs, rhs)


def affine_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _as_const(lhs), _as_const(rhs)
    if rc is None or rc < 1:
        return AffineBinaryOpExpr(Mod, lhs, rhs)
    if lc is not None:
        return _const(lc % rc)
    if largest_known_divisor(lhs) % rc == 0:
        return _const(0)
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == Add:
        if largest_known_divisor(lbin.lhs) % rc == 0:
            return affine_mod(lbin.rhs, rhs)
        if largest_known_divisor(lbin.rhs) % rc == 0:
            return affine_mod(lbin.lhs, rhs)
    if lbin is not None and lbin.kind == Mod and (c := _as_const(lbin.rhs)) is not None and c >= 1 and c % rc == 0:
        return affine_mod(lbin.lhs, rhs)
    return AffineBinaryOpExpr(Mod, lhs, rhs)


# ---------------------------------------------------------------------------
# Printing (MLIR's AsmPrinter::printAffineExprInternal)
# ---------------------------------------------------------------------------

_SPELLING = {Add: " + ", Mul: " * ", FloorDiv: " floordiv ", CeilDiv: " ceildiv ", Mod: " mod "}


def _emit(expr: AffineExpr, strong: bool, text: Callable[[str], None], dim: Callable[[int], None],
          sym: Callable[[int], None]) -> None:
    """Write `expr`; `strong` means the context binds tighter than `+` (parenthesize sums)."""
    if isinstance(expr, AffineDimExpr):
        return dim(expr.position)
    if isinstance(expr, AffineSymExpr):
        return sym(expr.position)
    if isinstance(expr, AffineConstantExpr):
        return text(str(expr.value))
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = expr.lhs, expr.rhs
    if strong:
        text("(")
    if expr.kind != Add:
        if expr.kind == Mul and _as_const(rhs) == -1:
            text("-")
            _emit(lhs, True, text, dim, sym)
        else:
            _emit(lhs, True, text, dim, sym)
            text(_SPELLING[expr.kind])
            _emit(rhs, True, text, dim, sym)
    elif (rmul := _binary(rhs, Mul)) is not None and (c := _as_const(rmul.rhs)) is not None and c <= -1:
        # a + b * -1  ->  a - b ;  a + b * -3  ->  a - b * 3
        _emit(lhs, False, text, dim, sym)
        text(" - ")
        if c == -1:
            _emit(rmul.lhs, rmul.lhs.kind == Add if isinstance(rmul.lhs, AffineBinaryOpExpr) else False,
                  text, dim, sym)
        else:
            _emit(rmul.lhs, True, text, dim, sym)
            text(f" * {-c}")
    elif (c := _as_const(rhs)) is not None and c < 0:
        _emit(lhs, False, text, dim, sym)
        text(f" - {-c}")
    else:
        _emit(lhs, False, text, dim, sym)
        text(" + ")
        _emit(rhs, False, text, dim, sym)
    if strong:
        text(")")


def format_affine_expr(expr: AffineExpr, dim_name: Callable[[int], str] = lambda i: f"d{i}",
                       symbol_name: Callable[[int], str] = lambda i: f"s{i}") -> str:
    """`expr` as MLIR prints it, e.g. `d0 * 64 - 3`, `-d0 + 63`, `(d0 + 1) floordiv 2`."""
    parts: list[str] = []
    _emit(expr, False, parts.append, lambda i: parts.append(dim_name(i)),
          lambda i: parts.append(symbol_name(i)))
    return "".join(parts)


def print_subscripts(printer: Printer, affine_map: AffineMap | AffineMapAttr,
                     operands: Sequence[SSAValue], *, brackets: bool = True) -> None:
    """Write `[%i + 3, symbol(%s), 0]` for `affine_map` applied to `operands` (dims, then symbols)."""
    if isinstance(affine_map, AffineMapAttr):
        affine_map = affine_map.data
    num_dims = affine_map.num_dims

    def operand(i: int, fallback: str) -> None:
        # Invalid IR (printed before it is verified) may lack the operand: never crash.
        printer.print_operand(operands[i]) if i < len(operands) else printer.print_string(fallback)

    def dim(i: int) -> None:
        operand(i, f"d{i}")

    def sym(i: int) -> None:
        printer.print_string("symbol(")
        operand(num_dims + i, f"s{i}")
        printer.print_string(")")

    if brackets:
        printer.print_string("[")
    for n, result in enumerate(affine_map.results):
        if n:
            printer.print_string(", ")
        _emit(result, False, printer.print_string, dim, sym)
    if brackets:
        printer.print_string("]")


# ---------------------------------------------------------------------------
# Whole maps and sets in MLIR's canonical form
# ---------------------------------------------------------------------------


_BINARY = {AffineBinaryOpKind.Add: affine_add, AffineBinaryOpKind.Mul: affine_mul,
           AffineBinaryOpKind.FloorDiv: affine_floordiv, AffineBinaryOpKind.CeilDiv: affine_ceildiv,
           AffineBinaryOpKind.Mod: affine_mod}


_BY_SPELLING = {"+": affine_add, "-": affine_sub, "*": affine_mul, "floordiv": affine_floordiv,
                "ceildiv": affine_ceildiv, "mod": affine_mod}


def affine_operator(spelling: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """The operator written `spelling` (`+`, `floordiv`, ...) applied as MLIR's parser applies it:
    a ValueError with MLIR's message when the result would not be affine."""
    if spelling == "*" and not is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs):
        raise ValueError("non-affine expression: at least one of the multiply operands has to be either a "
                         "constant or symbolic")
    if spelling in ("floordiv", "ceildiv", "mod") and not is_symbolic_or_constant(rhs):
        raise ValueError(f"non-affine expression: right operand of {spelling} has to be either a constant or symbolic")
    return _BY_SPELLING[spelling](lhs, rhs)


def affine_binary(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """MLIR's `getBinaryOpExpr`: the simplifying operator of `kind` applied to `lhs` and `rhs`."""
    return _BINARY[kind](lhs, rhs)


def rebuild_affine_expr(e: AffineExpr) -> AffineExpr:
    """`e` rebuilt bottom-up with MLIR's operators: the form MLIR would hold (xDSL builds differently)."""
    if isinstance(e, AffineBinaryOpExpr):
        return affine_binary(e.kind, rebuild_affine_expr(e.lhs), rebuild_affine_expr(e.rhs))
    return e


def canonical_map(m: AffineMap) -> AffineMap:
    return AffineMap(m.num_dims, m.num_symbols, tuple(rebuild_affine_expr(r) for r in m.results))


def _negate_distributing(e: AffineExpr) -> AffineExpr:
    """`-e` pushed through sums: undoes xDSL's `lhs - rhs <= 0` form of a `<=` constraint."""
    if isinstance(e, AffineBinaryOpExpr) and e.kind == AffineBinaryOpKind.Add:
        return affine_add(_negate_distributing(e.lhs), _negate_distributing(e.rhs))
    return affine_neg(e)


def canonical_constraints(s: AffineSet) -> list[tuple[AffineExpr, bool]]:
    """The set's constraints as MLIR holds them: `(expr, is_equality)` for `expr >= 0` / `expr == 0`."""
    out: list[tuple[AffineExpr, bool]] = []
    for c in s.constraints:
        lhs, rhs = rebuild_affine_expr(c.lhs), rebuild_affine_expr(c.rhs)
        rhs_zero = isinstance(rhs, AffineConstantExpr) and rhs.value == 0
        if c.kind == AffineConstraintKind.le:
            expr = _negate_distributing(lhs) if rhs_zero else affine_sub(rhs, lhs)
        else:
            expr = lhs if rhs_zero else affine_sub(lhs, rhs)
        out.append((expr, c.kind == AffineConstraintKind.eq))
    return out


def _space(num_dims: int, num_symbols: int) -> str:
    text = "(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")"
    if num_symbols:
        text += "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]"
    return text


def format_affine_map(m: AffineMap) -> str:
    """`(d0)[s0] -> (d0 + s0)`: the body of `affine_map<...>`, with MLIR's canonical expressions."""
    m = canonical_map(m)
    return _space(m.num_dims, m.num_symbols) + " -> (" + ", ".join(format_affine_expr(r) for r in m.results) + ")"


def format_affine_set(s: AffineSet) -> str:
    """`(d0) : (d0 - 10 >= 0)`: the body of `affine_set<...>` as MLIR prints it."""
    parts = [format_affine_expr(e) + (" == 0" if eq else " >= 0") for e, eq in canonical_constraints(s)]
    if not parts:  # MLIR's parser turns an empty constraint list into the trivial `0 == 0`
        parts = ["0 == 0"]
    return _space(s.num_dims, s.num_symbols) + " : (" + ", ".join(parts) + ")"


# ---------------------------------------------------------------------------
# Parsing (MLIR's AffineParser in "SSA ids" mode)
# ---------------------------------------------------------------------------


@dataclass
class Subscripts:
    """A parsed subscript list: the map and its operands (dims first, then symbols), unresolved."""

    map: AffineMap
    operands: list[UnresolvedOperand] = field(default_factory=list)

    def resolve(self, parser: Parser) -> tuple[AffineMapAttr, list[SSAValue]]:
        """Resolve every operand as `index` (forward references allowed)."""
        return AffineMapAttr(self.map), [parser.resolve_operand(o, IndexType()) for o in self.operands]


class _SubscriptParser:
    _HIGH_KEYWORDS = ("floordiv", "ceildiv", "mod")

    def __init__(self, parser: Parser):
        self.p = parser
        self.dims: list[UnresolvedOperand] = []
        self.syms: list[UnresolvedOperand] = []
        self._dim_keys: dict[tuple[str, int], int] = {}
        self._sym_keys: dict[tuple[str, int], int] = {}

    # primary := `(` expr `)` | int | `-` primary | %ssa | `symbol` `(` %ssa `)`
    def primary(self) -> AffineExpr:
        p = self.p
        if p.parse_optional_punctuation("("):
            expr = self.expr()
            p.parse_punctuation(")", " to close the affine expression")
            return expr
        if p.parse_optional_punctuation("-"):
            return affine_neg(self.primary())
        if (value := p.parse_optional_integer(allow_boolean=False, allow_negative=False)) is not None:
            return _const(value)
        if p.parse_optional_keyword("symbol"):
            p.parse_punctuation("(", " after 'symbol'")
            operand = p.parse_unresolved_operand("expected SSA operand in 'symbol(...)'")
            p.parse_punctuation(")", " to close 'symbol(...)'")
            return self._ssa(operand, symbol=True)
        if (operand := p.parse_optional_unresolved_operand()) is not None:
            return self._ssa(operand, symbol=False)
        if p.parse_optional_keyword_in((*self._HIGH_KEYWORDS,)) or p.parse_optional_punctuation("*") \
                or p.parse_optional_punctuation("+"):
            p.raise_error("missing left operand of binary operator")
        if (name := p.parse_optional_identifier()) is not None:
            p.raise_error(f"use of undeclared identifier '{name}' in affine subscript (expected an SSA value)")
        p.raise_error("expected affine expression")

    def _ssa(self, operand: UnresolvedOperand, symbol: bool) -> AffineExpr:
        key = (operand.operand_name, operand.index)
        # A name keeps the kind (dim or symbol) it was first seen with, as in MLIR.
        if key in self._dim_keys:
            return AffineDimExpr(self._dim_keys[key])
        if key in self._sym_keys:
            return AffineSymExpr(self._sym_keys[key])
        if symbol:
            self._sym_keys[key] = len(self.syms)
            self.syms.append(operand)
            return AffineSymExpr(self._sym_keys[key])
        self._dim_keys[key] = len(self.dims)
        self.dims.append(operand)
        return AffineDimExpr(self._dim_keys[key])

    def term(self) -> AffineExpr:
        lhs = self.primary()
        while (op := "*" if self.p.parse_optional_punctuation("*") else
               self.p.parse_optional_keyword_in(self._HIGH_KEYWORDS)) is not None:
            rhs = self.primary()
            try:
                lhs = affine_operator(op, lhs, rhs)
            except ValueError as exc:
                self.p.raise_error(str(exc))
        return lhs

    def expr(self) -> AffineExpr:
        lhs = self.term()
        while True:
            if self.p.parse_optional_punctuation("+"):
                lhs = affine_add(lhs, self.term())
            elif self.p.parse_optional_punctuation("-"):
                lhs = affine_sub(lhs, self.term())
            else:
                return lhs

    def finish(self, results: list[AffineExpr]) -> Subscripts:
        # Symbol positions are stored after the dims: renumbering is not needed because
        # AffineSymExpr positions already count symbols only.
        return Subscripts(AffineMap(len(self.dims), len(self.syms), tuple(results)), [*self.dims, *self.syms])


def parse_subscripts(parser: Parser, *, brackets: bool = True) -> Subscripts:
    """Parse `[expr, ...]` (or, with `brackets=False`, a non-empty `expr, ...`)."""
    sub = _SubscriptParser(parser)
    if brackets:
        results = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, sub.expr, " in affine subscript")
    else:
        results = [sub.expr()]
        while parser.parse_optional_punctuation(","):
            results.append(sub.expr())
    return sub.finish(results)


def parse_optional_subscripts(parser: Parser) -> Subscripts | None:
    """Parse `[expr, ...]` (possibly `[]`) if the next token is `[`, else return None."""
    if parser.parse_optional_punctuation("[") is None:
        return None
    if parser.parse_optional_punctuation("]") is not None:
        return Subscripts(AffineMap(0, 0, ()))
    parsed = parse_subscripts(parser, brackets=False)
    parser.parse_punctuation("]", " to close the affine subscript")
    return parsed


# ---------------------------------------------------------------------------
# Verifying
# ---------------------------------------------------------------------------


def check_subscript_operands(affine_map: AffineMap | AffineMapAttr, num_operands: int, what: str = "map") -> None:
    """Raise a VerifyException unless `affine_map` takes exactly `num_operands` inputs."""
    if isinstance(affine_map, AffineMapAttr):
        affine_map = affine_map.data
    expected = affine_map.num_dims + affine_map.num_symbols
    if expected != num_operands:
        raise VerifyException(f"expected {expected} {what} operands, but got {num_operands}")
