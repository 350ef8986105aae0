"""Loops over chunks of a range, seen whole: the facts `fold-accumulation-loops` checks and the
rewrites it shares (README Decisions 44 and 52).

A chunk loop steps `%k` over `[lb, ub)` by `step`; a *streamed* access tile is built in the loop
with one index `%k` plus a loop-invariant offset, `step` long along that dimension. Folding the
loop grows every streamed tile (and its load or store) to the whole range, anchored at `lb`.
`ChunkGrowth` does the same for the element-wise computation between streamed loads and their
use: every element-wise op on chunks is rebuilt on the whole range, and every loop-invariant
operand that is the same along the stepped dimension (a splat, a fill, a broadcast) is rebuilt at
the grown shape. Reads no architecture facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.traits import Pure

from dfsched.compat import op_name
from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_attr, constant_int
from dfsched.passes.frontend.linalg_generalize import indexing_maps, is_elementwise_on_tensors, is_zero, iterator_names
from dfsched.passes.frontend.utils import box_set

REFUSED = "V1 does not support scf.for with loop-carried arguments (iter_args)"
INDEX_OFFSETS = frozenset({"arith.addi", "arith.index_cast", "arith.index_castui"})


@dataclass
class StreamedLoad:
    """A load inside the loop that reads chunk `%k`: its tile grows along `position`."""

    tile: Operation
    load: Operation
    position: int


def refuse(loop: Operation, why: str, value: int | None = None):
    what = "" if value is None else f"loop-carried value #{value}: "
    return error(loop, f"{REFUSED} unless they accumulate sums of loaded chunks; {what}{why}")


# Ops without the Pure trait that may stay in a folded loop's body: they write no memory.
READ_ONLY = frozenset({"ktdp.load", "tensor.empty", "linalg.fill"})


def refuse_effect(loop: Operation, op: Operation, may_be_inside: str) -> None:
    """A folded loop's body holds nothing with an effect but loads (its iterations merge)."""
    if not op.has_trait(Pure) and op_name(op) not in READ_ONLY:
        raise refuse(loop, f"'{op_name(op)}' in the loop has an effect (only {may_be_inside} may be inside)")


def streamed_load(loop: Operation, deps: LoopDependence, index: int | None, value: SSAValue,
                  step: int) -> StreamedLoad:
    """The load `value` comes from, checked to read chunk `%k` of a streamed tile."""
    load = value.owner if isinstance(value, OpResult) else None
    tile = load.operands[0].owner if isinstance(load, ktdp.LoadOp) else None
    if not isinstance(tile, ktdp.ConstructAccessTileOp) or tile.parent_block() is not loop.body.block:
        where = f"'{op_name(load)}'" if load is not None else "a block argument"
        raise refuse(loop, f"a reduction input changes with the loop through {where}, not directly "
                           f"through a ktdp.load of an access tile built in the loop", index)
    return StreamedLoad(tile, load, streamed_position(loop, deps, index, tile, step))


def streamed_position(loop: Operation, deps: LoopDependence, index: int | None, tile: Operation,
                      step: int) -> int:
    """The dimension of `tile` (built in the loop) that steps with `%k`; raises unless it is a
    streamed tile."""
    if deps.depends(tile.base) or any(deps.depends(s) for s in tile.symbol_operands):
        raise refuse(loop, "a streamed access tile's view or symbols change with the loop", index)
    moving = [i for i, v in enumerate(tile.indices) if deps.depends(v)]
    if len(moving) != 1 or not is_offset_of_iv(tile.indices[moving[0]], deps):
        raise refuse(loop, "a streamed access tile must have exactly one index that is the loop "
                           "variable plus a loop-invariant offset", index)
    order = tile.access_tile_order
    rank = len(tile.result.type.get_shape())
    if order is not None and order.data != AffineMap.identity(rank):
        raise refuse(loop, "a streamed access tile must enumerate its coordinates in order", index)
    position = list(tile.base_map.data.results).index(AffineDimExpr(moving[0])) \
        if AffineDimExpr(moving[0]) in tile.base_map.data.results else None
    if position is None:
        raise refuse(loop, "a streamed access tile's moving index is not one of its dimensions", index)
    size = tile.result.type.get_shape()[position]
    if size != step:
        raise refuse(loop, f"a streamed tile is {size} long along the loop's dimension but the loop "
                           f"steps by {step}: the chunks must tile the range exactly", index)
    return position


def is_offset_of_iv(value: SSAValue, deps: LoopDependence) -> bool:
    if value is deps.iv:
        return True
    owner = value.owner if isinstance(value, OpResult) else None
    if owner is None or op_name(owner) not in INDEX_OFFSETS:
        return False
    moving = [v for v in owner.operands if deps.depends(v)]
    return len(moving) == 1 and is_offset_of_iv(moving[0], deps)


class LoopDependence:
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


def zero_or_empty(value: SSAValue) -> bool | None:
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


def is_fill_or_empty(value: SSAValue) -> bool:
    owner = value.owner if isinstance(value, OpResult) else None
    return isinstance(owner, tensor.EmptyOp | FillOp)


def grown(shaped: TensorType | ktdp.AccessTileType, position: int, total: int):
    shape = list(shaped.get_shape())
    shape[position] = total
    if isinstance(shaped, TensorType):
        return TensorType(shaped.element_type, shape)
    return ktdp.AccessTileType(shape, shaped.element_type)


def grown_tile(tile: Operation, position: int, total: int, mapping: dict[SSAValue, SSAValue]) -> Operation:
    tile_type = grown(tile.result.type, position, total)
    rank = len(tile_type.get_shape())
    return ktdp.ConstructAccessTileOp(
        tile_type, mapping.get(tile.base, tile.base), tile.base_map.data,
        [mapping.get(v, v) for v in tile.indices], box_set(tile_type.get_shape()),
        tile.access_tile_order.data if tile.access_tile_order is not None else AffineMap.identity(rank),
        [mapping.get(v, v) for v in tile.symbol_operands], dict(tile.attributes))


def inserter_before(loop: Operation):
    """`insert(op, like)`: put `op` (and what it holds) before `loop` at `like`'s location."""
    block = loop.parent_block()
    assert block is not None

    def insert(op: Operation, like: Operation) -> Operation:
        for inner in op.walk():
            inner.location = like.location
        block.insert_op_before(op, loop)
        return op

    return insert


# ---------------------------------------------------------------------------
# Element-wise computations on chunks, grown to the whole range
# ---------------------------------------------------------------------------


@dataclass
class ChunkGrowth:
    """The element-wise computation on chunks of `loop` that `add_value` was given, checked to
    grow to the loop's whole range (`total` long along one tensor dimension, `position`).

    A chunk value is a streamed load, or an element-wise `arith`/`math` op on tensors whose
    operands are chunk values or loop-invariant tensors the same along `position` (a splat
    constant, a `linalg.fill`, a `tensor.splat`, or an all-parallel `linalg.generic` into a
    `tensor.empty` whose inputs do not use that dimension: the broadcasts `triton-to-linalg`
    writes). `grow` rebuilds the values before the loop."""

    loop: scf.ForOp
    deps: LoopDependence
    step: int
    total: int
    index: int | None = None  # the carried value errors name
    position: int | None = None
    loads: dict[Operation, StreamedLoad] = field(default_factory=dict)
    stores: dict[Operation, int] = field(default_factory=dict)  # store -> its tile's position
    elementwise: set[Operation] = field(default_factory=set)
    invariants: set[SSAValue] = field(default_factory=set)

    def refuse(self, why: str):
        return refuse(self.loop, why, self.index)

    def add_value(self, value: SSAValue) -> None:
        """Check that chunk value `value` grows (recording what it is computed from)."""
        if not isinstance(value.type, TensorType):
            if self.deps.depends(value):
                raise self.refuse(f"a scalar of type {value.type} that changes with the loop feeds "
                                  f"the chunk computation")
            return
        if not self.deps.depends(value):
            self.invariants.add(value)
            return
        owner = value.owner if isinstance(value, OpResult) else None
        if isinstance(owner, ktdp.LoadOp):
            streamed = streamed_load(self.loop, self.deps, self.index, value, self.step)
            self._set_position(streamed.position)
            self.loads[owner] = streamed
        elif owner is not None and owner.parent_block() is self.loop.body.block \
                and is_elementwise_on_tensors(owner):
            if owner not in self.elementwise:
                self.elementwise.add(owner)
                for operand in owner.operands:
                    self.add_value(operand)
        else:
            what = f"'{op_name(owner)}'" if owner is not None else "a block argument"
            raise self.refuse(f"{what} computes a chunk but is not an element-wise arith or math op "
                              f"on tensors of the chunk's shape")

    def add_store(self, store: Operation) -> None:
        tile = store.operands[1].owner
        if not isinstance(tile, ktdp.ConstructAccessTileOp) or tile.parent_block() is not self.loop.body.block:
            raise self.refuse("a store in the loop writes an access tile not built in the loop")
        position = streamed_position(self.loop, self.deps, self.index, tile, self.step)
        self._set_position(position)
        self.stores[store] = position
        self.add_value(store.operands[0])

    def _set_position(self, position: int) -> None:
        if self.position is not None and self.position != position:
            raise self.refuse("the streamed tiles step along different dimensions")
        self.position = position

    def finish(self) -> int:
        """Check the loop-invariant operands once the stepped dimension is known; return it."""
        if self.position is None:
            raise self.refuse("the chunk computation reads nothing that changes with the loop")
        for value in self.invariants:
            if not self._uniform(value):
                raise self.refuse("an operand of the chunk computation is the same in every iteration "
                                  "but is not a splat, fill or broadcast along the dimension the loop "
                                  "steps")
        return self.position

    def _uniform(self, value: SSAValue) -> bool:
        assert self.position is not None
        return uniform_along(self.loop, value, self.position)

    # -- rewriting -------------------------------------------------------------------------

    def grow(self, roots: list[SSAValue], insert) -> dict[SSAValue, SSAValue]:
        """Rebuild `roots` (and the stores' tiles) on the whole range, each new op placed by
        `insert(new, old)`; the mapping from the loop's values to the grown ones."""
        assert self.position is not None
        loop = self.loop
        iv = loop.body.block.args[0]
        start = insert(arith.ConstantOp(IntegerAttr(constant_int(loop.lb), iv.type)), loop)
        mapping: dict[SSAValue, SSAValue] = {iv: start.results[0]}
        for value in self.invariants:
            mapping[value] = insert(self._grown_invariant(value, insert), loop).results[0]
        needed = self._needed(roots + [v for s in self.stores for v in s.operands])
        tiles = {s.tile for s in self.loads.values()} | {s.operands[1].owner for s in self.stores}
        for op in loop.body.block.ops:
            if op not in needed:
                continue
            if op in tiles:
                new = grown_tile(op, self.position, self.total, mapping)
            elif op in self.loads:
                new = ktdp.LoadOp(mapping[op.operands[0]], grown(op.results[0].type, self.position, self.total))
            elif op in self.elementwise:
                new = type(op).create(
                    operands=[mapping.get(v, v) for v in op.operands],
                    result_types=[grown(r.type, self.position, self.total) for r in op.results],
                    properties=dict(op.properties), attributes=dict(op.attributes))
            else:
                new = op.clone(value_mapper=mapping)
            insert(new, op)
            for old, fresh in zip(op.results, new.results):
                mapping[old] = fresh
        return mapping

    def _needed(self, roots: list[SSAValue]) -> set[Operation]:
        body = self.loop.body.block
        needed: set[Operation] = set()
        work = list(roots)
        while work:
            value = work.pop()
            owner = value.owner if isinstance(value, OpResult) else None
            if value in self.invariants or owner is None or owner.parent_block() is not body or owner in needed:
                continue
            needed.add(owner)
            work.extend(v for inner in owner.walk() for v in inner.operands)
        return needed

    def _grown_invariant(self, value: SSAValue, insert) -> Operation:
        assert self.position is not None
        return grown_invariant(self.loop, value, self.position, self.total, insert)


def uniform_along(loop: Operation, value: SSAValue, position: int) -> bool:
    """`value` (the same in every iteration of `loop`) is the same along dimension `position`
    and can be rebuilt at a grown shape before the loop: a splat, a fill, a `tensor.splat`, or
    an all-parallel `linalg.generic` into a `tensor.empty` whose inputs do not use `position`."""
    owner = value.owner if isinstance(value, OpResult) else None
    if owner is None:
        return False
    attr = constant_attr(value)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return attr.is_splat()
    if loop.is_ancestor(owner):
        return False  # its operands might be defined in the loop: not rebuilt before it
    if isinstance(owner, FillOp | tensor.SplatOp):
        return True
    if op_name(owner) != "linalg.generic" or len(owner.results) != 1:
        return False
    maps = indexing_maps(owner)
    out = owner.operands[-1].owner if isinstance(owner.operands[-1], OpResult) else None
    return (all(it == "parallel" for it in iterator_names(owner)) and isinstance(out, tensor.EmptyOp)
            and maps[-1] == AffineMap.identity(len(maps[-1].results))
            and not any(AffineDimExpr(position) in _dims(m) for m in maps[:-1])
            and not owner.regions[0].blocks.first.args[-1].uses)


def grown_invariant(loop: Operation, value: SSAValue, position: int, total: int, insert) -> Operation:
    """`value` (checked by `uniform_along`) rebuilt `total` long along `position`, before `loop`."""
    shaped = grown(value.type, position, total)
    owner = value.owner
    attr = constant_attr(value)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(shaped, [attr.get_values()[0]]))
    if isinstance(owner, tensor.SplatOp):
        return tensor.SplatOp(owner.input, [], shaped)
    empty = insert(tensor.EmptyOp([], shaped), loop)
    if isinstance(owner, FillOp):
        return FillOp([owner.inputs[0]], [empty.results[0]], [shaped])
    return type(owner).create(
        operands=[*owner.operands[:-1], empty.results[0]], result_types=[shaped],
        properties=dict(owner.properties), attributes=dict(owner.attributes),
        regions=[r.clone() for r in owner.regions])


def _dims(expr_map: AffineMap) -> set[AffineExpr]:
    found: set[AffineExpr] = set()
    for result in expr_map.results:
        found |= {e for e in result.dfs() if isinstance(e, AffineDimExpr)}
    return found


def accumulator_init(init: SSAValue, insert, loop: Operation) -> SSAValue:
    """`init` as the scheduler's accumulator forms: a splat constant becomes fill(empty)."""
    if is_fill_or_empty(init):
        return init
    attr = constant_attr(init)
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    element = init.type.element_type
    scalar = attr.get_values()[0]
    value = FloatAttr(float(scalar), element) if not isinstance(scalar, int) else IntegerAttr(scalar, element)
    empty = insert(tensor.EmptyOp([], init.type), loop)
    constant = insert(arith.ConstantOp(value), loop)
    return insert(FillOp([constant.results[0]], [empty.results[0]], [init.type]), loop).results[0]
