"""Integer arithmetic on the compute tile id, evaluated for one tile.

Host code picks work by the tile id (`for row = pid to N step G`, `scf.if pid == 0`): the front
door counts each tile's loop iterations (`tile-invariant-loop-bounds`) and the DataflowIR
lowering keeps a branch's program on the cores where it holds (`dfir_tile_branches`). Both ask
the same question, answered here once.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int

_EVALUATORS: dict[type, Callable[[int, int], int | None]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b if a >= 0 and b > 0 else None,
    arith.RemUIOp: lambda a, b: a % b if a >= 0 and b > 0 else None,
    arith.CeilDivSIOp: lambda a, b: -(-a // b) if b > 0 else None,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
    arith.MinUIOp: lambda a, b: min(a, b) if a >= 0 and b >= 0 else None,
    arith.MaxUIOp: lambda a, b: max(a, b) if a >= 0 and b >= 0 else None,
    arith.DivSIOp: lambda a, b: a // b if a >= 0 and b > 0 else None,
    arith.RemSIOp: lambda a, b: a % b if a >= 0 and b > 0 else None,
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
    arith.XOrIOp: lambda a, b: a ^ b,
}

# arith.cmpi predicates eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge (the unsigned ones on
# operands that are not negative, where they agree with the signed ones)
_COMPARISONS: dict[int, Callable[[int, int], bool]] = {
    0: lambda a, b: a == b, 1: lambda a, b: a != b,
    2: lambda a, b: a < b, 3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
    6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b, 9: lambda a, b: a >= b,
}



def evaluate_at_tile(value: SSAValue, tile: tuple[int, ...]) -> int | None:
    """`value` at compute tile `tile` (its coordinates), or None when it is not integer arithmetic
    on the tile id and constants that this evaluator can decide."""
    constant = constant_int(value)
    if constant is not None:
        return constant
    owner = value.owner
    if isinstance(owner, ktdp.GetComputeTileIdOp):
        index = list(owner.results).index(value)
        return tile[index] if index < len(tile) else None
    if isinstance(owner, arith.SelectOp):
        condition = evaluate_at_tile(owner.cond, tile)
        if condition is None:
            return None
        return evaluate_at_tile(owner.lhs if condition else owner.rhs, tile)
    if isinstance(owner, arith.CmpiOp):
        lhs, rhs = (evaluate_at_tile(o, tile) for o in owner.operands)
        predicate = owner.predicate.value.data
        compare = _COMPARISONS.get(predicate)
        if lhs is None or rhs is None or compare is None or (predicate >= 6 and min(lhs, rhs) < 0):
            return None
        return int(compare(lhs, rhs))
    evaluate = _EVALUATORS.get(type(owner))
    if evaluate is None:
        return None
    lhs, rhs = (evaluate_at_tile(o, tile) for o in owner.operands)
    return None if lhs is None or rhs is None else evaluate(lhs, rhs)
