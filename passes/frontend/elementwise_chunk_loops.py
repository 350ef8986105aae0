"""Chunk loops that compute element-wise, folded into one computation over their range
(`fold-accumulation-loops`, README Decision 60).

Triton's layernorm and RMSNorm walk a row in chunks twice. First an *element-wise
accumulation*:

    %acc = scf.for %k = 0 to 4096 step 1024 iter_args(%a = dense<0.0>) -> tensor<1x1024xf16> {
      %x = ktdp.load X[%r, %k] : 1x1024      %sq = arith.mulf %x, %x
      %n = arith.addf %a, %sq                scf.yield %n
    }
    %sum = linalg.reduce { arith.addf } ins(%acc) outs(%zero) dimensions = [1]

sums the chunks element by element and reduces the sum after the loop. Summing all chunks'
elements is what one reduction over the whole row computes, so the loop and the reduction
become `%x` loaded 1x4096, `%sq` on it, and the reduction of `%sq` (the same for a running
maximum or minimum reduced by the same combiner). Second a *map loop* (no `iter_args`) that
loads chunks, computes element-wise with a value derived from the first pass (the row's
factor) and stores each chunk: a compute group cannot span control flow, so such a loop
(one whose body reads a value loaded before it) becomes the same computation on the whole
range, one store.

Conditions (`ChunkGrowth` checks the computation; each failure of an accumulation is a located
error on the loop naming the carried value; a map loop that does not fold is left alone):

1. constant bounds, a step that divides the range, no nested regions in the body;
2. accumulation: the next value is `C(acc, E)` with `C` one of `arith.addf/addi/maximumf/
   minimumf/maxnumf/minnumf`, `acc` read nowhere else; the initial value is `C`'s identity
   (a splat constant or fill of 0, -inf, +inf); the loop's result is read by one
   `linalg.reduce { C }` alone, whose dimensions include the one the chunks step along;
3. `E` (or each stored value) is element-wise on chunks (`ChunkGrowth`);
4. nothing else in the loop has an effect.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, OpResult, SSAValue

from dfsched.compat import op_name
from dfsched.diagnostics import DiagnosticError
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_attr, constant_int
from dfsched.passes.frontend.chunk_growth import ChunkGrowth, LoopDependence, inserter_before, refuse, refuse_effect

# combiner -> the value of its identity element (None: zero of any type)
COMBINERS = {"arith.addf": 0.0, "arith.addi": 0, "arith.maximumf": -math.inf, "arith.maxnumf": -math.inf,
             "arith.minimumf": math.inf, "arith.minnumf": math.inf}


@dataclass
class ElementwiseFold:
    """Folding `loop`: its chunk computation grown to the whole range; for an accumulation,
    the reductions after the loop (carried index -> reduction, element-wise operand)."""

    loop: scf.ForOp
    growth: ChunkGrowth
    reductions: dict[int, tuple[Operation, SSAValue]] = field(default_factory=dict)

    def apply(self) -> None:
        loop = self.loop
        insert = inserter_before(loop)
        mapping = self.growth.grow([e for _, e in self.reductions.values()], insert)
        for store in self.growth.stores:
            insert(ktdp.StoreOp(mapping[store.operands[0]], mapping[store.operands[1]],
                                attributes=dict(store.attributes)), store)
        for reduction, element in self.reductions.values():
            reduction.operands = [mapping[element], *reduction.operands[1:]]
        loop.detach()
        loop.erase()


def is_elementwise_accumulation(loop: scf.ForOp) -> bool:
    """Every carried value's next value combines it with something that is not a linalg op
    (`fold_accumulation_loops` folds those as reductions)."""
    body = loop.body.block
    for acc, next_value in zip(body.args[1:], body.last_op.operands):
        owner = next_value.owner if isinstance(next_value, OpResult) else None
        if owner is None or op_name(owner) not in COMBINERS or acc not in owner.operands:
            return False
        other = [v for v in owner.operands if v is not acc]
        producer = other[0].owner if len(other) == 1 and isinstance(other[0], OpResult) else None
        if len(other) != 1 or producer is not None and op_name(producer).startswith("linalg."):
            return False
    return True


def plan_elementwise_accumulation(loop: scf.ForOp) -> ElementwiseFold:
    """How `loop` folds with the reductions after it; a located error saying why not."""
    growth = _growth(loop)
    if growth is None:
        raise refuse(loop, "its bounds and step must be constants with the step dividing the range, "
                           "and its body must hold no regions")
    plan = ElementwiseFold(loop, growth)
    body = loop.body.block
    combines: set[Operation] = set()
    for index, (acc, next_value) in enumerate(zip(body.args[1:], body.last_op.operands)):
        growth.index = index
        combine = next_value.owner
        if combine.parent_block() is not body:
            raise growth.refuse("it is yielded without being computed in the loop")
        if any(use.operation is not combine for use in acc.uses):
            raise growth.refuse("it is read in the loop other than by its accumulation")
        element = combine.operands[1] if combine.operands[0] is acc else combine.operands[0]
        combiner = op_name(combine)
        if not is_identity(loop.iter_args[index], COMBINERS[combiner]):
            raise growth.refuse(f"its initial value must be the identity of '{combiner}' (a splat "
                                f"constant or fill): the chunks are combined once each")
        result = loop.results[index]
        users = [use.operation for use in result.uses]
        if len(users) != 1 or op_name(users[0]) != "linalg.reduce" or users[0].operands[0] is not result \
                or len(users[0].operands) != 2 or _reduce_combiner(users[0]) != combiner:
            raise growth.refuse(f"it is accumulated element-wise, so its result must be read by one "
                                f"'linalg.reduce {{ {combiner} }}' alone (the loop and the reduction "
                                f"fold into one reduction)")
        growth.add_value(element)
        plan.reductions[index] = (users[0], element)
        combines.add(combine)
    growth.index = None
    position = growth.finish()
    for reduction, _ in plan.reductions.values():
        if position not in reduction.dimensions.get_values():
            raise refuse(loop, "the reduction after the loop does not reduce the dimension the chunks "
                               "step along")
    _check_rest_of_body(growth, combines)
    return plan


def plan_map_loop(loop: scf.ForOp) -> ElementwiseFold | None:
    """How a loop without `iter_args` that reads values loaded before it folds, else None."""
    if loop.iter_args or not _reads_loaded_values(loop):
        return None
    growth = _growth(loop)
    if growth is None:
        return None
    stores = [op for op in loop.body.block.ops if isinstance(op, ktdp.StoreOp)]
    try:
        if not stores:
            return None
        for store in stores:
            growth.add_store(store)
        growth.finish()
        _check_rest_of_body(growth, set(stores))
    except DiagnosticError:
        return None  # the scheduler's own error (a group spanning control flow) says what is wrong
    return ElementwiseFold(loop, growth)


def _growth(loop: scf.ForOp) -> ChunkGrowth | None:
    lb, ub, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0 or ub <= lb or (ub - lb) % step:
        return None
    if any(op.regions for op in loop.body.block.ops):
        return None
    return ChunkGrowth(loop, LoopDependence(loop), step, ub - lb)


def _reads_loaded_values(loop: scf.ForOp) -> bool:
    """The body uses a value from outside the loop computed from a load or a loop's result."""
    seen: set[SSAValue] = set()

    def loaded(value: SSAValue) -> bool:
        if value in seen or not isinstance(value, OpResult):
            return False
        seen.add(value)
        owner = value.owner
        if isinstance(owner, ktdp.LoadOp | scf.ForOp):
            return True
        return any(loaded(v) for inner in owner.walk() for v in inner.operands)

    return any(loaded(v) for op in loop.body.block.ops for v in op.operands
               if not (isinstance(v, OpResult) and loop.is_ancestor(v.owner)))


def _check_rest_of_body(growth: ChunkGrowth, roots: set[Operation]) -> None:
    body = growth.loop.body.block
    for op in body.ops:
        if op is body.last_op or op in roots:
            continue
        refuse_effect(growth.loop, op, "loads, stores of chunks, index arithmetic and the accumulations")


def is_identity(value: SSAValue, identity: float) -> bool:
    owner = value.owner if isinstance(value, OpResult) else None
    attr = constant_attr(owner.inputs[0]) if isinstance(owner, FillOp) else constant_attr(value)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        if not attr.is_splat():
            return False
        scalar = attr.get_values()[0]
    elif isinstance(attr, FloatAttr | IntegerAttr):
        scalar = attr.value.data
    else:
        return False
    return float(scalar) == identity


def _reduce_combiner(reduction: Operation) -> str | None:
    """The op a `linalg.reduce` body combines its two arguments with."""
    block = reduction.regions[0].blocks.first
    yielded = block.last_op.operands[0] if block.last_op.operands else None
    owner = yielded.owner if isinstance(yielded, OpResult) else None
    if owner is None or set(owner.operands) != set(block.args) or len(owner.operands) != 2:
        return None
    return op_name(owner)
