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
"""

from __future__ import annotations

from xdsl.context import Context
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


def fold_transposes_into_contractions(ctx: Context, module: Operation) -> None:
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
