"""Triton's layout ops read as Inductor's linalg (part of `triton-to-linalg`, the front door).

* `linalg.broadcast` becomes its `linalg.generic` (the input read through the map that skips
  the added dimensions): the scheduler's element-wise programs take generics, and the reshape
  folding of `triton-to-linalg` already reads broadcasts so.
* `linalg.transpose` read only as an input of contractions (`linalg.matmul`,
  `linalg.batch_matmul` or a multiply-accumulate `linalg.generic`: Triton's `tl.dot(q, tl.trans(k))`)
  goes: each contraction, in its generic form, reads the transpose's input through its map
  composed with the permutation (QK^T with K's map transposed, as Inductor writes it), so no
  transposed copy is computed. A transpose with any other reader stays (the legality check
  names it).
* An element-wise cast of a transpose (`arith.extf`/`truncf` of `linalg.transpose`, Triton's
  `tl.trans(k).to(tl.float32)`) casts first and transposes the cast (Decision 97): a cast does
  not see positions, and the transpose then has the cast's readers (a contraction: folded).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import Rewriter

from dfsched.passes.contraction import is_contraction
from dfsched.passes.frontend.linalg_generalize import generic_form, make_generic


def broadcasts_to_generics(ctx: Context, module: Operation) -> None:
    for broadcast in [o for o in module.walk() if o.name == "linalg.broadcast"]:
        generic = generic_form(broadcast, ctx)
        if generic is not None:
            generic.location = broadcast.location
            Rewriter.replace_op(broadcast, generic)


CASTS = frozenset({"arith.extf", "arith.truncf"})


def casts_before_transposes(module: Operation) -> None:
    """`cast(transpose(x))` becomes `transpose(cast(x))`."""
    for cast in [o for o in module.walk() if o.name in CASTS]:
        transpose = cast.operands[0].owner
        result_type = cast.results[0].type
        if not isinstance(transpose, TransposeOp) or not isinstance(result_type, TensorType):
            continue
        source = transpose.inputs[0]
        cast_first = type(cast).create(operands=[source], properties=dict(cast.properties),
                                       attributes=dict(cast.attributes),
                                       result_types=[TensorType(result_type.element_type, source.type.get_shape())])
        empty = tensor.EmptyOp([], result_type)
        moved = TransposeOp(cast_first.results[0], empty.results[0], transpose.permutation, result_type)
        for new in (cast_first, empty, moved):
            new.location = cast.location
        Rewriter.replace_op(cast, [cast_first, empty, moved], [moved.results[0]])
        if not transpose.results[0].uses:
            Rewriter.erase_op(transpose)


def fold_transposes_into_contractions(ctx: Context, module: Operation) -> None:
    casts_before_transposes(module)
    for transpose in [o for o in module.walk() if o.name == "linalg.transpose"]:
        if transpose.results and transpose.results[0].uses:
            _fold(ctx, transpose)


def _fold(ctx: Context, transpose: Operation) -> None:
    result = transpose.results[0]
    readers = list(dict.fromkeys(use.operation for use in result.uses))
    generics = []
    for reader in readers:
        generic = reader if reader.name == "linalg.generic" else generic_form(reader, ctx)
        if generic is None or not is_contraction(generic) or result in reader.outputs:
            return  # some reader is not a contraction: the transpose stays
        generics.append(generic)
    permutation = list(transpose.permutation.get_values())
    source = transpose.inputs[0]
    for reader, generic in zip(readers, generics):
        maps = [m.data for m in generic.indexing_maps.data]
        inputs = list(generic.inputs)
        for index, value in enumerate(inputs):
            if value is result:
                old = maps[index]
                # result[r_0, ..] = source[s] with s[permutation[i]] = r_i
                read = [old.results[permutation.index(p)] for p in range(len(permutation))]
                maps[index] = AffineMap(old.num_dims, old.num_symbols, tuple(read))
                inputs[index] = source
        folded = make_generic(ctx, inputs, list(generic.outputs), generic.body.clone(), maps,
                              list(generic.iterator_types.data), [r.type for r in generic.results])
        folded.attributes.update({k: v for k, v in generic.attributes.items()
                                  if k not in ("indexing_maps", "iterator_types", "operandSegmentSizes")})
        folded.location = reader.location
        Rewriter.replace_op(reader, folded)
        if generic is not reader and generic.parent is None:
            generic.erase()
    if not result.uses:
        Rewriter.erase_op(transpose)


__all__ = ["broadcasts_to_generics", "fold_transposes_into_contractions"]
