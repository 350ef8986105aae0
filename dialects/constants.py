"""Constants read off the IR and built into it: the one home for dialect canonicalizers and every pass."""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i64
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.traits import ConstantLike


def constant_attr(value: SSAValue) -> Attribute | None:
    """The attribute of a constant-like op's result (MLIR's `m_Constant`), else None.

    An unregistered op is never constant-like, whatever traits it is asked about."""
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, arith.ConstantOp):
        return op.value
    if op.has_trait(ConstantLike, value_if_unregistered=False):
        return ConstantLike.get_constant_value(value)
    return None


def constant_int(value: SSAValue) -> int | None:
    """The integer an index/integer constant defines (MLIR's `getConstantIntValue`), else None."""
    attr = constant_attr(value)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


_INDEX = IndexType()


@lru_cache(maxsize=1 << 18)
def integer_attr(value: int, type_: Attribute = _INDEX) -> IntegerAttr:
    """`IntegerAttr(value, type_)`, shared: attributes are immutable, and building one runs its
    verifier, which a grid-wide lowering would otherwise pay once per core and unit."""
    return IntegerAttr(value, type_)


def index_constant(value: int) -> arith.ConstantOp:
    """A new (uninserted) `arith.constant <value> : index`.

    Built with `create`, the op `arith.ConstantOp(attr)` builds without the generic argument
    processing: a grid-wide lowering builds one per core and unit list (half the cost)."""
    return arith.ConstantOp.create(properties={"value": integer_attr(value)}, result_types=[_INDEX])


def static_trip_count(loop: scf.ForOp) -> int | None:
    """The trip count when the bounds and step are constants (MLIR's `getStaticTripCount`)."""
    return trip_count(*(constant_int(v) for v in (loop.lb, loop.ub, loop.step)))


def trip_count(lb: int | None, ub: int | None, step: int | None) -> int | None:
    """Iterations of `for lb to ub step step` (None when a value is unknown or the step not positive)."""
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def integer_attr_violation(op: Operation, name: str, *, index: bool = False, signless: bool = True,
                           minimum: int | None = None) -> str | None:
    """MLIR's message when property `name` of `op` is not an `I64Attr` (`signless=False`: any
    64-bit integer), an `IndexAttr`, or below `ConfinedAttr`'s `IntMinValue<minimum>`; None when it
    is absent or fine. The properties are declared as any attribute so that a wrong one is
    reported here, naming it, rather than by the generic constraint."""
    attr = op.properties.get(name)
    if attr is None:
        return None
    if index:
        what, ok = "index attribute", isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType)
    else:
        what = "64-bit signless integer attribute" if signless else "64-bit integer attribute"
        ok = isinstance(attr, IntegerAttr) and (attr.type == i64 if signless else
                                                isinstance(attr.type, IntegerType) and attr.type.width.data == 64)
        if minimum is not None:
            what += f" whose minimum value is {minimum}"
            ok = ok and attr.value.data >= minimum
    return None if ok else f"attribute '{name}' failed to satisfy constraint: {what}"
