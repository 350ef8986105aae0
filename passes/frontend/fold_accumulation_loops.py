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

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.traits import Pure

from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_attr, constant_int
from dfsched.passes.frontend.linalg_generalize import generic_form, is_linalg_compute, is_zero
from dfsched.passes.frontend.utils import box_set, op_name

REFUSED = "V1 does not support scf.for with loop-carried arguments (iter_args)"
SUM_COMBINERS = frozenset({"arith.addf", "arith.addi"})
INDEX_OFFSETS = frozenset({"arith.addi", "arith.index_cast", "arith.index_castui"})
# Ops without the Pure trait that may stay in a folded loop's body: they write no memory.
READ_ONLY = frozenset({"ktdp.load", "tensor.empty", "linalg.fill"})


@dataclass(frozen=True)
class FoldAccumulationLoops(ModulePass):
    """Fold every accumulation loop into one reduction over its whole range."""

    name = "fold-accumulation-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_accumulation_loops(op)


def fold_accumulation_loops(root: Operation) -> None:
    """Plan every loop with `iter_args` under `root` (raising on the first that does not fold),
    then fold them all."""
    plans = [plan_fold(loop) for loop in root.walk() if isinstance(loop, scf.ForOp) and loop.iter_args]
    for plan in plans:
        plan.apply()


# ---------------------------------------------------------------------------
# Planning: every check, no change
# ---------------------------------------------------------------------------


@dataclass
class StreamedLoad:
    """A load inside the loop that reads chunk `%k`: its tile grows along `position`."""

    tile: Operation
    load: Operation
    position: int


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


def plan_fold(loop: scf.ForOp) -> FoldPlan:
    """How `loop` folds; a located error on the loop saying why when it does not."""
    lb, ub, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None:
        raise _refuse(loop, "its bounds and step must be constants (bind the kernel's scalars with --bind)")
    if step <= 0 or ub <= lb or (ub - lb) % step:
        raise _refuse(loop, f"its step ({step}) must divide its non-empty range [{lb}, {ub})")
    plan = FoldPlan(loop, ub - lb)
    body = loop.body.block
    deps = _LoopDependence(loop)
    for index, (acc, next_value) in enumerate(zip(body.args[1:], body.last_op.operands)):
        plan.sums.append(_plan_sum(plan, deps, index, acc, next_value, step))
    _check_rest_of_body(plan, deps)
    return plan


def _refuse(loop: Operation, why: str, value: int | None = None):
    what = "" if value is None else f"loop-carried value #{value}: "
    return error(loop, f"{REFUSED} unless they accumulate sums of loaded chunks; {what}{why}")


def _plan_sum(plan: FoldPlan, deps: _LoopDependence, index: int, acc: BlockArgument,
              next_value: SSAValue, step: int) -> CarriedSum:
    loop = plan.loop
    if not isinstance(acc.type, TensorType):
        raise _refuse(loop, f"a scalar of type {acc.type}: only ranked tensors accumulate "
                            f"(carry a tensor<1x{acc.type}>)", index)
    reduction = _reduction_of(loop, index, acc, next_value)
    if not _sums_into_init(reduction):
        raise _refuse(loop, f"'{op_name(reduction)}' does not add into its init", index)
    maps, iterators = _maps_and_iterators(reduction)
    inputs = list(reduction.operands[:-1])
    dims: set[int] = set()
    for position, value in enumerate(inputs):
        if not deps.depends(value):
            continue
        streamed = _streamed_load(loop, deps, index, value, step)
        plan.streamed[streamed.load] = streamed
        result = maps[position].results[streamed.position]
        if not isinstance(result, AffineDimExpr) or iterators[result.position] != "reduction":
            raise _refuse(loop, f"input #{position} of '{op_name(reduction)}' changes with the loop "
                                f"along a dimension it does not reduce", index)
        dims.add(result.position)
    if not dims:
        raise _refuse(loop, f"'{op_name(reduction)}' reads nothing that changes with the loop", index)
    if len(dims) > 1:
        raise _refuse(loop, f"the inputs of '{op_name(reduction)}' step along different reduction "
                            f"dimensions", index)
    dim = dims.pop()
    for position, value in enumerate(inputs):
        if not deps.depends(value) and any(e.position == dim for e in maps[position].results
                                           if isinstance(e, AffineDimExpr)):
            raise _refuse(loop, f"input #{position} of '{op_name(reduction)}' is the same in every "
                                f"iteration but indexed by the reduction dimension the loop steps", index)
    init = loop.iter_args[index]
    if _zero_or_empty(init) is None and not _is_fill_or_empty(init):
        raise _refuse(loop, "its initial value must be a splat constant, a linalg.fill or a "
                            "tensor.empty (the scheduler starts an accumulator from a constant)", index)
    return CarriedSum(index, reduction, init)


def _reduction_of(loop: Operation, index: int, acc: BlockArgument, next_value: SSAValue) -> Operation:
    """The reduction whose result is added to `acc` (or that reduces into `acc`)."""
    owner = next_value.owner if isinstance(next_value, OpResult) else None
    if owner is None or owner.parent_block() is not loop.body.block:
        raise _refuse(loop, "it is yielded without being computed in the loop", index)
    if op_name(owner) in SUM_COMBINERS and len(owner.operands) == 2 and acc in owner.operands:
        other = owner.operands[1] if owner.operands[0] is acc else owner.operands[0]
        reduction = other.owner if isinstance(other, OpResult) else None
        if reduction is None or not _is_reduction(reduction) or other is acc:
            raise _refuse(loop, f"the value added to it is not computed by a linalg reduction "
                                f"(accumulating loaded chunks element-wise is not supported)", index)
        if _zero_or_empty(reduction.operands[-1]) is not True:
            raise _refuse(loop, f"'{op_name(reduction)}' must start from zero (tensor.empty or a zero "
                                f"fill): each iteration would add its init again", index)
        _only_use(loop, index, acc, owner)
        _only_use(loop, index, other, owner)
        return reduction
    if _is_reduction(owner) and owner.operands[-1] is acc:
        _only_use(loop, index, acc, owner)
        return owner
    raise _refuse(loop, "its next value must be the sum of it and a linalg reduction, or a linalg "
                        "reduction into it", index)


def _only_use(loop: Operation, index: int, value: SSAValue, user: Operation) -> None:
    if any(use.operation is not user for use in value.uses):
        raise _refuse(loop, "it is read in the loop other than by its accumulation", index)


def _is_reduction(op: Operation) -> bool:
    if not is_linalg_compute(op) or len(op.results) != 1 or not op.regions:
        return False
    maps_iterators = _maps_and_iterators(op)
    return maps_iterators is not None and "reduction" in maps_iterators[1]


def _maps_and_iterators(op: Operation) -> tuple[list[AffineMap], list[str]] | None:
    """The indexing maps and iterator names of a linalg op, read off its generic form."""
    generic = op if op_name(op) == "linalg.generic" else generic_form(op, None)
    if generic is None:
        return None
    maps = [m.data for m in generic.indexing_maps.data]
    iterators = [str(it.data) for it in generic.iterator_types.data]
    if generic is not op:
        generic.erase()  # a detached copy: drop the uses it holds on the kernel's values
    return maps, iterators


def _sums_into_init(reduction: Operation) -> bool:
    """The body yields `init + f(inputs)`, `init` read nowhere else."""
    block = reduction.regions[0].blocks.first
    out = block.args[-1]
    yielded = block.last_op.operands[0] if block.last_op.operands else None
    owner = yielded.owner if isinstance(yielded, OpResult) else None
    return (owner is not None and op_name(owner) in SUM_COMBINERS and out in owner.operands
            and len(list(out.uses)) == 1 and owner.operands[0] is not owner.operands[1])


def _streamed_load(loop: Operation, deps: _LoopDependence, index: int, value: SSAValue,
                   step: int) -> StreamedLoad:
    load = value.owner if isinstance(value, OpResult) else None
    tile = load.operands[0].owner if isinstance(load, ktdp.LoadOp) else None
    if not isinstance(tile, ktdp.ConstructAccessTileOp) or tile.parent_block() is not loop.body.block:
        where = f"'{op_name(load)}'" if load is not None else "a block argument"
        raise _refuse(loop, f"a reduction input changes with the loop through {where}, not directly "
                            f"through a ktdp.load of an access tile built in the loop", index)
    if deps.depends(tile.base) or any(deps.depends(s) for s in tile.symbol_operands):
        raise _refuse(loop, "a streamed access tile's view or symbols change with the loop", index)
    moving = [i for i, v in enumerate(tile.indices) if deps.depends(v)]
    if len(moving) != 1 or not _is_offset_of_iv(tile.indices[moving[0]], deps):
        raise _refuse(loop, "a streamed access tile must have exactly one index that is the loop "
                            "variable plus a loop-invariant offset", index)
    order = tile.access_tile_order
    rank = len(tile.result.type.get_shape())
    if order is not None and order.data != AffineMap.identity(rank):
        raise _refuse(loop, "a streamed access tile must enumerate its coordinates in order", index)
    position = list(tile.base_map.data.results).index(AffineDimExpr(moving[0])) \
        if AffineDimExpr(moving[0]) in tile.base_map.data.results else None
    if position is None:
        raise _refuse(loop, "a streamed access tile's moving index is not one of its dimensions", index)
    size = tile.result.type.get_shape()[position]
    if size != step:
        raise _refuse(loop, f"a streamed tile is {size} long along the loop's dimension but the loop "
                            f"steps by {step}: the chunks must tile the range exactly", index)
    return StreamedLoad(tile, load, position)


def _is_offset_of_iv(value: SSAValue, deps: _LoopDependence) -> bool:
    if value is deps.iv:
        return True
    owner = value.owner if isinstance(value, OpResult) else None
    if owner is None or op_name(owner) not in INDEX_OFFSETS:
        return False
    moving = [v for v in owner.operands if deps.depends(v)]
    return len(moving) == 1 and _is_offset_of_iv(moving[0], deps)


def _check_rest_of_body(plan: FoldPlan, deps: _LoopDependence) -> None:
    """Nothing else in the loop may depend on `%k` or have an effect."""
    body = plan.loop.body.block
    accumulations = {s.reduction for s in plan.sums}
    accumulations |= {u.operation for s in plan.sums for u in s.reduction.results[0].uses}
    allowed = accumulations | {s.load for s in plan.streamed.values()} | {s.tile for s in plan.streamed.values()}
    for op in body.ops:
        if op is body.last_op or op in allowed:
            continue
        if not op.has_trait(Pure) and op_name(op) not in READ_ONLY:
            raise _refuse(plan.loop, f"'{op_name(op)}' in the loop has an effect (only loads, index "
                                     f"arithmetic and the accumulations may be inside)")
        if any(deps.depends(r) for r in op.results) and not _feeds_only_tile_indices(op, allowed):
            raise _refuse(plan.loop, f"'{op_name(op)}' in the loop depends on the loop variable other "
                                     f"than through a streamed tile's index")


def _feeds_only_tile_indices(op: Operation, allowed: set[Operation]) -> bool:
    users = [u.operation for r in op.results for u in r.uses]
    return all(isinstance(u, ktdp.ConstructAccessTileOp) and u in allowed
               or op_name(u) in INDEX_OFFSETS and _feeds_only_tile_indices(u, allowed) for u in users)


class _LoopDependence:
    """Which values change from one iteration of `loop` to the next."""

    def __init__(self, loop: scf.ForOp):
        self.loop = loop
        self.iv = loop.body.block.args[0]
        self.memo: dict[SSAValue, bool] = {}

    def depends(self, value: SSAValue) -> bool:
        if value in self.memo:
            return self.memo[value]
        self.memo[value] = False
        if isinstance(value, BlockArgument):
            result = value.block is self.loop.body.block
        else:
            owner = value.owner
            result = self.loop.is_ancestor(owner) and any(
                self.depends(v) for inner in owner.walk() for v in inner.operands)
        self.memo[value] = result
        return result


def _zero_or_empty(value: SSAValue) -> bool | None:
    """True for tensor.empty or a zero fill/splat; False for another constant; None otherwise."""
    owner = value.owner if isinstance(value, OpResult) else None
    if isinstance(owner, tensor.EmptyOp):
        return True
    if isinstance(owner, FillOp):
        attr = constant_attr(owner.inputs[0])
        return None if attr is None else is_zero(attr)
    attr = constant_attr(value)
    if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
        return is_zero(attr)
    return None


def _is_fill_or_empty(value: SSAValue) -> bool:
    owner = value.owner if isinstance(value, OpResult) else None
    return isinstance(owner, tensor.EmptyOp | FillOp)


# ---------------------------------------------------------------------------
# Folding
# ---------------------------------------------------------------------------


def _apply(plan: FoldPlan) -> None:
    loop = plan.loop
    block = loop.parent_block()
    assert block is not None

    def insert(op: Operation, like: Operation) -> Operation:
        for inner in op.walk():
            inner.location = like.location
        block.insert_op_before(op, loop)
        return op

    iv = loop.body.block.args[0]
    start = insert(arith.ConstantOp(IntegerAttr(constant_int(loop.lb), iv.type)), loop)
    mapping: dict[SSAValue, SSAValue] = {iv: start.results[0]}
    needed = _needed_ops(plan)
    for op in loop.body.block.ops:
        if op not in needed:
            continue
        streamed = next((s for s in plan.streamed.values() if s.tile is op), None)
        if streamed is not None:
            new = _grown_tile(op, streamed.position, plan.total, mapping)
        elif op in plan.streamed:
            new = ktdp.LoadOp(mapping[op.operands[0]], _grown(op.results[0].type, plan.streamed[op].position,
                                                              plan.total))
        else:
            new = op.clone(value_mapper=mapping)
        insert(new, op)
        for old, fresh in zip(op.results, new.results):
            mapping[old] = fresh
    for carried in plan.sums:
        init = _accumulator_init(carried.init, insert, loop)
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


def _grown(shaped: TensorType | ktdp.AccessTileType, position: int, total: int):
    shape = list(shaped.get_shape())
    shape[position] = total
    if isinstance(shaped, TensorType):
        return TensorType(shaped.element_type, shape)
    return ktdp.AccessTileType(shape, shaped.element_type)


def _grown_tile(tile: Operation, position: int, total: int, mapping: dict[SSAValue, SSAValue]) -> Operation:
    tile_type = _grown(tile.result.type, position, total)
    rank = len(tile_type.get_shape())
    return ktdp.ConstructAccessTileOp(
        tile_type, mapping.get(tile.base, tile.base), tile.base_map.data,
        [mapping.get(v, v) for v in tile.indices], box_set(tile_type.get_shape()),
        tile.access_tile_order.data if tile.access_tile_order is not None else AffineMap.identity(rank),
        [mapping.get(v, v) for v in tile.symbol_operands], dict(tile.attributes))


def _accumulator_init(init: SSAValue, insert, loop: Operation) -> SSAValue:
    """`init` as the scheduler's accumulator forms: a splat constant becomes fill(empty)."""
    if _is_fill_or_empty(init):
        return init
    attr = constant_attr(init)
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    element = init.type.element_type
    scalar = attr.get_values()[0]
    value = FloatAttr(float(scalar), element) if not isinstance(scalar, int) else IntegerAttr(scalar, element)
    empty = insert(tensor.EmptyOp([], init.type), loop)
    constant = insert(arith.ConstantOp(value), loop)
    return insert(FillOp([constant.results[0]], [empty.results[0]], [init.type]), loop).results[0]
