"""`loop-invariant-code-motion`: MLIR's LICM pass (`LoopInvariantCodeMotion.cpp`).

Loops are visited innermost first (post-order), so an op hoisted out of an inner loop can be
hoisted again out of the loop that now holds it. In each loop body, the top-level ops are taken
in order; an op moves right before the loop when

* it is not a terminator,
* it has no memory effect at all (nested ops included) and is speculatable, i.e. it is pure:
  arith, `affine.apply`/`affine.min`, `ktdf.tiling.derive_size`, `ktdf.tiling.linearize_index`,
  ...; an allocation is an effect, so `memref.alloc`, `ktdf.create_token`,
  `ktdf.tiling.reserve_size` stay, and so do ops without effect information (`ktdf.pipeline`,
  `ktdf.stage`, `ktdf.data_transfer`, unregistered ops);
* none of its operands, nor of the ops nested in it, is defined in the loop body (values
  defined inside the op itself do not count).

After an op moves, its users at the top level of the same body are looked at again.

Loops are `scf.for`, `scf.parallel`, `scf.while` (its `after` region) and `affine.for`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from dfsched.passes.walk import post_order
from dfsched.passes.cleanup.effects import is_memory_effect_free, is_speculatable

LOOP_REGIONS = {"scf.for": (0,), "scf.parallel": (0,), "scf.while": (1,), "affine.for": (0,)}


def loop_regions(op: Operation) -> list[Region]:
    return [op.regions[i] for i in LOOP_REGIONS.get(op.name, ()) if i < len(op.regions)]


def can_be_hoisted(op: Operation, region: Region) -> bool:
    """No terminator, and every operand used in `op` (nested ops included) comes from outside."""
    if op.has_trait(IsTerminator, value_if_unregistered=True):
        return False
    for child in op.walk():
        for operand in child.operands:
            owner = operand.owner
            # The op holding the region that defines the value: inside `op`, it is op-local.
            holder = owner.parent_op() if isinstance(owner, Operation | Block) else None
            if holder is not None and op.is_ancestor(holder):
                continue
            if region.is_ancestor(owner):  # defined in the loop's region
                return False
    return True


def should_move(op: Operation) -> bool:
    return is_memory_effect_free(op) and is_speculatable(op)


def move_loop_invariant_code(loop: Operation) -> int:
    """Hoist the invariant pure ops of `loop`'s body in front of it; returns how many moved."""
    moved = 0
    for region in loop_regions(loop):
        worklist = deque(op for block in region.blocks for op in block.ops)
        while worklist:
            op = worklist.popleft()
            if op.parent_region() is not region:
                continue
            if not should_move(op) or not can_be_hoisted(op, region):
                continue
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(loop))
            moved += 1
            for result in op.results:
                for use in result.uses:
                    if use.operation.parent_region() is region:
                        worklist.append(use.operation)
    return moved


@dataclass(frozen=True)
class LoopInvariantCodeMotion(ModulePass):
    """Hoist pure, loop-invariant ops out of loops, innermost loops first (MLIR's rules)."""

    name = "loop-invariant-code-motion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in [op for op in post_order(op) if op.name in LOOP_REGIONS]:
            move_loop_invariant_code(loop)
