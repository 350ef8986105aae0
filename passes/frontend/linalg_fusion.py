"""Producer-consumer fusion of `linalg.generic` ops on tensors (C3SP step 2).

Upstream runs MLIR's `fuseElementwiseOps` over a worklist of the function's generics:
pop a consumer from the back, take the first DPS input produced by a generic that can be
fused into it, build the fused op, replace the consumer, erase the producer and push the
fused op back. This module does the same:

* a producer can be fused into operand `i` of a consumer when it is all-parallel, has one
  result whose indexing map is a permutation, its body does not read its init, the
  consumer's map for operand `i` has one result per producer loop, and (for a consumer
  with reduction loops) every loop stays bounded by some operand after fusion;
* the fused op's inputs are the consumer's inputs before `i`, the producer's inputs, then
  the consumer's inputs after `i`; producer maps are moved into the consumer's loop space
  through the inverse of the producer's result map;
* the fused body is the producer's body followed by the consumer's, the consumer's use
  of operand `i` replaced by the producer's yielded value;
* every init of the fused op that is not a `tensor.empty` is replaced by a fresh one, except
  the `linalg.fill` a reduction starts from;
* dfsched: a producer is fused into a reduction when each of its inputs steps along every loop
  or is one value per row (indexed by exactly the reduction's parallel loops, as the row maximum
  in `sum(exp(x - max))` of a softmax), and only when `holds_rows` says the reduction's rows fill
  at least half the compute unit's lanes (Decision 101): the scheduler then reads such a value
  once and holds it for the row's steps. Otherwise (a scalar broadcast, a reduction whose few
  rows step lane-wide, Decision 65, which reads one input) the producer stays a compute op of
  its own and its result an intermediate in the scratchpad;
* dfsched: nothing is fused into a contraction (`passes/contraction.py`: a multiply-accumulate
  of two inputs): its steps read both operands from FIFOs and a matrix unit takes only the
  product's operands, so an element-wise producer (SwiGLU's `silu(gate) * up` before the down
  projection) stays a compute op of its own and its result an intermediate in the scratchpad;
* dfsched: an unfused generic whose init is another generic's result and which does not read
  it (`gate * up` of two contractions, generalised with `outs(%gate)`) gets a fresh
  `tensor.empty` too: that result is then only an input, as every intermediate is;
* a producer whose result has other users stays for them (MLIR would keep it as an extra
  result of the fused op; the program then cannot become a single generic and C3SP says so).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.compat import linalg_ops
from dfsched.passes.contraction import is_contraction
from dfsched.passes.frontend.linalg_generalize import indexing_maps, iterator_names, make_generic

GenericOp, YieldOp, IndexOp = linalg_ops.GenericOp, linalg_ops.YieldOp, linalg_ops.IndexOp
FillOp = linalg_ops.FillOp


def fuse_elementwise_generics(func: Operation, ctx: Context | None,
                              holds_rows: Callable[[GenericOp], bool] | None = None) -> None:
    """Fuse producer-consumer chains of generics in `func`, upstream's worklist order.

    `holds_rows(reduction)`: whether a producer with a per-row input may be fused into that
    reduction (None: never)."""
    worklist: list[GenericOp] = [op for op in func.walk() if isinstance(op, GenericOp)]
    while worklist:
        consumer = worklist.pop()
        for index, value in enumerate(consumer.inputs):
            producer = value.owner
            if not isinstance(producer, GenericOp) or not can_fuse(producer, consumer, index, holds_rows):
                continue
            fused = fuse(producer, consumer, index, ctx)
            Rewriter.insert_op(fused, InsertPoint.before(consumer))
            _fresh_empty_inits(fused)
            Rewriter.replace_op(consumer, [], list(fused.results))
            if all(not r.uses for r in producer.results):
                Rewriter.erase_op(producer)
                if producer in worklist:
                    worklist.remove(producer)
            worklist.append(fused)
            break
    for generic in [op for op in func.walk() if isinstance(op, GenericOp)]:
        unread = not any(arg.uses for arg in generic.body.blocks[0].args[len(generic.inputs):])
        if unread and any(isinstance(value.owner, GenericOp) for value in generic.outputs):
            _fresh_empty_inits(generic)


def can_fuse(producer: GenericOp, consumer: GenericOp, index: int,
             holds_rows: Callable[[GenericOp], bool] | None = None) -> bool:
    """MLIR's `areElementwiseOpsFusable` for input `index` of `consumer` (plus: the
    producer must not read its init, which MLIR's fused body could not express)."""
    if len(producer.results) != 1 or len(producer.outputs) != 1:
        return False
    if not all(isinstance(v.type, TensorType) for v in (*producer.operands, *consumer.operands)):
        return False
    if any(it != "parallel" for it in iterator_names(producer)) or is_contraction(consumer):
        return False
    producer_maps = indexing_maps(producer)
    consumer_maps = indexing_maps(consumer)
    num_loops = producer_maps[0].num_dims if producer_maps else 0
    if len(consumer_maps[index].results) != num_loops:
        return False
    result_map = producer_maps[len(producer.inputs)]
    if not _is_permutation(result_map):
        return False
    body = producer.body.blocks[0]
    if any(arg.uses for arg in body.args[len(producer.inputs):]):
        return False
    if any(isinstance(op, IndexOp) for op in producer.body.walk()):
        return False
    if any(it != "parallel" for it in iterator_names(consumer)):
        covered: set[int] = set()
        fused_maps = _fused_input_maps(producer, consumer, index)
        for pos, amap in enumerate(consumer_maps[: len(consumer.inputs)]):
            if pos != index:
                covered |= _dims_of(amap)
        for amap in fused_maps:
            covered |= _dims_of(amap)
        if covered != set(range(consumer_maps[0].num_dims)):
            return False
        reduction_dims = {k for k, it in enumerate(iterator_names(consumer)) if it != "parallel"}
        all_dims = set(range(consumer_maps[0].num_dims))
        per_row = [amap for amap in fused_maps if not reduction_dims <= _dims_of(amap)]
        if per_row and (holds_rows is None or not holds_rows(consumer)
                        or any(_dims_of(amap) != all_dims - reduction_dims for amap in per_row)):
            return False  # a broadcast input of a reduction the scheduler cannot hold: it steps every input
    return True


def fuse(producer: GenericOp, consumer: GenericOp, index: int, ctx: Context | None) -> GenericOp:
    """The generic computing `consumer` with `producer` inlined into its input `index`.

    Later inputs that read the same producer result through the same map share the one
    inlined copy (upstream cannot fuse such a consumer at all: it erases a producer that
    still has a use)."""
    consumer_maps = indexing_maps(consumer)
    n_in = len(consumer.inputs)
    value = consumer.inputs[index]
    fused_positions = {j for j in range(index, n_in)
                       if consumer.inputs[j] is value and consumer_maps[j] == consumer_maps[index]}
    kept_after = [j for j in range(index + 1, n_in) if j not in fused_positions]
    inputs: list[SSAValue] = [
        *consumer.inputs[:index], *producer.inputs, *(consumer.inputs[j] for j in kept_after)
    ]
    maps: list[AffineMap] = [
        *consumer_maps[:index],
        *_fused_input_maps(producer, consumer, index),
        *(consumer_maps[j] for j in kept_after),
        *consumer_maps[n_in:],
    ]
    outputs = list(consumer.outputs)

    producer_block = producer.body.blocks[0]
    consumer_block = consumer.body.blocks[0]
    block = Block()
    mapping: dict[SSAValue, SSAValue] = {}

    def add_arg(old: SSAValue) -> None:
        mapping[old] = block.insert_arg(old.type, len(block.args))

    for arg in consumer_block.args[:index]:
        add_arg(arg)
    for arg in producer_block.args[: len(producer.inputs)]:
        add_arg(arg)
    for j in kept_after:
        add_arg(consumer_block.args[j])
    for arg in consumer_block.args[n_in:]:
        add_arg(arg)

    yielded = producer_block.last_op
    for op in producer_block.ops:
        if op is yielded:
            break
        block.add_op(op.clone(value_mapper=mapping))
    assert isinstance(yielded, YieldOp)
    produced = yielded.operands[0]
    for j in fused_positions:
        mapping[consumer_block.args[j]] = mapping.get(produced, produced)
    for op in consumer_block.ops:
        block.add_op(op.clone(value_mapper=mapping))

    fused = make_generic(
        ctx, inputs, outputs, Region(block), maps, list(consumer.iterator_types.data),
        [r.type for r in consumer.results],
    )
    fused.location = consumer.location
    for name, attr in consumer.attributes.items():
        fused.attributes.setdefault(name, attr)
    return fused


def _fused_input_maps(producer: GenericOp, consumer: GenericOp, index: int) -> list[AffineMap]:
    """Maps of the producer's inputs in the consumer's loop space."""
    producer_maps = indexing_maps(producer)
    result_map = producer_maps[len(producer.inputs)]
    inverse = result_map.inverse_permutation()
    assert inverse is not None
    consumer_map = indexing_maps(consumer)[index]
    return [m.compose(inverse).compose(consumer_map) for m in producer_maps[: len(producer.inputs)]]


def _fresh_empty_inits(fused: GenericOp) -> None:
    """Upstream: every init that is not a `tensor.empty` becomes a fresh `tensor.empty`."""
    n_in = len(fused.inputs)
    reads_init = any(arg.uses for arg in fused.body.blocks[0].args[n_in:])
    for i, value in enumerate(list(fused.outputs)):
        if isinstance(value.owner, tensor.EmptyOp) or not isinstance(value.type, TensorType):
            continue
        if reads_init and isinstance(value.owner, FillOp):
            continue  # a reduction's starting value (drop_fill_inits kept only non-zero fills)
        empty = tensor.EmptyOp([], value.type)
        Rewriter.insert_op(empty, InsertPoint.before(fused))
        operands = list(fused.operands)
        operands[n_in + i] = empty.tensor
        fused.operands = operands


def _is_permutation(amap: AffineMap) -> bool:
    if amap.num_symbols or len(amap.results) != amap.num_dims:
        return False
    dims = [r.position for r in amap.results if isinstance(r, AffineDimExpr)]
    return sorted(dims) == list(range(amap.num_dims))


def _dims_of(amap: AffineMap) -> set[int]:
    return set(amap.used_dims())


__all__ = ["can_fuse", "fuse", "fuse_elementwise_generics"]
