"""Data-transfer lowering (`docs/passes.md#ktdflowering-to-dfir`).

`ktdf.data_transfer` becomes address generation:

* memref → memref: one `agen.composite_load_and_store` (`agen.composite_indirect_load_and_store`
  when one side is a `ktdf.indirect_view`: `dfir_indirect`). A transfer wider than the hardware
  vector is walked over time dimensions (every non-unit outer dimension, then the innermost in
  whole vectors); both sides must walk the same extents. A walked dimension in which the two
  sides advance by different element distances moves to an enclosing `scf.for` (at most one);
* memref → FIFO: `agen.vector_load` (+ `vectorchain.shuffle` for a splat) and `dataflow.send` to
  the peer unit of the slot's destination kind;
* FIFO → memref: `dataflow.receive` from the slot's source kind and `agen.vector_store`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, StringAttr, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from dfsched.diagnostics import error
from dfsched.dialects.agen import CompositeLoadAndStoreOp, VectorLoadOp, VectorStoreOp
from dfsched.dialects.agen import YieldOp as AgenYieldOp
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp, SendOp
from dfsched.dialects.ktdf import DataTransferOp, FifoSlotType
from dfsched.dialects.ktdp_inter_tile import linear_form
from dfsched.dialects.vectorchain import ShuffleOp
from dfsched.dialects.affine_subscripts import affine_add, affine_mul
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_indirect import build_indirect_composite, indirect_view_of
from dfsched.passes.lowering.dfir_utils import (
    INDEX,
    identity_map,
    receive_from_fifo,
    required_program_unit,
    resolve_fifo_unit,
    sizes_set,
    vector_lanes,
)
from xdsl.rewriter import InsertPoint


@dataclass
class TimeStep:
    memref_dim: int
    index_step: int


@dataclass
class TimeDims:
    """How one side walks the time axis: extents (slowest first) and what each advances."""

    rank: int
    extents: list[int] = field(default_factory=list)
    steps: list[TimeStep] = field(default_factory=list)

    def offsets(self) -> list[AffineExpr]:
        result: list[AffineExpr] = [AffineConstantExpr(0)] * self.rank
        for time_dim, step in enumerate(self.steps):
            result[step.memref_dim] = affine_mul(AffineConstantExpr(step.index_step), AffineDimExpr(time_dim))
        return result

    def erase(self, time_dim: int) -> None:
        del self.extents[time_dim]
        del self.steps[time_dim]


def describe_time_dims(sizes: Sequence[int], lanes: int) -> TimeDims:
    dims = TimeDims(len(sizes))
    for i, size in enumerate(sizes[:-1]):
        if size != 1:
            dims.steps.append(TimeStep(i, 1))
            dims.extents.append(size)
    vectors = sizes[-1] // lanes
    if vectors > 1:
        dims.steps.append(TimeStep(len(sizes) - 1, lanes))
        dims.extents.append(vectors)
    return dims


def element_strides(memref: SSAValue) -> list[int] | None:
    """Element distance per index of each dimension: the view's layout map, else the type's."""
    mtype = memref.type
    assert isinstance(mtype, MemRefType)
    rank = len(mtype.get_shape())
    view = memref.owner
    if isinstance(view, GetLogicalMemoryViewOp):
        layout = view.layout_map.data
        if layout.num_dims != rank or len(layout.results) != 1 or layout.num_symbols:
            return None
        row = linear_form(layout.results[0], rank, 0)  # [per dim..., constant]
        return None if row is None else row[:-1]
    try:
        strides = mtype.get_strides()
    except Exception:  # a layout xDSL cannot describe
        return None
    if strides is None or any(s is None for s in strides):
        return None
    return [int(s) for s in strides]


def fold_step_into_subscripts(amap: AffineMap, step: TimeStep) -> AffineMap:
    results = list(amap.results)
    results[step.memref_dim] = affine_add(results[step.memref_dim],
                                          affine_mul(AffineConstantExpr(step.index_step),
                                                     AffineDimExpr(amap.num_dims)))
    return AffineMap(amap.num_dims + 1, amap.num_symbols, tuple(results))


def _product(values: Sequence[int]) -> int:
    total = 1
    for v in values:
        total *= v
    return total


class LowerDataTransfer(RewritePattern):
    def __init__(self, components, model):
        self.components = components
        self.model = model

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, DataTransferOp):
            return
        src, dst = op.source, op.destination
        src_fifo, dst_fifo = isinstance(src.type, FifoSlotType), isinstance(dst.type, FifoSlotType)
        if src_fifo and dst_fifo:
            raise error(op, "Unsupported data transfer: FIFO to FIFO transfers are not allowed")
        src_sizes = op.mixed_sizes("source") or []
        dst_sizes = op.mixed_sizes("dest") or []
        if any(not isinstance(s, int) for s in [*src_sizes, *dst_sizes]):
            raise error(op, "data transfer with dynamic sizes cannot be lowered to address generation")
        src_total, dst_total = _product(src_sizes), _product(dst_sizes)
        mode = op.attributes.get("transfer_mode")
        broadcast = isinstance(mode, StringAttr) and mode.data in ("splat", "pad")
        if broadcast and src_total > dst_total:
            raise error(op, "source total elements must not exceed destination for splat/pad transfer")
        element = src.type.element_type
        vector = VectorType(element, [dst_total])
        if not src_fifo and not dst_fifo:
            self._load_and_store(op, rewriter, src_sizes, dst_sizes, vector)
        elif dst_fifo:
            self._load_and_send(op, rewriter, src_sizes, vector, broadcast, src_total)
        else:
            self._receive_and_store(op, rewriter, dst_sizes, vector)

    @staticmethod
    def _map(op: DataTransferOp, side: str, rank: int) -> AffineMap:
        attr = op.source_map if side == "source" else op.dest_map
        return attr.data if isinstance(attr, AffineMapAttr) else identity_map(rank)

    def _load_and_store(self, op: DataTransferOp, rewriter: PatternRewriter, src_sizes: list[int],
                        dst_sizes: list[int], vector: VectorType) -> None:
        src, dst = op.source, op.destination
        src_rank, dst_rank = len(src.type.get_shape()), len(dst.type.get_shape())
        src_map, dst_map = self._map(op, "source", src_rank), self._map(op, "dest", dst_rank)
        total = vector.element_count()
        lanes = vector_lanes(self.model, vector.element_type, op)
        load_sizes, store_sizes = list(src_sizes), list(dst_sizes)
        load_iv_type = vector
        src_time, dst_time = TimeDims(len(src_sizes)), TimeDims(len(dst_sizes))
        loop_dim: int | None = None
        if total > lanes:
            if not src_sizes or not dst_sizes:
                raise error(op, f"data transfer of {total} elements exceeds the hardware vector width of {lanes} "
                                "but has no dimensions to split")
            if src_sizes[-1] == dst_sizes[-1] < lanes:  # narrow rows (a matrix unit's N tile): a vector a row
                lanes = src_sizes[-1]
            elif src_sizes[-1] % lanes or dst_sizes[-1] % lanes:
                raise error(op, f"data transfer of {total} elements exceeds the hardware vector width of {lanes}; "
                                "splitting requires the innermost source and destination sizes to be a multiple "
                                f"of the vector width, but they are {src_sizes[-1]} and {dst_sizes[-1]} (or equal and "
                                "narrower than it)")
            src_time, dst_time = describe_time_dims(src_sizes, lanes), describe_time_dims(dst_sizes, lanes)
            if src_time.extents != dst_time.extents:
                raise error(op, "source and destination walked dimensions must match to split a transfer of "
                                f"{total} elements across multiple vectors")
            load_iv_type = VectorType(vector.element_type, [lanes])
            load_sizes = [1] * len(src_sizes)
            load_sizes[-1] = lanes
            store_sizes = [1] * len(dst_sizes)
            store_sizes[-1] = lanes
            src_strides, dst_strides = element_strides(src), element_strides(dst)
            if src_strides is not None and dst_strides is not None:
                divergent = [
                    i for i, extent in enumerate(src_time.extents)
                    if extent != 1 and src_time.steps[i].index_step * src_strides[src_time.steps[i].memref_dim]
                    != dst_time.steps[i].index_step * dst_strides[dst_time.steps[i].memref_dim]
                ]
                if len(divergent) > 1:
                    raise error(op, f"source and destination advance by different distances in {len(divergent)} "
                                    f"walked dimensions of a transfer of {total} elements; only one such dimension "
                                    "can be resolved")
                if divergent:
                    loop_dim = divergent[0]
        load_indices, store_indices = list(op.source_indices), list(op.dest_indices)
        builder = Builder.before(op, rewriter)
        if loop_dim is not None:
            lower = builder.constant(0)
            upper = builder.constant(src_time.extents[loop_dim])
            step = builder.constant(1)
            body = Block(arg_types=[INDEX])
            body.add_op(scf.YieldOp())
            loop = builder.insert(scf.ForOp(lower, upper, step, [], Region(body)))
            iv = body.args[0]
            src_map = fold_step_into_subscripts(src_map, src_time.steps[loop_dim])
            dst_map = fold_step_into_subscripts(dst_map, dst_time.steps[loop_dim])
            load_indices.append(iv)
            store_indices.append(iv)
            src_time.erase(loop_dim)
            dst_time.erase(loop_dim)
            builder = Builder(InsertPoint.before(body.last_op), rewriter, op.location)
            del loop
        extents = list(src_time.extents) or [1]
        num_time = len(extents)
        region = Region(Block([AgenYieldOp.build(operands=[[]])], arg_types=[load_iv_type]))
        properties = {
            "src_map": AffineMapAttr(src_map),
            "dst_map": AffineMapAttr(dst_map),
            "load_set": sizes_set(load_sizes),
            "load_order": AffineMapAttr(identity_map(src_rank)),
            "store_set": sizes_set(store_sizes),
            "store_order": AffineMapAttr(identity_map(dst_rank)),
            "time_set": sizes_set(extents),
            "time_order": AffineMapAttr(identity_map(num_time)),
            "load_time_addr_map": AffineMapAttr(AffineMap(num_time, 0, tuple(src_time.offsets()))),
            "store_time_addr_map": AffineMapAttr(AffineMap(num_time, 0, tuple(dst_time.offsets()))),
        }
        if indirect_view_of(src) is not None or indirect_view_of(dst) is not None:
            composite = build_indirect_composite(builder, op, self.model, load_indices, store_indices, properties,
                                                 region)
        else:
            composite = CompositeLoadAndStoreOp.build(operands=[src, dst, load_indices, store_indices, [], []],
                                                      properties=properties, regions=[region])
        builder.insert(composite)
        rewriter.erase(op)

    def _load_and_send(self, op: DataTransferOp, rewriter: PatternRewriter, src_sizes: list[int],
                       vector: VectorType, splat: bool, src_total: int) -> None:
        src = op.source
        rank = len(src.type.get_shape())
        if splat and vector.element_count() % src_total:
            raise error(op, "dst_total_elements must be divisible by src_total_elements for splat transfer")
        load_type = VectorType(vector.element_type, [src_total]) if splat else vector
        pu = required_program_unit(op)
        builder = Builder.before(op, rewriter)
        value = builder.value(VectorLoadOp(load_type, src, self._map(op, "source", rank), list(op.source_indices),
                                           sizes_set(src_sizes), AffineMapAttr(identity_map(rank))))
        if splat:  # each element broadcast along its row: [a, b] -> [a, ..., a, b, ..., b]
            copies = vector.element_count() // src_total
            indices, repetition = ([0], copies) if src_total == 1 else \
                ([i for i in range(src_total) for _ in range(copies)], 1)
            value = builder.value(ShuffleOp(value, indices, repetition, vector))
        dest = resolve_fifo_unit(builder, op.destination.type.dest, self.components, pu, op)
        builder.insert(SendOp.build(operands=[dest, value]))
        rewriter.erase(op)

    def _receive_and_store(self, op: DataTransferOp, rewriter: PatternRewriter, dst_sizes: list[int],
                           vector: VectorType) -> None:
        dst = op.destination
        rank = len(dst.type.get_shape())
        pu = required_program_unit(op)
        builder = Builder.before(op, rewriter)
        received = receive_from_fifo(builder, op.source.type.src, self.components, pu, op, vector)
        builder.insert(VectorStoreOp(received, dst, self._map(op, "dest", rank), list(op.dest_indices),
                                     sizes_set(dst_sizes), AffineMapAttr(identity_map(rank))))
        rewriter.erase(op)
