"""Helpers shared by the reduction passes (`docs/passes.md#reduction-dim-chunking`).

The three passes work on the shape `stage-coarsening` gives a reduction: an inner
`ktdf.pipeline` of a load stage (scratchpad → FIFO), a compute stage (read the FIFO, run a
`linalg.generic` with `reduction` iterators, write the result to a FIFO) and a store stage
(FIFO → scratchpad), chained by tokens. This module holds what more than one of them needs:

* **finding things**: reduction generics and their compute stages, the load and store
  siblings of a compute stage (through tokens), the transfers that feed the generic and
  drain its result;
* **the init of a reduction**: an empty tensor, or a `linalg.fill` of a constant into one
  (`init_form`), and the ops of a stage that compute it (`defining_slice`);
* **building**: index constants, the batch slot index `(iv - 0) / 1`, nested
  `reduction_loop`s with an optional carried accumulator, the "all last" condition;
* **`ChunkStageFactory`**: the load / compute / store stages of one chunk pipeline
  (`reduction-dim-chunking`).

Everything keeps IR order (Decision 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    MemRefType,
    TensorType,
)
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from dfsched.passes.builder import BlockInserter
from dfsched.passes.walk import ancestor_in
from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.dialects import scf_ext
from dfsched.dialects.affine_subscripts import affine_mul

REDUCTION_LOOP = ktdf.LoopTypeAttr(ktdf.LoopType.REDUCTION_LOOP)

# ---------------------------------------------------------------------------
# Reduction generics
# ---------------------------------------------------------------------------


def iterator_kinds(generic: xlinalg.GenericOp) -> list[str]:
    out = []
    for it in generic.iterator_types.data:
        if isinstance(it, IteratorTypeAttr):
            out.append(it.data.value)
        else:  # a plain string attribute
            out.append(getattr(it, "data", str(it)))
    return out


def reduction_dims(generic: xlinalg.GenericOp) -> list[int]:
    """Positions of the `reduction` iterators, in iterator order."""
    return [i for i, kind in enumerate(iterator_kinds(generic)) if kind == IteratorType.REDUCTION.value]


def is_reduction_generic(op: Operation) -> bool:
    return isinstance(op, xlinalg.GenericOp) and bool(reduction_dims(op))


def reduction_generics(root: Operation) -> list[xlinalg.GenericOp]:
    """Every `linalg.generic` with a reduction iterator under `root`, in walk order."""
    return [op for op in root.walk() if is_reduction_generic(op)]  # type: ignore[misc]


def enclosing_stage(op: Operation) -> ktdf.StageOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ktdf.StageOp):
        parent = parent.parent_op()
    return parent


def is_exposed(generic: xlinalg.GenericOp) -> bool:
    """True once `reduction-loop-exposure` ran: the generic sits in a `reduction_loop`."""
    parent = generic.parent_op()
    return isinstance(parent, scf.ForOp) and parent.attributes.get("loop_type") == REDUCTION_LOOP


def compute_stages(root: Operation, pass_name: str) -> list[tuple[ktdf.StageOp, xlinalg.GenericOp]]:
    """The distinct stages holding a reduction generic (with their first one), in walk order.

    A reduction generic outside every stage is an error: these passes run on ScheduleIR.
    """
    out: list[tuple[ktdf.StageOp, xlinalg.GenericOp]] = []
    seen: set[ktdf.StageOp] = set()
    for generic in reduction_generics(root):
        stage = enclosing_stage(generic)
        if stage is None:
            raise error(generic, f"{pass_name}: reduction linalg.generic is not inside a ktdf.stage")
        if stage not in seen:
            seen.add(stage)
            out.append((stage, generic))
    return out


def input_shape(generic: xlinalg.GenericOp) -> tuple[int, ...] | None:
    """The static-or-dynamic shape of input 0 when it is a ranked tensor (None otherwise)."""
    if not generic.inputs:
        return None
    type_ = generic.inputs[0].type
    if not isinstance(type_, TensorType):
        return None
    return tuple(type_.get_shape())


def loop_extent(generic: xlinalg.GenericOp, dim: int) -> int:
    """The extent of iteration dim `dim`, read from input 0 through its indexing map (-1 if unknown).

    With the identity map (what the passes rewrite) this is the input's size at `dim`.
    """
    shape = input_shape(generic)
    maps = generic.indexing_maps.data
    if shape is None or not maps or not isinstance(maps[0], AffineMapAttr):
        return -1
    for position, result in enumerate(maps[0].data.results):
        if isinstance(result, AffineDimExpr) and result.position == dim and position < len(shape):
            return shape[position]
    return -1


def check_reduction_operands(generic: xlinalg.GenericOp, pass_name: str, at: Operation,
                             held: Sequence[int] = ()) -> None:
    """One tensor input indexed by the identity map, one tensor init (what the passes rewrite);
    besides it, the inputs `held` (`held_inputs`) when the pass can hold them.

    Upstream assumes this shape (the reduction dims index input 0 by iterator position, and
    only input 0 is re-read per chunk or per step); anything else would be rewritten wrongly.
    """
    stepped = [i for i in range(len(generic.inputs)) if i not in held]
    if len(stepped) != 1 or len(generic.outputs) != 1:
        raise error(at, f"{pass_name}: expected a reduction with one input and one init, got "
                        f"{len(generic.inputs)} inputs and {len(generic.outputs)} inits")
    if not isinstance(generic.inputs[stepped[0]].type, TensorType) \
            or not isinstance(generic.outputs[0].type, TensorType) or len(generic.results) != 1:
        raise error(at, f"{pass_name}: expected the reduction's input and init to be tensors")
    maps = generic.indexing_maps.data
    first = maps[stepped[0]].data if isinstance(maps[stepped[0]], AffineMapAttr) else None
    rank = len(generic.iterator_types.data)
    if first is None or first != AffineMap.identity(rank):
        raise error(at, f"{pass_name}: expected the reduction's input to be indexed by the identity map")


def held_inputs(generic: xlinalg.GenericOp) -> list[int]:
    """The tensor inputs of a reduction that no reduction dim indexes (the row maxima in a
    softmax's `sum(exp(x - max))`, Decision 101): one value per row, the same at every step,
    read once and held by the compute unit for the whole reduction. A contraction has none."""
    red = set(reduction_dims(generic))
    maps = [m.data for m in generic.indexing_maps.data]
    if not red or len(generic.inputs) < 2:
        return []
    return [i for i, (value, amap) in enumerate(zip(generic.inputs, maps))
            if isinstance(value.type, TensorType) and not red & set(amap.used_dims())]


def input_reduction_positions(generic: xlinalg.GenericOp) -> list[list[int]]:
    """For each input, the tensor dim that each reduction dim indexes, in `reduction_dims` order.

    A contraction (several inputs, e.g. a matmul's (m, k) and (k, n)) is accepted when one
    tensor init is indexed by the parallel dims alone and every input is a tensor indexed by
    a projected permutation that uses every reduction dim: then one step of the reduction
    reads a slice of size 1 along those positions of every input. A single input must be
    indexed by the identity map (`check_reduction_operands`). Anything else: a located error.
    """
    held = held_inputs(generic)
    if len(generic.inputs) - len(held) == 1:
        check_reduction_operands(generic, "reduction-loop-exposure", generic, held)
        return [reduction_dims(generic)]
    red_dims = reduction_dims(generic)
    if len(generic.outputs) != 1 or len(generic.results) != 1 or not isinstance(generic.outputs[0].type, TensorType):
        raise error(generic, "reduction-loop-exposure: expected a contraction with one tensor init")
    maps = [m.data for m in generic.indexing_maps.data]
    out_dims = {r.position for r in maps[-1].results if isinstance(r, AffineDimExpr)}
    if out_dims & set(red_dims):
        raise error(generic, "reduction-loop-exposure: the contraction's init is indexed by a reduction dim")
    positions: list[list[int]] = []
    for index, (value, amap) in enumerate(zip(generic.inputs, maps)):
        dims = [r.position if isinstance(r, AffineDimExpr) else None for r in amap.results]
        if not isinstance(value.type, TensorType) or None in dims or len(set(dims)) != len(dims):
            raise error(generic, f"reduction-loop-exposure: contraction input {index} must be a tensor indexed "
                                 "by a permutation of loop dims")
        missing = [d for d in red_dims if d not in dims]
        if missing:
            raise error(generic, f"reduction-loop-exposure: contraction input {index} does not use reduction "
                                 f"dim d{missing[0]}; every input must step along every reduction dim")
        positions.append([dims.index(d) for d in red_dims])
    return positions


# ---------------------------------------------------------------------------
# Pipeline shape
# ---------------------------------------------------------------------------


def _sibling_across(pipeline: ktdf.PipelineOp, compute: ktdf.StageOp, mine: str, theirs: str) -> ktdf.StageOp | None:
    for token in getattr(compute, mine):
        for sibling in pipeline.stages:
            if sibling is not compute and token in getattr(sibling, theirs):
                return sibling
    return None


def find_load_stage(pipeline: ktdf.PipelineOp, compute: ktdf.StageOp) -> ktdf.StageOp | None:
    """The sibling stage producing a token the compute stage waits for."""
    return _sibling_across(pipeline, compute, "depends_in", "depends_out")


def find_store_stage(pipeline: ktdf.PipelineOp, compute: ktdf.StageOp) -> ktdf.StageOp | None:
    """The sibling stage waiting for a token the compute stage produces."""
    return _sibling_across(pipeline, compute, "depends_out", "depends_in")


def is_fifo(value: SSAValue) -> bool:
    return isinstance(value.type, ktdf.FifoSlotType)


def is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


def transfers(root: Operation) -> list[ktdf.DataTransferOp]:
    return [op for op in root.walk() if isinstance(op, ktdf.DataTransferOp)]


def input_read(generic: xlinalg.GenericOp) -> ktdf.ReadFromFifoOp | None:
    """The `read_from_fifo` that produces input 0 of the generic, if that is what does."""
    value = generic.inputs[0] if generic.inputs else None
    if isinstance(value, OpResult) and isinstance(value.owner, ktdf.ReadFromFifoOp):
        return value.owner
    return None


def find_load_transfer(
    load_stage: ktdf.StageOp, generic: xlinalg.GenericOp
) -> tuple[ktdf.DataTransferOp | None, ktdf.ReadFromFifoOp | None]:
    """The memref → FIFO transfer filling the slot the generic reads its input from."""
    read = input_read(generic)
    if read is None:
        return None, None
    for transfer in transfers(load_stage):
        if is_memref(transfer.source) and is_fifo(transfer.destination) and transfer.destination == read.fifo_slot:
            return transfer, read
    return None, read


def find_store_transfer(
    compute: ktdf.StageOp, store_stage: ktdf.StageOp | None, generic: xlinalg.GenericOp
) -> tuple[ktdf.DataTransferOp | None, ktdf.WriteToFifoOp | None]:
    """The FIFO → memref transfer draining the slot the generic's result is written to."""
    write = next((op for op in compute.walk() if isinstance(op, ktdf.WriteToFifoOp)
                  and op.data == generic.results[0]), None)
    if write is None or store_stage is None:
        return None, write
    for transfer in transfers(store_stage):
        if is_fifo(transfer.source) and is_memref(transfer.destination) and transfer.source == write.fifo_slot:
            return transfer, write
    return None, write


_KEEP = object()


def rebuild_transfer(transfer: ktdf.DataTransferOp, *, source_map=_KEEP, source_indices=_KEEP, source_sizes=_KEEP,
                     dest_map=_KEEP, dest_indices=_KEEP, dest_sizes=_KEEP) -> ktdf.DataTransferOp:
    """Replace `transfer` by a copy with some sides changed (maps, indices, mixed sizes); attributes kept."""

    def pick(given, current):
        return current if given is _KEEP else given

    def current_map(attr):
        return attr.data if attr is not None else None

    new = ktdf.DataTransferOp(
        transfer.source,
        transfer.destination,
        pick(source_map, current_map(transfer.source_map)),
        pick(source_indices, list(transfer.source_indices)),
        pick(source_sizes, transfer.mixed_sizes("source")),
        pick(dest_map, current_map(transfer.dest_map)),
        pick(dest_indices, list(transfer.dest_indices)),
        pick(dest_sizes, transfer.mixed_sizes("dest")),
        dict(transfer.attributes),
    )
    new.location = transfer.location
    block = transfer.parent
    assert block is not None
    block.insert_op_before(new, transfer)
    block.erase_op(transfer)
    return new


# ---------------------------------------------------------------------------
# The init of a reduction
# ---------------------------------------------------------------------------


@dataclass
class InitForm:
    """How a reduction starts: an empty tensor, or a fill of `value` into one."""

    empty: tensor.EmptyOp
    fill: xlinalg.FillOp | None = None

    @property
    def value(self) -> SSAValue | None:
        return self.fill.inputs[0] if self.fill is not None else None


def init_form(init: SSAValue) -> InitForm | None:
    """`tensor.empty`, or `linalg.fill ins(%scalar) outs(tensor.empty)`; None for anything else."""
    if not isinstance(init, OpResult):
        return None
    owner = init.owner
    if isinstance(owner, tensor.EmptyOp):
        return InitForm(owner)
    if isinstance(owner, xlinalg.FillOp) and len(owner.inputs) == 1 and len(owner.outputs) == 1:
        out = owner.outputs[0]
        if isinstance(out, OpResult) and isinstance(out.owner, tensor.EmptyOp):
            return InitForm(out.owner, owner)
    return None


def captured_values(op: Operation) -> list[SSAValue]:
    """Values used inside `op`'s regions but defined outside `op`."""
    return [operand for inner in op.walk() if inner is not op for operand in inner.operands
            if not (isinstance(operand, OpResult) and op.is_ancestor(operand.owner))
            and not (not isinstance(operand, OpResult) and op.is_ancestor(operand.owner.parent_op()))]  # type: ignore[union-attr]


def defining_slice(value: SSAValue, block: Block) -> list[Operation]:
    """Ops of `block` that `value` depends on (also through values their regions use), in block order."""
    needed: set[Operation] = set()
    worklist = [value]
    while worklist:
        current = worklist.pop()
        if not isinstance(current, OpResult):
            continue
        owner = ancestor_in(current.owner, block)
        if owner is None or owner in needed:
            continue
        needed.add(owner)
        for inner in owner.walk():
            worklist.extend(inner.operands)
    return [op for op in block.ops if op in needed]


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------


def local_slot_index(add: BlockInserter, batch_iv: SSAValue, c0: SSAValue) -> SSAValue:
    """`(batch_iv - c0) / 1`: the slot of the batch iteration in an expanded scratchpad buffer."""
    c1 = add.index(1)
    sub = add(arith.SubiOp(batch_iv, c0)).results[0]
    return add(arith.DivSIOp(sub, c1)).results[0]


def empty_body_loop(lb: SSAValue, ub: SSAValue, step: SSAValue, iter_args: Sequence[SSAValue] = ()) -> scf.ForOp:
    """An `scf.for` whose body only yields its iter_args back (the caller fills it)."""
    block = Block(arg_types=[IndexType(), *[v.type for v in iter_args]])
    block.add_op(scf.YieldOp(*block.args[1:]))
    return scf_ext.ForOp(lb, ub, step, list(iter_args), Region(block))


@dataclass
class NestedLoops:
    """`scf.for 0..R_i` per reduction dim, outermost first, each tagged `reduction_loop`."""

    loops: list[scf.ForOp] = field(default_factory=list)

    @property
    def outermost(self) -> scf.ForOp:
        return self.loops[0]

    @property
    def innermost(self) -> scf.ForOp:
        return self.loops[-1]

    @property
    def ivs(self) -> list[SSAValue]:
        return [loop.body.block.args[0] for loop in self.loops]

    @property
    def inner_terminator(self) -> Operation:
        terminator = self.innermost.body.block.last_op
        assert terminator is not None
        return terminator


def nested_reduction_loops(add: BlockInserter, sizes: Sequence[int], start: SSAValue, step: SSAValue,
                           seed: SSAValue | None = None) -> NestedLoops:
    """Upper-bound constants, then the loops (built where `add` inserts).

    With a `seed`, every loop carries one value: the outermost starts from `seed`, each
    inner loop from its parent's iter_arg, and each outer loop yields its inner loop's
    result. The innermost loop yields its iter_arg back; the caller replaces that.
    """
    assert sizes, "need at least one reduction dim"
    bounds = [add.index(size) for size in sizes]
    nest = NestedLoops()
    carry = [seed] if seed is not None else []
    where = add
    for depth, bound in enumerate(bounds):
        loop = empty_body_loop(start, bound, step, carry)
        loop.attributes["loop_type"] = REDUCTION_LOOP
        where(loop)
        if depth:
            parent_yield = nest.loops[-1].body.block.last_op
            assert parent_yield is not None
            if seed is not None:
                parent_yield.operands = [loop.results[0]]
        nest.loops.append(loop)
        carry = list(loop.body.block.args[1:])
        where = BlockInserter.before_op(loop.body.block.last_op, add.location)  # type: ignore[arg-type]
    return nest


def all_equal(add: BlockInserter, ivs: Sequence[SSAValue], values: Sequence[SSAValue]) -> SSAValue:
    """`iv0 == v0 && iv1 == v1 && ...` (cmpi, cmpi, andi, cmpi, andi, ...)."""
    assert ivs and len(ivs) == len(values)
    cond = add(arith.CmpiOp(ivs[0], values[0], "eq")).results[0]
    for iv, value in zip(ivs[1:], values[1:]):
        eq = add(arith.CmpiOp(iv, value, "eq")).results[0]
        cond = add(arith.AndIOp(cond, eq)).results[0]
    return cond


def if_then(cond: SSAValue, then_ops: Sequence[Operation] = (), else_ops: Sequence[Operation] | None = None,
            result_types: Sequence[Attribute] = ()) -> scf.IfOp:
    """`scf.if` whose regions hold `then_ops` / `else_ops` (each ending in its own yield when results)."""
    then_block = Block()
    for op in then_ops:
        then_block.add_op(op)
    if not result_types:
        then_block.add_op(scf.YieldOp())
    else_region = None
    if else_ops is not None:
        else_block = Block()
        for op in else_ops:
            else_block.add_op(op)
        if not result_types:
            else_block.add_op(scf.YieldOp())
        else_region = Region(else_block)
    return scf_ext.IfOp(cond, list(result_types), Region(then_block), else_region)


# ---------------------------------------------------------------------------
# One chunk pipeline (reduction-dim-chunking)
# ---------------------------------------------------------------------------


@dataclass
class ChunkPipelineConfig:
    """The FIFO slots of one chunk pipeline and its token count.

    Private results are `[in_slots | partial_slots | out_slots | tokens]`; token 0 goes
    load → compute, the last token compute → store.
    """

    in_slot_types: list[ktdf.FifoSlotType]
    partial_slot_types: list[ktdf.FifoSlotType]
    out_slot_types: list[ktdf.FifoSlotType]
    n_tokens: int = 2


@dataclass
class ChunkStageFactory:
    """Builds the private and the load / compute / store stages of one chunk pipeline."""

    pipeline: ktdf.PipelineOp
    cfg: ChunkPipelineConfig
    batch_iv: SSAValue
    load_units: ArrayAttr | None
    compute_units: ArrayAttr | None
    store_units: ArrayAttr | None
    location: object = None
    private: ktdf.PrivateOp | None = None

    # -- slots ------------------------------------------------------------
    def _result(self, index: int) -> SSAValue:
        assert self.private is not None
        return self.private.res[index]

    def in_slot(self, i: int) -> SSAValue:
        return self._result(i)

    def partial_slot(self, i: int) -> SSAValue:
        return self._result(len(self.cfg.in_slot_types) + i)

    def out_slot(self, i: int) -> SSAValue:
        return self._result(len(self.cfg.in_slot_types) + len(self.cfg.partial_slot_types) + i)

    def token(self, i: int) -> SSAValue:
        cfg = self.cfg
        return self._result(len(cfg.in_slot_types) + len(cfg.partial_slot_types) + len(cfg.out_slot_types) + i)

    def _add_to_pipeline(self, op: Operation) -> Operation:
        return BlockInserter.at_end(self.pipeline.body.block, self.location)(op)

    def build_private(self) -> ktdf.PrivateOp:
        cfg = self.cfg
        block = Block()
        add = BlockInserter.at_end(block, self.location)
        values: list[SSAValue] = []
        for slot_type in [*cfg.in_slot_types, *cfg.partial_slot_types, *cfg.out_slot_types]:
            values.append(add(ktdf.FifoAllocateOp([slot_type])).results[0])
        for _ in range(cfg.n_tokens):
            values.append(add(ktdf.CreateTokenOp()).results[0])
        add(ktdf.PrivateYieldOp(values))
        private = ktdf.PrivateOp([v.type for v in values], Region(block))
        self.private = self._add_to_pipeline(private)  # type: ignore[assignment]
        return self.private  # type: ignore[return-value]

    def _stage(self, depends_in: list[SSAValue], depends_out: list[SSAValue], units: ArrayAttr | None) -> ktdf.StageOp:
        stage = ktdf.StageOp(depends_in, depends_out, applicable_units=units)
        self._add_to_pipeline(stage)
        return stage  # type: ignore[return-value]

    def _slot_stage(self, depends_in: list[SSAValue], depends_out: list[SSAValue], units: ArrayAttr | None
                    ) -> tuple[BlockInserter, SSAValue, SSAValue]:
        """A new stage's inserter, its index 0 and the batch iteration's scratchpad slot."""
        stage = self._stage(depends_in, depends_out, units)
        add = BlockInserter.at_end(stage.body.block, self.location)
        c0 = add.index(0)
        return add, c0, local_slot_index(add, self.batch_iv, c0)

    # -- stages -----------------------------------------------------------
    def build_load_stage(self, condition: SSAValue, input_memref: SSAValue, partial_memref: SSAValue,
                         red_dims: Sequence[int], chunk_sizes: Sequence[int], dim_ivs: Sequence[SSAValue]) -> None:
        """Input chunk memref → fifo_in; on later chunks also the partial memref → fifo_partial.

        Input memref dim 0 is the batch slot; dim k ≥ 1 is generic dim k-1. A reduction dim
        is addressed as `iv * chunk` (the product stays in the map) with size `chunk`; any
        other dim from 0 with its full size.
        """
        add, c0, slot = self._slot_stage([], [self.token(0)], self.load_units)

        in_type = input_memref.type
        assert isinstance(in_type, MemRefType)
        shape = in_type.get_shape()
        indices: list[SSAValue] = [slot]
        sizes: list[int] = [1]
        results: list[AffineExpr] = [AffineDimExpr(0)]
        for dim in range(1, len(shape)):
            generic_dim = dim - 1
            if generic_dim in red_dims:
                j = list(red_dims).index(generic_dim)
                indices.append(dim_ivs[j])
                sizes.append(chunk_sizes[j])
                results.append(affine_mul(AffineDimExpr(dim), AffineConstantExpr(chunk_sizes[j])))
            else:
                indices.append(c0)
                sizes.append(shape[dim])
                results.append(AffineDimExpr(dim))
        input_map = AffineMap(len(shape), 0, tuple(results))
        for i, slot_type in enumerate(self.cfg.in_slot_types):
            add(ktdf.DataTransferOp(input_memref, self.in_slot(i), input_map, indices, sizes,
                                    None, (), [slot_type.num_elements.data]))

        if self.cfg.partial_slot_types:
            out_type = partial_memref.type
            assert isinstance(out_type, MemRefType)
            out_shape = out_type.get_shape()
            partial_indices = [slot] + [c0] * (len(out_shape) - 1)
            partial_sizes = [1] + list(out_shape[1:])
            moves = [
                ktdf.DataTransferOp(partial_memref, self.partial_slot(i), AffineMap.identity(len(out_shape)),
                                    partial_indices, partial_sizes, None, (), [slot_type.num_elements.data])
                for i, slot_type in enumerate(self.cfg.partial_slot_types)
            ]
            add(if_then(condition, (), moves))

    def build_compute_stage(self, condition: SSAValue, chunk_input_type: TensorType,
                            generic: xlinalg.GenericOp, first_init: Sequence[Operation],
                            captured: Sequence[Operation] = ()) -> None:
        """Read the chunk; start from `first_init` (the first chunk) or the partial; reduce; write.

        `first_init` are ops (already cloned, detached) computing the first chunk's init as
        their last result; `captured` are ops of the old compute stage whose results the
        generic's body uses (cloned in front of it).
        """
        stage = self._stage([self.token(0)], [self.token(self.cfg.n_tokens - 1)], self.compute_units)
        add = BlockInserter.at_end(stage.body.block, self.location)
        chunk = add(ktdf.ReadFromFifoOp(self.in_slot(0), chunk_input_type)).results[0]
        out_type = generic.outputs[0].type
        first = list(first_init) + [scf.YieldOp(first_init[-1].results[0])]
        partial = ktdf.ReadFromFifoOp(self.partial_slot(0), out_type)
        init = add(if_then(condition, first, [partial, scf.YieldOp(partial.results[0])], [out_type])).results[0]
        mapping: dict[SSAValue, SSAValue] = {}
        for op in captured:
            add(op.clone(value_mapper=mapping))
        mapping.update({generic.inputs[0]: chunk, generic.outputs[0]: init})
        new_generic = add(generic.clone(value_mapper=mapping))
        add(ktdf.WriteToFifoOp(new_generic.results[0], self.out_slot(0)))

    def build_store_stage(self, partial_memref: SSAValue) -> None:
        """fifo_out → the scratchpad output buffer at `[slot, 0, ...]`, every chunk."""
        add, c0, slot = self._slot_stage([self.token(self.cfg.n_tokens - 1)], [], self.store_units)
        out_type = partial_memref.type
        assert isinstance(out_type, MemRefType)
        shape = out_type.get_shape()
        indices = [slot] + [c0] * (len(shape) - 1)
        sizes = [1] + list(shape[1:])
        for i, slot_type in enumerate(self.cfg.out_slot_types):
            add(ktdf.DataTransferOp(self.out_slot(i), partial_memref, None, (), [slot_type.num_elements.data],
                                    AffineMap.identity(len(shape)), indices, sizes))
