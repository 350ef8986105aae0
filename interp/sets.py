"""Integer sets and affine maps at run time: THE affine evaluator of the three interpreters.

`compiled_map(map)` is `map.eval` compiled to a Python function (ints or numpy arrays alike);
`eval_map_rows(map, points, symbols)` and `eval_set(set, points, symbols)` evaluate a map or a
set's membership on many points at once with it. `box(set, symbols)` bounds every dimension
of an integer set by interval propagation over its linear constraints (`d0 - d1 >= 0` bounds d0
from d1's bounds, and so on); `points(set, symbols, box)` enumerates the box and says which
points satisfy every constraint, non-linear ones (`mod`, `floordiv`) included.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir.affine import (AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr,
                            AffineMap, AffineSet, AffineSymExpr)



# ---------------------------------------------------------------------------------------
# affine maps compiled to Python
# ---------------------------------------------------------------------------------------


def _affine_source(expr, kinds) -> str:
    if isinstance(expr, AffineConstantExpr):
        return f"({int(expr.value)})"
    if isinstance(expr, AffineDimExpr):
        return f"d[{int(expr.position)}]"
    if isinstance(expr, AffineSymExpr):
        return f"s[{int(expr.position)}]"
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = _affine_source(expr.lhs, kinds), _affine_source(expr.rhs, kinds)
        kind = kinds.get(expr.kind)
        if kind == "ceildiv":
            return f"(-((-{lhs}) // {rhs}))"
        if kind is not None:
            return f"({lhs} {kind} {rhs})"
    raise ValueError("Unreachable")


_COMPILED_MAPS: dict[Any, Callable[..., tuple]] = {}


def compiled_map(amap, checked: bool = True) -> Callable[[Any, Any], tuple]:
    """`amap.eval` as a Python function `(dims, symbols) -> tuple`: the same operations in the
    same order (ints or numpy arrays alike), the same length assertions (`checked=False`: none,
    as evaluating each of `amap.results` on its own), without walking the expression tree
    each time."""
    fn = _COMPILED_MAPS.get((amap, checked))
    if fn is not None:
        return fn
    from xdsl.ir.affine import AffineBinaryOpKind

    kinds = {
        AffineBinaryOpKind.Add: "+",
        AffineBinaryOpKind.Mul: "*",
        AffineBinaryOpKind.Mod: "%",
        AffineBinaryOpKind.FloorDiv: "//",
        AffineBinaryOpKind.CeilDiv: "ceildiv",
    }
    try:
        body = ", ".join(_affine_source(e, kinds) for e in amap.results)
    except (ValueError, AttributeError, RecursionError):
        return amap.eval if checked else (lambda d, s: tuple(e.eval(d, s) for e in amap.results))
    nd, ns = int(amap.num_dims), int(amap.num_symbols)
    source = "def evaluate(d, s):\n"
    if checked:
        source += (
            f"    assert len(d) == {nd}, f\"{{len(d)}}, {nd}\"\n"
            f"    assert len(s) == {ns}, f\"{{len(s)}}, {ns}\"\n"
        )
    source += f"    return ({body}{',' if amap.results else ''})\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<affine map {amap}>", "exec"), namespace)  # noqa: S102 - generated from the map
    fn = namespace["evaluate"]
    if len(_COMPILED_MAPS) > 4096:
        _COMPILED_MAPS.clear()
    _COMPILED_MAPS[(amap, checked)] = fn
    return fn


def eval_map_rows(amap: AffineMap, points: np.ndarray, symbols: list[int]) -> np.ndarray:
    """`amap` on each row of `points` (shape (n, dims)) -> (n, results); missing symbols are 0."""
    n = points.shape[0]
    if not amap.results:
        return np.zeros((n, 0), dtype=np.int64)
    dims = [points[:, k] for k in range(points.shape[1])]
    syms = list(symbols[: amap.num_symbols]) + [0] * max(0, amap.num_symbols - len(symbols))
    values = compiled_map(amap, checked=False)(dims, syms)
    return np.stack([np.broadcast_to(np.asarray(v, dtype=np.int64), (n,)) for v in values], axis=1)


_SET_MAPS: dict[AffineSet, tuple[AffineMap, tuple[str, ...]]] = {}


def eval_set(s: AffineSet, coords: np.ndarray, symbols: tuple[int, ...]) -> np.ndarray:
    """Membership of each point (last axis = dims) in the integer set `s`."""
    found = _SET_MAPS.get(s)
    if found is None:
        exprs = tuple(c.lhs - c.rhs for c in s.constraints)
        found = (AffineMap(s.num_dims, s.num_symbols, exprs), tuple(c.kind.value for c in s.constraints))
        if len(_SET_MAPS) > 4096:
            _SET_MAPS.clear()
        _SET_MAPS[s] = found
    amap, kinds = found
    dims = [coords[..., k] for k in range(coords.shape[-1])]
    ok = np.ones(coords.shape[:-1], dtype=bool)
    if not kinds:
        return ok
    for v, kind in zip(compiled_map(amap, checked=False)(dims, list(symbols)), kinds):
        v = np.asarray(v)
        if kind == ">=":
            ok &= v >= 0
        elif kind == "<=":
            ok &= v <= 0
        else:
            ok &= v == 0
    return ok


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
