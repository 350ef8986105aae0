"""Lane-wide reductions: a reduction with fewer rows than the compute unit has lanes steps
along its rows (Decision 65).

`reduction-loop-exposure` steps a reduction one element of each row at a time: each FIFO
slot carries one column of the tile, so a tile of P rows uses P of the unit's lanes per step
(1 of 64 for a single row). When P leaves at least half the lanes idle, the reduction dim is
stepped by L elements instead (L a power of two dividing the extent, P x L within the
lanes, as large as that allows): each step carries a P x L block.
`map-reduction-partials` then keeps L partial results per row (a P x L buffer, started from
the combiner's identity) that each step combines element-wise with its block, and on the
last step folds each row's L partials into the result with a lane combine: log2(L) rounds of
`vectorchain.shuffle` + the combiner (every lane ends with its row's total), lowered by
`ktdflowering-to-dfir`. The generics that belong to such a reduction carry
`dfsched.lane_wide = L`.

Only reductions whose combiner is associative and commutative are re-ordered this way
(`arith.addf/mulf/maximumf/minimumf/maxnumf/minnumf` folding one value into the accumulator);
any other reduction keeps one column per step. Float sums and products are re-associated
(per-lane sums then a tree), within the checker's reduction tolerance. `maxnumf`/`minnumf`
(a NaN operand loses to a number) keep their own semantics (Decision 111): their partials start
from NaN, the one value every operand beats, and the lowering combines with the op itself (an
island), never with the vector unit's max/min, whose NaN rule is `maximumf`'s.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, TensorType
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Attribute, Block, Operation
from xdsl.ir.affine import AffineMap

from dfsched.arch.model import DeviceModel
from dfsched.dialects import ktdf
from dfsched.dialects.linalg_ext import LANE_WIDE, lane_width  # noqa: F401 - the mark's home

# combiner -> its identity (the value every lane's partial starts from)
IDENTITIES = {
    "arith.addf": 0.0,
    "arith.mulf": 1.0,
    "arith.maximumf": -math.inf,
    "arith.minimumf": math.inf,
    "arith.maxnumf": math.nan,  # maxnum(NaN, x) = x for every x: -inf would turn a lane of NaNs into -inf
    "arith.minnumf": math.nan,
}


def mark(generic: Operation, width: int) -> None:
    generic.attributes[LANE_WIDE] = IntegerAttr.from_index_int_value(width)


def combiner(generic: xlinalg.GenericOp) -> Operation | None:
    """The op that folds one value into the accumulator (`yield op(out, v)`, `v` not reading
    the accumulator), when it is one of `IDENTITIES`; else None."""
    block = generic.body.block
    out = block.args[-1]
    terminator = block.last_op
    if terminator is None or len(terminator.operands) != 1:
        return None
    owner = terminator.operands[0].owner
    if not isinstance(owner, Operation) or owner.name not in IDENTITIES or len(owner.operands) != 2:
        return None
    if list(owner.operands).count(out) != 1 or any(use.operation is not owner for use in out.uses):
        return None
    return owner


def choose_width(stage: ktdf.StageOp, generic: xlinalg.GenericOp, red_dims: list[int], extents: list[int],
                 model: DeviceModel | None) -> int | None:
    """The L to step the reduction by, or None to keep one column per step.

    Applies to inputs of one type, each indexed by the identity map (one read once or more:
    `x * x`; several alike: `exp(x - m)` of a splatted row `m`, Decision 104), reduced
    along its innermost dim with an associative-commutative combiner, on a compute unit whose
    lanes for the input's element type hold at least two elements of every row of a step.
    """
    if model is None or not generic.inputs or len(red_dims) != 1 or combiner(generic) is None:
        return None
    input_type = generic.inputs[0].type
    if any(value.type != input_type for value in generic.inputs):
        return None  # inputs of one shape and type, each stepped alike (x * x, exp(x - m) of a row of m)
    if not isinstance(input_type, TensorType) or not isinstance(input_type.element_type, AnyFloat):
        return None
    shape = list(input_type.get_shape())
    maps = [m.data for m in generic.indexing_maps.data]
    if any(m != AffineMap.identity(len(shape)) for m in maps[:-1]) or red_dims[0] != len(shape) - 1:
        return None
    units = stage.unit_kinds
    if len(units) != 1:
        return None
    unit = model.units.get(units[0])
    lanes = unit.simd.lanes_for(input_type.element_type) if unit is not None and unit.simd is not None else 0
    extent = extents[0]
    rows = 1
    for size in shape[:-1]:
        rows *= size
    if lanes <= 0 or extent <= 1 or rows <= 0 or rows * 2 > lanes:
        return None
    width = 1
    while extent % (width * 2) == 0 and rows * width * 2 <= lanes:
        width *= 2
    return width if width > 1 else None


def identity_attr(op: Operation, element: Attribute) -> Attribute:
    """The combiner's identity as a constant of `element` (a float type)."""
    assert isinstance(element, AnyFloat)
    return FloatAttr(IDENTITIES[op.name], element)


def combine_body(op: Operation, element: Attribute) -> Block:
    """`^bb0(%in, %out): %r = op(%out, %in) (operands in op's order); linalg.yield %r`."""
    block = Block(arg_types=[element, element])
    inp, out = block.args
    parent = op.parent_block()
    assert parent is not None
    accumulator = parent.args[-1]
    folded = op.clone()
    folded.operands = [out if value is accumulator else inp for value in op.operands]
    block.add_ops([folded, xlinalg.YieldOp(folded.results[0])])
    return block


def is_lane_combine(op: Operation) -> bool:
    """A generic of a lane-wide reduction that reduces (its lane combine); the per-step
    generics are element-wise."""
    return lane_width(op) is not None and any(
        getattr(getattr(it, "data", None), "value", None) == "reduction" for it in op.iterator_types.data)


__all__ = ["LANE_WIDE", "IDENTITIES", "choose_width", "combine_body", "combiner", "identity_attr", "is_lane_combine",
           "lane_width", "mark"]
