"""Constants read off the IR, shared by the passes of every stage."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue


def constant_int(value: SSAValue) -> int | None:
    """The integer an `arith.constant` of integer or index type defines, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None
