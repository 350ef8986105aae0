"""The element-wise scalar ops a compute unit may execute: one home for the list.

`ktir-legality-check` accepts them in a `linalg.generic` body, `ktdflowering-to-dfir` lowers
them (`docs/passes.md#ktdflowering-to-dfir`), and a device's `feature.simd` `ops` field may
name only these (`docs/devices.md`). Every name has KTIR reference semantics
(`interp/std_impl.py`), which the DataflowIR simulator executes.
"""

from __future__ import annotations

ARITH_FLOAT = ("arith.addf", "arith.subf", "arith.mulf", "arith.divf",
               "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.negf",
               "arith.cmpf")
ARITH_INT = ("arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi",
             "arith.remui", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "arith.andi",
             "arith.ori", "arith.xori", "arith.shli", "arith.shrsi", "arith.shrui", "arith.cmpi")
ARITH_OTHER = ("arith.select", "arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp",
               "arith.fptosi", "arith.fptoui", "arith.extsi", "arith.extui", "arith.trunci")
MATH = ("math.absf", "math.absi", "math.ceil", "math.floor", "math.round", "math.roundeven",
        "math.trunc", "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2",
        "math.log10", "math.log1p", "math.sqrt", "math.rsqrt", "math.cbrt", "math.tanh",
        "math.sinh", "math.cosh", "math.sin", "math.cos", "math.tan", "math.atan", "math.erf",
        "math.powf", "math.atan2", "math.copysign", "math.fma")

ELEMENTWISE_OPS = frozenset(ARITH_FLOAT + ARITH_INT + ARITH_OTHER + MATH)


def is_elementwise_op_name(name: str) -> bool:
    """Whether `name` is an element-wise arith/math op or a `spyreop` intrinsic."""
    return name in ELEMENTWISE_OPS or name.startswith("spyreop.")
