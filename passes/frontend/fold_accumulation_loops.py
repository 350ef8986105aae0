"""`fold-accumulation-loops`: an `scf.for` whose `iter_args` sum reductions of loaded chunks
becomes one reduction over the whole range (README Decision 44).

A Triton-style K loop

    %c = scf.for %k = 0 to 64 step 32 iter_args(%acc = %zero) -> (tensor<8x32xf16>) {
      %a = ktdp.load A[%m, %k] : 8x32        %b = ktdp.load B[%k, %n] : 32x32
      %p = linalg.matmul ins(%a, %b) outs(%empty)
      %next = arith.addf %acc, %p            // or: linalg.matmul ... outs(%acc)
      scf.yield %next
    }

computes what one contraction over all of K computes: `%a` 8x64 from A[%m, 0], `%b` 64x32 from
B[0, %n], `linalg.matmul ins(%a, %b) outs(%zero)`. The pass rewrites the loop that way, so the
scheduler steps K itself: `reduction-loop-exposure` streams one K step per FIFO slot and
`map-reduction-partials` keeps the accumulator in the compute unit's register memory across
all steps (never a DDR round trip); the kernel's own chunk size, a GPU tiling choice, is not
kept.

A carried value folds when (each checked, the first failure is a located error on the loop
naming the value and the reason; nothing changes before every loop of the module passed):

1. the bounds and the step are constants, the step divides the range;
2. it is a ranked tensor, and its next value is `acc + R` (or `R + acc`) with `R` a sum
   reduction starting from zero (`tensor.empty`, a zero `linalg.fill` or `arith.constant`),
   or `R` itself reducing into `acc`; `acc` and `R` have no other use;
3. `R` is a linalg op whose body adds into its init (`linalg.reduce { arith.addf }`,
   `linalg.matmul`, a multiply-accumulate `linalg.generic`);
4. every input of `R` that changes with the loop is a `ktdp.load` of an access tile built in
   the loop whose only loop-dependent index is `%k` plus a loop-invariant offset, at a tile
   dimension of size `step` that `R` indexes by one reduction dimension (the same for every
   such input; identity `access_tile_order`); the inputs that do not change with the loop do
   not use that dimension;
5. nothing else in the loop depends on `%k` or writes memory.

The loop's initial value becomes `R`'s init (a splat constant as `linalg.fill` of
`tensor.empty`, the form the scheduler starts accumulators from). `ktir-legality-check` asks
`plan_fold` whether a loop folds; `compute-group-extraction` folds before it groups (a group
never crosses control flow). Reads no architecture facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr

from dfsched.compat import op_name
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int
from dfsched.passes.frontend.chunk_growth import (
    INDEX_OFFSETS,
    StreamedLoad,
    LoopDependence,
    accumulator_init,
    grown,
    grown_tile,
    inserter_before,
    is_fill_or_empty,
    refuse,
    refuse_effect,
    streamed_load,
    zero_or_empty,
)
from dfsched.passes.frontend.elementwise_chunk_loops import (
    ElementwiseFold,
    is_elementwise_accumulation,
    plan_elementwise_accumulation,
    plan_map_loop,
)
from dfsched.passes.frontend.online_softmax_loops import OnlineSoftmaxFold, plan_online_softmax
from dfsched.passes.frontend.linalg_generalize import is_linalg_compute, maps_and_iterators
from dfsched.passes.device_pass import CallPass

SUM_COMBINERS = frozenset({"arith.addf", "arith.addi"})


def fold_accumulation_loops(root: Operation) -> None:
    """Plan every loop with `iter_args` under `root` (raising on the first that does not fold),
    then fold them all; then fold the element-wise chunk loops without `iter_args` that read
    values loaded before them (Decision 60)."""
    plans = [plan_fold(loop) for loop in root.walk() if isinstance(loop, scf.ForOp) and loop.iter_args]
    for plan in plans:
        plan.apply()
    maps = [plan_map_loop(loop) for loop in root.walk() if isinstance(loop, scf.ForOp) and not loop.iter_args]
    for plan in maps:
        if plan is not None:
            plan.apply()


# ---------------------------------------------------------------------------
# Planning: every check, no change
# ---------------------------------------------------------------------------


@dataclass
class CarriedSum:
    """Carried value `index`: the reduction `reduction` accumulates into it from `init`."""

    index: int
    reduction: Operation
    init: SSAValue


@dataclass
class FoldPlan:
    """What folding `loop` changes: its carried sums, its streamed loads, the range's length."""

    loop: scf.ForOp
    total: int
    sums: list[CarriedSum] = field(default_factory=list)
    streamed: dict[Operation, StreamedLoad] = field(default_factory=dict)

    def apply(self) -> None:
        _apply(self)


def plan_fold(loop: scf.ForOp) -> FoldPlan | ElementwiseFold | OnlineSoftmaxFold:
    """How `loop` folds; a located error on the loop saying why when it does not."""
    if is_elementwise_accumulation(loop):
        return plan_elementwise_accumulation(loop)
    online = plan_online_softmax(loop)
    if online is not None:
        return online
    lb, ub, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None:
        raise refuse(loop, "its bounds and step must be constants (bind the kernel's scalars with --bind)")
    if step <= 0 or ub <= lb or (ub - lb) % step:
        raise refuse(loop, f"its step ({step}) must divide its non-empty range [{lb}, {ub})")
    plan = FoldPlan(loop, ub - lb)
    body = loop.body.block
    deps = LoopDependence(loop)
    for index, (acc, next_value) in enumerate(zip(body.args[1:], body.last_op.operands)):
        plan.sums.append(_plan_sum(plan, deps, index, acc, next_value, step))
    _check_rest_of_body(plan, deps)
    return plan


def _plan_sum(plan: FoldPlan, deps: LoopDependence, index: int, acc: BlockArgument,
              next_value: SSAValue, step: int) -> CarriedSum:
    loop = plan.loop
    if not isinstance(acc.type, TensorType):
        raise refuse(loop, f"a scalar of type {acc.type} accumulates only as the sum of "
                            "`tensor.extract`s of one-element reductions, one per iteration (the front door "
                            "then carries the reduction's tensor, Decision 70)", index)
    reduction = _reduction_of(loop, index, acc, next_value)
    if not _sums_into_init(reduction):
        raise refuse(loop, f"'{op_name(reduction)}' does not add into its init", index)
    maps, iterators = maps_and_iterators(reduction)
    inputs = list(reduction.operands[:-1])
    dims: set[int] = set()
    for position, value in enumerate(inputs):
        if not deps.depends(value):
            continue
        streamed = streamed_load(loop, deps, index, value, step)
        plan.streamed[streamed.load] = streamed
        result = maps[position].results[streamed.position]
        if not isinstance(result, AffineDimExpr) or iterators[result.position] != "reduction":
            raise refuse(loop, f"input #{position} of '{op_name(reduction)}' changes with the loop "
                                f"along a dimension it does not reduce", index)
        dims.add(result.position)
    if not dims:
        raise refuse(loop, f"'{op_name(reduction)}' reads nothing that changes with the loop", index)
    if len(dims) > 1:
        raise refuse(loop, f"the inputs of '{op_name(reduction)}' step along different reduction "
                            f"dimensions", index)
    dim = dims.pop()
    for position, value in enumerate(inputs):
        if not deps.depends(value) and any(e.position == dim for e in maps[position].results
                                           if isinstance(e, AffineDimExpr)):
            raise refuse(loop, f"input #{position} of '{op_name(reduction)}' is the same in every "
                                f"iteration but indexed by the reduction dimension the loop steps", index)
    init = loop.iter_args[index]
    if zero_or_empty(init) is None and not is_fill_or_empty(init):
        raise refuse(loop, "its initial value must be a splat constant, a linalg.fill or a "
                            "tensor.empty (the scheduler starts an accumulator from a constant)", index)
    return CarriedSum(index, reduction, init)


def _reduction_of(loop: Operation, index: int, acc: BlockArgument, next_value: SSAValue) -> Operation:
    """The reduction whose result is added to `acc` (or that reduces into `acc`)."""
    owner = next_value.owner if isinstance(next_value, OpResult) else None
    if owner is None or owner.parent_block() is not loop.body.block:
        raise refuse(loop, "it is yielded without being computed in the loop", index)
    if op_name(owner) in SUM_COMBINERS and len(owner.operands) == 2 and acc in owner.operands:
        other = owner.operands[1] if owner.operands[0] is acc else owner.operands[0]
        reduction = other.owner if isinstance(other, OpResult) else None
        if reduction is None or not _is_reduction(reduction) or other is acc:
            raise refuse(loop, "the value added to it is not computed by a linalg reduction "
                                "(accumulating loaded chunks element-wise is not supported)", index)
        if zero_or_empty(reduction.operands[-1]) is not True:
            raise refuse(loop, f"'{op_name(reduction)}' must start from zero (tensor.empty or a zero "
                                f"fill): each iteration would add its init again", index)
        _only_use(loop, index, acc, owner)
        _only_use(loop, index, other, owner)
        return reduction
    if _is_reduction(owner) and owner.operands[-1] is acc:
        _only_use(loop, index, acc, owner)
        return owner
    raise refuse(loop, "its next value must be the sum of it and a linalg reduction, or a linalg "
                        "reduction into it", index)


def _only_use(loop: Operation, index: int, value: SSAValue, user: Operation) -> None:
    if any(use.operation is not user for use in value.uses):
        raise refuse(loop, "it is read in the loop other than by its accumulation", index)


def _is_reduction(op: Operation) -> bool:
    if not is_linalg_compute(op) or len(op.results) != 1 or not op.regions:
        return False
    maps_iterators = maps_and_iterators(op)
    return maps_iterators is not None and "reduction" in maps_iterators[1]


def _sums_into_init(reduction: Operation) -> bool:
    """The body yields `init + f(inputs)`, `init` read nowhere else."""
    block = reduction.regions[0].blocks.first
    out = block.args[-1]
    yielded = block.last_op.operands[0] if block.last_op.operands else None
    owner = yielded.owner if isinstance(yielded, OpResult) else None
    return (owner is not None and op_name(owner) in SUM_COMBINERS and out in owner.operands
            and len(list(out.uses)) == 1 and owner.operands[0] is not owner.operands[1])


def _check_rest_of_body(plan: FoldPlan, deps: LoopDependence) -> None:
    """Nothing else in the loop may depend on `%k` or have an effect."""
    body = plan.loop.body.block
    accumulations = {s.reduction for s in plan.sums}
    accumulations |= {u.operation for s in plan.sums for u in s.reduction.results[0].uses}
    allowed = accumulations | {s.load for s in plan.streamed.values()} | {s.tile for s in plan.streamed.values()}
    for op in body.ops:
        if op is body.last_op or op in allowed:
            continue
        refuse_effect(plan.loop, op, "loads, index arithmetic and the accumulations")
        if any(deps.depends(r) for r in op.results) and not _feeds_only_tile_indices(op, allowed):
            raise refuse(plan.loop, f"'{op_name(op)}' in the loop depends on the loop variable other "
                                     f"than through a streamed tile's index")


def _feeds_only_tile_indices(op: Operation, allowed: set[Operation]) -> bool:
    users = [u.operation for r in op.results for u in r.uses]
    return all(isinstance(u, ktdp.ConstructAccessTileOp) and u in allowed
               or op_name(u) in INDEX_OFFSETS and _feeds_only_tile_indices(u, allowed) for u in users)


# ---------------------------------------------------------------------------
# Folding
# ---------------------------------------------------------------------------


def _apply(plan: FoldPlan) -> None:
    loop = plan.loop
    insert = inserter_before(loop)
    iv = loop.body.block.args[0]
    start = insert(arith.ConstantOp(IntegerAttr(constant_int(loop.lb), iv.type)), loop)
    mapping: dict[SSAValue, SSAValue] = {iv: start.results[0]}
    needed = _needed_ops(plan)
    for op in loop.body.block.ops:
        if op not in needed:
            continue
        streamed = next((s for s in plan.streamed.values() if s.tile is op), None)
        if streamed is not None:
            new = grown_tile(op, streamed.position, plan.total, mapping)
        elif op in plan.streamed:
            new = ktdp.LoadOp(mapping[op.operands[0]], grown(op.results[0].type, plan.streamed[op].position,
                                                              plan.total))
        else:
            new = op.clone(value_mapper=mapping)
        insert(new, op)
        for old, fresh in zip(op.results, new.results):
            mapping[old] = fresh
    for carried in plan.sums:
        init = accumulator_init(carried.init, insert, loop)
        reduction = carried.reduction.clone(value_mapper={**mapping, carried.reduction.operands[-1]: init})
        insert(reduction, carried.reduction)
        loop.results[carried.index].replace_all_uses_with(reduction.results[0])
    loop.detach()
    loop.erase()


def _needed_ops(plan: FoldPlan) -> set[Operation]:
    """Body ops the reductions' inputs are computed from."""
    body = plan.loop.body.block
    needed: set[Operation] = set()
    work = [v for s in plan.sums for v in s.reduction.operands[:-1]]
    while work:
        value = work.pop()
        owner = value.owner if isinstance(value, OpResult) else None
        if owner is None or owner.parent_block() is not body or owner in needed:
            continue
        needed.add(owner)
        work.extend(v for inner in owner.walk() for v in inner.operands)
    return needed


class FoldAccumulationLoops(CallPass):
    """Fold every accumulation loop into one reduction over its whole range."""

    name = "fold-accumulation-loops"
    run = staticmethod(fold_accumulation_loops)
