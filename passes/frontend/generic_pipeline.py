"""One compute op's pipeline, for `construct-three-stage-pipeline` (`docs/passes.md#construct-three-stage-pipeline`).

`GenericPipeline` tiles one `linalg.generic` of a program to the compute unit's SIMD width and
builds its LOAD → COMPUTE → STORE pipeline at the start of the innermost loop; its transfers
read and write `Endpoint`s: the access tiles of the program's loads and stores, or the
scratchpad buffers `ProgramPipeline` (in the pass's module) gives the values compute ops share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerType, StringAttr, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.elementwise import is_elementwise_op_name
from dfsched.arch.model import Link
from dfsched.diagnostics import error
from dfsched.dialects import ktdf, ktdp, linalg_ext
from dfsched.dialects.constants import index_constant
from dfsched.passes.body_positions import offset_positions
from dfsched.passes.contraction import mark, matrix_tile_sizes
from dfsched.passes.frontend.linalg_generalize import indexing_maps, iterator_names
from dfsched.passes.frontend.linalg_tiling import (
    build_loop_nest,
    loop_tile_sizes,
    operand_tile_shape,
    static_loop_ranges,
)
from dfsched.passes.scheduling.reduction_utils import init_form

if TYPE_CHECKING:
    from dfsched.passes.frontend.construct_three_stage_pipeline import ProgramPipeline

PASS = "ConstructThreeStagePipeline"


@dataclass
class Endpoint:
    """One end of a pipeline's transfers: the access tile of a `ktdp.load` or `ktdp.store`, or a
    scratchpad buffer (`buffer_of`: the load result or generic result the buffer holds)."""

    op: Operation  # where the transfer is located: the load, the store, or the generic
    positions: list[int]  # the generic operands a source feeds; a sink: [number of inputs]
    tile: ktdp.ConstructAccessTileOp | None = None
    buffer_of: SSAValue | None = None


@dataclass
class GenericPipeline:
    """One compute op's loop nest at SIMD width and its load/compute/store pipeline."""

    program: ProgramPipeline
    generic: GenericOp
    sources: list[Endpoint]
    sinks: list[Endpoint]

    tile_sizes: list[int] = field(default_factory=list)
    loop_ranges: list[int] = field(default_factory=list)
    loops: list[Operation] = field(default_factory=list)
    maps: list[AffineMap] = field(default_factory=list)  # the operands' maps, widened intermediates read at 0

    def operand_maps(self) -> list[AffineMap]:
        maps = list(indexing_maps(self.generic))
        for source in self.sources:
            if source.buffer_of in self.program.widened:
                for position in source.positions:
                    maps[position] = _with_unit_dim(maps[position])
        return maps

    # -- step 3: the SIMD width of the narrowest element type of the body -----
    def tile(self) -> None:
        generic, model, compute = self.generic, self.program.model, self.program.compute
        element_type = generic.results[0].type.get_element_type()  # type: ignore[union-attr]
        lanes = model.simd_lanes(compute.kind, element_type, at=generic)
        for inner, ty in body_lane_types(generic):  # a cast: the narrowest vector of its types
            lanes = min(lanes, model.simd_lanes(compute.kind, ty, at=inner))
        self.loop_ranges = static_loop_ranges(generic)
        self.tile_sizes = loop_tile_sizes(generic, lanes)
        matrix = self.program.matrix_tiles.get(generic)
        if matrix is not None:  # a contraction on the matrix unit: output tiles of M x N
            mark(generic, matrix)
            self.tile_sizes = matrix_tile_sizes(generic, matrix)
        # Upstream's tiling options materialize every tile size as a constant at the start
        # of the function (they stay unused).
        entry = self.program.function.body.blocks[0]
        first = entry.first_op
        for size in self.tile_sizes:
            constant = index_constant(size)
            if first is None:
                entry.add_op(constant)
            else:
                entry.insert_op_before(constant, first)
        self.loops = build_loop_nest(generic, self.tile_sizes, self.loop_ranges, iterator_names(generic))

    # -- step 5 --------------------------------------------------------------
    def create_pipeline(self) -> None:
        generic = self.generic
        self.compute_links()
        if self.loops:
            body = self.loops[-1].regions[0].blocks[0]
            point = InsertPoint.at_start(body)
        else:
            point = InsertPoint.before(generic)
        pipeline = ktdf.PipelineOp()
        Rewriter.insert_op(pipeline, point)
        block = pipeline.body.blocks[0]
        private, slots, tokens = self.create_private()
        block.add_op(private)
        load_stage = ktdf.StageOp([], [tokens[0]])
        for i, source in enumerate(self.sources):
            self.add_transfer(load_stage, source, slots[i], is_load=True)
        block.add_op(load_stage)
        compute_stage = ktdf.StageOp([tokens[0]], [tokens[1]], applicable_units=[self.program.compute.kind])
        self.add_compute(compute_stage, slots)
        block.add_op(compute_stage)
        store_stage = ktdf.StageOp([tokens[1]], [tokens[2]])
        for j, sink in enumerate(self.sinks):
            self.add_transfer(store_stage, sink, slots[len(self.sources) + j], is_load=False)
        block.add_op(store_stage)
        for stage in (load_stage, compute_stage, store_stage):
            stage.location = generic.location

    def compute_links(self) -> tuple[Link, Link]:
        """The compute unit's unique in/out links: ordered queues with equal granularity."""
        generic, model, compute = self.generic, self.program.model, self.program.compute
        incoming, outgoing = compute.incoming, compute.outgoing
        if len(incoming) != 1 or len(outgoing) != 1:
            raise model.fail(f"{PASS}: compute resource has no incoming or outgoing link in device "
                             f"description (exec_unit '{compute.kind}' has {len(incoming)} incoming and "
                             f"{len(outgoing)} outgoing links; exactly one of each is needed)", generic)
        link_in, link_out = incoming[0], outgoing[0]
        if not link_in.ordered or not link_out.ordered:
            raise model.fail(f"{PASS}: compute unit link does not use an ordered queue; only ordered "
                             "queues are supported", generic)
        if not link_in.transfer_granularity or not link_out.transfer_granularity:
            raise model.fail(f"{PASS}: compute resource link is missing a TransferGranularity property",
                             generic)
        if link_in.max_granularity != link_out.max_granularity:
            raise model.fail(f"{PASS}: incoming and outgoing transfer granularities differ "
                             f"({link_in.max_granularity} vs {link_out.max_granularity})", generic)
        return link_in, link_out

    def operand_tile_type(self, position: int) -> TensorType:
        generic = self.generic
        value = generic.operands[position]
        amap = self.maps[position]
        shape = operand_tile_shape(amap, self.tile_sizes, self.loop_ranges, generic)
        return TensorType(value.type.get_element_type(), shape)  # type: ignore[union-attr]

    def create_private(self) -> tuple[ktdf.PrivateOp, list[SSAValue], list[SSAValue]]:
        generic = self.generic
        kind = StringAttr(self.program.compute.kind)
        slot_types: list[ktdf.FifoSlotType] = []
        for source in self.sources:
            tile_type = self.operand_tile_type(source.positions[0])
            space = self.program.space(source)
            slot_types.append(ktdf.FifoSlotType(space, kind, _elements(tile_type), tile_type.element_type))
        init_type = self.operand_tile_type(len(generic.inputs))
        for sink in self.sinks:
            space = self.program.space(sink)
            slot_types.append(ktdf.FifoSlotType(kind, space, _elements(init_type), init_type.element_type))
        groups: dict[tuple[Attribute, Attribute], list[int]] = {}
        for i, slot in enumerate(slot_types):
            groups.setdefault((slot.src, slot.dest), []).append(i)
        body = Block()
        slot_values: list[SSAValue | None] = [None] * len(slot_types)
        for members in groups.values():
            allocate = ktdf.FifoAllocateOp([slot_types[i] for i in members])
            body.add_op(allocate)
            for i, result in zip(members, allocate.results):
                slot_values[i] = result
        token_ops = [ktdf.CreateTokenOp() for _ in range(3)]
        for token in token_ops:
            body.add_op(token)
        yielded = [*slot_values, *(t.results[0] for t in token_ops)]
        body.add_op(ktdf.PrivateYieldOp(yielded))  # type: ignore[arg-type]
        private = ktdf.PrivateOp([*slot_types, *([ktdf.TokenType()] * 3)], Region(body))
        results = list(private.results)
        for op in private.walk():
            op.location = generic.location
        return private, results[: len(slot_types)], results[len(slot_types):]

    def add_transfer(self, stage: ktdf.StageOp, end: Endpoint, slot: SSAValue, is_load: bool) -> None:
        generic = self.generic
        position = end.positions[0] if is_load else len(generic.inputs)
        amap = self.maps[position]
        if not is_load and end.buffer_of in self.program.widened:
            amap = _with_unit_dim(amap)
        memory = self.program.memory(end)
        full_shape = self.program.memory_shape(end)
        transfer_map, map_ivs = self._transfer_map(amap)
        memory_sizes: list[int] = []
        for expr in amap.results:
            if isinstance(expr, AffineDimExpr):
                size = self.tile_sizes[expr.position]
                memory_sizes.append(size if size > 0 else full_shape[len(memory_sizes)])
            elif isinstance(expr, AffineConstantExpr):
                memory_sizes.append(1)
            else:
                raise error(end.op, "unsupported affine expression in operand indexing map for data_transfer size "
                                    "computation")
        if is_load:
            transfer = ktdf.DataTransferOp(memory, slot, transfer_map, map_ivs, memory_sizes, None, (), memory_sizes)
        else:
            fifo_sizes = []
            for expr in amap.results:
                if isinstance(expr, AffineDimExpr):
                    if self.tile_sizes[expr.position] > 0:
                        fifo_sizes.append(self.tile_sizes[expr.position])
                elif isinstance(expr, AffineConstantExpr):
                    fifo_sizes.append(1)
            transfer = ktdf.DataTransferOp(slot, memory, None, (), fifo_sizes, transfer_map, map_ivs, memory_sizes)
        transfer.location = end.op.location
        stage.body.blocks[0].add_op(transfer)

    def _transfer_map(self, amap: AffineMap) -> tuple[AffineMap, list[SSAValue]]:
        """The operand's map with untiled loops set to 0 and unused loops dropped, and the
        induction variables of the loops that remain."""
        sizes = self.tile_sizes
        replacements: list[AffineExpr] = [
            AffineExpr.dimension(k) if sizes[k] > 0 else AffineExpr.constant(0) for k in range(amap.num_dims)
        ]
        substituted = amap.replace_dims_and_symbols(replacements, [], amap.num_dims, 0)
        used = substituted.used_dims()
        compressed = substituted.drop_dims([k not in used for k in range(amap.num_dims)])
        ivs = [loop.regions[0].blocks[0].args[0] for loop in self.loops]
        tiled = [k for k in range(len(sizes)) if sizes[k] > 0]
        map_ivs = [iv for k, iv in zip(tiled, ivs) if k in used]
        return compressed, map_ivs

    def add_compute(self, stage: ktdf.StageOp, slots: Sequence[SSAValue]) -> None:
        generic = self.generic
        block = stage.body.blocks[0]
        inputs: list[SSAValue | None] = [None] * len(generic.inputs)
        for i, source in enumerate(self.sources):
            read = ktdf.ReadFromFifoOp(slots[i], self.operand_tile_type(source.positions[0]))
            read.location = source.op.location
            block.add_op(read)
            for position in source.positions:
                inputs[position] = read.result
        result_type = self.operand_tile_type(len(generic.inputs))
        empty = tensor.EmptyOp([], result_type)
        empty.location = generic.location
        block.add_op(empty)
        init: SSAValue = empty.tensor
        form = init_form(generic.outputs[0]) if reads_init(generic) else None
        if form is not None and form.fill is not None:  # a reduction that starts from a constant
            fill = linalg_ext.FillOp([form.fill.inputs[0]], [empty.tensor], res=[result_type])
            fill.location = form.fill.location
            block.add_op(fill)
            init = fill.results[0]
        for position, value in enumerate(generic.inputs):
            if inputs[position] is None:
                inputs[position] = self._slice_into(block, value, position)
        operands = [*inputs, init]
        properties = dict(generic.properties)
        properties["indexing_maps"] = ArrayAttr([AffineMapAttr(m) for m in self.maps])
        cloned = type(generic).create(
            operands=operands,  # type: ignore[arg-type]
            result_types=[result_type],
            properties=properties,
            attributes=dict(generic.attributes),
            regions=[generic.body.clone()],
            location=generic.location,
        )
        block.add_op(cloned)
        tiled = [k for k, size in enumerate(self.tile_sizes) if size > 0]
        offset_positions(cloned, {k: loop.regions[0].blocks[0].args[0] for k, loop in zip(tiled, self.loops)},
                         InsertPoint.before(cloned))
        for j, sink in enumerate(self.sinks):
            write = ktdf.WriteToFifoOp(cloned.results[0], slots[len(self.sources) + j])
            write.location = sink.op.location
            block.add_op(write)

    def _slice_into(self, block: Block, value: SSAValue, position: int) -> SSAValue:
        """A non-load input: its tile, cut out inside the compute stage (as upstream clones it)."""
        generic = self.generic
        tile_type = self.operand_tile_type(position)
        amap = self.maps[position]
        ivs = {k: loop.regions[0].blocks[0].args[0]
               for k, loop in zip([k for k, s in enumerate(self.tile_sizes) if s > 0], self.loops)}
        offsets: list[SSAValue | int] = []
        for expr in amap.results:
            if isinstance(expr, AffineDimExpr) and expr.position in ivs:
                offsets.append(ivs[expr.position])
            else:
                offsets.append(0)
        if not isinstance(value.type, TensorType):
            return value
        if list(value.type.get_shape()) == list(tile_type.get_shape()) and all(o == 0 for o in offsets):
            return value
        extract = tensor.ExtractSliceOp(value, offsets, list(tile_type.get_shape()), [1] * len(offsets), tile_type)
        block.add_op(extract)
        return extract.result


def body_lane_types(generic: GenericOp) -> list[tuple[Operation, Attribute]]:
    """(op, element type) for each distinct scalar type every element-wise body op reads or
    writes, i1 masks excepted (no lanes hold them: they fold into the op that uses them)."""
    found = []
    for inner in generic.body.walk():
        if not is_elementwise_op_name(inner.name):
            continue
        types = [v.type for v in (*inner.operands, *inner.results)]
        for ty in dict.fromkeys(t for t in types if not (isinstance(t, IntegerType) and t.width.data == 1)):
            found.append((inner, ty))
    return found


def reads_init(generic: GenericOp) -> bool:
    body = generic.body.blocks[0]
    return any(arg.uses for arg in body.args[len(generic.inputs):])


def _with_unit_dim(amap: AffineMap) -> AffineMap:
    """`amap` reading one more, trailing, unit dimension (at 0)."""
    return AffineMap(amap.num_dims, amap.num_symbols, (*amap.results, AffineExpr.constant(0)))


def _elements(tile_type: TensorType) -> int:
    count = 1
    for dim in tile_type.get_shape():
        count *= dim
    return count


__all__ = ["Endpoint", "GenericPipeline", "PASS", "body_lane_types", "reads_init"]
