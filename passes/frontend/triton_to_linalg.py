"""`triton-to-linalg`: write Triton's scalar broadcasts as the linalg Inductor emits.

See `docs/passes.md#triton-to-linalg`. Triton-generated KTIR computes on whole tensors with
`arith`/`math` ops and moves values between a reduction and later element-wise ops through
scalars: `tensor.extract` of the reduction's result, `tensor.splat` of that scalar over the next
tensor, and `tensor.splat` of a constant as a reduction's starting value. The scheduler
(`construct-three-stage-pipeline`) works on linalg ops only, so this pass, at the front door,
rewrites

* `%s = tensor.extract %r[c...]` followed by `%t = tensor.splat %s : tensor<S>` (constant
  indices) into a broadcast: `linalg.generic ins(%r) outs(tensor.empty : tensor<S>)` whose
  input map reads `%r` at the constant indices, its body yielding the element;
* `%t = tensor.splat %c : tensor<S>` of a constant into
  `linalg.fill ins(%c) outs(tensor.empty : tensor<S>)`.

* `tensor.collapse_shape` / `tensor.expand_shape` that only drop or add unit dimensions (a
  1x1 tile collapsed to a rank-0 tensor, a row expanded to 1xN), read only as inputs of
  `linalg.generic` or `linalg.broadcast`: each reader (a broadcast first becomes its generic)
  reads the reshape's source instead, through its input map composed with the reshape (a unit
  dimension is read at 0), and the reshape goes.

A splat of any other scalar (a kernel argument, a value computed from scalars), an extract
whose index is not a constant and any other reshape stay as they are (the scheduler reports
them where it meets them). An extract left without users is erased. Arith and math ops on tensors need nothing:
`construct-three-stage-pipeline` turns them into generics already.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.compat import linalg_ops
from dfsched.dialects import linalg_ext
from dfsched.dialects.constants import constant_int
from dfsched.passes.frontend.linalg_generalize import generic_form, make_generic


@dataclass(frozen=True)
class TritonToLinalg(ModulePass):
    """Turn `tensor.extract` + `tensor.splat` broadcasts and splats of constants into linalg."""

    name = "triton-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for splat in [o for o in op.walk() if isinstance(o, tensor.SplatOp)]:
            result_type = splat.result.type
            if not isinstance(result_type, TensorType) or any(d < 0 for d in result_type.get_shape()):
                continue
            source = splat.input.owner
            if isinstance(source, arith.ConstantOp):
                _replace(splat, _fill(splat, result_type))
            elif isinstance(source, tensor.ExtractOp) and _constant_indices(source) is not None:
                _replace(splat, _broadcast(ctx, splat, source, result_type))
                if not source.result.uses:
                    Rewriter.erase_op(source)
        for reshape in [o for o in op.walk() if isinstance(o, tensor.CollapseShapeOp | tensor.ExpandShapeOp)]:
            _fold_unit_reshape(ctx, reshape)


def _constant_indices(extract: tensor.ExtractOp) -> list[int] | None:
    values = [constant_int(index) for index in extract.indices]
    return None if any(v is None for v in values) else values  # type: ignore[return-value]


def _fill(splat: tensor.SplatOp, result_type: TensorType) -> list[Operation]:
    empty = tensor.EmptyOp([], result_type)
    fill = linalg_ext.FillOp([splat.input], [empty.tensor], res=[result_type])
    return [empty, fill]


def _broadcast(ctx: Context, splat: tensor.SplatOp, extract: tensor.ExtractOp,
               result_type: TensorType) -> list[Operation]:
    """`out[i...] = source[c...]` over `result_type`'s shape."""
    rank = len(result_type.get_shape())
    indices = _constant_indices(extract)
    assert indices is not None
    read = AffineMap(rank, 0, tuple(AffineExpr.constant(i) for i in indices))
    empty = tensor.EmptyOp([], result_type)
    element = result_type.get_element_type()
    block = Block(arg_types=[element, element])
    block.add_op(linalg_ops.YieldOp(block.args[0]))
    generic = make_generic(ctx, [extract.tensor], [empty.tensor], Region(block),
                           [read, AffineMap.identity(rank)], ["parallel"] * rank, [result_type])
    return [empty, generic]


def _replace(splat: tensor.SplatOp, ops: list[Operation]) -> None:
    for op in ops:
        op.location = splat.location
        Rewriter.insert_op(op, InsertPoint.before(splat))
    Rewriter.replace_op(splat, [], [ops[-1].results[0]])


def _fold_unit_reshape(ctx: Context, reshape: Operation) -> None:
    groups = [[i.value.data for i in group.data] for group in reshape.reassociation.data]
    source_type, result_type = reshape.operands[0].type, reshape.results[0].type
    if not isinstance(source_type, TensorType) or not isinstance(result_type, TensorType):
        return
    source_shape, result_shape = source_type.get_shape(), result_type.get_shape()
    if any(d < 0 for d in (*source_shape, *result_shape)):
        return
    collapse = isinstance(reshape, tensor.CollapseShapeOp)
    # for each source dimension: the result dimension it is read through, or None (read at 0)
    through: list[int | None] = [None] * len(source_shape)
    for outer, group in enumerate(groups):
        inner_shape = source_shape if collapse else result_shape
        wide = [d for d in group if inner_shape[d] != 1]
        if len(wide) > 1:
            return  # a real reshape, not unit dimensions
        if collapse:
            if wide:
                through[wide[0]] = outer
        elif wide and source_shape[outer] != 1:
            through[outer] = wide[0]
    readers = [use.operation for use in reshape.results[0].uses]
    if not all(_reads_as_input(r, reshape.results[0]) for r in readers):
        return
    for reader in dict.fromkeys(readers):
        if isinstance(reader, linalg_ops.BroadcastOp):
            generic = generic_form(reader, ctx)
            if generic is None:
                return
            generic.location = reader.location
            Rewriter.replace_op(reader, generic)
            reader = generic
        maps = [m.data for m in reader.indexing_maps.data]
        for index, operand in enumerate(reader.operands):
            if operand is not reshape.results[0] or index >= len(reader.inputs):
                continue
            old = maps[index]
            results = tuple(AffineExpr.constant(0) if outer is None else old.results[outer] for outer in through)
            maps[index] = AffineMap(old.num_dims, old.num_symbols, results)
            reader.operands[index] = reshape.operands[0]
        reader.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in maps])
    if not reshape.results[0].uses:
        Rewriter.erase_op(reshape)


def _reads_as_input(reader: Operation, value) -> bool:
    if isinstance(reader, linalg_ops.BroadcastOp):
        return reader.input is value and reader.init is not value
    if isinstance(reader, linalg_ops.GenericOp):
        return value in reader.inputs and value not in reader.outputs
    return False


__all__ = ["TritonToLinalg"]
