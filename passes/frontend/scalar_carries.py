"""A loop-carried scalar sum becomes a carried one-element tensor (`triton-to-linalg`, README
Decision 70).

Triton reduces a chunk to a scalar and adds it to a carried scalar:

    %total = scf.for %k = 0 to 64 step 16 iter_args(%acc = %zero) -> (f16) {
      %x = ktdp.load X[%r, %k] : tensor<1x16xf16>
      %part = linalg.reduce { arith.addf } ins(%x) outs(%init : tensor<1xf16>) dimensions = [1]
      %p = tensor.extract %part[%c0] : tensor<1xf16>
      %next = arith.addf %acc, %p : f16
      scf.yield %next : f16
    }

The scheduler keeps accumulators as tensors (in the compute unit's register memory), so the
carried value becomes the reduction's one-element tensor: `%acc` starts from `tensor.splat
%zero`, `%next = arith.addf %acc, %part` on tensors, and `tensor.extract` of the loop's result
replaces the scalar after the loop. That is Decision 44's form, which `fold-accumulation-loops`
folds into one reduction, and the extract is Triton's scalar broadcast, which
`triton-to-linalg` then writes as a linalg broadcast. A carried scalar of any other form stays
(the fold reports it, naming the value).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects.constants import constant_int, index_constant
from dfsched.passes.builder import Builder
from dfsched.passes.frontend.utils import op_name

SUMS = {"arith.addf": arith.AddfOp, "arith.addi": arith.AddiOp}


def carry_scalars_as_tensors(root: Operation) -> None:
    for loop in [o for o in root.walk() if isinstance(o, scf.ForOp) and o.iter_args]:
        for index in range(len(loop.iter_args)):
            part = _summed_part(loop, index)
            if part is not None:
                loop = _carry_as_tensor(loop, index, part)


def _summed_part(loop: scf.ForOp, index: int) -> tensor.ExtractOp | None:
    """The `tensor.extract` of a one-element tensor that carried scalar `index` adds each
    iteration, when that is all the loop does with it; else None."""
    body = loop.body.block
    acc = body.args[index + 1]
    if isinstance(acc.type, TensorType):
        return None
    nxt = body.last_op.operands[index]
    add = nxt.owner if isinstance(nxt, OpResult) else None
    if add is None or op_name(add) not in SUMS or add.parent_block() is not body or acc not in add.operands:
        return None
    if len(list(acc.uses)) != 1 or len(list(nxt.uses)) != 1:
        return None
    other = add.operands[1] if add.operands[0] is acc else add.operands[0]
    extract = other.owner if isinstance(other, OpResult) else None
    if not isinstance(extract, tensor.ExtractOp) or len(list(other.uses)) != 1:
        return None
    source = extract.tensor.type
    if not isinstance(source, TensorType) or math.prod(source.get_shape()) != 1:
        return None
    if any(constant_int(i) != 0 for i in extract.indices):
        return None
    return extract


def _carry_as_tensor(loop: scf.ForOp, index: int, part: tensor.ExtractOp) -> scf.ForOp:
    """Rebuild `loop` carrying `part`'s tensor at `index`; returns the new loop."""
    body = loop.body.block
    shaped = part.tensor.type
    before = Builder.before(loop)
    init = before.value(tensor.SplatOp(loop.iter_args[index], [], shaped))
    old_acc = body.args[index + 1]
    acc = body.insert_arg(shaped, index + 1)
    add = body.last_op.operands[index].owner
    summed = Builder.before(add).value(SUMS[op_name(add)](acc, part.tensor))
    body.last_op.operands = [summed if i == index else v for i, v in enumerate(body.last_op.operands)]
    Rewriter.erase_op(add)
    Rewriter.erase_op(part)
    body.erase_arg(old_acc)
    iter_args = [init if i == index else v for i, v in enumerate(loop.iter_args)]
    region = loop.detach_region(loop.body)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, iter_args, region)
    new_loop.location = loop.location
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    after = Builder.after(new_loop)
    zeros = [after.value(index_constant(0)) for _ in shaped.get_shape()]
    scalar = after.value(tensor.ExtractOp(new_loop.results[index], zeros, shaped.element_type))
    results: list[SSAValue] = [scalar if i == index else r for i, r in enumerate(new_loop.results)]
    Rewriter.replace_op(loop, [], results)
    return new_loop


__all__ = ["carry_scalars_as_tensors"]
