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

A splat of any other scalar (a kernel argument, a value computed from scalars) and an extract
whose index is not a constant stay as they are (the scheduler reports them where it meets
them). An extract left without users is erased. Arith and math ops on tensors need nothing:
`construct-three-stage-pipeline` turns them into generics already.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.compat import linalg_ops
from dfsched.dialects import linalg_ext
from dfsched.dialects.constants import constant_int
from dfsched.passes.frontend.linalg_generalize import make_generic


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


__all__ = ["TritonToLinalg"]
