"""Element types of the KTIR interpreter: MLIR types <-> numpy dtypes <-> memory bits.

Every value the interpreter handles has an MLIR element type; this module says how it is
held in numpy and how it is stored in memory.

| MLIR element type               | numpy value dtype                    | bits in memory |
|---------------------------------|--------------------------------------|----------------|
| `f16` / `f32` / `f64`           | float16 / float32 / float64          | IEEE bits      |
| `!spyreop.df16`                 | float32, rounded to DLFloat16 values | 16 (DLFloat16) |
| `i1`                            | bool                                 | 8              |
| `iN`/`siN` (N = 8, 16, 32, 64)  | intN                                 | N              |
| `uiN`                           | uintN                                | N              |
| `index`                         | int64                                | 64             |
| `!spyreop.fp16_fused`           | complex64: real = first, imag = second, both f16 values | 2 x 16 |
| `!spyreop.df16_fused`           | complex64, both parts DLFloat16 values | 2 x 16       |
| `!spyreop.fp32_fused`           | complex64                            | 2 x 32         |

A fused pair keeps its first value (the mean, for `exx2`) in the low half of its memory
word, so reading the same address through an `f16` view gives the first value.

DLFloat16 (IBM): 1 sign bit, 6 exponent bits (bias 31), 9 fraction bits, no subnormals,
one all-ones code for infinity/NaN. Values are rounded to nearest-even on the 9-bit
fraction; magnitudes below 2^-31 flush to zero and overflow becomes infinity.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
    Signedness,
)
from xdsl.ir import Attribute


class UnsupportedType(Exception):
    """An element type the interpreter has no numpy representation for."""


@dataclass(frozen=True)
class ElementType:
    """How one MLIR element type is held (numpy `dtype`) and stored (`bits` per element)."""

    name: str
    dtype: np.dtype
    bits: int
    kind: str  # "float" | "int" | "uint" | "bool" | "index" | "df16" | "fused16" | "fusedd16" | "fused32"

    @functools.cached_property
    def itemsize(self) -> int:
        """Bytes one element occupies in byte-addressed memory (asked for on every access)."""
        return max(1, self.bits // 8)

    @functools.cached_property
    def is_float(self) -> bool:
        return self.kind in ("float", "df16")

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "uint", "bool", "index")

    @property
    def is_fused(self) -> bool:
        return self.kind.startswith("fused")

    # -- values ---------------------------------------------------------------------------

    def cast(self, value):
        """`value` (scalar or array) converted to this type's numpy representation."""
        arr = np.asarray(value)
        if self.kind == "df16":
            return round_df16(arr.astype(np.float32))
        if self.kind == "fused16":
            arr = arr.astype(np.complex64)
            return (arr.real.astype(np.float16).astype(np.float32) + 1j * arr.imag.astype(np.float16).astype(np.float32)).astype(np.complex64)
        if self.kind == "fusedd16":
            arr = arr.astype(np.complex64)
            return (round_df16(arr.real.astype(np.float32)) + 1j * round_df16(arr.imag.astype(np.float32))).astype(np.complex64)
        return arr.astype(self.dtype)

    def zeros(self, shape) -> np.ndarray:
        return np.zeros(shape, dtype=self.dtype)

    # -- memory bits ----------------------------------------------------------------------

    def to_bits(self, values) -> np.ndarray:
        """Values -> unsigned integer array of this type's storage width (8..64 bits)."""
        arr = self.cast(values)
        match self.kind:
            case "float" | "int" | "uint" | "index":
                return np.ascontiguousarray(arr).view(_UINT[self.bits])
            case "bool":
                return arr.astype(np.uint8)
            case "df16":
                return df16_to_bits(arr)
            case "fused16":
                lo = arr.real.astype(np.float16).view(np.uint16).astype(np.uint32)
                hi = arr.imag.astype(np.float16).view(np.uint16).astype(np.uint32)
                return lo | (hi << np.uint32(16))
            case "fusedd16":
                lo = df16_to_bits(arr.real.astype(np.float32)).astype(np.uint32)
                hi = df16_to_bits(arr.imag.astype(np.float32)).astype(np.uint32)
                return lo | (hi << np.uint32(16))
            case "fused32":
                lo = arr.real.astype(np.float32).view(np.uint32).astype(np.uint64)
                hi = arr.imag.astype(np.float32).view(np.uint32).astype(np.uint64)
                return lo | (hi << np.uint64(32))
        raise UnsupportedType(self.name)

    def from_bits(self, bits: np.ndarray):
        """Unsigned integer array (any width >= this type's) -> values of this type."""
        raw = np.asarray(bits).astype(_UINT[max(self.bits, 8)])
        match self.kind:
            case "float" | "int" | "uint" | "index":
                return np.ascontiguousarray(raw).view(self.dtype)
            case "bool":
                return raw != 0
            case "df16":
                return df16_from_bits(raw.astype(np.uint16))
            case "fused16":
                lo = (raw & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16).astype(np.float32)
                hi = (raw >> np.uint32(16)).astype(np.uint16).view(np.float16).astype(np.float32)
                return (lo + 1j * hi).astype(np.complex64)
            case "fusedd16":
                lo = df16_from_bits((raw & np.uint32(0xFFFF)).astype(np.uint16))
                hi = df16_from_bits((raw >> np.uint32(16)).astype(np.uint16))
                return (lo + 1j * hi).astype(np.complex64)
            case "fused32":
                lo = (raw & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)
                hi = (raw >> np.uint64(32)).astype(np.uint32).view(np.float32)
                return (lo + 1j * hi).astype(np.complex64)
        raise UnsupportedType(self.name)


_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}

_INDEX = ElementType("index", np.dtype(np.int64), 64, "index")
_F16 = ElementType("f16", np.dtype(np.float16), 16, "float")
_F32 = ElementType("f32", np.dtype(np.float32), 32, "float")
_F64 = ElementType("f64", np.dtype(np.float64), 64, "float")
_BOOL = ElementType("i1", np.dtype(np.bool_), 8, "bool")
_DF16 = ElementType("!spyreop.df16", np.dtype(np.float32), 16, "df16")
_FUSED = {
    "spyreop.fp16_fused": ElementType("!spyreop.fp16_fused", np.dtype(np.complex64), 32, "fused16"),
    "spyreop.df16_fused": ElementType("!spyreop.df16_fused", np.dtype(np.complex64), 32, "fusedd16"),
    "spyreop.fp32_fused": ElementType("!spyreop.fp32_fused", np.dtype(np.complex64), 64, "fused32"),
}

# the scalar type a fused pair holds two of, and back
FUSED_PART = {"spyreop.fp16_fused": "f16", "spyreop.df16_fused": "spyreop.df16", "spyreop.fp32_fused": "f32"}


_FLOAT64_EVALUATION = False


@contextmanager
def float64_evaluation():
    """Within it, `f16` and `f32` values are held and computed as `f64`: the float64 evaluation
    a reference run is measured against (`benchmarks/corpus_accuracy.py`). Only element-unit
    runs keep their addresses (a byte-unit element grows to 8 bytes)."""
    global _FLOAT64_EVALUATION
    previous, _FLOAT64_EVALUATION = _FLOAT64_EVALUATION, True
    try:
        yield
    finally:
        _FLOAT64_EVALUATION = previous


def element_type(t: Attribute, evaluation: bool = True) -> ElementType:
    """The ElementType of a scalar type or of the elements of a shaped type (with
    `evaluation=False`, its declared storage even inside `float64_evaluation`)."""
    if isinstance(t, ShapedType):
        t = t.get_element_type()  # type: ignore[assignment]
    if isinstance(t, IndexType):
        return _INDEX
    if isinstance(t, Float16Type):
        return _F64 if _FLOAT64_EVALUATION and evaluation else _F16
    if isinstance(t, Float32Type):
        return _F64 if _FLOAT64_EVALUATION and evaluation else _F32
    if isinstance(t, Float64Type):
        return _F64
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return _BOOL
        if width not in (8, 16, 32, 64):
            raise UnsupportedType(f"i{width}")
        if t.signedness.data == Signedness.UNSIGNED:
            return ElementType(f"ui{width}", np.dtype(f"uint{width}"), width, "uint")
        return ElementType(f"i{width}", np.dtype(f"int{width}"), width, "int")
    name = getattr(t, "name", "")
    if name == "spyreop.df16":
        return _DF16
    if name in _FUSED:
        return _FUSED[name]
    raise UnsupportedType(str(t))


def int_width(t: Attribute) -> int:
    """Bit width of an integer-like type (index counts as 64)."""
    if isinstance(t, ShapedType):
        t = t.get_element_type()  # type: ignore[assignment]
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, IntegerType):
        return t.width.data
    raise UnsupportedType(str(t))


# ---------------------------------------------------------------------------------------
# DLFloat16
# ---------------------------------------------------------------------------------------

DF16_BIAS = 31
DF16_FRACTION_BITS = 9
DF16_MIN = 2.0**-31  # the all-zero code; the smallest non-zero magnitude is 2^-31 * (1 + 2^-9)
DF16_MAX = 2.0**32 * (1 + 510 / 512)  # all-ones code is reserved for infinity/NaN


def round_df16(x) -> np.ndarray:
    """Round float values to the nearest DLFloat16 value, held as float32."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        mant, exp = np.frexp(x)  # x = mant * 2**exp, 0.5 <= |mant| < 1
        scaled = np.round(mant * 2 ** (DF16_FRACTION_BITS + 1))  # round-to-nearest-even
        out = np.ldexp(scaled, exp - (DF16_FRACTION_BITS + 1))
        out = np.where(np.abs(out) <= DF16_MIN, np.copysign(0.0, x), out)  # 2^-31 itself is the zero code
        out = np.where(np.abs(out) > DF16_MAX, np.copysign(np.inf, x), out)
        out = np.where(np.isnan(x), np.nan, out)
    return out.astype(np.float32)


def df16_to_bits(x) -> np.ndarray:
    v = round_df16(x).astype(np.float64)
    sign = np.signbit(v).astype(np.uint16) << np.uint16(15)
    mag = np.abs(v)
    special = ~np.isfinite(mag)
    zero = mag == 0
    with np.errstate(all="ignore"):
        mant, exp = np.frexp(np.where(special | zero, 1.0, mag))
    e = (exp - 1 + DF16_BIAS).astype(np.int64)
    f = np.round((mant * 2 - 1) * 2**DF16_FRACTION_BITS).astype(np.int64)
    code = ((e << DF16_FRACTION_BITS) | f).astype(np.uint16)
    code = np.where(zero, np.uint16(0), code)
    code = np.where(special, np.uint16(0x7FFF), code)
    return (sign | code).astype(np.uint16)


def df16_from_bits(bits) -> np.ndarray:
    b = np.asarray(bits).astype(np.uint16)
    sign = np.where(b & np.uint16(0x8000), -1.0, 1.0)
    code = (b & np.uint16(0x7FFF)).astype(np.int64)
    e = code >> DF16_FRACTION_BITS
    f = code & ((1 << DF16_FRACTION_BITS) - 1)
    val = np.ldexp(1.0 + f / 2**DF16_FRACTION_BITS, e - DF16_BIAS)
    val = np.where(code == 0, 0.0, val)
    val = np.where(code == 0x7FFF, np.inf, val)
    return (sign * val).astype(np.float32)
