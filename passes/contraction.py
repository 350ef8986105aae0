"""Contractions on a matrix unit: which generics are contractions, and the tile they run with.

A contraction is a `linalg.generic` with reduction iterators whose body multiplies two inputs
(each possibly `arith.extf`-ed) and adds the product to the output: `linalg.matmul`,
`batch_matmul`, `matmul_transpose_b` and a QK^T generic all generalise to one. When the
device's compute unit declares a matrix unit (`ktdf_arch.feature.matrix`) for the operands'
element type, `construct-three-stage-pipeline` tiles the contraction's output to an M x N
block and marks the generic with `dfsched.matrix_tile = array<i64: M, N, K>` (`plan_matrix_tile`:
K is the unit's K; M and N are whole multiples of the unit's tile, as many unit tiles as the
accumulator block can hold in the compute unit's register memory, because each operand vector
streamed into the unit is then reused by every unit tile of the block's other side).
`reduction-loop-exposure` steps K by the mark's K, `map-reduction-partials` keeps the mark and
the accumulator in the unit's accumulator type, and `ktdflowering-to-dfir` lowers each step to
one matrix-multiply island that the simulator costs by the unit's `cycles_per_tile` per unit
tile of the block. Without the mark a contraction runs on the vector lanes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, ShapedType, i64
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr

from dfsched.arch.intrinsics import MATRIX_TILE
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.dialects.linalg_ext import is_contraction_body

_FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def iterators(generic: Operation) -> list[str]:
    return [getattr(t.data, "value", str(t.data)) for t in generic.iterator_types.data]


def is_contraction(generic: Operation) -> bool:
    """Two inputs, reduction iterators, body `out + a * b` (a, b inputs, maybe `arith.extf`-ed)."""
    if generic.name != "linalg.generic" or len(generic.inputs) != 2 or len(generic.outputs) != 1:
        return False
    return "reduction" in iterators(generic) and is_contraction_body(generic.body.block)


def matrix_tile(generic: Operation) -> tuple[int, int, int] | None:
    """The `dfsched.matrix_tile` mark of a generic (M, N, K), or None."""
    attr = generic.attributes.get(MATRIX_TILE)
    if isinstance(attr, DenseArrayBase):
        m, n, k = attr.get_values()
        return m, n, k
    return None


def mark(generic: Operation, tile: tuple[int, int, int]) -> None:
    generic.attributes[MATRIX_TILE] = DenseArrayBase.from_list(i64, list(tile))


def _largest_divisor(extent: int, limit: int) -> int:
    return next(d for d in range(min(extent, limit), 0, -1) if extent % d == 0)


def _element_type(value) -> Attribute:
    t = value.type
    return t.get_element_type() if isinstance(t, ShapedType) else t


def plan_program_matrix_tiles(model, contractions: list[tuple[Operation, list[int]]]
                              ) -> list[tuple[int, int, int] | None]:
    """`plan_matrix_tile` for the compute ops of one program (each with its loop ranges). Their
    accumulators are live at once (address assignment places a program's buffers together):
    when the blocks planned with the whole register memory cannot all be allocated in it, each
    contraction plans again with an equal share of it (programs whose blocks fit keep them)."""
    tiles = [plan_matrix_tile(model, generic, ranges) for generic, ranges in contractions]
    marked = [(generic, ranges, tile) for (generic, ranges), tile in zip(contractions, tiles) if tile is not None]
    capacity = _register_bytes(model, model.compute_kind) if marked else None
    if capacity is None or sum(t[0] * t[1] * _block_bytes(model, g) for g, _, t in marked) <= capacity:
        return tiles
    share = capacity // len(marked)
    return [plan_matrix_tile(model, generic, ranges, share) if tile is not None else None
            for (generic, ranges), tile in zip(contractions, tiles)]


def _block_bytes(model, generic: Operation) -> int:
    operand = _element_type(generic.inputs[0])
    accumulator = model.matrix_unit.accumulator_for(operand)
    return accumulator_block_bytes(accumulator, attribute_text(_element_type(generic.outputs[0])))


def plan_matrix_tile(model, generic: Operation, ranges: list[int], capacity: int | None = None
                     ) -> tuple[int, int, int] | None:
    """The M x N x K tile `generic` runs with on the compute unit's matrix unit, None when it
    runs on the vector lanes (not a contraction, no matrix unit, or one that does not take
    the operand type). Its block fits `capacity` bytes of registers (default: the unit's
    register memory). Errors (located on the generic, naming the unit): the unit's
    accumulator is narrower than the output, or its tile does not fit the unit's vectors."""
    unit_kind = model.compute_kind
    matrix = model.matrix_unit
    if matrix is None or unit_kind is None or not is_contraction(generic):
        return None
    operand_types = {_element_type(v) for v in generic.inputs}
    if len(operand_types) != 1:
        return None
    operand = operand_types.pop()
    accumulator = matrix.accumulator_for(operand)
    if accumulator is None:
        return None
    output = attribute_text(_element_type(generic.outputs[0]))
    unit = model.unit(unit_kind)
    if _FLOAT_WIDTHS.get(output, 0) > _FLOAT_WIDTHS[accumulator]:
        raise model.fail(f"the matrix unit of exec_unit '{unit_kind}' accumulates {attribute_text(operand)} "
                         f"products in {accumulator}, narrower than the contraction's {output} result "
                         "(ktdf_arch.feature.matrix types)", generic, unit.op)
    m_tile, n_tile, k_tile = matrix.tile
    for name, count, ty in (("A (M x K)", m_tile * k_tile, operand), ("B (K x N)", k_tile * n_tile, operand),
                            ("C (M x N)", m_tile * n_tile, _element_type(generic.outputs[0]))):
        lanes = model.simd_lanes(unit_kind, ty, at=generic)
        if count > lanes:
            raise model.fail(f"the matrix unit of exec_unit '{unit_kind}' has a {m_tile}x{n_tile}x{k_tile} tile "
                             f"whose {name} operand holds {count} elements, more than its {lanes} "
                             f"{attribute_text(ty)} lanes (one vector per FIFO transfer)", generic, unit.op)
    out_dims = [r.position for r in generic.indexing_maps.data[-1].data.results if isinstance(r, AffineDimExpr)]
    reduction = [d for d, kind in enumerate(iterators(generic)) if kind == "reduction"]
    if len(out_dims) < 2 or not reduction:
        return None
    m, n = block_sizes(ranges[out_dims[-2]], ranges[out_dims[-1]], (m_tile, n_tile),
                       accumulator_block_bytes(accumulator, output),
                       _register_bytes(model, unit_kind) if capacity is None else capacity)
    return m, n, _largest_divisor(ranges[reduction[-1]], k_tile)


def accumulator_block_bytes(accumulator: str, output: str) -> int:
    """Register bytes per element of an output block: the accumulator in the unit's type, plus
    the block narrowed to the result type for the store when the result is narrower."""
    wide = _FLOAT_WIDTHS.get(accumulator, 32) // 8
    narrow = _FLOAT_WIDTHS.get(output, 0) // 8
    return wide + (narrow if 0 < narrow < wide else 0)


def _register_bytes(model, unit_kind: str) -> int | None:
    """Bytes of the compute unit's own memory (`PE_REG`), None when it declares no size."""
    kind = model.local_memories.get(unit_kind)
    return model.capacities().get(kind) if kind else None


def block_sizes(m_extent: int, n_extent: int, unit: tuple[int, int], element_bytes: int,
                capacity: int | None) -> tuple[int, int]:
    """The M x N output block of one matrix step: M and N divide their extents and are whole
    multiples of the unit's tile (an extent smaller than the tile: its largest divisor within
    it, as one unit tile); the block's registers (`element_bytes` each, twice for a
    double-buffered pipeline) fit `capacity`. Among those, the most unit tiles per operand
    vector streamed in (M*N / (M+N), the reuse), then the most elements, then the wider N."""
    base_m, base_n = _largest_divisor(m_extent, unit[0]), _largest_divisor(n_extent, unit[1])
    best = (base_m, base_n)
    if capacity is None:
        return best
    ms = [m for m in range(base_m, m_extent + 1, base_m) if m_extent % m == 0]
    ns = [n for n in range(base_n, n_extent + 1, base_n) if n_extent % n == 0]
    fitting = [(m, n) for m in ms for n in ns if 2 * m * n * element_bytes <= capacity]
    if fitting:
        best = max(fitting, key=lambda mn: (mn[0] * mn[1] / (mn[0] + mn[1]), mn[0] * mn[1], mn[1]))
    return best


def matrix_tile_sizes(generic: Operation, tile: tuple[int, int, int]) -> list[int]:
    """Loop tile sizes for a marked contraction: the output's last two dims to N and M, every
    other parallel dim (a batch) to 1, reduction dims untiled (0)."""
    out_dims = [r.position for r in generic.indexing_maps.data[-1].data.results if isinstance(r, AffineDimExpr)]
    sizes = [1 if kind == "parallel" else 0 for kind in iterators(generic)]
    sizes[out_dims[-2]], sizes[out_dims[-1]] = tile[0], tile[1]
    return sizes


__all__ = ["MATRIX_TILE", "accumulator_block_bytes", "block_sizes", "is_contraction", "matrix_tile", "mark",
           "plan_matrix_tile", "plan_program_matrix_tiles", "matrix_tile_sizes"]
