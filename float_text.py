"""Float literals as MLIR's printFloatValue (LLVM's `APFloat::toString`) writes them: the
shortest of `1.000000e+00` and `3.14159274` that reads back to the same value of the type, else
the bits (`0x7C00`). The printer's one use is `format_float`; tests call it directly."""

from __future__ import annotations

import math
import struct
from decimal import ROUND_HALF_UP, Decimal, localcontext

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute

# Significand precision (bits, implicit bit included) of the float types.
_PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53, "f80": 64, "f128": 113, "tf32": 11}
_KEYS = ((Float16Type, "f16"), (BFloat16Type, "bf16"), (Float32Type, "f32"), (Float64Type, "f64"))


def _type_key(t: Attribute) -> str:
    return next((key for cls, key in _KEYS if isinstance(t, cls)), getattr(t, "name", "f64"))


def _round_to(value: float, key: str) -> float:
    """`value` rounded to the nearest value of the float type (as the parser would store it)."""
    try:
        if key == "f16":
            return struct.unpack("<e", struct.pack("<e", value))[0]
        if key == "f32":
            return struct.unpack("<f", struct.pack("<f", value))[0]
        if key == "bf16":
            bits = struct.unpack("<I", struct.pack("<f", value))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return struct.unpack("<f", struct.pack("<I", bits))[0]
    except (OverflowError, struct.error):
        return math.copysign(math.inf, value)
    return value


def round_to_type(value: float, t: Attribute) -> float:
    """`value` converted to the float type `t` as `arith.sitofp`/`truncf` convert: to the nearest
    value, and past the largest finite one to infinity (a constant fold must not overflow)."""
    return _round_to(value, _type_key(t))


def float_bits(value: float, t: Attribute) -> int:
    """The IEEE bits of `value` converted to the float type `t` (nearest value, infinity past the
    largest finite one), as the hex form of a literal and a constant in DataflowIR hold them."""
    key = _type_key(t)
    return _bits(_round_to(value, key), key)


def _bits(value: float, key: str) -> int:
    if key == "f16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if key == "f32":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if key == "bf16":
        return struct.unpack("<I", struct.pack("<f", value))[0] >> 16
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def _bits_hex(value: float, key: str) -> str:
    return f"0x{_bits(value, key):X}"


def _apfloat_string(value: float, precision: int, max_padding: int, truncate_zero: bool) -> str:
    """LLVM's `APFloat::toString` for a finite value."""
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        if max_padding:
            return sign + "0"
        return sign + ("0.0E+0" if truncate_zero else "0.0" + "0" * max(precision - 1, 0) + "e+00")
    with localcontext() as ctx:
        ctx.prec = 1000
        exact = Decimal(abs(value))
        digits_tuple = exact.as_tuple()
        digits = "".join(map(str, digits_tuple.digits)).rstrip("0")
        exp = digits_tuple.exponent + (len(digits_tuple.digits) - len(digits))
        if len(digits) > precision:  # round half up on the first dropped digit
            q = Decimal(digits[:precision] + "." + digits[precision:]).quantize(Decimal(1), rounding=ROUND_HALF_UP)
            exp += len(digits) - precision
            digits = str(q)
            if len(digits) > precision:  # carried into a new digit
                exp += len(digits) - precision
                digits = digits[:precision]
            stripped = digits.rstrip("0")
            exp += len(digits) - len(stripped)
            digits = stripped
    n = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp10 = exp + n - 1
        mant = digits[0] + "." + (digits[1:] if (n > 1 or not truncate_zero) else "0")
        if not truncate_zero and precision > n - 1:
            mant += "0" * (precision - n + 1)
        e_digits = str(abs(exp10))
        if not truncate_zero and len(e_digits) < 2:
            e_digits = "0" + e_digits
        return f"{sign}{mant}{'E' if truncate_zero else 'e'}{'+' if exp10 >= 0 else '-'}{e_digits}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return sign + digits[:whole] + "." + digits[whole:]
    return sign + "0." + "0" * (-whole) + digits


def format_float(value: float, type: Attribute) -> str:
    """A float literal as MLIR prints it: `1.000000e+00`, `3.14159274`, `0x7C00`."""
    key = _type_key(type)
    value = _round_to(value, key)
    if math.isnan(value) or math.isinf(value):
        return _bits_hex(value, key)
    text = _apfloat_string(value, 6, 0, False)
    if _round_to(float(text), key) == value:
        return text
    default_digits = 2 + _PRECISION.get(key, 53) * 59 // 196
    text = _apfloat_string(value, default_digits, 3, True)
    if "." in text:
        return text
    return _bits_hex(value, key)


__all__ = ["format_float"]
