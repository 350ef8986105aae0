"""Reference semantics of the `spyreop` intrinsics, in numpy.

Every function takes numpy scalars or arrays and the `ElementType` of its result, works in
float64 and rounds once to the result type (`ElementType.cast`): the reference is the
exact value correctly rounded, not a model of the hardware's own precision (the real
`reciprocal`, for one, trades exactness for speed).

| op | semantics |
|---|---|
| `exp` | e^x |
| `gelu` | x * Phi(x) = x/2 * (1 + erf(x / sqrt 2))  (the exact form, not the tanh approximation) |
| `sigmoid` | 1 / (1 + e^-x) |
| `silu` | x * sigmoid(x) |
| `sqrt`, `rsqrt`, `reciprocal` | sqrt x, 1/sqrt x, 1/x |
| `realdiv` | a / b |
| `softplus` (beta, threshold) | x where beta*x > threshold, else log(1 + e^(beta*x)) / beta |
| `exx2` | (mean, mean of squares); on one element (x, x^2): a reduction `linalg.generic` whose body yields it averages over the reduced points (see `ktir.py`) |
| `exx2_fused` | the same pair as one fused value |
| `exx2_zeromean_fused` | (0, mean of squares) |
| `layernormscale` (mean, msq) | 1 / sqrt(msq - mean^2 + eps), eps = `LAYERNORM_EPS` |
| `layernormscale_fused` (pair) | the same from a fused (mean, msq) pair |
| `layernormnorm` (x, m, scale, w, b) | (x - m) * scale * w + b |
| `compare <pred>` (a, b) | 1.0 where the IEEE-ordered predicate holds, else 0.0 (NaN gives 0.0, `notequal` too) |
| `select` (c, t, f) | t where c != 0, else f |
| `constant` | the value attribute |
| `addi32toi32`, `addi64toi64`, `muli32toi32` | wrapping two's-complement add / multiply at 32 / 64 bits |
| `idx32toaddr` (i, base, stride) | base + stride * i, wrapping at 32 bits |
| `slice_reduction` (kind, scope) | the input with each slice's head (in_slice) or the first slice (across_slice) replaced by the reduction; needs the slice width, which upstream does not document (`slice_width=` option) |

`LAYERNORM_EPS` is an assumption: `spyreop.layernormscale` carries no epsilon, and the
frontend's reference fallback takes one from its caller (1e-5 in its example).
"""

from __future__ import annotations

import math

import numpy as np

from dfsched.interp.dtypes import ElementType

LAYERNORM_EPS = 1e-5

COMPARE_PREDICATES = ("equal", "notequal", "greaterthan", "greaterequal", "lesserthan", "lesserequal")
REDUCTION_KINDS = ("add", "sub", "max", "min", "mul", "abs_max")
REDUCTION_SCOPES = ("in_slice", "across_slice")


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64) if not np.iscomplexobj(x) else np.asarray(x, dtype=np.complex128)


def _out(value, et: ElementType):
    with np.errstate(all="ignore"):
        return et.cast(value)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def exp(x, et: ElementType):
    with np.errstate(all="ignore"):
        return _out(np.exp(_f(x)), et)


def gelu(x, et: ElementType):
    x = _f(x)
    with np.errstate(all="ignore"):
        return _out(0.5 * x * (1.0 + _erf(x / math.sqrt(2.0))), et)


def sigmoid(x, et: ElementType):
    x = _f(x)
    with np.errstate(all="ignore"):
        return _out(1.0 / (1.0 + np.exp(-x)), et)


def silu(x, et: ElementType):
    x = _f(x)
    with np.errstate(all="ignore"):
        return _out(x / (1.0 + np.exp(-x)), et)


def sqrt(x, et: ElementType):
    with np.errstate(all="ignore"):
        return _out(np.sqrt(_f(x)), et)


def rsqrt(x, et: ElementType):
    with np.errstate(all="ignore"):
        return _out(1.0 / np.sqrt(_f(x)), et)


def reciprocal(x, et: ElementType):
    with np.errstate(all="ignore"):
        return _out(1.0 / _f(x), et)


def realdiv(a, b, et: ElementType):
    with np.errstate(all="ignore"):
        return _out(_f(a) / _f(b), et)


def softplus(x, beta: float, threshold: float, et: ElementType):
    x = _f(x)
    with np.errstate(all="ignore"):
        bx = beta * x
        soft = np.log1p(np.exp(bx)) / beta
        return _out(np.where(bx > threshold, x, soft), et)


def exx2(x, et: ElementType):
    """(mean, mean of squares) of a single element."""
    x = _f(x)
    return _out(x, et), _out(x * x, et)


def exx2_fused(x, fused: ElementType):
    x = _f(x)
    return _out(x + 1j * (x * x), fused)


def exx2_zeromean_fused(x, fused: ElementType):
    x = _f(x)
    return _out(0.0 + 1j * (x * x), fused)


def layernormscale(mean, msq, et: ElementType, eps: float | None = None):
    eps = LAYERNORM_EPS if eps is None else eps
    m, q = _f(mean), _f(msq)
    with np.errstate(all="ignore"):
        return _out(1.0 / np.sqrt(q - m * m + eps), et)


def layernormscale_fused(pair, et: ElementType, eps: float | None = None):
    p = np.asarray(pair)
    return layernormscale(p.real, p.imag, et, eps)


def layernormnorm(x, mean, scale, weight, bias, et: ElementType):
    with np.errstate(all="ignore"):
        return _out((_f(x) - _f(mean)) * _f(scale) * _f(weight) + _f(bias), et)


def compare(predicate: str, a, b, et: ElementType):
    a, b = _f(a), _f(b)
    with np.errstate(all="ignore"):
        ordered = ~(np.isnan(a) | np.isnan(b))
        match predicate:
            case "equal":
                hold = a == b
            case "notequal":
                hold = a != b
            case "greaterthan":
                hold = a > b
            case "greaterequal":
                hold = a >= b
            case "lesserthan":
                hold = a < b
            case "lesserequal":
                hold = a <= b
            case _:
                raise ValueError(f"unknown compare predicate '{predicate}'")
    return _out(np.where(hold & ordered, 1.0, 0.0), et)


def select(cond, on_true, on_false, et: ElementType):
    c = _f(cond)
    return _out(np.where(c != 0, _f(on_true), _f(on_false)), et)


def _wrap(value, bits: int) -> np.ndarray:
    """Two's-complement wrap of int64 values to `bits` (<= 64) bits, kept as int64."""
    v = np.asarray(value, dtype=np.int64)
    if bits == 64:
        return v
    shift = np.int64(64 - bits)
    return (v << shift) >> shift


def addi(a, b, bits: int):
    with np.errstate(over="ignore"):
        return _wrap(np.asarray(a, dtype=np.int64) + np.asarray(b, dtype=np.int64), bits)


def muli(a, b, bits: int):
    with np.errstate(over="ignore"):
        return _wrap(np.asarray(a, dtype=np.int64) * np.asarray(b, dtype=np.int64), bits)


def idx32toaddr(index, base, stride):
    with np.errstate(over="ignore"):
        i = np.asarray(index, dtype=np.int64)
        return _wrap(np.asarray(base, dtype=np.int64) + np.asarray(stride, dtype=np.int64) * i, 32)


def _reduce(kind: str, parts: np.ndarray, axis: int) -> np.ndarray:
    """Reduce `parts` along `axis` in order (first element first)."""
    match kind:
        case "add":
            return parts.sum(axis=axis)
        case "sub":
            first = np.take(parts, 0, axis=axis)
            rest = np.take(parts, range(1, parts.shape[axis]), axis=axis).sum(axis=axis)
            return first - rest
        case "max":
            return parts.max(axis=axis)
        case "min":
            return parts.min(axis=axis)
        case "mul":
            return parts.prod(axis=axis)
        case "abs_max":
            return np.abs(parts).max(axis=axis)
    raise ValueError(f"unknown reduction kind '{kind}'")


def slice_reduction(x, kind: str, scope: str, slice_width: int, et: ElementType):
    """Slices are consecutive runs of `slice_width` elements along the last axis."""
    v = _f(x)
    n = v.shape[-1]
    if slice_width <= 0 or n % slice_width:
        raise ValueError(f"slice width {slice_width} does not divide the row length {n}")
    slices = v.reshape(v.shape[:-1] + (n // slice_width, slice_width))
    out = slices.copy()
    with np.errstate(all="ignore"):
        if scope == "in_slice":
            out[..., 0] = _reduce(kind, slices, axis=-1)
        elif scope == "across_slice":
            out[..., 0, :] = _reduce(kind, slices, axis=-2)
        else:
            raise ValueError(f"unknown reduction scope '{scope}'")
    return _out(out.reshape(v.shape), et)
