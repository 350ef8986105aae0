"""Integer sets and affine maps at run time: bounding boxes, enumeration, permutations.

`box(set, symbols)` bounds every dimension of an integer set by interval propagation
over its linear constraints (`d0 - d1 >= 0` bounds d0 from d1's bounds, and so on);
`points(set, symbols, box)` enumerates the box and says which points satisfy every
constraint, non-linear ones (`mod`, `floordiv`) included.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)

from dfsched.interp.memory import eval_set


def linear_form(expr: AffineExpr, num_dims: int, symbols: list[int]) -> tuple[list[int], int] | None:
    """`expr` as (coefficient per dim, constant) with symbols substituted; None if not linear."""
    if isinstance(expr, AffineConstantExpr):
        return [0] * num_dims, expr.value
    if isinstance(expr, AffineDimExpr):
        coeffs = [0] * num_dims
        coeffs[expr.position] = 1
        return coeffs, 0
    if isinstance(expr, AffineSymExpr):
        return [0] * num_dims, symbols[expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = linear_form(expr.lhs, num_dims, symbols)
        rhs = linear_form(expr.rhs, num_dims, symbols)
        if lhs is None or rhs is None:
            return None
        lc, lk = lhs
        rc, rk = rhs
        lconst, rconst = not any(lc), not any(rc)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return [a + b for a, b in zip(lc, rc)], lk + rk
            case AffineBinaryOpKind.Mul:
                if rconst:
                    return [a * rk for a in lc], lk * rk
                if lconst:
                    return [b * lk for b in rc], lk * rk
                return None
            case AffineBinaryOpKind.Mod if lconst and rconst and rk:
                return [0] * num_dims, lk % rk
            case AffineBinaryOpKind.FloorDiv if lconst and rconst and rk:
                return [0] * num_dims, lk // rk
            case AffineBinaryOpKind.CeilDiv if lconst and rconst and rk:
                return [0] * num_dims, -(-lk // rk)
    return None


def box(s: AffineSet, symbols: list[int]) -> list[tuple[int | None, int | None]]:
    """Inclusive [lo, hi] per dimension (None where the linear constraints give no bound)."""
    n = s.num_dims
    lo: list[float] = [-math.inf] * n
    hi: list[float] = [math.inf] * n
    rows: list[tuple[list[int], int, bool]] = []  # (coeffs, const, is_equality): coeffs.d + const (>= | ==) 0
    for c in s.constraints:
        form_l = linear_form(c.lhs, n, symbols)
        form_r = linear_form(c.rhs, n, symbols)
        if form_l is None or form_r is None:
            continue
        coeffs = [a - b for a, b in zip(form_l[0], form_r[0])]
        const = form_l[1] - form_r[1]
        kind = c.kind.value
        if kind == "<=":
            coeffs, const = [-a for a in coeffs], -const
        rows.append((coeffs, const, kind == "=="))
    for _ in range(n + 2):
        changed = False
        for coeffs, const, eq in rows:
            variants = [(coeffs, const)] + ([([-a for a in coeffs], -const)] if eq else [])
            for cs, k in variants:
                for j, cj in enumerate(cs):
                    if cj == 0:
                        continue
                    rest_max: float = k
                    for i, ci in enumerate(cs):
                        if i == j or ci == 0:
                            continue
                        rest_max += ci * (hi[i] if ci > 0 else lo[i])
                    if math.isinf(rest_max):
                        continue
                    # cj * dj >= -rest_max
                    if cj > 0:
                        bound = math.ceil(-rest_max / cj)
                        if bound > lo[j]:
                            lo[j], changed = bound, True
                    else:
                        bound = math.floor(rest_max / -cj)
                        if bound < hi[j]:
                            hi[j], changed = bound, True
        if not changed:
            break
    return [
        (None if math.isinf(a) else int(a), None if math.isinf(b) else int(b)) for a, b in zip(lo, hi)
    ]


def points(s: AffineSet, symbols: list[int], bounds: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """All points of the box `bounds` (shape = extents + (dims,)) and their membership in `s`."""
    extents = [max(0, b - a + 1) for a, b in bounds]
    grid = np.indices(extents, dtype=np.int64)
    pts = np.moveaxis(grid, 0, -1) + np.asarray([a for a, _ in bounds], dtype=np.int64)
    if pts.size == 0:
        return pts.reshape(tuple(extents) + (len(bounds),)), np.zeros(extents, dtype=bool)
    return pts, eval_set(s, pts, tuple(symbols))


def permutation(order: AffineMap) -> list[int] | None:
    """`order` as a permutation (result k is dim perm[k]), or None if it is not one."""
    perm = []
    for r in order.results:
        if not isinstance(r, AffineDimExpr):
            return None
        perm.append(r.position)
    if sorted(perm) != list(range(order.num_dims)):
        return None
    return perm
