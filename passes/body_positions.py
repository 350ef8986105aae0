"""`linalg.index` in a compute body: the element's position, in i32, offset by the tile's.

A compute body may read where its element is (`linalg.index d`): the corpus' paged attention
masks a score by comparing its column with its row (`col <= context + row / 4`). The compute
unit has no lanes for `index`, and a tile's body sees positions within the tile, so three
steps give the position a device form (Decision 107):

* `positions_in_i32(function)`, before tiling (`construct-three-stage-pipeline` step 1): in a
  generic whose body reads `linalg.index`, the index arithmetic that depends on it runs in i32
  (the integer lanes' type): each `linalg.index d` is read through `arith.index_cast` to i32,
  the integer ops and compares that read such a value are rebuilt on i32, and their other index
  operands (captured scalars, constants) are cast to i32 where they are read. Any other reader
  of a position, or a position in a reduction's body, is a located error naming it.
* `offset_positions(generic, offsets, point)`, when a generic is cut into tiles (C3SP step 3):
  position d of the tile's body becomes the tile's offset along d plus the position within the
  tile (MLIR's `offsetIndices` after tiling), the offset cast to i32 at `point`.
* `lane_positions(shape, dim)`, when the body is lowered to vectors (`ktdflowering-to-dfir`):
  the position along `dim` of every element of the tile flattened row-major, the vector
  constant `linalg.index dim` becomes.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.elementwise import ARITH_INT
from dfsched.diagnostics import error
from dfsched.passes.frontend.linalg_generalize import iterator_names

# The ops whose index results a position may flow through (rebuilt on i32).
INTEGER_OPS = frozenset(ARITH_INT) | {"arith.select"}
NO_I32_FORM = ("'{}' reads the position linalg.index {} as an index value; a compute body computes "
               "positions in i32 with arith integer ops and compares ({})")


NOT_ELEMENTWISE = ("linalg.index in the body of a compute op with a reduction loop: the scheduler steps a "
                   "reduction in chunks whose positions it does not offset; only an element-wise op (parallel "
                   "loops only) may read its element's position")


def reads_positions(generic: Operation) -> bool:
    return any(inner.name == "linalg.index" for inner in generic.regions[0].walk())


def positions_in_i32(function: Operation) -> None:
    """Rewrite the index arithmetic that depends on `linalg.index` in every generic body to i32."""
    for generic in [op for op in function.walk() if op.name == "linalg.generic" and reads_positions(op)]:
        if any(kind != "parallel" for kind in iterator_names(generic)):
            index = next(op for op in generic.regions[0].walk() if op.name == "linalg.index")
            raise error(index, NOT_ELEMENTWISE)
        _body_in_i32(generic)


def _body_in_i32(generic: Operation) -> None:
    block = generic.regions[0].blocks[0]
    as_i32: dict[SSAValue, SSAValue] = {}  # a position-dependent index value -> its i32 twin
    origin: dict[SSAValue, int] = {}  # -> the dimension of a linalg.index it depends on
    replaced: list[Operation] = []
    for inner in list(block.ops):
        if inner.name == "linalg.index":
            cast = arith.IndexCastOp(inner.results[0], i32)
            Rewriter.insert_op(cast, InsertPoint.after(inner))
            as_i32[inner.results[0]] = cast.results[0]
            origin[inner.results[0]] = inner.dim.value.data
            continue
        read = [v for v in inner.operands if v in as_i32]
        if not read or inner.results and inner.results[0] in as_i32.values():  # none, or our own cast
            continue
        dim = origin[read[0]]
        if inner.name == "arith.index_cast" and inner.results[0].type == i32:
            inner.results[0].replace_all_uses_with(as_i32[read[0]])  # already the i32 twin
            replaced.append(inner)
            continue
        if inner.name not in INTEGER_OPS:
            raise error(inner, NO_I32_FORM.format(inner.name, dim, ", ".join(sorted(INTEGER_OPS))))
        operands = [as_i32.get(v) or _cast_before(inner, v) for v in inner.operands]
        rebuilt = type(inner).create(
            operands=operands,
            result_types=[i32 if isinstance(r.type, IndexType) else r.type for r in inner.results],
            properties=dict(inner.properties), attributes=dict(inner.attributes))
        Rewriter.insert_op(rebuilt, InsertPoint.before(inner))
        for old, new in zip(inner.results, rebuilt.results):
            if isinstance(old.type, IndexType):
                as_i32[old], origin[old] = new, dim
            else:
                old.replace_all_uses_with(new)
        replaced.append(inner)
    for old_op in reversed(replaced):
        old_op.detach()
        old_op.erase()


def _cast_before(op: Operation, value: SSAValue) -> SSAValue:
    """`value` as i32, cast just before `op` (an index scalar the position is combined with)."""
    if not isinstance(value.type, IndexType):
        return value
    cast = arith.IndexCastOp(value, i32)
    Rewriter.insert_op(cast, InsertPoint.before(op))
    return cast.results[0]


def offset_positions(generic: Operation, offsets: dict[int, SSAValue], point: InsertPoint) -> None:
    """In the tile `generic`, position d is `offsets[d]` (index, cast to i32 at `point`) plus the
    position within the tile: the i32 cast after each `linalg.index d` is followed by the add."""
    casts: dict[int, SSAValue] = {}
    for inner in list(generic.regions[0].walk()):
        if inner.name != "linalg.index" or inner.dim.value.data not in offsets:
            continue
        dim = inner.dim.value.data
        if dim not in casts:
            cast = arith.IndexCastOp(offsets[dim], i32)
            Rewriter.insert_op(cast, point)
            casts[dim] = cast.results[0]
        for use in list(inner.results[0].uses):
            within = use.operation.results[0]
            moved = arith.AddiOp(within, casts[dim])
            Rewriter.insert_op(moved, InsertPoint.after(use.operation))
            for later in list(within.uses):
                if later.operation is not moved:
                    later.operation.operands[later.index] = moved.result


def lane_positions(shape: list[int], dim: int) -> list[int]:
    """The position along `dim` of each element of a tile of `shape`, flattened row-major."""
    inner = math.prod(shape[dim + 1 :])  # elements per step along `dim`
    return [(i // inner) % shape[dim] for i in range(math.prod(shape))]


__all__ = ["lane_positions", "offset_positions", "positions_in_i32", "reads_positions"]
