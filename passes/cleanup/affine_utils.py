"""MLIR's affine-map machinery that the cleanup and scheduling passes share.

xDSL 0.74 composes maps without simplifying and never folds `affine.apply`/`affine.min`; this
module follows MLIR (`AffineOps.cpp`, `AffineExpr.cpp`, `AffineMap.cpp`) instead, building every
expression with MLIR's operators from `dfsched.dialects.affine_subscripts` so that what is
printed is what `mlir-opt` prints:

* `replace_dims_and_symbols`, `shift_dims`, `shift_symbols`: rebuild expressions (an unchanged
  sub-expression is kept as it is, as MLIR does);
* `simplify_expr` / `simplify_map`: MLIR's `simplifyAffineExpr` for pure affine expressions
  (flatten to a linear form with local variables for div/mod, then rebuild);
* `constant_fold_expr` / `partial_constant_fold`: `AffineExprConstantFolder` and
  `AffineMap::partialConstantFold`;
* `is_valid_symbol` / `is_valid_dim`: the affine scoping rules (func.func and builtin.module
  are affine scopes);
* `canonicalize_map_and_operands`, `compose_map_and_operands`, `fully_compose_map_and_operands`,
  `make_composed_folded_apply`: the composition helpers of `AffineOps.cpp`.

Semi-affine expressions (a product of two non-constants, a division by a symbol) follow MLIR's
`simplifySemiAffine` and `getSemiAffineExprFromFlatForm`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import IndexType
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.traits import IsolatedFromAbove

from dfsched.dialects.constants import constant_attr, constant_int
from dfsched.dialects.affine_subscripts import affine_add, affine_ceildiv, affine_floordiv, affine_mul
from dfsched.dialects.affine_subscripts import affine_binary as binary

Add, Mul, Mod = AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul, AffineBinaryOpKind.Mod
FloorDiv, CeilDiv = AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv

AFFINE_SCOPE_OPS = frozenset({"func.func", "builtin.module"})


def const(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


# ---------------------------------------------------------------------------
# Expression rebuilding
# ---------------------------------------------------------------------------


def replace_dims_and_symbols(expr: AffineExpr, dims: Sequence[AffineExpr], syms: Sequence[AffineExpr], *,
                             rebuild: bool = False) -> AffineExpr:
    """MLIR's `AffineExpr::replaceDimsAndSymbols` (positions past the lists are kept); with
    `rebuild`, every binary expression is rebuilt (simplified) even where nothing was replaced."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else expr
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position] if expr.position < len(syms) else expr
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = replace_dims_and_symbols(expr.lhs, dims, syms, rebuild=rebuild)
        rhs = replace_dims_and_symbols(expr.rhs, dims, syms, rebuild=rebuild)
        if lhs == expr.lhs and rhs == expr.rhs and not rebuild:
            return expr
        return binary(expr.kind, lhs, rhs)
    return expr


def substitute(expr: AffineExpr, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr] = ()) -> AffineExpr:
    """`expr` with dims and symbols replaced, rebuilt as MLIR's builders fold constants."""
    return replace_dims_and_symbols(expr, dims, symbols, rebuild=True)


def replace_expr(expr: AffineExpr, mapping: dict[AffineExpr, AffineExpr]) -> AffineExpr:
    """MLIR's `AffineExpr::replace(map)`."""
    if expr in mapping:
        return mapping[expr]
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = replace_expr(expr.lhs, mapping), replace_expr(expr.rhs, mapping)
        if lhs == expr.lhs and rhs == expr.rhs:
            return expr
        return binary(expr.kind, lhs, rhs)
    return expr


def map_replace_dims_and_symbols(amap: AffineMap, dims: Sequence[AffineExpr], syms: Sequence[AffineExpr],
                                 num_dims: int, num_syms: int) -> AffineMap:
    return AffineMap(num_dims, num_syms, tuple(replace_dims_and_symbols(e, dims, syms) for e in amap.results))


def shift_dims(amap: AffineMap, shift: int) -> AffineMap:
    dims = [AffineDimExpr(i + shift) for i in range(amap.num_dims)]
    return AffineMap(amap.num_dims + shift, amap.num_symbols,
                     tuple(replace_dims_and_symbols(e, dims, []) for e in amap.results))


def shift_symbols(amap: AffineMap, shift: int) -> AffineMap:
    syms = [AffineSymExpr(i + shift) for i in range(amap.num_symbols)]
    return AffineMap(amap.num_dims, amap.num_symbols + shift,
                     tuple(replace_dims_and_symbols(e, [], syms) for e in amap.results))


# ---------------------------------------------------------------------------
# Simplification (SimpleAffineExprFlattener + getAffineExprFromFlatForm)
# ---------------------------------------------------------------------------


def is_pure_affine(expr: AffineExpr) -> bool:
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind == Add:
            return is_pure_affine(expr.lhs) and is_pure_affine(expr.rhs)
        if expr.kind == Mul:
            return (is_pure_affine(expr.lhs) and is_pure_affine(expr.rhs)
                    and (isinstance(expr.lhs, AffineConstantExpr) or isinstance(expr.rhs, AffineConstantExpr)))
        return is_pure_affine(expr.lhs) and isinstance(expr.rhs, AffineConstantExpr)
    return True


class _Flattener:
    """Flattens a pure affine expression into coefficients [dims, symbols, locals, constant]."""

    def __init__(self, num_dims: int, num_syms: int):
        self.num_dims = num_dims
        self.num_syms = num_syms
        self.locals: list[AffineExpr] = []
        self.stack: list[list[int]] = []

    @property
    def width(self) -> int:
        return self.num_dims + self.num_syms + len(self.locals) + 1

    def _add_local(self, expr: AffineExpr) -> None:
        insert_at = self.num_dims + self.num_syms + len(self.locals)
        for row in self.stack:
            row.insert(insert_at, 0)
        self.locals.append(expr)

    def _local_column(self, expr: AffineExpr) -> int:
        """The column of local `expr` (added to every row on the stack when new)."""
        if expr not in self.locals:
            self._add_local(expr)
        return self.num_dims + self.num_syms + self.locals.index(expr)

    def _rebuild(self, row: Sequence[int]) -> AffineExpr:
        return flat_to_expr(row, self.num_dims, self.num_syms, self.locals)

    def walk(self, expr: AffineExpr) -> bool:
        if isinstance(expr, AffineBinaryOpExpr):
            if not self.walk(expr.lhs) or not self.walk(expr.rhs):
                return False
            return self._visit_binary(expr)
        row = [0] * self.width
        if isinstance(expr, AffineDimExpr):
            row[expr.position] = 1
        elif isinstance(expr, AffineSymExpr):
            row[self.num_dims + expr.position] = 1
        elif isinstance(expr, AffineConstantExpr):
            row[-1] = expr.value
        else:
            return False
        self.stack.append(row)
        return True

    def _visit_binary(self, expr: AffineBinaryOpExpr) -> bool:
        rhs = self.stack.pop()
        lhs = self.stack[-1]
        if expr.kind == Add:
            for i in range(len(lhs)):
                lhs[i] += rhs[i]
            return True
        if not isinstance(expr.rhs, AffineConstantExpr):
            # Semi-affine: the product/quotient/remainder of the rebuilt operands is a local.
            a, b = self._rebuild(lhs), self._rebuild(rhs)
            self._add_semi_affine_local(binary(expr.kind, a, b), lhs)
            return True
        if expr.kind == Mul:
            factor = rhs[-1]
            for i in range(len(lhs)):
                lhs[i] *= factor
            return True
        divisor = rhs[-1]
        if divisor <= 0:
            return False
        if expr.kind == Mod:
            return self._visit_mod(lhs, divisor)
        return self._visit_div(lhs, divisor, ceil=expr.kind == CeilDiv)

    def _add_semi_affine_local(self, local: AffineExpr, row: list[int]) -> None:
        column = self._local_column(local)
        row[:] = [0] * self.width
        row[column] = 1

    def _visit_mod(self, lhs: list[int], divisor: int) -> bool:
        if all(v % divisor == 0 for v in lhs):
            lhs[:] = [0] * len(lhs)
            return True
        gcd = divisor
        for v in lhs:
            gcd = math.gcd(gcd, abs(v))
        dividend = [v // gcd for v in lhs] if gcd != 1 else list(lhs)
        floor_divisor = divisor // gcd
        div_expr = affine_floordiv(self._rebuild(dividend), const(floor_divisor))
        lhs[self._local_column(div_expr)] = -divisor
        return True

    def _visit_div(self, lhs: list[int], divisor: int, ceil: bool) -> bool:
        gcd = divisor
        for v in lhs:
            gcd = math.gcd(gcd, abs(v))
        if gcd != 1:
            lhs[:] = [v // gcd for v in lhs]
        divisor //= gcd
        if divisor == 1:
            return True
        a = self._rebuild(lhs)
        div_expr = affine_ceildiv(a, const(divisor)) if ceil else affine_floordiv(a, const(divisor))
        self._add_semi_affine_local(div_expr, lhs)
        return True


def flat_to_expr(row: Sequence[int], num_dims: int, num_syms: int, locals_: Sequence[AffineExpr]) -> AffineExpr:
    """MLIR's `getAffineExprFromFlatForm`."""
    expr: AffineExpr = const(0)
    for j in range(num_dims + num_syms):
        if row[j] == 0:
            continue
        ident = AffineDimExpr(j) if j < num_dims else AffineSymExpr(j - num_dims)
        expr = affine_add(expr, affine_mul(ident, const(row[j])))
    for j in range(num_dims + num_syms, len(row) - 1):
        if row[j] == 0:
            continue
        expr = affine_add(expr, affine_mul(locals_[j - num_dims - num_syms], const(row[j])))
    if row[-1] != 0:
        expr = affine_add(expr, const(row[-1]))
    return expr


def semi_flat_to_expr(row: Sequence[int], num_dims: int, num_syms: int,
                      locals_: Sequence[AffineExpr]) -> AffineExpr:
    """MLIR's `getSemiAffineExprFromFlatForm`: terms sorted by (dim or symbol position, kind)."""
    entries: dict[tuple[int, int], tuple[int, AffineExpr]] = {}
    top = max(num_dims, num_syms)
    offset_sym = 0
    offset_dim = -1
    for j in range(num_dims, num_dims + num_syms):
        if row[j] == 0:
            continue
        entries[(j - num_dims, top + offset_sym)] = (row[j], AffineSymExpr(j - num_dims))
        offset_sym += 1
    start = num_dims + num_syms
    added = [False] * len(locals_)
    for index, local in enumerate(locals_):
        if row[start + index] == 0:
            continue
        if not isinstance(local, AffineBinaryOpExpr):
            continue
        lhs, rhs = local.lhs, local.rhs
        if not (isinstance(lhs, AffineDimExpr | AffineSymExpr)
                and isinstance(rhs, AffineDimExpr | AffineSymExpr | AffineConstantExpr)):
            continue
        coefficient = row[start + index]
        if isinstance(rhs, AffineConstantExpr):
            if isinstance(lhs, AffineDimExpr):
                key = (lhs.position, offset_dim)
                offset_dim -= 1
            else:
                key = (lhs.position, top + offset_sym)
                offset_sym += 1
        elif isinstance(lhs, AffineDimExpr):
            key = (lhs.position, rhs.position)
        else:
            key = (lhs.position, top + offset_sym)
            offset_sym += 1
        entries[key] = (coefficient, local)
        added[index] = True
    for j in range(num_dims):
        if row[j] == 0:
            continue
        entries[(j, offset_dim)] = (row[j], AffineDimExpr(j))
        offset_dim -= 1
    expr: AffineExpr = const(0)
    for key in sorted(entries):
        coefficient, term = entries[key]
        expr = affine_add(expr, affine_mul(term, const(coefficient)))
    for index, local in enumerate(locals_):
        coefficient = row[start + index]
        if coefficient == 0 or added[index]:
            continue
        expr = affine_add(expr, affine_mul(local, const(coefficient)))
    if row[-1] != 0:
        expr = affine_add(expr, const(row[-1]))
    return expr


def _is_divisible_by_symbol(expr: AffineExpr, pos: int, kind: AffineBinaryOpKind) -> bool:
    if isinstance(expr, AffineConstantExpr):
        return expr.value == 0
    if isinstance(expr, AffineDimExpr):
        return False
    if isinstance(expr, AffineSymExpr):
        return expr.position == pos
    assert isinstance(expr, AffineBinaryOpExpr)
    if expr.kind == Add:
        return _is_divisible_by_symbol(expr.lhs, pos, kind) and _is_divisible_by_symbol(expr.rhs, pos, kind)
    if expr.kind == Mod:
        return _is_divisible_by_symbol(expr.lhs, pos, Mod) and _is_divisible_by_symbol(expr.rhs, pos, Mod)
    if expr.kind == Mul:
        return _is_divisible_by_symbol(expr.lhs, pos, kind) or _is_divisible_by_symbol(expr.rhs, pos, kind)
    if kind != expr.kind:
        return False
    return _is_divisible_by_symbol(expr.lhs, pos, expr.kind)


def _symbolic_divide(expr: AffineExpr, pos: int, kind: AffineBinaryOpKind) -> AffineExpr | None:
    if isinstance(expr, AffineConstantExpr):
        return const(0) if expr.value == 0 else None
    if isinstance(expr, AffineDimExpr):
        return None
    if isinstance(expr, AffineSymExpr):
        return const(1)
    assert isinstance(expr, AffineBinaryOpExpr)
    if expr.kind in (Add, Mod):
        inner = kind if expr.kind == Add else expr.kind
        lhs, rhs = _symbolic_divide(expr.lhs, pos, inner), _symbolic_divide(expr.rhs, pos, inner)
        return None if lhs is None or rhs is None else binary(expr.kind, lhs, rhs)
    if expr.kind == Mul:
        if not _is_divisible_by_symbol(expr.lhs, pos, kind):
            rhs = _symbolic_divide(expr.rhs, pos, kind)
            return None if rhs is None else affine_mul(expr.lhs, rhs)
        lhs = _symbolic_divide(expr.lhs, pos, kind)
        return None if lhs is None else affine_mul(lhs, expr.rhs)
    lhs = _symbolic_divide(expr.lhs, pos, expr.kind)
    return None if lhs is None else binary(expr.kind, lhs, expr.rhs)


def _summands(expr: AffineExpr) -> list[AffineExpr]:
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == Add:
        return _summands(expr.lhs) + _summands(expr.rhs)
    return [expr]


def _negated(expr: AffineExpr) -> AffineExpr | None:
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == Mul:
        if isinstance(expr.lhs, AffineConstantExpr) and expr.lhs.value == -1:
            return expr.rhs
        if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value == -1:
            return expr.lhs
    return None


def _is_mod_of_mod_subtraction(lhs: AffineExpr, rhs: AffineExpr, num_dims: int, num_syms: int) -> bool:
    """`(x - x mod rhs) mod rhs` is 0."""
    summands = _summands(lhs)
    for i, current in enumerate(summands):
        inner = _negated(current)
        if not (isinstance(inner, AffineBinaryOpExpr) and inner.kind == Mod and inner.rhs == rhs):
            continue
        diff: AffineExpr = const(0)
        for j, other in enumerate(summands):
            if i != j:
                diff = affine_add(diff, other)
        diff = affine_add(diff, affine_mul(inner.lhs, const(-1)))
        diff = simplify_expr(diff, num_dims, num_syms)
        if isinstance(diff, AffineConstantExpr) and diff.value == 0:
            return True
    return False


def simplify_semi_affine(expr: AffineExpr, num_dims: int, num_syms: int) -> AffineExpr:
    """MLIR's `simplifySemiAffine`: divisions and remainders by a symbol that divides the lhs."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return expr
    if expr.kind in (Add, Mul):
        return binary(expr.kind, simplify_semi_affine(expr.lhs, num_dims, num_syms),
                      simplify_semi_affine(expr.rhs, num_dims, num_syms))
    s_lhs = simplify_semi_affine(expr.lhs, num_dims, num_syms)
    s_rhs = simplify_semi_affine(expr.rhs, num_dims, num_syms)
    if _is_mod_of_mod_subtraction(s_lhs, s_rhs, num_dims, num_syms):
        return const(0)
    if not isinstance(s_rhs, AffineSymExpr):
        return binary(expr.kind, s_lhs, s_rhs)
    if not _is_divisible_by_symbol(expr.lhs, s_rhs.position, expr.kind):
        return binary(expr.kind, s_lhs, s_rhs)
    if expr.kind == Mod:
        return const(0)
    divided = _symbolic_divide(s_lhs, s_rhs.position, expr.kind)
    return divided if divided is not None else binary(expr.kind, s_lhs, s_rhs)


def simplify_expr(expr: AffineExpr, num_dims: int, num_syms: int) -> AffineExpr:
    """MLIR's `simplifyAffineExpr`: flatten to a sum of terms and rebuild it."""
    pure = is_pure_affine(expr)
    if not pure:
        expr = simplify_semi_affine(expr, num_dims, num_syms)
        pure = is_pure_affine(expr)
    flattener = _Flattener(num_dims, num_syms)
    if not flattener.walk(expr):
        return expr
    row = flattener.stack[-1]
    if pure:
        return flat_to_expr(row, num_dims, num_syms, flattener.locals)
    if expr == flat_to_expr(row, num_dims, num_syms, flattener.locals):
        return expr
    return semi_flat_to_expr(row, num_dims, num_syms, flattener.locals)


def simplify_map(amap: AffineMap) -> AffineMap:
    return AffineMap(amap.num_dims, amap.num_symbols,
                     tuple(simplify_expr(e, amap.num_dims, amap.num_symbols) for e in amap.results))


# ---------------------------------------------------------------------------
# Constant folding
# ---------------------------------------------------------------------------


def _floordiv(a: int, b: int) -> int:
    return a // b


def _ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


def constant_fold_expr(expr: AffineExpr, dims: Sequence[int | None], syms: Sequence[int | None]) -> int | None:
    """The value of `expr` when every dim and symbol it uses is known; None otherwise (or poison)."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else None
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position] if expr.position < len(syms) else None
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = constant_fold_expr(expr.lhs, dims, syms)
        rhs = constant_fold_expr(expr.rhs, dims, syms)
        if lhs is None or rhs is None:
            return None
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case AffineBinaryOpKind.FloorDiv:
                return None if rhs == 0 else _floordiv(lhs, rhs)
            case AffineBinaryOpKind.CeilDiv:
                return None if rhs == 0 else _ceildiv(lhs, rhs)
            case AffineBinaryOpKind.Mod:
                return None if rhs < 1 else lhs % rhs
    return None


def operand_constants(amap: AffineMap, operands: Sequence[SSAValue]) -> tuple[list[int | None], list[int | None]]:
    values = [constant_int(v) for v in operands]
    return values[: amap.num_dims], values[amap.num_dims:]


def partial_constant_fold(amap: AffineMap, operands: Sequence[SSAValue]) -> tuple[AffineMap, list[int] | None]:
    """MLIR's `AffineMap::partialConstantFold`: constant results replaced, the others kept.

    Returns the new map and, when every result folded, their values.
    """
    dims, syms = operand_constants(amap, operands)
    exprs: list[AffineExpr] = []
    results: list[int] | None = []
    for e in amap.results:
        folded = constant_fold_expr(e, dims, syms)
        if folded is not None:
            exprs.append(const(folded))
            if results is not None:
                results.append(folded)
        else:
            exprs.append(e)
            results = None
    return AffineMap(amap.num_dims, amap.num_symbols, tuple(exprs)), results


# ---------------------------------------------------------------------------
# Affine scopes, valid dims and symbols
# ---------------------------------------------------------------------------


def is_affine_scope(op: Operation | None) -> bool:
    return op is not None and op.name in AFFINE_SCOPE_OPS


def affine_scope(op: Operation) -> Region | None:
    """The region of the nearest affine-scope ancestor holding `op` (MLIR's `getAffineScope`)."""
    current = op
    while (parent := current.parent_op()) is not None:
        if is_affine_scope(parent):
            return current.parent_region()
        current = parent
    return None


def _parent_region_of_value(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    if isinstance(value, OpResult):
        return value.op.parent_region()
    return None


def is_top_level_value(value: SSAValue, region: Region | None = None) -> bool:
    if region is not None:
        return _parent_region_of_value(value) is region
    if isinstance(value, BlockArgument):
        return is_affine_scope(value.block.parent_op())
    if isinstance(value, OpResult):
        return is_affine_scope(value.op.parent_op())
    return False


def _is_index(value: SSAValue) -> bool:
    return isinstance(value.type, IndexType)


def is_valid_symbol(value: SSAValue, region: Region | None = None, *, _scoped: bool = False) -> bool:
    """MLIR's `affine::isValidSymbol` (with or without an explicit scope region)."""
    if value is None or not _is_index(value):
        return False
    if not _scoped:
        if is_top_level_value(value):
            return True
        if isinstance(value, OpResult):
            return is_valid_symbol(value, affine_scope(value.op), _scoped=True)
        return False
    if region is not None and is_top_level_value(value, region):
        return True
    if isinstance(value, BlockArgument):
        region_op = region.parent_op() if region is not None else None
        if region_op is not None and not region_op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
            parent_region = region_op.parent_region()
            if parent_region is not None:
                return is_valid_symbol(value, parent_region, _scoped=True)
        return False
    assert isinstance(value, OpResult)
    op = value.op
    if constant_attr(value) is not None:
        return True
    from dfsched.passes.cleanup.effects import is_pure

    if is_pure(op) and all(is_valid_symbol(v, region, _scoped=True) for v in op.operands):
        return True
    if op.name == "memref.dim" or op.name == "tensor.dim":
        source = op.operands[0]
        return is_top_level_value(source, region) if region is not None else is_top_level_value(source)
    return False


def _is_affine_induction_var(value: SSAValue) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    owner = value.block.parent_op()
    return owner is not None and owner.name in ("affine.for", "affine.parallel") and value.index == 0


def is_valid_dim(value: SSAValue, region: Region | None = None, *, _scoped: bool = False) -> bool:
    """MLIR's `affine::isValidDim`."""
    if value is None or not _is_index(value):
        return False
    if not _scoped:
        if isinstance(value, OpResult):
            return is_valid_dim(value, affine_scope(value.op), _scoped=True)
        if _is_affine_induction_var(value):
            return True
        return isinstance(value, BlockArgument) and is_affine_scope(value.block.parent_op())
    if is_valid_symbol(value, region, _scoped=True):
        return True
    if not isinstance(value, OpResult):
        return _is_affine_induction_var(value)
    op = value.op
    if isinstance(op, xaffine.ApplyOp):
        return all(is_valid_dim(v, region, _scoped=True) for v in op.operands)
    if op.name in ("memref.dim", "tensor.dim"):
        return is_top_level_value(op.operands[0])
    return False


# ---------------------------------------------------------------------------
# Canonicalization and composition
# ---------------------------------------------------------------------------


def _canonicalize_promoted_symbols(amap: AffineMap, operands: list[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """Dims whose operand is a valid symbol become symbols."""
    result: list[SSAValue] = []
    remapped_syms: list[SSAValue] = []
    dim_remap: list[AffineExpr] = []
    next_dim = next_sym = 0
    old_syms = amap.num_symbols
    for i in range(amap.num_dims):
        if is_valid_symbol(operands[i]):
            dim_remap.append(AffineSymExpr(old_syms + next_sym))
            next_sym += 1
            remapped_syms.append(operands[i])
        else:
            dim_remap.append(AffineDimExpr(next_dim))
            next_dim += 1
            result.append(operands[i])
    result.extend(operands[amap.num_dims:])
    result.extend(remapped_syms)
    return map_replace_dims_and_symbols(amap, dim_remap, [], next_dim, old_syms + next_sym), result


def _legalize_demoted_dims(amap: AffineMap, operands: list[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """Symbols whose operand is a valid dim but not a valid symbol become dims."""
    old_dims = amap.num_dims
    result = list(operands[:old_dims])
    remapped_dims: list[SSAValue] = []
    sym_operands: list[SSAValue] = []
    sym_remap: list[AffineExpr] = []
    next_dim = next_sym = 0
    for i in range(old_dims, len(operands)):
        v = operands[i]
        if v is not None and is_valid_dim(v) and not is_valid_symbol(v):
            sym_remap.append(AffineDimExpr(old_dims + next_dim))
            next_dim += 1
            remapped_dims.append(v)
        else:
            sym_remap.append(AffineSymExpr(next_sym))
            next_sym += 1
            sym_operands.append(v)
    result.extend(remapped_dims)
    result.extend(sym_operands)
    return map_replace_dims_and_symbols(amap, [], sym_remap, old_dims + next_dim, next_sym), result


def canonicalize_map_and_operands(amap: AffineMap, operands: Sequence[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """MLIR's `canonicalizeMapAndOperands`: promote/demote, fold constant symbols, dedupe, drop unused."""
    operands = list(operands)
    if not operands:
        return amap, operands
    amap, operands = _canonicalize_promoted_symbols(amap, operands)
    amap, operands = _legalize_demoted_dims(amap, operands)
    used_dims = [False] * amap.num_dims
    used_syms = [False] * amap.num_symbols
    for e in amap.results:
        for sub in e.dfs():
            if isinstance(sub, AffineDimExpr):
                used_dims[sub.position] = True
            elif isinstance(sub, AffineSymExpr):
                used_syms[sub.position] = True
    num_dims = amap.num_dims
    dim_remap, dim_operands = _remap_operands(operands[:num_dims], used_dims, AffineDimExpr)
    sym_remap, sym_operands = _remap_operands(operands[num_dims:num_dims + amap.num_symbols], used_syms,
                                              AffineSymExpr, fold_constants=True)
    new_map = map_replace_dims_and_symbols(amap, dim_remap, sym_remap, len(dim_operands), len(sym_operands))
    return new_map, dim_operands + sym_operands


def _remap_operands(values: Sequence[SSAValue], used: Sequence[bool], make, fold_constants: bool = False
                    ) -> tuple[list[AffineExpr], list[SSAValue]]:
    """Renumber the used dims (or symbols) `values` stand for, one per distinct value (a
    constant symbol folded into the map with `fold_constants`); unused ones become 0."""
    remap: list[AffineExpr] = [const(0)] * len(values)
    kept: list[SSAValue] = []
    seen: dict[SSAValue, AffineExpr] = {}
    for i, v in enumerate(values):
        if not used[i]:
            continue
        if fold_constants and (value := constant_int(v)) is not None:
            remap[i] = const(value)
            continue
        if v not in seen:
            seen[v] = make(len(kept))
            kept.append(v)
        remap[i] = seen[v]
    return remap, kept


def _apply_of(value: SSAValue | None) -> xaffine.ApplyOp | None:
    if isinstance(value, OpResult) and isinstance(value.op, xaffine.ApplyOp):
        return value.op
    return None


def _replace_dim_or_sym(amap: AffineMap, pos: int, dims: list[SSAValue | None], syms: list[SSAValue | None]
                        ) -> AffineMap | None:
    is_dim = pos < len(dims)
    index = pos if is_dim else pos - len(dims)
    container = dims if is_dim else syms
    apply = _apply_of(container[index])
    if apply is None:
        return None
    container[index] = None
    compose_map, compose_operands = canonicalize_map_and_operands(apply.map.data, list(apply.mapOperands))
    replacement = shift_symbols(shift_dims(compose_map, len(dims)), len(syms)).results[0]
    compose_dims = compose_operands[: compose_map.num_dims]
    compose_syms = compose_operands[compose_map.num_dims:]
    to_replace = AffineDimExpr(index) if is_dim else AffineSymExpr(index)
    dims.extend(compose_dims)
    syms.extend(compose_syms)
    results = tuple(replace_expr(e, {to_replace: replacement}) for e in amap.results)
    return AffineMap(len(dims), len(syms), results)


def compose_map_and_operands(amap: AffineMap, operands: Sequence[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """MLIR's (static) `composeAffineMapAndOperands`: pull in every `affine.apply` feeding the map."""
    if not amap.results:
        amap, ops = canonicalize_map_and_operands(amap, operands)
        return simplify_map(amap), ops
    dims: list[SSAValue | None] = list(operands[: amap.num_dims])
    syms: list[SSAValue | None] = list(operands[amap.num_dims:])
    while True:
        changed = False
        pos = 0
        while pos != len(dims) + len(syms):
            new_map = _replace_dim_or_sym(amap, pos, dims, syms)
            if new_map is not None:
                amap = new_map
                changed = True
                break
            pos += 1
        if not changed:
            break
    def renumbered(values, make) -> tuple[list[AffineExpr], list[SSAValue]]:
        """0 for each dropped (None) value, the next new position for each kept one."""
        exprs: list[AffineExpr] = []
        kept: list[SSAValue] = []
        for v in values:
            exprs.append(const(0) if v is None else make(len(kept)))
            if v is not None:
                kept.append(v)
        return exprs, kept

    dim_repl, dim_operands = renumbered(dims, AffineDimExpr)
    sym_repl, sym_operands = renumbered(syms, AffineSymExpr)
    amap = map_replace_dims_and_symbols(amap, dim_repl, sym_repl, len(dim_operands), len(sym_operands))
    amap, new_operands = canonicalize_map_and_operands(amap, dim_operands + sym_operands)
    return simplify_map(amap), new_operands


def fully_compose_map_and_operands(amap: AffineMap, operands: Sequence[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """MLIR's `fullyComposeAffineMapAndOperands` (a no-op when no operand is an `affine.apply`)."""
    operands = list(operands)
    while any(_apply_of(v) is not None for v in operands):
        amap, operands = compose_map_and_operands(amap, operands)
    return amap, operands


def fold_apply(amap: AffineMap, operands: Sequence[SSAValue]) -> SSAValue | int | None:
    """`AffineApplyOp::fold`: a lone dim/symbol is its operand, an all-constant map its value."""
    expr = amap.results[0]
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[amap.num_dims + expr.position]
    dims, syms = operand_constants(amap, operands)
    return constant_fold_expr(expr, dims, syms)


def make_composed_folded_apply(amap: AffineMap, operands: Sequence[SSAValue]
                               ) -> tuple[AffineMap, list[SSAValue], int | SSAValue | None]:
    """MLIR's `makeComposedFoldedAffineApply` without building the op.

    Returns the composed map and operands, and what the apply folds to (an int, an existing
    value, or None when an `affine.apply` of the composed map must be built).
    """
    amap, operands = compose_map_and_operands(amap, operands)
    return amap, operands, fold_apply(amap, operands)


def demote_symbols_to_dims(amap: AffineMap, operands: Sequence[SSAValue]) -> tuple[AffineMap, list[SSAValue]]:
    """Turn every symbol into a trailing dim (for ops whose maps take dims only)."""
    if amap.num_symbols == 0:
        return amap, list(operands)
    syms = [AffineDimExpr(amap.num_dims + i) for i in range(amap.num_symbols)]
    return (map_replace_dims_and_symbols(amap, [], syms, amap.num_dims + amap.num_symbols, 0), list(operands))


