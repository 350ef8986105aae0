"""`affine-min-canonicalization`: `min(iv + step, ub) - iv` becomes `affine.min`
(`docs/passes.md#affine-min-canonicalization`).

The fallback SCF tiling writes a partial tile's size as

    %add = arith.addi %iv, %step        (operands in either order)
    %min = arith.minsi %add, %ub        (operands in either order)
    %r   = affine.apply ()[s0, s1] -> (s1 - s0) ()[%iv, %min]

and this pass rewrites the `affine.apply` into

    %r   = affine.min (d0)[s0, s1] -> (s0 - d0, s1) (%iv)[%ub, %step]

The pattern runs under MLIR's greedy driver (bottom-up, with folding), so `%min` and `%add` go
when nothing else uses them, and the `affine.min` folder then replaces every map result whose
operands are all constant by that constant (with a constant step: `(-d0 + s0, 2)`), the operand
list staying as it is. The driver also folds whatever else it visits, as MLIR's does.

If the rewrites do not settle within the driver's iteration limit (MLIR's default, 10) the pass
fails with "affine-min canonicalization: pattern application failed" on the module. The limit is
the option `max-iterations` (not an upstream option: it only exists so that this failure can be
exercised; with 1, any input the pass changes fails).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine as xaffine
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from dfsched.diagnostics import error
from dfsched.dialects.affine_subscripts import affine_add, affine_neg, affine_sub
from dfsched.passes.cleanup.greedy import GreedyConfig, apply_patterns_greedily
from dfsched.passes.cleanup.patterns import fold, folder_patterns, new_min

FAILURE = "affine-min canonicalization: pattern application failed"


def is_subtraction_map(amap: AffineMap) -> bool:
    """`()[s0, s1] -> (s1 - s0)` (MLIR builds `-s0 + s1` the same way)."""
    if amap.num_dims != 0 or amap.num_symbols != 2 or len(amap.results) != 1:
        return False
    s0, s1 = AffineSymExpr(0), AffineSymExpr(1)
    return amap.results[0] in (affine_sub(s1, s0), affine_add(affine_neg(s0), s1))


def _defined_by(value: SSAValue, kind: type[Operation]) -> Operation | None:
    return value.op if isinstance(value, OpResult) and isinstance(value.op, kind) else None


def match_tile_size(apply: xaffine.ApplyOp) -> tuple[SSAValue, SSAValue, SSAValue] | None:
    """(iv, ub, step) when `apply` computes `minsi(addi(iv, step), ub) - iv`."""
    if not is_subtraction_map(apply.map.data) or len(apply.mapOperands) != 2:
        return None
    iv, minimum = apply.mapOperands
    min_op = _defined_by(minimum, arith.MinSIOp)
    if min_op is None:
        return None
    lhs, rhs = min_op.operands
    if (add := _defined_by(lhs, arith.AddiOp)) is not None:
        ub = rhs
    elif (add := _defined_by(rhs, arith.AddiOp)) is not None:
        ub = lhs
    else:
        return None
    a, b = add.operands
    if a is iv:
        step = b
    elif b is iv:
        step = a
    else:
        return None
    return iv, ub, step


class CanonicalizeToAffineMin(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xaffine.ApplyOp, rewriter: PatternRewriter) -> None:
        matched = match_tile_size(op)
        if matched is None:
            return
        iv, ub, step = matched
        d0, s0, s1 = AffineDimExpr(0), AffineSymExpr(0), AffineSymExpr(1)
        min_map = AffineMap(1, 2, (affine_sub(s0, d0), s1))
        rewriter.replace(op, new_min(min_map, [iv, ub, step]))


_PATTERN = (CanonicalizeToAffineMin(),)


def _patterns_for(op: Operation):
    if isinstance(op, xaffine.ApplyOp):
        return _PATTERN
    return folder_patterns(op)


@dataclass(frozen=True)
class AffineMinCanonicalization(ModulePass):
    """Rewrite the partial-tile size min(iv + step, ub) - iv as affine.min."""

    name = "affine-min-canonicalization"

    max_iterations: int = 10
    """Rounds of the greedy driver before the pass fails (dfsched's option, for testing)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        config = GreedyConfig(top_down=False, max_iterations=self.max_iterations)
        if not apply_patterns_greedily(op, _patterns_for, fold, config):
            raise error(op, FAILURE)
