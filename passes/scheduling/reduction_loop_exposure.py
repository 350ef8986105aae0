"""`reduction-loop-exposure`: make a reduction's steps explicit loops (`docs/passes.md#reduction-loop-exposure`).

Before this pass the compute stage of a reduction reads its whole input (or one chunk of it)
from one FIFO slot and reduces it with one `linalg.generic`. Afterwards every stage of the
reduction's pipeline runs one `scf.for 0..R_i` per reduction dim (tagged `reduction_loop`),
and the input FIFO slot carries one step of the reduction (its element count divided by
`R = ∏ R_i`). A contraction marked for the matrix unit (`passes/contraction.py`) steps its
last reduction dim by the tile's K instead of 1: `R_i / K` steps of K elements each; so does
a reduction whose rows fill at most half the compute unit's lanes, by L (`passes/lane_wide.py`,
marked `dfsched.lane_wide = L`).

* **compute**: the accumulator starts from the reduction's init (an empty tensor, a fill of
  a constant, or the first-chunk/partial `scf.if` of `reduction-dim-chunking`) and is carried
  through the loops' `iter_args`; each step reads a slice (1 in every reduction dim) and
  runs the generic on it; the result is written to the output FIFO on the last step only;
* **load**: the transfer into the input slot moves into the loops and reads one step, at
  the loop IVs (added to an existing chunk offset); a partial-result transfer stays outside;
* **store**: the transfer runs on the last step only;
* **any other stage**: its body runs once per step.

Steps, as the spec numbers them:

1. the reduction dims and sizes, the pipeline, its private and the load stage;
2. identify `fifo_in` (the slot the generic's input is read from);
3. check the partial slot and the output write, then rewrite: shrink `fifo_in` in the
   private and in every transfer touching it, build the loops in every stage.

All checks run before the IR changes; where upstream only asserts, the pass reports a
located error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from dfsched.passes.builder import BlockInserter
from dfsched.arch.model import DeviceModel
from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.dialects.affine_subscripts import affine_add
from dfsched.passes.contraction import matrix_tile
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.lane_wide import choose_width, mark
from dfsched.passes.scheduling.reduction_utils import (
    all_equal,
    captured_values,
    check_reduction_operands,
    compute_stages,
    defining_slice,
    find_load_stage,
    find_store_stage,
    held_inputs,
    if_then,
    input_read,
    input_reduction_positions,
    is_exposed,
    is_fifo,
    loop_extent,
    nested_reduction_loops,
    rebuild_transfer,
    reduction_dims,
    transfers,
)
from dfsched.passes.scheduling.privates import private_result_source, retype_private_results

PASS = "reduction-loop-exposure"


@dataclass(frozen=True)
class ReductionLoopExposure(DevicePass):
    """Turn each reduction into explicit reduction loops with a carried accumulator."""

    name = "reduction-loop-exposure"

    lane_wide: bool = True
    """Step reductions with few rows by several elements of each row (`passes/lane_wide.py`);
    `lane-wide=false` keeps one column per step, as upstream."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stages = compute_stages(op, PASS)
        model = self._lanes_model(op) if stages and self.lane_wide else None
        for stage, generic in stages:
            if is_exposed(generic):  # already explicit
                continue
            plan = analyse(stage, generic, model)
            if plan is not None:
                rewrite(plan)

    def _lanes_model(self, op: ModuleOp) -> DeviceModel | None:
        """The device whose lanes lane-wide reductions fill; None (one column per step, as
        upstream) when there is none or it cannot be read: this pass needs no device."""
        from dfsched.arch.loading import device_model_for
        from dfsched.diagnostics import DiagnosticError

        try:
            return device_model_for(op, device=self.device)
        except DiagnosticError:
            return None


# ===========================================================================
# 1.–3. Analysis (no IR changes)
# ===========================================================================


@dataclass
class SteppedInput:
    """One input of the generic read per step: its FIFO slot (a private result) and one step's slice."""

    fifo_in_index: int
    fifo_in_type: ktdf.FifoSlotType
    slice_type: TensorType
    positions: list[int]  # the tensor dim each reduction dim indexes


@dataclass
class Plan:
    pipeline: ktdf.PipelineOp
    private: ktdf.PrivateOp
    load: ktdf.StageOp
    compute: ktdf.StageOp
    store: ktdf.StageOp | None
    generic: xlinalg.GenericOp
    red_dims: list[int]
    sizes: list[int]
    inputs: list[SteppedInput]  # one per stepped generic input, in order
    write: ktdf.WriteToFifoOp
    chunks: list[int]  # elements of each reduction dim one step reads (1; a matrix unit's K; L lanes)
    lanes: int | None = None  # L of a lane-wide reduction
    held: list[int] = field(default_factory=list)  # inputs read once, before the steps (`held_inputs`)

    @property
    def steps(self) -> int:
        total = 1
        for size in self.sizes:
            total *= size
        return total


def analyse(compute: ktdf.StageOp, generic: xlinalg.GenericOp, model: DeviceModel | None = None) -> Plan | None:
    red_dims = reduction_dims(generic)
    if not red_dims:
        raise error(generic, f"{PASS}: reduction dim not found")
    input_type = generic.inputs[0].type if generic.inputs else None
    if not isinstance(input_type, TensorType):
        check_reduction_operands(generic, PASS, generic)  # reports what is wrong
    assert isinstance(input_type, TensorType)
    extents = [loop_extent(generic, d) for d in red_dims]
    if any(size < 0 for size in extents):  # a dynamic reduction extent: left alone, as upstream
        return None
    # A contraction on the matrix unit steps its last reduction dim by the tile's K.
    tile = matrix_tile(generic)
    chunks = [1] * len(red_dims)
    lanes = None
    if tile is not None:
        chunks[-1] = tile[2]
    elif (lanes := choose_width(compute, generic, red_dims, extents, model)) is not None:
        chunks[-1] = lanes
    sizes = [extent // chunk for extent, chunk in zip(extents, chunks)]

    pipeline = compute.parent_op()
    if not isinstance(pipeline, ktdf.PipelineOp):
        raise error(compute, f"{PASS}: compute stage has no parent pipeline")
    private = pipeline.private
    if private is None:
        raise error(pipeline, f"{PASS}: no ktdf.private in pipeline")
    load = find_load_stage(pipeline, compute)
    if load is None:
        raise error(pipeline, f"{PASS}: cannot find load stage upstream of compute stage")

    positions = input_reduction_positions(generic)
    held = held_inputs(generic)
    stepped = [i for i in range(len(generic.inputs)) if i not in held]
    fifo_ins = [find_fifo_in(pipeline, load, generic)] if len(generic.inputs) == 1 else \
        [contraction_fifo_in(pipeline, load, generic, i) for i in stepped]
    held_fifos = [held_fifo_in(pipeline, load, generic, i) for i in held]
    stepped_values = [generic.inputs[i] for i in stepped]
    for index, (value, fifo_in) in enumerate(zip(stepped_values, fifo_ins)):
        if any(fifo_in is other and value is not stepped_values[i] for i, other in enumerate(fifo_ins[:index])):
            raise error(generic, f"{PASS}: contraction inputs {fifo_ins.index(fifo_in)} and {index} are "
                                 "different reads of one FIFO slot")
    steps = 1
    for size in sizes:
        steps *= size
    inputs: list[SteppedInput] = []
    for fifo_in, value, input_positions in zip(fifo_ins, stepped_values, positions):
        check_fifo_in(pipeline, private, fifo_in, steps)
        value_type = value.type
        assert isinstance(value_type, TensorType)
        slice_shape = list(value_type.get_shape())
        for position, chunk in zip(input_positions, chunks):
            slice_shape[position] = chunk
        inputs.append(SteppedInput(fifo_in.index, fifo_in.type, TensorType(value_type.element_type, slice_shape),
                                   input_positions))

    partial = next((t for t in transfers(load) if is_fifo(t.destination) and t.destination not in fifo_ins
                    and t.destination not in held_fifos), None)
    if partial is not None and guarding_if(partial, load) is None:
        raise error(pipeline, f"{PASS}: found partial FIFO but no scf.if condition in load stage")
    write = next((op for op in compute.walk() if isinstance(op, ktdf.WriteToFifoOp)), None)
    if write is None:
        raise error(pipeline, f"{PASS}: no write_to_fifo in compute stage")

    # What the rewrite relies on (upstream assumes it).
    if generic.parent_op() is not compute:
        raise error(generic, f"{PASS}: the reduction linalg.generic must be directly in its ktdf.stage")
    return Plan(pipeline, private, load, compute, find_store_stage(pipeline, compute), generic, red_dims, sizes,
                inputs, write, chunks, lanes, held)


def check_fifo_in(pipeline: ktdf.PipelineOp, private: ktdf.PrivateOp, fifo_in: SSAValue, steps: int) -> None:
    """`fifo_in` is a statically sized slot the private allocates, divisible into `steps` steps."""
    if not (isinstance(fifo_in, OpResult) and fifo_in.owner is private):
        raise error(pipeline, f"{PASS}: fifo_in is not a ktdf.private result")
    fifo_type = fifo_in.type
    if not isinstance(fifo_type, ktdf.FifoSlotType):
        raise error(pipeline, f"{PASS}: fifo_in is not a FifoSlotType")
    if fifo_type.is_dynamic or fifo_type.num_elements.data % steps:
        raise error(pipeline, f"{PASS}: input FIFO element count not divisible by reduction_size")
    source = private_result_source(fifo_in)
    if not (isinstance(source, OpResult) and isinstance(source.owner, ktdf.FifoAllocateOp)
            and source.owner.parent is private.body.block):
        raise error(pipeline, f"{PASS}: fifo_in is not allocated by a ktdf.fifo.allocate in the private")
    for transfer in transfers(pipeline):
        for side, value in (("dest", transfer.destination), ("source", transfer.source)):
            sizes_of_side = transfer.mixed_sizes(side)
            if value is fifo_in and sizes_of_side and any(not isinstance(s, int) for s in sizes_of_side):
                raise error(transfer, f"{PASS}: cannot shrink a dynamic transfer size of fifo_in")


def contraction_fifo_in(pipeline: ktdf.PipelineOp, load: ktdf.StageOp, generic: xlinalg.GenericOp,
                        index: int) -> SSAValue:
    """The slot input `index` of a contraction is read from, filled by a transfer of the load stage."""
    value = generic.inputs[index]
    read = value.owner if isinstance(value, OpResult) else None
    if not isinstance(read, ktdf.ReadFromFifoOp) or read.parent_op() is not generic.parent_op():
        raise error(generic, f"{PASS}: contraction input {index} must be read from a FIFO in its stage")
    if not any(t.destination is read.fifo_slot for t in transfers(load)):
        raise error(pipeline, f"{PASS}: no transfer of the load stage feeds contraction input {index}")
    return read.fifo_slot


def held_fifo_in(pipeline: ktdf.PipelineOp, load: ktdf.StageOp, generic: xlinalg.GenericOp, index: int) -> SSAValue:
    """The slot held input `index` (one value per row, Decision 101) is read from, once."""
    value = generic.inputs[index]
    read = value.owner if isinstance(value, OpResult) else None
    if not isinstance(read, ktdf.ReadFromFifoOp) or read.parent_op() is not generic.parent_op():
        raise error(generic, f"{PASS}: input {index}, one value per row held over the steps, must be read from a "
                             "FIFO in its stage")
    if not any(t.destination is read.fifo_slot for t in transfers(load)):
        raise error(pipeline, f"{PASS}: no transfer of the load stage feeds held input {index}")
    if any(read.fifo_slot is other.fifo_slot for other in _reads_of(generic) if other is not read):
        raise error(generic, f"{PASS}: held input {index} shares its FIFO slot with another input")
    return read.fifo_slot


def _reads_of(generic: xlinalg.GenericOp) -> list[ktdf.ReadFromFifoOp]:
    return [v.owner for v in generic.inputs if isinstance(v, OpResult) and isinstance(v.owner, ktdf.ReadFromFifoOp)]


def find_fifo_in(pipeline: ktdf.PipelineOp, load: ktdf.StageOp, generic: xlinalg.GenericOp) -> SSAValue:
    """The destination of the load stage's FIFO-destination transfer that feeds the generic."""
    candidates = [t for t in transfers(load) if is_fifo(t.destination)]
    if not candidates:
        raise error(pipeline, f"{PASS}: no FIFO-dest data_transfer in load stage")
    if len(candidates) == 1:
        return candidates[0].destination
    read = input_read(generic)
    if read is None:
        raise error(pipeline, f"{PASS}: multiple FIFO-dest transfers in load stage and cannot identify which "
                              "feeds linalg.generic ins()")
    for transfer in candidates:
        if transfer.destination is read.fifo_slot:
            return transfer.destination
    raise error(pipeline, f"{PASS}: none of the FIFO-dest transfers feeds linalg.generic ins()")


def guarding_if(op: Operation, stage: ktdf.StageOp) -> scf.IfOp | None:
    """The innermost `scf.if` around `op` inside `stage`."""
    parent = op.parent_op()
    while parent is not None and parent is not stage:
        if isinstance(parent, scf.IfOp):
            return parent
        parent = parent.parent_op()
    return None


# ===========================================================================
# The rewrite
# ===========================================================================


def rewrite(plan: Plan) -> None:
    pipeline = plan.pipeline
    location = pipeline.location

    # Shrink every fifo_in in the private, then in every transfer touching it.
    shrunk = {stepped.fifo_in_index: ktdf.FifoSlotType(
        stepped.fifo_in_type.src, stepped.fifo_in_type.dest,
        stepped.fifo_in_type.num_elements.data // plan.steps, stepped.fifo_in_type.element_type)
        for stepped in plan.inputs}
    private = retype_private_results(plan.private, shrunk)
    fifo_ins = [private.res[stepped.fifo_in_index] for stepped in plan.inputs]
    for transfer in transfers(pipeline):
        for side, value in (("dest", transfer.destination), ("source", transfer.source)):
            if value not in fifo_ins:
                continue
            if len(plan.inputs) == 1 and plan.lanes is None and _divides_every_size(transfer, side, plan.steps) \
                    and not _steps_one_dim(transfer, side, plan.inputs[0]):
                _divide_sizes(transfer, side, plan.steps)  # upstream: every size divided by the step count
            else:
                _shrink_sizes(transfer, side, plan.inputs[fifo_ins.index(value)], plan.sizes)

    # Shared constants, before the pipeline.
    add = BlockInserter.before_op(pipeline, location)
    start = add.index(0)
    step = add.index(1)
    lasts = [add.index(size - 1) for size in plan.sizes]

    for stage in pipeline.stages:
        if stage is plan.compute:
            rewrite_compute(plan, fifo_ins, start, step, lasts)
        elif stage is plan.store:
            wrap_stage(stage, plan.sizes, start, step, lasts, guard_transfer=True)
        elif stage is plan.load:
            rewrite_load(plan, fifo_ins, start, step)
        else:
            wrap_stage(stage, plan.sizes, start, step, lasts, guard_transfer=False)


def _steps_one_dim(transfer: ktdf.DataTransferOp, side: str, stepped: SteppedInput) -> bool:
    """Whether the side is the whole stepped tensor, several rows reduced along one dim (a
    32x32 tile of row maxima over 32 steps): it shrinks along that dim to a column
    ([32, 1]), where dividing every size would leave one element ([1, 1])."""
    sizes = transfer.mixed_sizes(side)
    shape = list(stepped.slice_type.get_shape())
    if sizes is None or len(sizes) != len(shape) or len(stepped.positions) != 1:
        return False
    rows = [s for i, s in enumerate(sizes) if i != stepped.positions[0]]
    return any(isinstance(s, int) and s > 1 for s in rows) and \
        all(s == t for i, (s, t) in enumerate(zip(sizes, shape)) if i != stepped.positions[0])


def _divides_every_size(transfer: ktdf.DataTransferOp, side: str, steps: int) -> bool:
    """Whether upstream's rule (every size divided by the step count) keeps each size whole; a
    tile of several rows (`[4, 64]` over 64 steps) is shrunk along its reduction dims instead."""
    sizes = transfer.mixed_sizes(side)
    return sizes is None or all(isinstance(s, int) and s % steps == 0 for s in sizes)


def _divide_sizes(transfer: ktdf.DataTransferOp, side: str, steps: int) -> None:
    sizes = transfer.mixed_sizes(side)
    if sizes is not None:  # all static (checked)
        rebuild_transfer(transfer, **{f"{side}_sizes": [s // steps for s in sizes]})  # type: ignore[operator]


def _shrink_sizes(transfer: ktdf.DataTransferOp, side: str, stepped: SteppedInput, sizes: Sequence[int]) -> None:
    """A contraction operand's FIFO side to one step: each reduction position of a shaped
    side divided by its extent (a flat side by the step count; leading dims beyond the
    tensor's rank, a batch slot, are kept)."""
    current = transfer.mixed_sizes(side)
    if current is None:
        return
    new = list(current)
    if len(new) == 1:
        steps = 1
        for size in sizes:
            steps *= size
        new[0] //= steps
    else:
        offset = len(new) - len(stepped.slice_type.get_shape())
        for position, size in zip(stepped.positions, sizes):
            if 0 <= position + offset < len(new):
                new[position + offset] //= size
    rebuild_transfer(transfer, **{f"{side}_sizes": new})  # type: ignore[arg-type]


def rewrite_compute(plan: Plan, fifo_ins: Sequence[SSAValue], start: SSAValue, step: SSAValue,
                    lasts: Sequence[SSAValue]) -> None:
    """Seed before the loops, one generic per step on the carried accumulator, write on the last."""
    generic = plan.generic
    body = plan.compute.body.block
    originals = list(body.ops)

    # The ops computing the init (and whatever the generic's body uses from the stage)
    # move to the top of the stage, in order: they run once, before the loops.
    captured = captured_values(generic)
    prelude = defining_slice(generic.outputs[0], body)
    for value in [*captured, *(generic.inputs[i] for i in plan.held)]:  # held inputs: read once, first
        prelude += [op for op in defining_slice(value, body) if op not in prelude]
    prelude = [op for op in body.ops if op in prelude]
    anchor = next(op for op in body.ops if op not in prelude)
    for op in prelude:
        op.detach()
        body.insert_op_before(op, anchor)

    add = BlockInserter.before_op(anchor, plan.pipeline.location)
    loops = nested_reduction_loops(add, plan.sizes, start, step, generic.outputs[0])
    inner = BlockInserter.before_op(loops.inner_terminator, plan.pipeline.location)
    mapping: dict[SSAValue, SSAValue] = {}
    stepped_values = [v for i, v in enumerate(generic.inputs) if i not in plan.held]
    for value, fifo_in, stepped in zip(stepped_values, fifo_ins, plan.inputs):
        if value not in mapping:  # an operand used twice (x * x) is read once per step
            mapping[value] = inner(ktdf.ReadFromFifoOp(fifo_in, stepped.slice_type)).results[0]
    mapping[generic.outputs[0]] = loops.innermost.body.block.args[1]
    updated = inner(generic.clone(value_mapper=mapping))
    if plan.lanes is not None:
        mark(updated, plan.lanes)
    is_last = all_equal(inner, loops.ivs, lasts)
    inner(if_then(is_last, [ktdf.WriteToFifoOp(updated.results[0], plan.write.fifo_slot)]))
    loops.inner_terminator.operands = [updated.results[0]]

    for op in reversed(originals):
        if op in prelude:
            continue
        if all(not r.uses for r in op.results):
            body.erase_op(op)


def rewrite_load(plan: Plan, fifo_ins: Sequence[SSAValue], start: SSAValue, step: SSAValue) -> None:
    """The transfers into the fifo_ins move into loops at the end of the stage, in the order the
    compute stage reads them (the contraction's inputs: one FIFO joins two units in DataflowIR,
    so each step's operands must be sent in the order they are received); the rest stays put."""
    body = plan.load.body.block
    mains = sorted((t for t in transfers(plan.load) if is_fifo(t.destination) and t.destination in fifo_ins),
                   key=lambda t: list(fifo_ins).index(t.destination))
    if not mains:
        stepped = plan.inputs[0]
        loops = wrap_stage(plan.load, plan.sizes, start, step, (), guard_transfer=False)
        for transfer in transfers(loops.innermost):
            if is_fifo(transfer.destination):
                patch_input_transfer(transfer, loops.ivs, stepped.positions, len(stepped.slice_type.get_shape()),
                                     plan.chunks)
        return
    loops = nested_reduction_loops(BlockInserter.at_end(body, plan.pipeline.location), plan.sizes, start, step)
    inner_block = loops.innermost.body.block
    for main in mains:
        stepped = plan.inputs[list(fifo_ins).index(main.destination)]
        main.detach()
        inner_block.insert_op_before(main, loops.inner_terminator)
        patch_input_transfer(main, loops.ivs, stepped.positions, len(stepped.slice_type.get_shape()), plan.chunks)


def patch_input_transfer(transfer: ktdf.DataTransferOp, ivs: Sequence[SSAValue], red_dims: Sequence[int],
                         tensor_rank: int, chunks: Sequence[int] | None = None) -> None:
    """Read one step: size `chunk` (1 unless a matrix unit steps K by its tile) and index
    `+ iv * chunk` along every reduction dim of the source memref.

    Leading memref dims beyond the tensor's rank (the batch slot added by stage coarsening)
    shift the reduction dims right. A constant-0 index becomes the IV; any other index (a
    chunk offset) gets the IV added.
    """
    sizes = transfer.mixed_sizes("source")
    if sizes is None:
        return
    offset = len(sizes) - tensor_rank
    chunks = list(chunks) if chunks is not None else [1] * len(red_dims)
    for dim, chunk in zip(red_dims, chunks):
        if 0 <= dim + offset < len(sizes):
            sizes[dim + offset] = chunk
    map_attr = transfer.source_map
    if map_attr is None:
        rebuild_transfer(transfer, source_sizes=sizes)
        return
    amap = map_attr.data
    results = list(amap.results)
    indices = list(transfer.source_indices)
    base = amap.num_dims
    added = 0
    for i, dim in enumerate(red_dims):
        position = dim + offset
        if not 0 <= position < len(results):
            continue
        new_dim = AffineDimExpr(base + added) * chunks[i] if chunks[i] != 1 else AffineDimExpr(base + added)
        added += 1
        existing = results[position]
        if isinstance(existing, AffineConstantExpr) and existing.value == 0:
            results[position] = new_dim
        else:
            results[position] = affine_add(existing, new_dim)
        indices.append(ivs[i])
    rebuild_transfer(transfer, source_map=AffineMap(base + added, amap.num_symbols, tuple(results)),
                     source_indices=indices, source_sizes=sizes)


def wrap_stage(stage: ktdf.StageOp, sizes: Sequence[int], start: SSAValue, step: SSAValue,
               lasts: Sequence[SSAValue], guard_transfer: bool):
    """Run the whole body of `stage` once per step; with `guard_transfer`, its first transfer only on the last."""
    body = stage.body.block
    originals = list(body.ops)
    transfer = next(iter(transfers(stage)), None) if guard_transfer else None
    location = stage.location
    loops = nested_reduction_loops(BlockInserter.at_start(body, location), sizes, start, step)
    inner_block = loops.innermost.body.block
    for op in originals:
        op.detach()
        inner_block.insert_op_before(op, loops.inner_terminator)
    if transfer is not None:
        add = BlockInserter.before_op(transfer, location)
        is_last = all_equal(add, loops.ivs, lasts)
        guard = add(if_then(is_last))
        transfer.detach()
        then_block = guard.regions[0].block
        then_block.insert_op_before(transfer, then_block.last_op)  # type: ignore[arg-type]
    return loops


__all__ = ["ReductionLoopExposure"]
