"""`lower-inter-tile-ops`: an inter-tile all-reduce becomes stores, a `ktdf.tile_reduce` and loads.

See `docs/passes.md#lower-inter-tile-ops` (README Decision 63). Run by `compute-group-extraction`
before it groups, and checked (`plan_exchanges`) by `ktir-legality-check`. A
`ktdp.inter_tile_produce` whose future one `ktdp.inter_tile_reduce` delivers to the tiles that
produced it (consumers = producers in every group) is rewritten as:

    ktdp.store %partial -> view of the tile's scratchpad at byte P      (where the produce was)
    ktdf.tile_reduce "add" from P into R identity 0.0 : f16 ...         (where the reduce was)
    %r = ktdp.load  view of the tile's scratchpad at byte R

The store and the load are ordinary program code (a group each: the store ends the group that
computes the partial, the load starts the one that uses the result); the `ktdf.tile_reduce`
stays in the orchestrator between them, and `tile-reduce-to-dfir` makes it a launch that moves
the group's partials over the device's core links. P and R are slots at the top of the scratchpad
the kernel's `ct_local` maps to, one pair per exchange op, 64-byte aligned; `address-assignment`
allocates below them.

Refused with a located error (nothing is rewritten): a device with fewer cores than the grid has
tiles or without `ktdf_arch.core_links` (the error names both numbers, or the links); an
`inter_tile_consume`; a future with several partials, read by several ops, or whose producer
region computes (it may only yield a value computed before it); consumers that differ from the
producers; an identity that is not a splat constant (`linalg.fill` of an `arith.constant`, or a
dense splat); a combiner other than one element-wise add, mul, max or min of its two arguments;
a partial that is not a static float tensor; slots that do not fit the scratchpad.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.linalg.ops import FillOp
from xdsl.dialects.builtin import (
    AffineSetAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import index_constant
from dfsched.dialects.ktdf_exchange import TileReduceOp
from dfsched.dialects.ktdp_inter_tile import group_values, tiles_of
from dfsched.compat import InsertPoint, Rewriter, op_name
from dfsched.passes.builder import Inserter
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.frontend.carried_slots import Carried, carry_through_slots, loops_around_exchanges, plan_carried
from dfsched.passes.frontend.resolve_distributed_views import grid_size
from dfsched.passes.frontend.sink_loads import may_alias, view_of
from dfsched.passes.frontend.utils import box_set, erase_dead_ops

INTER_TILE_CORES = ("'{}' needs the kernel's {} compute tiles on as many cores at once (tiles exchanging "
                    "partials wait for each other), but device '{}' has {} core(s)")
INTER_TILE_LINKS = ("'{}' moves partials between cores, but device '{}' declares no core-to-core links "
                    "('ktdf_arch.core_links')")
CONSUME = ("dfsched lowers inter-tile reductions only: an 'inter_tile_consume' (a copy to other tiles) is not "
           "scheduled yet")
SLOT_ALIGNMENT = 64
COMBINER_OPS = {"linalg.add": "add", "linalg.mul": "mul", "linalg.max": "max", "linalg.min": "min",
                "arith.addf": "add", "arith.mulf": "mul", "arith.maximumf": "max", "arith.minimumf": "min",
                "arith.maxnumf": "max", "arith.minnumf": "min"}


@dataclass
class Exchange:
    """One produce/reduce pair and how it is lowered."""

    produce: ktdp.InterTileProduceOp
    reduce: ktdp.InterTileReduceOp
    partial: SSAValue
    slot_type: TensorType
    combiner: str
    identity: FloatAttr
    partial_address: int = 0
    result_address: int = 0


@dataclass(frozen=True)
class LowerInterTileOps(DevicePass):
    """Rewrite every inter-tile all-reduce as scratchpad stores, `ktdf.tile_reduce` and loads."""

    name = "lower-inter-tile-ops"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_inter_tile_ops(op, self.device)


def lower_inter_tile_ops(root: Operation, device: str | None = None) -> None:
    exchanges, loops = plan_exchanges(root, device)
    for exchange in exchanges:
        _rewrite(exchange)
    for loop, carried in loops:  # innermost first: an outer loop clones the rewritten inner one
        carry_through_slots(loop, carried, _scratchpad_tile)
    if exchanges:
        erase_dead_ops(root)


def plan_exchanges(root: Operation, device: str | None = None
                   ) -> tuple[list[Exchange], list[tuple[scf.ForOp, list[Carried]]]]:
    """Every exchange under `root` and every loop carrying values around one (Decision 83),
    checked and given their slots; raises on the first refusal."""
    ops = [op for op in root.walk() if op_name(op).startswith("ktdp.inter_tile_") and "yield" not in op_name(op)]
    if not ops:
        return [], []
    from dfsched.arch.loading import device_model_for

    model = device_model_for(root, device or None)
    exchanges = []
    for op in ops:
        if model is not None:
            tiles = grid_tiles(op)
            if tiles > model.cores:
                raise error(op, INTER_TILE_CORES.format(op_name(op), tiles, model.name, model.cores))
            if model.core_links is None:
                raise error(op, INTER_TILE_LINKS.format(op_name(op), model.name))
        if isinstance(op, ktdp.InterTileReduceOp):
            exchanges.append(_plan(op))
        elif isinstance(op, ktdp.InterTileProduceOp):
            users = [use.operation for use in op.future.uses]
            consume = next((u for u in users if isinstance(u, ktdp.InterTileConsumeOp)), None)
            if consume is not None:
                raise error(consume, CONSUME)
            if len(users) != 1 or not isinstance(users[0], ktdp.InterTileReduceOp):
                raise error(op, f"a tile future must be delivered by exactly one 'inter_tile_reduce', but "
                                f"{len(users)} op(s) read this one")
    if model is None:
        raise error(ops[0], f"'{op_name(ops[0])}' needs a device (--device) to place its partials")
    loops = [(loop, plan_carried(loop, COMBINER_OPS)) for loop in loops_around_exchanges(root)]
    _place_slots(exchanges, [c for _, carried in loops for c in carried], model, root)
    return exchanges, loops


def grid_tiles(op: Operation) -> int:
    """The number of compute tiles of the kernel holding `op` (the product of its `grid`)."""
    parent = op.parent_op()
    while parent is not None and "grid" not in parent.attributes:
        parent = parent.parent_op()
    return grid_size(parent)


def _plan(reduce: ktdp.InterTileReduceOp) -> Exchange:
    produce = reduce.future.owner
    if not isinstance(produce, ktdp.InterTileProduceOp):
        raise error(reduce, "the reduced tile future must come from an 'inter_tile_produce'")
    partials = produce.future.type.get_partial_types()
    if len(partials) != 1:
        raise error(reduce, f"dfsched reduces one partial per tile, this future carries {len(partials)}")
    slot_type = partials[0]
    if (not isinstance(slot_type, TensorType) or not slot_type.has_static_shape()
            or not hasattr(slot_type.element_type, "bitwidth") or "f" not in str(slot_type.element_type)[:2]):
        raise error(reduce, "the partial must be a float tensor of static shape")
    body = list(produce.body.block.ops)
    if len(body) != 1 or body[0].operands[0].owner in body:
        raise error(produce, "the producer region may only yield a value computed before it")
    partial = body[0].operands[0]
    producers = produce.producer_tiles_per_group
    groups = group_values(produce.future.type.groups.data)
    if groups is None:
        raise error(produce, "the groups of the tile future are not bounded")
    consumers = reduce.consumer_tiles_per_group.data
    for g in groups:
        made, taken = tiles_of(producers.data, g), tiles_of(consumers, g)
        if made is None or made != taken:
            raise error(reduce, f"dfsched lowers all-reduces only: group {g}'s consumer tiles "
                                f"{sorted(taken or [])} differ from its producer tiles {sorted(made or [])}")
    if reduce.producer_dependency_per_consumer is not None:
        raise error(reduce, "'producer_dependency_per_consumer' on a reduction is not scheduled")
    return Exchange(produce, reduce, partial, slot_type, _combiner(reduce), _identity(reduce, slot_type))


def _combiner(reduce: ktdp.InterTileReduceOp) -> str:
    block = reduce.combiner.block
    lhs, rhs = block.args
    ops = [op for op in block.ops if op_name(op) != "tensor.empty"]
    if len(ops) == 2 and op_name(ops[0]) in COMBINER_OPS and ops[1].operands[0] is ops[0].results[0]:
        inputs = list(ops[0].inputs) if op_name(ops[0]).startswith("linalg.") else list(ops[0].operands)
        if set(inputs) == {lhs, rhs} and len(inputs) == 2:
            return COMBINER_OPS[op_name(ops[0])]
    raise error(reduce, "dfsched lowers a combiner that is one element-wise add, mul, max or min of its two "
                        "arguments (linalg.add/mul/max/min or arith.addf/mulf/maximumf/minimumf)")


def _identity(reduce: ktdp.InterTileReduceOp, slot_type: TensorType) -> FloatAttr:
    value = reduce.identity[0]
    owner = value.owner
    scalar = None
    if isinstance(owner, FillOp) and isinstance(owner.inputs[0].owner, arith.ConstantOp):
        scalar = owner.inputs[0].owner.value
    elif isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        values = owner.value.get_values()
        if values and all(v == values[0] for v in values):
            scalar = FloatAttr(float(values[0]), slot_type.element_type)
    if not isinstance(scalar, FloatAttr) or scalar.type != slot_type.element_type:
        raise error(reduce, "the identity must be a splat constant of the partial's element type "
                            "(linalg.fill of an arith.constant, or a dense splat)")
    return scalar


def _slot_bytes(slot_type: TensorType) -> int:
    count = 1
    for extent in slot_type.get_shape():
        count *= extent
    size = count * ((slot_type.element_type.bitwidth + 7) // 8)
    return -(-size // SLOT_ALIGNMENT) * SLOT_ALIGNMENT


def _place_slots(exchanges: list[Exchange], carried: list[Carried], model, at: Operation) -> None:
    """Slots from the top of the scratchpad `ct_local` maps to, downwards: the carried values'
    first, then each exchange's partial and result (`address-assignment` allocates below the
    lowest exchange slot)."""
    memory = model.memory_for_space(ktdp.MemorySpaceAttr("ct_local"), at)
    top = memory.size or 0
    for value in carried:
        top -= _slot_bytes(value.slot_type)
        value.address = top
    for exchange in exchanges:
        size = _slot_bytes(exchange.slot_type)
        exchange.result_address = top - size
        exchange.partial_address = top - 2 * size
        top -= 2 * size
        if top < 0:
            raise error(exchange.reduce, f"the partials of the inter-tile reductions do not fit {memory.kind} "
                                         f"({memory.size} bytes)")


def _scratchpad_tile(at: Inserter, address: int, slot_type: TensorType) -> SSAValue:
    shape = list(slot_type.get_shape())
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    base = at.add(index_constant(address)).results[0]
    view = at.add(ktdp.ConstructMemoryViewOp(base, shape, strides, MemRefType(slot_type.element_type, shape),
                                             ktdp.MemorySpaceAttr("ct_local"), box_set(shape))).results[0]
    zeros = AffineMap(0, 0, (AffineExpr.constant(0),) * len(shape))
    return at.add(ktdp.ConstructAccessTileOp(ktdp.AccessTileType(shape), view, zeros, [], box_set(shape),
                                             AffineMap.identity(len(shape)))).results[0]


def _rewrite(exchange: Exchange) -> None:
    produce, reduce = exchange.produce, exchange.reduce
    before = Inserter.before(produce)
    partial = _unreshaped(exchange.partial)
    before.add(ktdp.StoreOp(partial, _scratchpad_tile(before, exchange.partial_address, partial.type)))
    at = Inserter.before(reduce)
    at.add(TileReduceOp(exchange.combiner, exchange.partial_address, exchange.result_address, exchange.identity,
                        produce.producer_tiles_per_group, AffineSetAttr(produce.future.type.groups.data),
                        exchange.slot_type))
    load = at.add(ktdp.LoadOp(_scratchpad_tile(at, exchange.result_address, exchange.slot_type), exchange.slot_type))
    reduce.results[0].replace_all_uses_with(load.results[0])
    _fold_reshapes_back(load.results[0])
    _reshapes_as_loads(load, exchange.result_address)
    _reload_after(load)
    reduce.detach()
    reduce.erase()
    produce.detach()
    produce.erase()


def _fold_reshapes_back(value: SSAValue) -> None:
    """`expand_shape(collapse_shape(%v))` back to `%v`'s type is `%v` (the result of a legacy
    rank-reduced delivery, Decision 34, expanded again before its store): the load then feeds
    the store, and `compute-group-extraction` may repeat it in the block of the store."""
    for use in list(value.uses):
        collapse = use.operation
        if op_name(collapse) != "tensor.collapse_shape":
            continue
        for inner in list(collapse.results[0].uses):
            expand = inner.operation
            if op_name(expand) == "tensor.expand_shape" and expand.results[0].type == value.type:
                expand.results[0].replace_all_uses_with(value)
                Rewriter.erase_op(expand)
        if not collapse.results[0].uses:
            Rewriter.erase_op(collapse)


RESHAPES = ("tensor.collapse_shape", "tensor.expand_shape")


def _unreshaped(partial: SSAValue) -> SSAValue:
    """The tensor a reshaped partial (`collapse_shape` of a 4x256 tile into 1024 elements) was
    reshaped from: the slot is row-major, so storing it unreshaped writes the same bytes."""
    owner = partial.owner
    while op_name(owner) in RESHAPES and isinstance(owner.operands[0].type, TensorType) \
            and owner.operands[0].type.has_static_shape():
        partial = owner.operands[0]
        owner = partial.owner
    return partial


def _reshapes_as_loads(load: ktdp.LoadOp, address: int) -> None:
    """A reshape of the delivered result (`expand_shape` of 1024 elements into a 4x256 tile) is a
    load of the row-major result slot at the reshape's shape (a program computes on loads, never
    on a reshape of one)."""
    for use in list(load.result.uses):
        reshape = use.operation
        if op_name(reshape) not in RESHAPES or not reshape.results[0].type.has_static_shape():
            continue
        at = Inserter.after(load, reshape)
        again = at.add(ktdp.LoadOp(_scratchpad_tile(at, address, reshape.results[0].type), reshape.results[0].type))
        reshape.results[0].replace_all_uses_with(again.results[0])
        Rewriter.erase_op(reshape)
        _reshapes_as_loads(again, address)


def _reload_after(anchor: Operation) -> None:
    """A tile loaded before the exchange and read after it is loaded again after it (as
    Decision 51 repeats loads in loops), so the group that computes the partial and the one that
    uses the result stay apart: a program never spans the exchange. Not when a store between the
    load and the exchange may write what it reads (the group then spans it, and
    `compute-group-extraction` meets the exchange inside it)."""
    block = anchor.parent_block()
    position = block.get_operation_index(anchor)
    for load in [op for op in block.ops if isinstance(op, ktdp.LoadOp)]:
        if block.get_operation_index(load) >= position:
            break
        later = [use for use in load.result.uses if _after(use.operation, block, position)]
        stores = [op for op in block.ops if isinstance(op, ktdp.StoreOp)
                  and block.get_operation_index(load) < block.get_operation_index(op) < position]
        if not later or not isinstance(load.access_tile.owner, ktdp.ConstructAccessTileOp) or any(may_alias(view_of(load.access_tile), view_of(s.access_tile)) for s in stores):
            continue
        tile = load.access_tile.owner.clone()  # its own access tile: groups are classes of access tiles
        again = ktdp.LoadOp(tile.results[0], load.result.type)
        Rewriter.insert_op(tile, InsertPoint.after(anchor))
        Rewriter.insert_op(again, InsertPoint.after(tile))
        for use in later:
            use.operation.operands[use.index] = again.result


def _after(op: Operation, block, position: int) -> bool:
    while op.parent_block() is not block:
        op = op.parent_op()
        if op is None:
            return False
    return block.get_operation_index(op) > position
