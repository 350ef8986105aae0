"""`reduction-dim-chunking`: split a large reduction into sequential chunks (`docs/passes.md#reduction-dim-chunking`).

After `stage-coarsening`, a reduction's scratchpad load, compute and store stages form an
inner `ktdf.pipeline` inside the batch `scf.for` of the coarse stage, and the load stage
moves the whole reduction extent into one FIFO slot. When that slot is too large, this pass
replaces the inner pipeline with chunk loops, one per reduction dim that gets more than one
chunk, holding one fresh pipeline per chunk:

* the load stage moves one chunk of the input (`iv * chunk` along each chunked dim) and,
  from the second chunk on, the running partial result from the scratchpad output buffer;
* the compute stage starts from the reduction's own init on the first chunk (an empty
  tensor, or a fill of a constant) and from the partial otherwise;
* the store stage writes the partial back to the output buffer after every chunk.

Steps, as the spec numbers them:

1. collect the stages holding a reduction generic;
2. check the shape (one inner pipeline, load and store siblings found through tokens);
3. chunk counts: `num-chunks` (one per reduction dim) or the smallest N that divides every
   reduction dim and brings the input under `chunk-size-threshold` bytes;
4. one chunk everywhere: nothing to do;
5. trace the load and store transfers, the batch loop;
6. emit the chunk loops, the "first chunk" condition and the chunk pipeline;
7. erase the old inner pipeline.

Where upstream only asserts, the pass reports a located error before it changes the IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerType, AnyFloat, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from dfsched.passes.builder import BlockInserter
from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.passes.scheduling.reduction_utils import (
    ChunkPipelineConfig,
    ChunkStageFactory,
    all_equal,
    captured_values,
    check_reduction_operands,
    compute_stages,
    defining_slice,
    empty_body_loop,
    find_load_stage,
    find_load_transfer,
    find_store_stage,
    find_store_transfer,
    init_form,
    is_exposed,
    loop_extent,
    reduction_dims,
)

PASS = "reduction-dim-chunking"


@dataclass(frozen=True)
class ReductionDimChunking(ModulePass):
    """Split reductions whose input does not fit into sequential chunks."""

    name = "reduction-dim-chunking"

    num_chunks: tuple[int, ...] = ()
    """Chunks per reduction dim, in iterator order; empty: infer from the threshold."""

    chunk_size_threshold: int = 1048576
    """Largest input chunk, in bytes, when the chunk count is inferred."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(n < 0 for n in self.num_chunks):
            raise error(op, f"{PASS}: num-chunks must not be negative (got {list(self.num_chunks)})")
        for stage, generic in compute_stages(op, PASS):
            if is_exposed(generic):  # already split into explicit reduction loops
                continue
            plan = self.plan(stage, generic)
            if plan is not None:
                rewrite(plan)

    # -----------------------------------------------------------------------
    # 2.–4. Shape and chunk counts
    # -----------------------------------------------------------------------
    def plan(self, compute: ktdf.StageOp, generic: xlinalg.GenericOp) -> Plan | None:
        pipeline = compute.parent_op()
        assert isinstance(pipeline, ktdf.PipelineOp)  # ktdf.stage's HasParent trait
        counts = self.chunk_counts(pipeline, generic)
        if counts is None:
            return None
        red_dims, chunk_sizes, per_dim = counts
        if all(n == 1 for n in per_dim):  # one chunk everywhere: the rewrite would change nothing
            return None

        # The shape the rewrite needs (upstream asserts it, even when there is nothing to do).
        region = pipeline.parent_region()
        assert region is not None
        if len(_pipelines_not_nested(region)) != 1:
            raise error(pipeline, f"{PASS}: expected the reduction's pipeline to be the only pipeline in its region")
        load = find_load_stage(pipeline, compute)
        if load is None:
            raise error(pipeline, f"{PASS}: could not find the load stage upstream of the compute stage")
        store = find_store_stage(pipeline, compute)
        if store is None:
            raise error(pipeline, f"{PASS}: could not find the store stage downstream of the compute stage")
        if generic.parent_op() is not compute:
            raise error(generic, f"{PASS}: the reduction linalg.generic must be directly in its ktdf.stage")
        check_reduction_operands(generic, PASS, pipeline)
        return Plan(pipeline, load, compute, store, generic, red_dims, chunk_sizes, per_dim)

    def chunk_counts(self, pipeline: ktdf.PipelineOp, generic: xlinalg.GenericOp
                     ) -> tuple[list[int], list[int], list[int]] | None:
        """(reduction dims, chunk size per dim, chunks per dim); None to skip silently."""
        if not self.num_chunks:
            inferred = analyze_reduction_chunks(generic, self.chunk_size_threshold)
            if inferred is None:
                raise error(pipeline, f"{PASS}: ReductionChunkAnalysis could not infer chunk count")
            n, red_dims, chunk_sizes = inferred
            return red_dims, chunk_sizes, [n] * len(red_dims)
        red_dims = reduction_dims(generic)
        if not red_dims:
            raise error(pipeline, f"{PASS}: could not find reduction dimension")
        if len(self.num_chunks) != len(red_dims):
            raise error(pipeline, f"{PASS}: numChunks has {len(self.num_chunks)} entries but there are "
                                  f"{len(red_dims)} reduction dims")
        input_type = generic.inputs[0].type if generic.inputs else None
        if not isinstance(input_type, TensorType):
            check_reduction_operands(generic, PASS, pipeline)  # reports what is wrong
        chunk_sizes = []
        for dim, n in zip(red_dims, self.num_chunks):
            size = loop_extent(generic, dim)
            if size < 0 or n == 0 or size % n:  # dynamic, or not divisible: leave it (as upstream)
                return None
            chunk_sizes.append(size // n)
        return red_dims, chunk_sizes, list(self.num_chunks)


def _pipelines_not_nested(region) -> list[ktdf.PipelineOp]:
    """Pipelines in `region`, not counting those nested in another pipeline."""
    out = []

    def visit(op: Operation) -> None:
        if isinstance(op, ktdf.PipelineOp):
            out.append(op)
            return
        for r in op.regions:
            for b in r.blocks:
                for inner in b.ops:
                    visit(inner)

    for block in region.blocks:
        for op in block.ops:
            visit(op)
    return out


# ---------------------------------------------------------------------------
# ReductionChunkAnalysis
# ---------------------------------------------------------------------------


def analyze_reduction_chunks(generic: xlinalg.GenericOp, threshold: int) -> tuple[int, list[int], list[int]] | None:
    """The smallest N that divides every reduction dim and gives chunks of at most `threshold` bytes.

    Returns (N, reduction dims, chunk size per dim), or None when the input is not a static
    tensor of a fixed-width element type, or no N works.
    """
    red_dims = reduction_dims(generic)
    if not red_dims or not generic.inputs:
        return None
    input_type = generic.inputs[0].type
    if not isinstance(input_type, TensorType):
        return None
    element = input_type.element_type
    if isinstance(element, IntegerType):
        width = element.width.data
    elif isinstance(element, AnyFloat):
        width = element.bitwidth
    else:
        return None
    total = width // 8
    for size in input_type.get_shape():
        if size < 0:
            return None
        total *= size
    sizes = [loop_extent(generic, d) for d in red_dims]
    if any(size < 0 for size in sizes):
        return None
    upper = 1
    for size in sizes:
        upper *= size
    for n in range(1, upper + 1):
        if all(size % n == 0 for size in sizes) and total // n <= threshold:
            return n, red_dims, [size // n for size in sizes]
    return None


# ---------------------------------------------------------------------------
# 5.–7. The rewrite
# ---------------------------------------------------------------------------


@dataclass
class Plan:
    pipeline: ktdf.PipelineOp
    load: ktdf.StageOp
    compute: ktdf.StageOp
    store: ktdf.StageOp
    generic: xlinalg.GenericOp
    red_dims: list[int]
    chunk_sizes: list[int]
    per_dim: list[int]


def rewrite(plan: Plan) -> None:
    pipeline, generic = plan.pipeline, plan.generic

    # 5. Trace the data flow: input memref → fifo_in → generic → fifo_out → output memref.
    load_transfer, read = find_load_transfer(plan.load, generic)
    if read is None:
        raise error(pipeline, f"{PASS}: generic input is not produced by read_from_fifo")
    if load_transfer is None:
        raise error(pipeline, f"{PASS}: no memref-to-fifo transfer feeding the generic's fifo_in slot in load stage")
    store_transfer, write = find_store_transfer(plan.compute, plan.store, generic)
    if write is None:
        raise error(pipeline, f"{PASS}: generic result is not consumed by write_to_fifo")
    if store_transfer is None:
        raise error(pipeline, f"{PASS}: no fifo-to-memref transfer consuming the generic's fifo_out slot in store stage")
    in_fifo, out_fifo = read.fifo_slot.type, write.fifo_slot.type
    if not isinstance(in_fifo, ktdf.FifoSlotType) or not isinstance(out_fifo, ktdf.FifoSlotType):
        raise error(pipeline, f"{PASS}: could not derive input/output FIFO slot types from compute stage")
    batch = pipeline.parent_op()
    if not isinstance(batch, scf.ForOp):
        raise error(pipeline, f"{PASS}: reduction needs chunking, but its pipeline is not nested in a batch "
                              "scf.for, so there is no index to chunk against")
    input_memref = load_transfer.source
    partial_memref = store_transfer.destination
    input_type = generic.inputs[0].type
    assert isinstance(input_type, TensorType)
    in_rank = len(input_memref.type.get_shape())  # type: ignore[attr-defined]
    if in_rank != len(input_type.get_shape()) + 1:
        raise error(pipeline, f"{PASS}: expected the input buffer to have one batch dim before the "
                              f"{len(input_type.get_shape())} dims of the reduction, but it has rank {in_rank}")
    first_init = first_chunk_init(plan.compute, generic, pipeline)

    # The chunk's input tensor and FIFO slots.
    chunk_shape = list(input_type.get_shape())
    for dim, size in zip(plan.red_dims, plan.chunk_sizes):
        chunk_shape[dim] = size
    chunk_type = TensorType(input_type.element_type, chunk_shape)
    elements = 1
    for size in chunk_shape:
        elements *= size
    chunk_in_fifo = ktdf.FifoSlotType(in_fifo.src, in_fifo.dest, elements, in_fifo.element_type)
    partial_fifo = ktdf.FifoSlotType(in_fifo.src, in_fifo.dest, out_fifo.num_elements.data, out_fifo.element_type)

    # 6. The chunk loops (outermost first), built before the old pipeline.
    location = pipeline.location
    add = BlockInserter.before_op(pipeline, location)
    bounds = [add.index(n) for n in plan.per_dim]
    c0 = add.index(0)
    c1 = add.index(1)
    dim_ivs: list[SSAValue] = []
    active: list[SSAValue] = []
    inner = add
    for n, bound in zip(plan.per_dim, bounds):
        if n == 1:
            dim_ivs.append(c0)
            continue
        loop = inner(empty_body_loop(c0, bound, c1))
        iv = loop.body.block.args[0]
        dim_ivs.append(iv)
        active.append(iv)
        inner = BlockInserter.before_op(loop.body.block.last_op, location)  # type: ignore[arg-type]
    condition = all_equal(inner, active, [c0] * len(active))

    chunk_pipeline = inner(ktdf.PipelineOp())
    assert isinstance(chunk_pipeline, ktdf.PipelineOp)
    factory = ChunkStageFactory(
        chunk_pipeline,
        ChunkPipelineConfig([chunk_in_fifo], [partial_fifo], [out_fifo], 2),
        batch.body.block.args[0],
        plan.load.applicable_units,
        plan.compute.applicable_units,
        plan.store.applicable_units,
        location,
    )
    factory.build_private()
    factory.build_load_stage(condition, input_memref, partial_memref, plan.red_dims, plan.chunk_sizes, dim_ivs)
    body = plan.compute.body.block
    captured = [op for op in body.ops if any(op in defining_slice(v, body) for v in captured_values(generic))]
    factory.build_compute_stage(condition, chunk_type, generic, first_init, captured)
    factory.build_store_stage(partial_memref)

    # 7. The old inner pipeline goes.
    parent = pipeline.parent
    assert parent is not None
    parent.erase_op(pipeline, safe_erase=False)


def first_chunk_init(compute: ktdf.StageOp, generic: xlinalg.GenericOp, at: Operation) -> list[Operation]:
    """Detached clones of the ops computing the reduction's init, its value last.

    An empty tensor clones to an empty tensor; a fill of a constant into one clones to a
    fill (with the constant cloned too when it is defined in the compute stage). Anything
    else cannot be re-created per chunk.
    """
    form = init_form(generic.outputs[0])
    if form is None:
        raise error(at, f"{PASS}: the reduction's init must be a tensor.empty or a linalg.fill of a constant "
                        "into one")
    ops: list[Operation] = []
    empty = form.empty.clone()
    ops.append(empty)
    if form.fill is None:
        return ops
    value = form.value
    assert value is not None
    defined_by = value.owner if isinstance(value, OpResult) else value.owner.parent_op()  # type: ignore[union-attr]
    if defined_by is not None and compute.is_ancestor(defined_by):
        if not (isinstance(value, OpResult) and isinstance(value.owner, arith.ConstantOp)):
            raise error(at, f"{PASS}: the reduction's init must be a tensor.empty or a linalg.fill of a constant "
                            "into one")
        constant = value.owner.clone()
        ops.insert(0, constant)
        value = constant.results[0]
    ops.append(form.fill.clone(value_mapper={form.fill.inputs[0]: value, form.fill.outputs[0]: empty.results[0]}))
    return ops


__all__ = ["ReductionDimChunking", "analyze_reduction_chunks"]
