"""Implementations of the upstream dialects a KTIR kernel uses: arith, math, scf, func, tensor.

Every scalar op works on Python/numpy scalars and, inside vectorised `linalg.generic`
bodies, on numpy arrays; tensor-typed arith/math ops work elementwise on whole arrays.
Float arithmetic happens in the operands' own dtype (f16 in numpy float16, which rounds
every operation correctly); math functions are evaluated in float64 and rounded once.
xDSL's own `scf` and `func` implementations are reused, with `scf.if`/`scf.for`/
`scf.while` refusing array conditions (`NeedsScalar`) so a vectorised body can fall back.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, ShapedType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions

from dfsched.diagnostics import DiagnosticError
from dfsched.interp.base import (
    DYNAMIC,
    NeedsScalar,
    functions_for,
    is_array,
    operand_values,
    per_op,
    static_or_dynamic,
    to_python,
)
from dfsched.interp.dtypes import element_type, int_width


def _any_array(args) -> bool:
    return any(isinstance(a, np.ndarray) for a in args)


def _result(op, value) -> PythonValues:
    return (to_python(value, op.results[0].type),)


# ---------------------------------------------------------------------------------------
# integers
# ---------------------------------------------------------------------------------------


def _signed(x, width: int) -> np.ndarray:
    """int64 array holding `x` read as a signed `width`-bit integer."""
    a = np.asarray(x).astype(np.int64)
    if width >= 64:
        return a
    shift = np.int64(64 - width)
    return (a << shift) >> shift


def _unsigned(x, width: int) -> np.ndarray:
    """uint64 array holding `x` read as an unsigned `width`-bit integer."""
    a = np.asarray(x).astype(np.int64).astype(np.uint64)
    if width >= 64:
        return a
    return a & np.uint64((1 << width) - 1)


def _int_out(op, value, width: int):
    """Wrap an int64/uint64 result to `width` bits and give it the result's representation."""
    arr = np.asarray(value)
    bits = arr.view(np.int64) if arr.dtype == np.uint64 else arr.astype(np.int64)
    wrapped = _signed(bits, width)
    if width == 1:
        wrapped = wrapped != 0
    return _result(op, wrapped)


def _check_nonzero(b) -> None:
    if np.any(np.asarray(b) == 0):
        raise ValueError("integer division by zero")


_I64_MIN, _I64_END = -(1 << 63), 1 << 63


def _wrap(value: int, width: int) -> int:
    """`value` read as a signed `width`-bit integer (its low `width` bits, sign-extended)."""
    low = value & ((1 << width) - 1)
    return low - (1 << width) if low >> (width - 1) else low


def _int_scalar(kind: str, a: int, b: int, width: int) -> int | None:
    """The exact result `_int_binary` computes for two Python ints (before wrapping to
    `width`), without numpy; None where int64 arithmetic could overflow on the way (the
    numpy path decides then) or for the shifts."""
    if not (_I64_MIN <= a < _I64_END and _I64_MIN <= b < _I64_END):
        return None
    if kind in ("divu", "remu", "ceildivu", "maxu", "minu"):
        mask = (1 << width) - 1
        x, y = a & mask, b & mask
        if kind == "maxu":
            return max(x, y)
        if kind == "minu":
            return min(x, y)
        if y == 0:
            raise ValueError("integer division by zero")
        if kind == "divu":
            return x // y
        if kind == "remu":
            return x % y
        return x // y + (1 if x % y else 0)
    x, y = _wrap(a, width), _wrap(b, width)
    match kind:
        case "add":
            return x + y
        case "sub":
            return x - y
        case "mul":
            return x * y
        case "maxs":
            return max(x, y)
        case "mins":
            return min(x, y)
        case "and":
            return x & y
        case "or":
            return x | y
        case "xor":
            return x ^ y
        case "divs" | "rems" | "floordivs" | "ceildivs":
            if y == 0:
                raise ValueError("integer division by zero")
            if x == _I64_MIN or y == _I64_MIN:
                return None
            if kind == "floordivs":
                return x // y
            if kind == "ceildivs":
                return -((-x) // y)
            q = abs(x) // abs(y)
            if (x < 0) != (y < 0):
                q = -q
            return q if kind == "divs" else x - q * y
    return None


def _result_width(op) -> int:
    return int_width(op.results[0].type)


def _result_element_type(op):
    return element_type(op.results[0].type)


def _truncated_quotient(x, y):
    q = np.abs(x) // np.abs(y)
    return np.where((x < 0) != (y < 0), -q, q)


# Integer divisions on arrays (divisor checked non-zero; signed or unsigned by the name's end).
_DIVISIONS = {
    "divs": _truncated_quotient,
    "rems": lambda x, y: x - _truncated_quotient(x, y) * y,
    "floordivs": lambda x, y: x // y,
    "ceildivs": lambda x, y: -((-x) // y),
    "divu": lambda x, y: x // y,
    "remu": lambda x, y: x % y,
    "ceildivu": lambda x, y: x // y + (x % y != 0).astype(np.uint64),
}


def _int_binary(kind: str):
    def run(self, interpreter: Interpreter, op, args: PythonValues) -> PythonValues:
        width = per_op(interpreter, op, _result_width)
        a, b = args
        if type(a) is int and type(b) is int and width > 1:
            r = _int_scalar(kind, a, b, width)
            if r is not None:
                return (_wrap(r, width),)
        with np.errstate(all="ignore"):
            match kind:
                case "add":
                    r = _signed(a, width) + _signed(b, width)
                case "sub":
                    r = _signed(a, width) - _signed(b, width)
                case "mul":
                    r = _signed(a, width) * _signed(b, width)
                case "divs" | "rems" | "floordivs" | "ceildivs" | "divu" | "remu" | "ceildivu":
                    convert = _unsigned if kind.endswith("u") else _signed
                    x, y = convert(a, width), convert(b, width)
                    _check_nonzero(y)
                    r = _DIVISIONS[kind](x, y)
                case "maxs":
                    r = np.maximum(_signed(a, width), _signed(b, width))
                case "mins":
                    r = np.minimum(_signed(a, width), _signed(b, width))
                case "maxu":
                    r = np.maximum(_unsigned(a, width), _unsigned(b, width))
                case "minu":
                    r = np.minimum(_unsigned(a, width), _unsigned(b, width))
                case "and":
                    r = _signed(a, width) & _signed(b, width)
                case "or":
                    r = _signed(a, width) | _signed(b, width)
                case "xor":
                    r = _signed(a, width) ^ _signed(b, width)
                case "shl":
                    s = _unsigned(b, width)
                    r = np.where(s >= width, 0, _unsigned(a, width) << np.minimum(s, 63))
                case "shrs":
                    s = _unsigned(b, width).astype(np.int64)
                    x = _signed(a, width)
                    r = np.where(s >= width, np.where(x < 0, -1, 0), x >> np.minimum(s, 63))
                case "shru":
                    s = _unsigned(b, width)
                    r = np.where(s >= width, 0, _unsigned(a, width) >> np.minimum(s, 63))
                case _:
                    raise AssertionError(kind)
        return _int_out(op, r, width)

    return run


CMPI_PREDICATES = _CMPI = {0: "eq", 1: "ne", 2: "slt", 3: "sle", 4: "sgt", 5: "sge", 6: "ult", 7: "ule", 8: "ugt", 9: "uge"}


def _cmpi_facts(op) -> tuple[int, str]:
    return int_width(op.lhs.type), _CMPI[op.predicate.value.data]


def int_scalar_binary(kind: str, a: int, b: int, width: int) -> int | None:
    """`arith.<kind>i` (add, sub, mul, ...) of two Python ints as `width`-bit integers, wrapped;
    None where only the numpy path decides (`_int_scalar`)."""
    r = _int_scalar(kind, a, b, width)
    return None if r is None else _wrap(r, width)


def cmpi_scalar(pred: str, a: int, b: int, width: int) -> bool | None:
    """`arith.cmpi <pred>` of two Python ints as `width`-bit integers (loop bookkeeping): what
    the numpy path of `_run_cmpi` gives, without numpy; None outside int64."""
    if not (_I64_MIN <= a < _I64_END and _I64_MIN <= b < _I64_END):
        return None
    if pred[0] == "u":
        mask = (1 << width) - 1
        a, b = a & mask, b & mask
    else:
        a, b = _wrap(a, width), _wrap(b, width)
    return {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b,
            "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b}[pred]


def _run_cmpi(self, interpreter, op: arith.CmpiOp, args):
    width, pred = per_op(interpreter, op, _cmpi_facts)
    a, b = args
    if type(a) is int and type(b) is int:
        r = cmpi_scalar(pred, a, b, width)
        if r is not None:
            return (r,)  # an i1 result: to_python gives the bool
    conv = _unsigned if pred[0] == "u" else _signed
    a, b = conv(args[0], width), conv(args[1], width)
    r = {
        "eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b,
        "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
    }[pred]
    return _result(op, r)


# ---------------------------------------------------------------------------------------
# floats
# ---------------------------------------------------------------------------------------


def widened(interpreter, et):
    """The accumulation type a reduction body runs in (`State.widen`), when it is wider than
    the op's float type `et`; else None (the op computes in its own type)."""
    wide = getattr(getattr(interpreter, "state", None), "widen", None)
    if wide is None or et.kind != "float" or et.bits >= wide.bits:
        return None
    return wide


def _float_result(interpreter, op, et, compute, args):
    """`compute(*args)` rounded to the result type `et`, or kept in the accumulation type
    inside a reduction body (see `widened`)."""
    # (the engines run under np.errstate(all="ignore"): overflow to inf is the semantics)
    wide = widened(interpreter, et)
    if wide is None:
        return _result(op, et.cast(compute(*(np.asarray(a) for a in args))))
    r = np.asarray(compute(*(np.asarray(a).astype(wide.dtype) for a in args))).astype(wide.dtype)
    return (r if r.ndim else wide.dtype.type(r),)


def _float_binary(fn):
    def run(self, interpreter, op, args):
        et = per_op(interpreter, op, _result_element_type)
        return _float_result(interpreter, op, et, fn, args)

    return run


def _maximumf(a, b):
    r = np.maximum(a, b)
    both_zero = (a == 0) & (b == 0)
    return np.where(both_zero, np.where(np.signbit(a) & np.signbit(b), a, np.abs(a)), r)


def _minimumf(a, b):
    r = np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    return np.where(both_zero, np.where(np.signbit(a) | np.signbit(b), -np.abs(a), a), r)


def _run_negf(self, interpreter, op, args):
    return _float_result(interpreter, op, per_op(interpreter, op, _result_element_type), np.negative, args)


# predicates in xDSL's enumeration order
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]


def _run_cmpf(self, interpreter, op: arith.CmpfOp, args):
    a = np.asarray(args[0]).astype(np.float64)
    b = np.asarray(args[1]).astype(np.float64)
    pred = _CMPF[op.predicate.value.data]
    unordered = np.isnan(a) | np.isnan(b)
    with np.errstate(all="ignore"):
        base = {
            "eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b, "ne": a != b,
        }
    match pred:
        case "false":
            r = np.zeros(np.broadcast(a, b).shape, bool)
        case "true":
            r = np.ones(np.broadcast(a, b).shape, bool)
        case "ord":
            r = ~unordered
        case "uno":
            r = unordered
        case _:
            cmp = base[pred[1:]]
            r = (cmp & ~unordered) if pred[0] == "o" else (cmp | unordered)
    return _result(op, r)


def _run_select(self, interpreter, op: arith.SelectOp, args):
    cond, t, f = args
    if not isinstance(cond, np.ndarray) or cond.ndim == 0:
        return (t if bool(cond) else f,)
    r = np.where(cond, t, f)
    if r.dtype.kind == "f" and widened(interpreter, _result_element_type(op)) is not None:
        return (r,)  # a reduction body in its accumulation type
    return _result(op, r)


# ---------------------------------------------------------------------------------------
# casts
# ---------------------------------------------------------------------------------------


def _run_extf(self, interpreter, op, args):
    return _result(op, element_type(op.results[0].type).cast(np.asarray(args[0])))


def _run_sitofp(self, interpreter, op, args):
    width = int_width(op.operands[0].type)
    et = element_type(op.results[0].type)
    return _result(op, et.cast(_signed(args[0], width).astype(np.float64)))


def _run_uitofp(self, interpreter, op, args):
    width = int_width(op.operands[0].type)
    et = element_type(op.results[0].type)
    return _result(op, et.cast(_unsigned(args[0], width).astype(np.float64)))


def _run_fptosi(self, interpreter, op, args):
    width = int_width(op.results[0].type)
    with np.errstate(all="ignore"):
        v = np.trunc(np.asarray(args[0]).astype(np.float64))
        v = np.clip(np.nan_to_num(v), -(2.0 ** (width - 1)), 2.0 ** (width - 1) - 1)
    return _int_out(op, v.astype(np.int64), width)


def _run_fptoui(self, interpreter, op, args):
    width = int_width(op.results[0].type)
    with np.errstate(all="ignore"):
        v = np.trunc(np.asarray(args[0]).astype(np.float64))
        v = np.clip(np.nan_to_num(v), 0, 2.0**width - 1)
    return _int_out(op, v.astype(np.uint64), width)


def _run_extsi(self, interpreter, op, args):
    return _int_out(op, _signed(args[0], int_width(op.operands[0].type)), int_width(op.results[0].type))


def _run_extui(self, interpreter, op, args):
    return _int_out(op, _unsigned(args[0], int_width(op.operands[0].type)), int_width(op.results[0].type))


def _run_trunci(self, interpreter, op, args):
    return _int_out(op, _signed(args[0], 64), int_width(op.results[0].type))


def _run_index_cast(self, interpreter, op, args):
    return _int_out(op, _signed(args[0], int_width(op.operands[0].type)), int_width(op.results[0].type))


def _run_bitcast(self, interpreter, op, args):
    src = element_type(op.operands[0].type, evaluation=False)
    dst = element_type(op.results[0].type, evaluation=False)
    if src.bits != dst.bits:
        raise ValueError(f"bitcast between {src.bits}-bit and {dst.bits}-bit types")
    value = src.cast(np.asarray(args[0]))
    # (from_bits goes through np.ascontiguousarray, which makes a scalar 1-d)
    return _result(op, dst.from_bits(src.to_bits(value)).reshape(value.shape))


def constant_value(value: Any, t) -> Any:
    """The Python value of an `IntegerAttr`/`FloatAttr`/dense attribute of type `t`."""
    if isinstance(value, DenseIntOrFPElementsAttr):
        shape = tuple(t.get_shape()) if isinstance(t, ShapedType) else ()
        et = element_type(t)
        vals = np.asarray(value.get_values())
        if et.kind in ("int", "uint", "index", "bool"):
            vals = _signed(vals.astype(np.int64), int_width(t)) if et.kind != "uint" else vals
        arr = et.cast(vals)
        if arr.size == 1 and int(np.prod(shape)) != 1:
            arr = np.full(shape, arr.reshape(-1)[0], dtype=et.dtype)
        return arr.reshape(shape)
    if isinstance(value, IntegerAttr):
        width = int_width(t)
        v = int(_signed(value.value.data, width))
        return bool(v) if width == 1 else v
    if isinstance(value, FloatAttr):
        et = element_type(t)
        return et.dtype.type(et.cast(value.value.data)[()])
    raise ValueError(f"constant of attribute {value} is not supported")


def _run_constant(self, interpreter, op: arith.ConstantOp, args):
    return (constant_value(op.value, op.result.type),)


_ARITH: dict[str, Any] = {
    "arith.constant": _run_constant,
    "arith.addi": _int_binary("add"),
    "arith.subi": _int_binary("sub"),
    "arith.muli": _int_binary("mul"),
    "arith.divsi": _int_binary("divs"),
    "arith.remsi": _int_binary("rems"),
    "arith.floordivsi": _int_binary("floordivs"),
    "arith.ceildivsi": _int_binary("ceildivs"),
    "arith.divui": _int_binary("divu"),
    "arith.remui": _int_binary("remu"),
    "arith.ceildivui": _int_binary("ceildivu"),
    "arith.maxsi": _int_binary("maxs"),
    "arith.minsi": _int_binary("mins"),
    "arith.maxui": _int_binary("maxu"),
    "arith.minui": _int_binary("minu"),
    "arith.andi": _int_binary("and"),
    "arith.ori": _int_binary("or"),
    "arith.xori": _int_binary("xor"),
    "arith.shli": _int_binary("shl"),
    "arith.shrsi": _int_binary("shrs"),
    "arith.shrui": _int_binary("shru"),
    "arith.cmpi": _run_cmpi,
    "arith.addf": _float_binary(np.add),
    "arith.subf": _float_binary(np.subtract),
    "arith.mulf": _float_binary(np.multiply),
    "arith.divf": _float_binary(np.divide),
    "arith.maximumf": _float_binary(_maximumf),
    "arith.minimumf": _float_binary(_minimumf),
    "arith.maxnumf": _float_binary(np.fmax),
    "arith.minnumf": _float_binary(np.fmin),
    "arith.negf": _run_negf,
    "arith.cmpf": _run_cmpf,
    "arith.select": _run_select,
    "arith.extf": _run_extf,
    "arith.truncf": _run_extf,
    "arith.sitofp": _run_sitofp,
    "arith.uitofp": _run_uitofp,
    "arith.fptosi": _run_fptosi,
    "arith.fptoui": _run_fptoui,
    "arith.extsi": _run_extsi,
    "arith.extui": _run_extui,
    "arith.trunci": _run_trunci,
    "arith.index_cast": _run_index_cast,
    "arith.index_castui": _run_extui,
    "arith.bitcast": _run_bitcast,
}


# ---------------------------------------------------------------------------------------
# math
# ---------------------------------------------------------------------------------------

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


_MATH_UNARY = {
    "math.absf": np.abs,
    "math.acos": np.arccos,
    "math.acosh": np.arccosh,
    "math.asin": np.arcsin,
    "math.asinh": np.arcsinh,
    "math.atan": np.arctan,
    "math.atanh": np.arctanh,
    "math.cbrt": np.cbrt,
    "math.ceil": np.ceil,
    "math.cos": np.cos,
    "math.cosh": np.cosh,
    "math.erf": _erf,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.floor": np.floor,
    "math.log": np.log,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.log2": np.log2,
    "math.round": _round_half_away,
    "math.roundeven": np.rint,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
    "math.sin": np.sin,
    "math.sinh": np.sinh,
    "math.sqrt": np.sqrt,
    "math.tan": np.tan,
    "math.tanh": np.tanh,
    "math.trunc": np.trunc,
}

_MATH_BINARY = {
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
    "math.powf": np.power,
}


def _in_float64(fn):
    """`fn` evaluated in float64 (rounded once to the result type)."""
    return lambda *xs: fn(*(x.astype(np.float64) for x in xs))


def _math_unary(fn):
    fn64 = _in_float64(fn)

    def run(self, interpreter, op, args):
        return _float_result(interpreter, op, element_type(op.results[0].type), fn64, args[:1])

    return run


def _math_binary(fn):
    fn64 = _in_float64(fn)

    def run(self, interpreter, op, args):
        return _float_result(interpreter, op, element_type(op.results[0].type), fn64, args[:2])

    return run


_FMA = _in_float64(lambda a, b, c: a * b + c)


def _run_fma(self, interpreter, op, args):
    return _float_result(interpreter, op, element_type(op.results[0].type), _FMA, args)


def _run_fpowi(self, interpreter, op, args):
    et = element_type(op.results[0].type)
    with np.errstate(all="ignore"):
        r = np.power(np.asarray(args[0]).astype(np.float64), np.asarray(args[1]).astype(np.float64))
    return _result(op, et.cast(r))


def _run_absi(self, interpreter, op, args):
    width = int_width(op.results[0].type)
    return _int_out(op, np.abs(_signed(args[0], width)), width)


def _run_ipowi(self, interpreter, op, args):
    width = int_width(op.results[0].type)
    base, exp = _signed(args[0], width), _signed(args[1], width)
    if np.any(exp < 0):
        raise ValueError("math.ipowi with a negative exponent")
    with np.errstate(all="ignore"):
        r = np.power(base, exp)
    return _int_out(op, r, width)


_MATH: dict[str, Any] = {name: _math_unary(fn) for name, fn in _MATH_UNARY.items()}
_MATH.update({name: _math_binary(fn) for name, fn in _MATH_BINARY.items()})
_MATH.update({"math.fma": _run_fma, "math.fpowi": _run_fpowi, "math.absi": _run_absi, "math.ipowi": _run_ipowi})


# ---------------------------------------------------------------------------------------
# scf and func (xDSL's, made array-aware)
# ---------------------------------------------------------------------------------------


@register_impls
class KtirScfFunctions(ScfFunctions):
    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues):
        if is_array(args[0]):
            return self._if_on_arrays(interpreter, op, np.asarray(args[0]))
        return super().run_if(interpreter, op, (bool(args[0]),)).values  # the parent's is @impl-wrapped

    @staticmethod
    def _if_on_arrays(interpreter: Interpreter, op: scf.IfOp, cond: np.ndarray) -> PythonValues:
        """A per-element condition in a vectorised linalg body: run both branches, select.

        Only for an `scf.if` with results (its branches then only compute values); if a
        branch cannot run on the whole array (an integer division by zero where the other
        branch is taken, say), the body falls back to element-by-element execution.
        """
        if not op.results or not op.false_region.blocks:
            raise NeedsScalar()
        try:
            on_true = interpreter.run_ssacfg_region(op.true_region, (), "if.then")
            on_false = interpreter.run_ssacfg_region(op.false_region, (), "if.else")
        except DiagnosticError:
            raise NeedsScalar() from None
        return tuple(
            to_python(np.where(cond, a, b), r.type) for a, b, r in zip(on_true, on_false, op.results)
        )

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues) -> PythonValues:
        if any(is_array(a) for a in args[:3]):
            raise NeedsScalar()
        lb, ub, step = (int(a) for a in args[:3])
        if step <= 0:
            raise ValueError(f"scf.for step must be positive, got {step}")
        return super().run_for(interpreter, op, (lb, ub, step, *args[3:])).values

    @impl(scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: scf.WhileOp, args: PythonValues) -> PythonValues:
        loop_args = args
        while True:
            condition, *forwarded = interpreter.run_ssacfg_region(op.before_region, loop_args, "while.before")
            if is_array(condition):
                raise NeedsScalar()
            if not condition:
                return tuple(forwarded)
            loop_args = interpreter.run_ssacfg_region(op.after_region, tuple(forwarded), "while.after")

    @impl(scf.ExecuteRegionOp)
    def run_execute_region(self, interpreter: Interpreter, op: scf.ExecuteRegionOp, args: PythonValues):
        return interpreter.run_ssacfg_region(op.region, (), "execute_region")

    @impl(scf.IndexSwitchOp)
    def run_index_switch(self, interpreter: Interpreter, op: scf.IndexSwitchOp, args: PythonValues):
        if is_array(args[0]):
            raise NeedsScalar()
        return super().run_index_switch(interpreter, op, (int(args[0]),)).values


@register_impls
class KtirFuncFunctions(FuncFunctions):
    pass


# ---------------------------------------------------------------------------------------
# tensor
# ---------------------------------------------------------------------------------------


def _run_empty(self, interpreter, op: tensor.EmptyOp, args):
    t = op.tensor.type
    shape = static_or_dynamic(t.get_shape(), args)
    return (element_type(t).zeros(shape),)


def _run_splat(self, interpreter, op: tensor.SplatOp, args):
    t = op.result.type
    shape = static_or_dynamic(t.get_shape(), args[1:])
    if is_array(args[0]):
        raise NeedsScalar()
    return (np.full(shape, element_type(t).cast(args[0]), dtype=element_type(t).dtype),)


def _run_from_elements(self, interpreter, op: tensor.FromElementsOp, args):
    t = op.result.type
    if _any_array(a for a in args if is_array(a)):
        raise NeedsScalar()
    return (element_type(t).cast(np.asarray(args)).reshape(t.get_shape()),)


def _run_extract(self, interpreter, op: tensor.ExtractOp, args):
    arr, *idx = args
    idx_arr = [np.asarray(i, dtype=np.int64) for i in idx]
    for k, (i, n) in enumerate(zip(idx_arr, arr.shape)):
        if np.any((i < 0) | (i >= n)):
            raise IndexError(f"tensor.extract index {i.reshape(-1)[0] if i.ndim else int(i)} out of bounds for dimension {k} of size {n}")
    return _result(op, arr[tuple(idx_arr)] if idx_arr else arr[()])


def _run_insert(self, interpreter, op: tensor.InsertOp, args):
    value, dest, *idx = args
    if is_array(value) or any(is_array(i) for i in idx):
        raise NeedsScalar()
    out = dest.copy()
    idx_t = tuple(int(i) for i in idx)
    for k, (i, n) in enumerate(zip(idx_t, out.shape)):
        if not 0 <= i < n:
            raise IndexError(f"tensor.insert index {i} out of bounds for dimension {k} of size {n}")
    out[idx_t] = value
    return (out,)


def _slice_params(op, args):
    vals = operand_values(op, args)
    offsets = static_or_dynamic(op.static_offsets.get_values(), [vals[v] for v in op.offsets])
    sizes = static_or_dynamic(op.static_sizes.get_values(), [vals[v] for v in op.sizes])
    strides = static_or_dynamic(op.static_strides.get_values(), [vals[v] for v in op.strides])
    return offsets, sizes, strides


def _slices(offsets, sizes, strides, shape):
    out = []
    for k, (o, s, st, n) in enumerate(zip(offsets, sizes, strides, shape)):
        last = o + (s - 1) * st
        if s > 0 and (o < 0 or last >= n or last < 0):
            raise IndexError(f"slice [{o} : {s} : {st}] is out of bounds for dimension {k} of size {n}")
        out.append(slice(o, o + s * st, st) if s > 0 else slice(0, 0))
    return tuple(out)


def _run_extract_slice(self, interpreter, op: tensor.ExtractSliceOp, args):
    vals = operand_values(op, args)
    src = vals[op.source]
    offsets, sizes, strides = _slice_params(op, args)
    part = src[_slices(offsets, sizes, strides, src.shape)]
    # rank-reducing: drop unit dims the result type does not have
    return (part.reshape(_result_shape(op.result.type, part.shape)),)


def _result_shape(t, fallback):
    shape = list(t.get_shape())
    it = iter([d for d in fallback if d != 1] if len(shape) < len(fallback) else fallback)
    if len(shape) < len(fallback):
        return tuple(int(s) if s != DYNAMIC else next(it) for s in shape)
    return tuple(fallback)


def _run_insert_slice(self, interpreter, op: tensor.InsertSliceOp, args):
    vals = operand_values(op, args)
    src, dest = vals[op.source], vals[op.dest]
    offsets, sizes, strides = _slice_params(op, args)
    out = dest.copy()
    sl = _slices(offsets, sizes, strides, out.shape)
    out[sl] = src.reshape(out[sl].shape)
    return (out,)


def _reassociation(op) -> list[list[int]]:
    """The dimension groups of a collapse/expand_shape (IntegerAttr entries: their values)."""
    return [[int(x.value.data) if isinstance(x, IntegerAttr) else int(x.data) for x in group.data]
            for group in op.reassociation.data]


def _run_collapse_shape(self, interpreter, op: tensor.CollapseShapeOp, args):
    src = args[0]
    groups = _reassociation(op)
    shape = [int(np.prod([src.shape[d] for d in g], dtype=np.int64)) for g in groups]
    return (src.reshape(shape),)


def _run_expand_shape(self, interpreter, op: tensor.ExpandShapeOp, args):
    src, *dyn = args
    shape = static_or_dynamic(op.static_output_shape.get_values(), dyn)
    return (src.reshape(shape),)


def _run_reshape(self, interpreter, op: tensor.ReshapeOp, args):
    src, shape = args
    return (src.reshape([int(s) for s in np.asarray(shape).reshape(-1)]),)


def _run_dim(self, interpreter, op: tensor.DimOp, args):
    src, index = args
    return (int(np.asarray(src).shape[int(index)]),)


def _run_cast(self, interpreter, op: tensor.CastOp, args):
    return (args[0],)


def _run_concat(self, interpreter, op: tensor.ConcatOp, args):
    return (np.concatenate(args, axis=op.dim.value.data),)


_TENSOR: dict[str, Any] = {
    "tensor.empty": _run_empty,
    "tensor.splat": _run_splat,
    "tensor.from_elements": _run_from_elements,
    "tensor.extract": _run_extract,
    "tensor.insert": _run_insert,
    "tensor.extract_slice": _run_extract_slice,
    "tensor.insert_slice": _run_insert_slice,
    "tensor.collapse_shape": _run_collapse_shape,
    "tensor.expand_shape": _run_expand_shape,
    "tensor.reshape": _run_reshape,
    "tensor.dim": _run_dim,
    "tensor.cast": _run_cast,
    "tensor.concat": _run_concat,
}


def _run_unrealized_cast(self, interpreter, op, args):
    return tuple(args)


_BUILTIN: dict[str, Any] = {"builtin.unrealized_conversion_cast": _run_unrealized_cast}


TABLE: dict[str, Any] = {**_ARITH, **_MATH, **_TENSOR, **_BUILTIN}


def std_functions(classes) -> list[InterpreterFunctions]:
    """Instances of the function sets for arith/math/tensor (by name) plus scf and func."""
    named = functions_for("StdFunctions", TABLE, classes)
    return [KtirScfFunctions(), KtirFuncFunctions(), named()]

