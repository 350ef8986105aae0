"""`map-reduction-partials`: keep a reduction's partial result in the compute unit's memory.

After `reduction-loop-exposure` a reduction carries its accumulator as a tensor through the
`iter_args` of its reduction loops. The hardware keeps that partial result in a buffer of
the memory local to the compute unit (the device's group-local memory of the stage's unit,
`SFU_REG` on the sample device) and reduces each step into it in place. This pass makes
that explicit:

* a `memref.alloc` of the result shape in that memory opens the compute stage;
* the accumulator's initial value is written into it where it was computed: an empty
  tensor becomes a zero `linalg.fill`, a fill of a constant becomes the same fill of the
  buffer, a partial read from a FIFO becomes a memref read plus `memref.copy`, and an
  `scf.if` choosing between them keeps its branches and loses its result;
* the generic reduces a memref read of its FIFO slot into the buffer (no result);
* every `write_to_fifo` of the result writes the buffer;
* the loops lose the carried value;
* a lane-wide reduction (`passes/lane_wide.py`) also gets a buffer of L partials per row, filled
  with the combiner's identity before its loops: each step combines its block into it
  element-wise, and the last step folds each row's partials into the result (a generic
  reducing the partials, marked like the steps) before the result is written.

A contraction on the matrix unit (`dfsched.matrix_tile`) whose unit accumulates in a wider
type than the result (f16 products into f32) keeps its buffer in that type when it starts
from a fill or an empty tensor: the products are summed in f32 for all of K, and a second
buffer of the result type, written by a narrowing `linalg.generic` (`arith.truncf`) right
before each `write_to_fifo`, is what leaves the unit: one rounding, as the reference does.

Steps: for each reduction generic still on tensors, (1) the memory kind, (2) the iter_arg
chain up to the initial value, (3) the initial value lowered in place, (4) the buffer
generic and the writes, (5) the loops rebuilt without the carried slot.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap

from dfsched.passes.builder import BlockInserter
from dfsched.arch.model import DeviceModel
from dfsched.compat import linalg_ops as _x
from dfsched.diagnostics import error
from dfsched.dialects import ktdf, linalg_ext, memref_ext, scf_ext
from dfsched.passes.contraction import MATRIX_TILE
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.lane_wide import combine_body, combiner, identity_attr, lane_width, mark
from dfsched.passes.scheduling.reduction_utils import enclosing_stage, reduction_generics

PASS = "map-reduction-partials"
_FLOATS = {"f16": Float16Type(), "f32": Float32Type(), "f64": Float64Type()}
NO_DEVICE = "Unable to import the device specification."


@dataclass(frozen=True)
class MapReductionPartials(DevicePass):
    """Lower each exposed reduction to an in-place reduction into a local buffer."""

    name = "map-reduction-partials"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import device_model_for

        candidates = [g for g in reduction_generics(op) if g.results]  # still on tensors
        model = device_model_for(op, device=self.device)
        if model is None:  # as upstream, even with nothing to map; located on the first reduction
            where = enclosing_stage(candidates[0]) or candidates[0] if candidates else op
            raise error(where, NO_DEVICE)
        plans = [analyse(generic, model) for generic in candidates]
        for plan in plans:
            rewrite(plan)


# ===========================================================================
# Analysis (no IR changes)
# ===========================================================================


@dataclass
class Plan:
    generic: xlinalg.GenericOp
    stage: ktdf.StageOp
    memory: str
    chain: list[tuple[scf.ForOp, int]]  # (loop, iter_arg slot), innermost first
    init: SSAValue  # the value the outermost loop starts from
    accumulator: AnyFloat | None = None  # the matrix unit's wider accumulator type, if kept


def wider_accumulator(generic: xlinalg.GenericOp, init: SSAValue, model: DeviceModel) -> AnyFloat | None:
    """The matrix unit's accumulator type for a marked contraction, when it is wider than the
    result and the accumulator starts from a fill or an empty tensor; else None."""
    matrix = model.matrix_unit
    if MATRIX_TILE not in generic.attributes or matrix is None:
        return None
    owner = init.owner if isinstance(init, OpResult) else None
    if not isinstance(owner, tensor.EmptyOp | xlinalg.FillOp):
        return None
    operands = {value.type.element_type for value in generic.inputs if isinstance(value.type, TensorType)}
    accumulator = matrix.accumulator_for(operands.pop()) if len(operands) == 1 else None
    wide = _FLOATS.get(accumulator or "")
    out = generic.outputs[0].type.element_type  # type: ignore[attr-defined]
    if wide is None or not isinstance(out, AnyFloat) or wide.bitwidth <= out.bitwidth:
        return None
    return wide


def widened_body(generic: xlinalg.GenericOp, wide: AnyFloat) -> Region:
    """The contraction's body `out + a * b` in the accumulator type: each input extended
    (`arith.extf`) unless it already has that type."""
    inputs = [value.type.element_type for value in generic.inputs]  # type: ignore[attr-defined]
    block = Block(arg_types=[*inputs, wide])
    factors = []
    for arg in block.args[: len(inputs)]:
        if arg.type == wide:
            factors.append(arg)
        else:
            extended = arith.ExtFOp(arg, wide)
            block.add_op(extended)
            factors.append(extended.results[0])
    product = arith.MulfOp(factors[0], factors[1])
    total = arith.AddfOp(product.results[0], block.args[-1])
    block.add_ops([product, total, _x.YieldOp(total.results[0])])
    return Region(block)


def narrowing(wide: SSAValue, narrow: SSAValue) -> Operation:
    """`linalg.generic` copying buffer `wide` into `narrow`, rounding each element (`arith.truncf`)."""
    rank = len(narrow.type.get_shape())  # type: ignore[attr-defined]
    block = Block(arg_types=[wide.type.element_type, narrow.type.element_type])  # type: ignore[attr-defined]
    rounded = arith.TruncFOp(block.args[0], narrow.type.element_type)  # type: ignore[attr-defined]
    block.add_ops([rounded, _x.YieldOp(rounded.results[0])])
    identity = AffineMapAttr(AffineMap.identity(rank))
    parallel = IteratorTypeAttr.parallel()
    return linalg_ext.GenericOp([wide], [narrow], Region(block), [identity, identity], [parallel] * rank)


def analyse(generic: xlinalg.GenericOp, model: DeviceModel) -> Plan:
    stage = enclosing_stage(generic)
    if stage is None:
        raise error(generic, f"{PASS}: reduction linalg.generic is not inside a ktdf.stage")
    units = stage.unit_kinds
    if len(units) != 1:
        raise error(stage, "expected exactly one applicable exec_unit on ktdf.stage")
    memory = model.local_memory(units[0], at=stage)

    if len(generic.outputs) != 1 or len(generic.results) != 1 or not isinstance(generic.outputs[0].type, TensorType):
        raise error(generic, f"{PASS}: expected a reduction with one tensor init")
    if not generic.inputs:
        raise error(generic, f"{PASS}: expected a reduction with at least one input")
    for value in generic.inputs:  # one for a reduction, one per operand for a contraction
        read = value.owner if isinstance(value, OpResult) else None
        if not isinstance(read, ktdf.ReadFromFifoOp) or not isinstance(read.result.type, TensorType):
            raise error(generic, f"{PASS}: the reduction's input must be a tensor ktdf.read_from_fifo")

    chain: list[tuple[scf.ForOp, int]] = []
    current: SSAValue = generic.outputs[0]
    while isinstance(current, BlockArgument):
        loop = current.block.parent_op()
        if not isinstance(loop, scf.ForOp) or current.index == 0:
            break
        chain.append((loop, current.index - 1))
        current = loop.iter_args[current.index - 1]
    if not chain:
        raise error(generic, f"{PASS}: the reduction's accumulator is not an scf.for iter_arg "
                             "(run reduction-loop-exposure first)")
    check_initializer(current, generic)
    return Plan(generic, stage, memory, chain, current, wider_accumulator(generic, current, model))


def check_initializer(value: SSAValue, at: Operation) -> None:
    """The forms `lower_initializer` knows (scf.if recursively); a located error otherwise."""
    owner = value.owner if isinstance(value, OpResult) else None
    if isinstance(owner, tensor.EmptyOp | ktdf.ReadFromFifoOp):
        return
    if isinstance(owner, xlinalg.FillOp) and len(owner.outputs) == 1 and isinstance(owner.outputs[0], OpResult) \
            and isinstance(owner.outputs[0].owner, tensor.EmptyOp):
        return
    if isinstance(owner, scf.IfOp) and len(owner.results) == 1 and owner.false_region.blocks:
        for region in (owner.true_region, owner.false_region):
            terminator = region.block.last_op
            assert terminator is not None
            check_initializer(terminator.operands[0], at)
        return
    raise error(owner or at, "lowerIterArgInitializer: unrecognised initializer form — expected tensor.empty, "
                             "ktdf.read_from_fifo, linalg.fill, or scf.if")


# ===========================================================================
# The rewrite
# ===========================================================================


def rewrite(plan: Plan) -> None:
    generic, stage = plan.generic, plan.stage
    out_type = generic.outputs[0].type
    assert isinstance(out_type, TensorType)
    wide = plan.accumulator
    element = wide or out_type.element_type
    alloc_type = MemRefType(element, out_type.get_shape(), memory_space=StringAttr(plan.memory))
    alloc = BlockInserter.at_start(stage.body.block, generic.location)(memref.AllocOp([], [], alloc_type)).results[0]

    # The initial value is written into the buffer where it was computed.
    init = plan.init
    init.replace_all_uses_with(alloc)
    lower_initializer(init, alloc, stage)

    # The reduction runs in place on memref reads of its FIFO slots.
    reads = list(dict.fromkeys(value.owner for value in generic.inputs))  # x * x reads once
    reads.sort(key=fill_order(stage))  # one ordered FIFO stream: read in the order sent
    add = BlockInserter.before_op(generic, generic.location)
    buffer_reads: dict[Operation, SSAValue] = {}
    for read in reads:
        assert isinstance(read, ktdf.ReadFromFifoOp) and isinstance(read.result.type, TensorType)
        in_type = read.result.type
        # a held input (Decision 101) is read once before the steps, where it is
        at = add if read.parent_block() is generic.parent_block() else BlockInserter.before_op(read, read.location)
        buffer_reads[read] = at(ktdf.ReadFromFifoOp(
            read.fifo_slot, MemRefType(in_type.element_type, in_type.get_shape()))).results[0]
    body = widened_body(generic, wide) if wide is not None else generic.body.clone()
    width = lane_width(generic)
    target = alloc if width is None else lane_partials(plan, alloc, width)
    maps, iterators = generic.indexing_maps, generic.iterator_types
    if width is not None:  # each step: element-wise into the partials
        rank = len(iterators.data)
        maps = ArrayAttr([AffineMapAttr(AffineMap.identity(rank))] * (len(generic.inputs) + 1))
        iterators = ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * rank)
    in_place = add(linalg_ext.GenericOp([buffer_reads[value.owner] for value in generic.inputs], [target], body,
                                        maps, iterators))
    if MATRIX_TILE in generic.attributes:  # the matrix unit's tile travels to the lowering
        in_place.attributes[MATRIX_TILE] = generic.attributes[MATRIX_TILE]
    if width is not None:
        mark(in_place, width)

    result = generic.results[0]
    narrow = None
    if wide is not None:  # what leaves the unit: the accumulator rounded once to the result type
        narrow_type = MemRefType(out_type.element_type, out_type.get_shape(), memory_space=StringAttr(plan.memory))
        narrow = BlockInserter.before_op(alloc.owner.next_op, generic.location)(
            memref.AllocOp([], [], narrow_type)).results[0]
    for use in list(result.uses):
        if isinstance(use.operation, ktdf.WriteToFifoOp):
            use.operation.operands[use.index] = alloc
            if width is not None:  # the partials folded into the result first
                fold = BlockInserter.before_op(use.operation, generic.location)
                combine = fold(linalg_ext.GenericOp(
                    [target], [alloc], Region(combine_body(combiner_of(generic), out_type.element_type)),
                    ArrayAttr([AffineMapAttr(AffineMap.identity(len(iterators.data))), generic.indexing_maps.data[-1]]),
                    generic.iterator_types))
                mark(combine, width)
            if narrow is not None:  # then rounded once to the result type
                BlockInserter.before_op(use.operation, generic.location)(narrowing(alloc, narrow))
                use.operation.operands[use.index] = narrow
    result.replace_all_uses_with(alloc)
    block = generic.parent
    assert block is not None
    block.erase_op(generic)
    for read in reads:
        if read.parent is not None and not read.result.uses:
            read.parent.erase_op(read)

    # The loops no longer carry the accumulator.
    for loop, index in plan.chain:  # innermost first
        drop_carried_value(loop, index, alloc)


def fill_order(stage: ktdf.StageOp):
    """Sort key of FIFO reads: where the pipeline's load stage first writes their slot. The
    slots between two units share one ordered FIFO in DataflowIR, so a contraction whose
    inputs come in another order than the load stage sends them (an intermediate A after a
    loaded B) must read them as sent; reads of slots nobody writes keep their order."""
    pipeline = stage.parent_op()
    first: dict[SSAValue, int] = {}
    if pipeline is not None:
        for op in pipeline.walk():
            if isinstance(op, ktdf.DataTransferOp):
                first.setdefault(op.destination, len(first))
    return lambda read: first.get(read.fifo_slot, len(first))


def lane_partials(plan: Plan, alloc: SSAValue, width: int) -> SSAValue:
    """The P x L buffer of a lane-wide reduction's partials, next to the result's buffer,
    filled with the combiner's identity right before the outermost reduction loop."""
    generic = plan.generic
    out_type = alloc.type
    assert isinstance(out_type, MemRefType)
    partials_type = MemRefType(out_type.element_type, [*out_type.get_shape(), width], memory_space=out_type.memory_space)
    partials = _after_alloc(alloc)(memref.AllocOp([], [], partials_type)).results[0]
    outermost = plan.chain[-1][0]
    start = BlockInserter.before_op(outermost, generic.location)
    identity = start(arith.ConstantOp(identity_attr(combiner_of(generic), out_type.element_type)))
    start(linalg_ext.FillOp([identity.results[0]], [partials], res=()))
    return partials


def combiner_of(generic: xlinalg.GenericOp) -> Operation:
    op = combiner(generic)
    assert op is not None  # reduction-loop-exposure marks only reductions with a known combiner
    return op


def lower_initializer(value: SSAValue, alloc: SSAValue, stage: ktdf.StageOp) -> None:
    """Write the initial value into `alloc` where it is computed; erase the tensor ops."""
    owner = value.owner
    assert isinstance(owner, Operation)
    element = alloc.type.element_type  # type: ignore[attr-defined]
    # Ops outside the stage (a shared empty tensor) stay; the write goes right after the alloc.
    inside = stage.is_ancestor(owner)
    at = BlockInserter.before_op(owner, owner.location) if inside else _after_alloc(alloc)

    if isinstance(owner, tensor.EmptyOp):
        zero = at(arith.ConstantOp(_zero(element)))
        at(linalg_ext.FillOp([zero.results[0]], [alloc], res=()))
        _erase_if_dead(owner)
        return
    if isinstance(owner, xlinalg.FillOp):
        fill_value = owner.inputs[0]
        if fill_value.type != element:  # a widened accumulator: the same constant in its type
            constant = fill_value.owner
            if not isinstance(constant, arith.ConstantOp) or not isinstance(constant.value, FloatAttr):
                raise error(owner, f"{PASS}: a widened accumulator starts from a constant fill")
            fill_value = at(arith.ConstantOp(FloatAttr(constant.value.value.data, element))).results[0]
        at(linalg_ext.FillOp([fill_value], [alloc], res=()))
        empty = owner.outputs[0].owner
        _erase_if_dead(owner)
        if isinstance(empty, Operation):
            _erase_if_dead(empty)
        return
    if isinstance(owner, ktdf.ReadFromFifoOp):
        tensor_type = owner.result.type
        assert isinstance(tensor_type, TensorType)
        new_read = at(ktdf.ReadFromFifoOp(owner.fifo_slot, MemRefType(tensor_type.element_type, tensor_type.get_shape())))
        at(memref_ext.CopyOp(new_read.results[0], alloc))
        _erase_if_dead(owner)
        return
    assert isinstance(owner, scf.IfOp)
    for region in (owner.true_region, owner.false_region):
        terminator = region.block.last_op
        assert terminator is not None
        branch_value = terminator.operands[0]
        terminator.operands = []
        lower_initializer(branch_value, alloc, stage)
    then_region, else_region = owner.true_region, owner.false_region
    then_region = owner.detach_region(then_region)
    else_region = owner.detach_region(else_region)
    new_if = scf_ext.IfOp(owner.cond, [], then_region, else_region, dict(owner.attributes))
    new_if.location = owner.location
    block = owner.parent
    assert block is not None
    block.insert_op_before(new_if, owner)
    block.erase_op(owner)


def _after_alloc(alloc: SSAValue) -> BlockInserter:
    owner = alloc.owner
    assert isinstance(owner, Operation) and owner.parent is not None
    return BlockInserter(owner.parent, owner.next_op, owner.location)


def _zero(element: Attribute) -> Attribute:
    if isinstance(element, IntegerType):
        return IntegerAttr(0, element)
    assert isinstance(element, AnyFloat)
    return FloatAttr(0.0, element)


def _erase_if_dead(op: Operation) -> None:
    if op.parent is not None and all(not r.uses for r in op.results):
        op.parent.erase_op(op)


def drop_carried_value(loop: scf.ForOp, index: int, alloc: SSAValue) -> None:
    """Rebuild `loop` without carried slot `index`; uses of its iter_arg and result become `alloc`."""
    body = loop.body.block
    argument = body.args[index + 1]
    argument.replace_all_uses_with(alloc)
    loop.results[index].replace_all_uses_with(alloc)
    terminator = body.last_op
    assert terminator is not None
    terminator.operands = [v for i, v in enumerate(terminator.operands) if i != index]
    body.erase_arg(argument)
    inits = [v for i, v in enumerate(loop.iter_args) if i != index]
    region = loop.detach_region(loop.body)
    new_loop = scf_ext.ForOp(loop.lb, loop.ub, loop.step, inits, region)
    new_loop.attributes.update(loop.attributes)
    new_loop.location = loop.location
    parent = loop.parent
    assert parent is not None
    parent.insert_op_before(new_loop, loop)
    kept = [r for i, r in enumerate(loop.results) if i != index]
    for old, new in zip(kept, new_loop.results):
        old.replace_all_uses_with(new)
    parent.erase_op(loop)


__all__ = ["MapReductionPartials"]
