"""Value bounds: the smallest and largest value an integer or index value can take.

One interval analysis for every pass that sizes something: `address-assignment` bounds dynamic
allocation sizes, `tile-size-selection` bounds buffer dimensions with its candidate tile sizes
in place of the `ktdf.tiling.reserve_size` placeholders (`env`).

A `Range` is closed, `(low, high)`; either end is None when nothing bounds it. Known: constants,
placeholders of `env`, compute tile ids (within the kernel's `grid`), `scf.for` induction variables (over their bounds), `ktdf.parallel`
induction variables and instance ids, `arith` integer ops, `affine.apply/min/max`,
`ktdf.tiling.derive_size` (at most its last tile size and its total) and
`ktdf.tiling.linearize_index`. Anything else, and loop-carried cycles, are unbounded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr
from xdsl.ir.affine import AffineExpr, AffineSymExpr

from dfsched.dialects import ktdf
from dfsched.dialects.constants import constant_int

Range = tuple[int | None, int | None]
UNBOUNDED: Range = (None, None)


def value_bounds(value: SSAValue, env: dict[Operation, int] | None = None) -> Range:
    """Closed bounds of `value`, with the placeholder sizes of `env` in place."""
    return ValueBounds(env or {}).of(value)


def known_bounds(value: SSAValue, env: dict[Operation, int] | None = None) -> tuple[int, int] | None:
    """`value_bounds` when both ends are known, else None (what the tile cost model asks)."""
    low, high = value_bounds(value, env)
    return None if low is None or high is None else (low, high)


def upper_bound(value: SSAValue, env: dict[Operation, int] | None = None) -> int | None:
    """A constant closed upper bound of `value`, if one can be shown."""
    return value_bounds(value, env)[1]


class ValueBounds:
    """Memoized bounds; a value met again while it is being computed (a cycle) is unbounded."""

    def __init__(self, env: dict[Operation, int]):
        self.env = env
        self.memo: dict[SSAValue, Range] = {}

    def of(self, value: SSAValue) -> Range:
        if value in self.memo:
            return self.memo[value]
        self.memo[value] = UNBOUNDED
        result = self._compute(value)
        self.memo[value] = result
        return result

    def _compute(self, value: SSAValue) -> Range:
        constant = constant_int(value)
        if constant is not None:
            return (constant, constant)
        if isinstance(value, BlockArgument):
            return self._block_argument(value)
        if not isinstance(value, OpResult):
            return UNBOUNDED
        op = value.op
        if isinstance(op, ktdf.TilingReserveSizeOp):
            size = self.env.get(op)
            return UNBOUNDED if size is None else (size, size)
        if op.name == "ktdp.get_compute_tile_id":
            return _tile_id(value)
        handler = _HANDLERS.get(op.name)
        return UNBOUNDED if handler is None else handler(self, op)

    def _block_argument(self, arg: BlockArgument) -> Range:
        owner = arg.block.parent_op()
        if isinstance(owner, scf.ForOp) and arg.index == 0:
            return _loop_range(self.of(owner.lb), self.of(owner.ub))
        if isinstance(owner, ktdf.ParallelOp):
            if arg.index < len(owner.induction_vars):
                return _loop_range(self.of(owner.lower_bounds[arg.index]), self.of(owner.upper_bounds[arg.index]))
            return (0, max(0, owner.num_instances.value.data - 1))
        return UNBOUNDED

    def operands(self, op: Operation) -> list[Range]:
        return [self.of(v) for v in op.operands]

    def affine_results(self, op: Operation) -> list[Range]:
        amap = op.properties["map"].data if "map" in op.properties else op.attributes["map"].data  # type: ignore[attr-defined]
        bounds = self.operands(op)
        dims, symbols = bounds[: amap.num_dims], bounds[amap.num_dims:]
        return [expr_bounds(e, dims, symbols) for e in amap.results]


# ---------------------------------------------------------------------------
# Interval arithmetic on ranges with open ends
# ---------------------------------------------------------------------------


def _known(*ranges: Range) -> bool:
    return all(end is not None for r in ranges for end in r)


def _loop_range(lb: Range, ub: Range) -> Range:
    """An induction variable over [lb, ub): at most ub - 1, and never below lb."""
    low, high = lb[0], None if ub[1] is None else ub[1] - 1
    if low is not None and high is not None:
        high = max(low, high)
    return (low, high)


def _add(a: Range, b: Range) -> Range:
    return (None if a[0] is None or b[0] is None else a[0] + b[0],
            None if a[1] is None or b[1] is None else a[1] + b[1])


def _neg(a: Range) -> Range:
    return (None if a[1] is None else -a[1], None if a[0] is None else -a[0])


def _sub(a: Range, b: Range) -> Range:
    return _add(a, _neg(b))


def _corners(a: Range, b: Range, f: Callable[[int, int], int]) -> Range:
    values = [f(x, y) for x in a for y in b]  # type: ignore[arg-type]
    return (min(values), max(values))


def _mul(a: Range, b: Range) -> Range:
    if not _known(a, b):
        return (0, 0) if a == (0, 0) or b == (0, 0) else UNBOUNDED
    return _corners(a, b, lambda x, y: x * y)


def _divide(a: Range, b: Range, quotient: Callable[[int, int], int]) -> Range:
    """Division by a positive divisor: end by end for a constant one, else at the corners."""
    if b[0] is None or b[0] <= 0:
        return UNBOUNDED
    if b[0] == b[1]:
        return tuple(None if x is None else quotient(x, b[0]) for x in a)  # type: ignore[return-value]
    return _corners(a, b, quotient) if _known(a, b) else UNBOUNDED


def _floordiv(a: Range, b: Range) -> Range:
    return _divide(a, b, lambda x, y: x // y)


def _ceildiv(a: Range, b: Range) -> Range:
    return _divide(a, b, lambda x, y: -((-x) // y))


def _truncdiv(a: Range, b: Range) -> Range:
    return _divide(a, b, lambda x, y: int(x / y) if abs(x) < 2**52 else x // y)


def _rem(a: Range, b: Range) -> Range:
    """A signed remainder by a positive divisor; non-negative when the dividend is."""
    if b[0] is None or b[0] <= 0 or b[1] is None:
        return UNBOUNDED
    if a[0] is not None and a[0] >= 0 and a[0] == a[1] and b[0] == b[1]:
        return (a[0] % b[0], a[0] % b[0])
    largest = b[1] - 1
    if a[0] is not None and a[0] >= 0:
        return (0, largest if a[1] is None else min(a[1], largest))
    return (-largest, largest)


def _mod(a: Range, b: Range) -> Range:
    """Affine `mod` (never negative) by a positive divisor."""
    if b[0] is None or b[0] <= 0 or b[1] is None:
        return UNBOUNDED
    if a[0] is not None and a[0] == a[1] and b[0] == b[1]:
        return (a[0] % b[0], a[0] % b[0])
    largest = b[1] - 1
    if a[0] is not None and a[0] >= 0 and a[1] is not None:
        return (0, min(a[1], largest))
    return (0, largest)


def _min(ranges: Sequence[Range]) -> Range:
    lows = [r[0] for r in ranges]
    highs = [r[1] for r in ranges if r[1] is not None]
    return (None if None in lows else min(lows), min(highs) if highs else None)  # type: ignore[type-var]


def _max(ranges: Sequence[Range]) -> Range:
    lows = [r[0] for r in ranges if r[0] is not None]
    highs = [r[1] for r in ranges]
    return (max(lows) if lows else None, None if None in highs else max(highs))  # type: ignore[type-var]


_AFFINE: dict[AffineBinaryOpKind, Callable[[Range, Range], Range]] = {
    AffineBinaryOpKind.Add: _add,
    AffineBinaryOpKind.Mul: _mul,
    AffineBinaryOpKind.FloorDiv: _floordiv,
    AffineBinaryOpKind.CeilDiv: _ceildiv,
    AffineBinaryOpKind.Mod: _mod,
}


def expr_bounds(expr: AffineExpr, dims: Sequence[Range], symbols: Sequence[Range]) -> Range:
    """Interval evaluation of an affine expression."""
    if isinstance(expr, AffineConstantExpr):
        return (expr.value, expr.value)
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else UNBOUNDED
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position] if expr.position < len(symbols) else UNBOUNDED
    if isinstance(expr, AffineBinaryOpExpr):
        return _AFFINE[expr.kind](expr_bounds(expr.lhs, dims, symbols), expr_bounds(expr.rhs, dims, symbols))
    return UNBOUNDED


# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------


def _binary(combine: Callable[[Range, Range], Range]) -> Callable[[ValueBounds, Operation], Range]:
    return lambda bounds, op: combine(*bounds.operands(op)[:2])


def _derive_size(bounds: ValueBounds, op: Operation) -> Range:
    tile = bounds.of(op.tile_sizes[-1]) if op.tile_sizes else UNBOUNDED  # type: ignore[attr-defined]
    highs = [b[1] for b in (tile, bounds.of(op.total_size)) if b[1] is not None]  # type: ignore[attr-defined]
    return (0, max(0, min(highs)) if highs else None)


def _linearize_index(bounds: ValueBounds, op: Operation) -> Range:
    result: Range = (0, 0)
    for iv, stride in zip(op.ivs, op.strides):  # type: ignore[attr-defined]
        result = _add(result, _mul(bounds.of(iv), bounds.of(stride)))
    return result


def _tile_id(value: OpResult) -> Range:
    """A compute tile id along one grid dimension: 0 to that extent of the kernel's `grid`, less one."""
    parent = value.op.parent_op()
    while parent is not None and "grid" not in parent.attributes:
        parent = parent.parent_op()
    grid = getattr(parent.attributes["grid"], "data", ()) if parent is not None else ()
    extent = grid[value.index] if value.index < len(grid) else None
    if not isinstance(extent, IntegerAttr) or extent.value.data <= 0:
        return UNBOUNDED
    return (0, extent.value.data - 1)


def _select(bounds: ValueBounds, op: Operation) -> Range:
    a, b = bounds.of(op.operands[1]), bounds.of(op.operands[2])
    return (None if a[0] is None or b[0] is None else min(a[0], b[0]),
            None if a[1] is None or b[1] is None else max(a[1], b[1]))


_HANDLERS: dict[str, Callable[[ValueBounds, Operation], Range]] = {
    "affine.apply": lambda bounds, op: bounds.affine_results(op)[0],
    "affine.min": lambda bounds, op: _min(bounds.affine_results(op)),
    "affine.max": lambda bounds, op: _max(bounds.affine_results(op)),
    "arith.addi": _binary(_add),
    "arith.subi": _binary(_sub),
    "arith.muli": _binary(_mul),
    "arith.minsi": _binary(lambda a, b: _min([a, b])),
    "arith.minui": _binary(lambda a, b: _min([a, b])),
    "arith.maxsi": _binary(lambda a, b: _max([a, b])),
    "arith.maxui": _binary(lambda a, b: _max([a, b])),
    "arith.divui": _binary(_floordiv),
    "arith.floordivsi": _binary(_floordiv),
    "arith.divsi": _binary(_truncdiv),
    "arith.ceildivsi": _binary(_ceildiv),
    "arith.ceildivui": _binary(_ceildiv),
    "arith.remui": _binary(_rem),
    "arith.remsi": _binary(_rem),
    "arith.index_cast": lambda bounds, op: bounds.of(op.operands[0]),
    "arith.select": _select,
    "ktdf.tiling.derive_size": _derive_size,
    "ktdf.tiling.linearize_index": _linearize_index,
}
