"""MLIR's fold hooks of the integer `arith` ops (`ArithOps.cpp`), for the greedy driver.

xDSL 0.74 folds only `addi`, `subi`, `muli`, `andi`, `ori` and `xori` of two constants; MLIR folds
every integer op of constants (divisions and remainders unless they would trap, min/max, shifts,
comparisons, casts) and a set of identities (`x + 0`, `x * 1`, `x - x`, `x / 1`, `min(x, x)`,
`select(true, a, b)`, ...). Values follow the op's type: index is 64 bits wide, results are
wrapped to the result width. A comparison whose constant is on the left is turned around in place
(constant on the right), as MLIR's `cmpi` folder does.

`fold_arith(op)` returns None (no fold), `IN_PLACE`, or one value per result (an existing
`SSAValue` or an `IntegerAttr`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from dfsched.dialects.constants import constant_attr
from dfsched.passes.cleanup.greedy import IN_PLACE


def bit_width(type_: Attribute) -> int | None:
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def _unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def _signed(value: int, width: int) -> int:
    value = _unsigned(value, width)
    return value - (1 << width) if value >> (width - 1) else value


def _int(value: SSAValue) -> int | None:
    attr = constant_attr(value)
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def int_attr(value: int, type_: Attribute) -> IntegerAttr:
    width = bit_width(type_)
    assert width is not None
    return IntegerAttr(_signed(value, width), type_)


def _defined_by(value: SSAValue, name: str) -> Operation | None:
    return value.op if isinstance(value, OpResult) and value.op.name == name else None


# ---------------------------------------------------------------------------
# Binary integer ops
# ---------------------------------------------------------------------------


def _ceildiv_unsigned(a: int, b: int) -> int:
    return -(-a // b)


def _ceildiv_signed(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    if (a < 0) == (b < 0):
        return quotient + (1 if abs(a) % abs(b) else 0)
    return -quotient


def _div_signed(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _rem_signed(a: int, b: int) -> int:
    return a - _div_signed(a, b) * b


def _floordiv_signed(a: int, b: int) -> int:
    return a // b


# name -> (signedness of the operands, function of two ints or None when it would trap)
_CONST_FOLDS: dict[str, tuple[str, Callable[[int, int, int], int | None]]] = {
    "arith.addi": ("s", lambda a, b, w: a + b),
    "arith.subi": ("s", lambda a, b, w: a - b),
    "arith.muli": ("s", lambda a, b, w: a * b),
    "arith.divui": ("u", lambda a, b, w: None if b == 0 else a // b),
    "arith.divsi": ("s", lambda a, b, w: None if b == 0 or (b == -1 and a == -(1 << (w - 1))) else _div_signed(a, b)),
    "arith.ceildivui": ("u", lambda a, b, w: None if b == 0 else _ceildiv_unsigned(a, b)),
    "arith.ceildivsi": ("s", lambda a, b, w: None if b == 0 or (b == -1 and a == -(1 << (w - 1)))
                        else _ceildiv_signed(a, b)),
    "arith.floordivsi": ("s", lambda a, b, w: None if b == 0 or (b == -1 and a == -(1 << (w - 1)))
                         else _floordiv_signed(a, b)),
    "arith.remui": ("u", lambda a, b, w: None if b == 0 else a % b),
    "arith.remsi": ("s", lambda a, b, w: None if b == 0 else _rem_signed(a, b)),
    "arith.minsi": ("s", lambda a, b, w: min(a, b)),
    "arith.maxsi": ("s", lambda a, b, w: max(a, b)),
    "arith.minui": ("u", lambda a, b, w: min(a, b)),
    "arith.maxui": ("u", lambda a, b, w: max(a, b)),
    "arith.andi": ("u", lambda a, b, w: a & b),
    "arith.ori": ("u", lambda a, b, w: a | b),
    "arith.xori": ("u", lambda a, b, w: a ^ b),
    "arith.shli": ("u", lambda a, b, w: None if b >= w else a << b),
    "arith.shrui": ("u", lambda a, b, w: None if b >= w else a >> b),
    "arith.shrsi": ("s", lambda a, b, w: None if b < 0 or b >= w else a >> b),
}


def _binary_identity(op: Operation, lhs: SSAValue, rhs: SSAValue, a: int | None, b: int | None, width: int):
    """MLIR's non-constant folds of the binary ops; a value or an int, else None."""
    name = op.name
    ones = (1 << width) - 1
    if name == "arith.addi":
        if b == 0:
            return lhs
        # (a - b) + b -> a ; b + (a - b) -> a
        if (sub := _defined_by(lhs, "arith.subi")) is not None and sub.operands[1] is rhs:
            return sub.operands[0]
        if (sub := _defined_by(rhs, "arith.subi")) is not None and sub.operands[1] is lhs:
            return sub.operands[0]
    elif name == "arith.subi":
        if lhs is rhs:
            return 0
        if b == 0:
            return lhs
        if (add := _defined_by(lhs, "arith.addi")) is not None:
            if add.operands[1] is rhs:
                return add.operands[0]
            if add.operands[0] is rhs:
                return add.operands[1]
    elif name == "arith.muli":
        if b == 0:
            return 0
        if b == 1:
            return lhs
    elif name in ("arith.divui", "arith.divsi", "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi"):
        if b == 1:
            return lhs
    elif name in ("arith.remui", "arith.remsi"):
        if b == 1:
            return 0
    elif name in ("arith.andi", "arith.ori"):  # x & 0 = 0, x & ~0 = x; x | ~0 = ~0, x | 0 = x; x op x = x
        absorbing, neutral = (0, ones) if name == "arith.andi" else (ones, 0)
        if b is not None and _unsigned(b, width) in (absorbing, neutral):
            return b if _unsigned(b, width) == absorbing else lhs
        if lhs is rhs:
            return lhs
    elif name == "arith.xori":
        if b == 0:
            return lhs
        if lhs is rhs:
            return 0
    elif name in ("arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui"):
        if lhs is rhs:
            return lhs
        if b is not None:
            smin, smax = -(1 << (width - 1)), (1 << (width - 1)) - 1
            bound = {"arith.maxsi": (smax, smin), "arith.minsi": (smin, smax),
                     "arith.maxui": (ones, 0), "arith.minui": (0, ones)}[name]
            value = _signed(b, width) if name.endswith("si") else _unsigned(b, width)
            if value == bound[0]:
                return b
            if value == bound[1]:
                return lhs
    elif name in ("arith.shli", "arith.shrui", "arith.shrsi"):
        if b == 0:
            return lhs
    return None


def _fold_binary(op: Operation):
    if len(op.operands) != 2 or len(op.results) != 1:
        return None
    result_type = op.results[0].type
    width = bit_width(result_type)
    if width is None:
        return None
    lhs, rhs = op.operands
    a, b = _int(lhs), _int(rhs)
    if a is not None and b is not None:
        signedness, fn = _CONST_FOLDS[op.name]
        if signedness == "u":
            x, y = _unsigned(a, width), _unsigned(b, width)
        else:
            x, y = _signed(a, width), _signed(b, width)
        value = fn(x, y, width)
        if value is not None:
            return [int_attr(value, result_type)]
        return None
    folded = _binary_identity(op, lhs, rhs, a, b, width)
    if folded is None:
        return None
    if isinstance(folded, int):
        return [int_attr(folded, result_type)]
    return [folded]


# ---------------------------------------------------------------------------
# cmpi, select, casts
# ---------------------------------------------------------------------------

# predicate number -> (name, holds for equal operands, swapped predicate number)
_PREDICATES = {
    0: ("eq", True, 0), 1: ("ne", False, 1), 2: ("slt", False, 4), 3: ("sle", True, 5),
    4: ("sgt", False, 2), 5: ("sge", True, 3), 6: ("ult", False, 8), 7: ("ule", True, 9),
    8: ("ugt", False, 6), 9: ("uge", True, 7),
}


def _compare(predicate: int, a: int, b: int, width: int) -> bool:
    name = _PREDICATES[predicate][0]
    if name.startswith("u"):
        a, b = _unsigned(a, width), _unsigned(b, width)
    else:
        a, b = _signed(a, width), _signed(b, width)
    return {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b,
            "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b}[name]


def _fold_cmpi(op: arith.CmpiOp):
    from xdsl.dialects.builtin import i1

    lhs, rhs = op.lhs, op.rhs
    predicate = op.predicate.value.data
    width = bit_width(lhs.type)
    if width is None or predicate not in _PREDICATES:
        return None
    if lhs is rhs:
        return [IntegerAttr(1 if _PREDICATES[predicate][1] else 0, i1, truncate_bits=True)]
    a, b = _int(lhs), _int(rhs)
    if a is not None and b is not None:
        return [IntegerAttr(1 if _compare(predicate, a, b, width) else 0, i1, truncate_bits=True)]
    if a is not None and b is None:
        op.operands = [rhs, lhs]
        op.properties["predicate"] = IntegerAttr(_PREDICATES[predicate][2], op.predicate.type)
        return IN_PLACE
    return None


def _fold_select(op: arith.SelectOp):
    cond, true_value, false_value = op.operands
    c = _int(cond)
    if c is not None:
        return [true_value if c != 0 else false_value]
    if true_value is false_value:
        return [true_value]
    t, f = _int(true_value), _int(false_value)
    if isinstance(op.results[0].type, IntegerType) and op.results[0].type.width.data == 1:
        if t is not None and f is not None and t != 0 and f == 0:
            return [cond]
    return None


def _fold_cast(op: Operation, signed: bool):
    value = _int(op.operands[0])
    if value is None:
        return None
    source_width = bit_width(op.operands[0].type)
    target = op.results[0].type
    if source_width is None or bit_width(target) is None:
        return None
    value = _signed(value, source_width) if signed else _unsigned(value, source_width)
    return [int_attr(value, target)]


def handles(op: Operation) -> bool:
    """True for the arith ops whose folds this module implements."""
    return op.name in _CONST_FOLDS or op.name in ("arith.cmpi", "arith.select", "arith.index_cast", "arith.extsi",
                                                  "arith.trunci", "arith.index_castui", "arith.extui")


def fold_arith(op: Operation):
    name = op.name
    if name in _CONST_FOLDS:
        return _fold_binary(op)
    if isinstance(op, arith.CmpiOp):
        return _fold_cmpi(op)
    if isinstance(op, arith.SelectOp):
        return _fold_select(op)
    if name in ("arith.index_cast", "arith.extsi", "arith.trunci"):
        return _fold_cast(op, signed=True)
    if name in ("arith.index_castui", "arith.extui"):
        return _fold_cast(op, signed=False)
    return None
