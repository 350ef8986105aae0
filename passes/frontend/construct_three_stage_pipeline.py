"""`construct-three-stage-pipeline`: turn each program into a naive load/compute/store pipeline.

See `docs/passes.md#construct-three-stage-pipeline`. For every `func.func` in the module (the programs that
`compute-group-extraction` made, and the orchestrator, which has nothing to do):

1. **Generalize**: named linalg ops and elementwise `arith`/`math` ops on tensors become
   `linalg.generic` (a `linalg.fill` of zero that only initialises them folds into their
   `tensor.empty`; a fill of another constant stays a reduction's init), under MLIR's greedy
   driver (constants uniqued and hoisted, dead ops erased, folding).
2. **Fuse** producer-consumer chains (`linalg_fusion.py`). Every compute op left gets its own
   loop nest and pipeline (`generic_pipeline.py`), in program order (README Decision 47); the
   values two of them share stay in scratchpad buffers (`ProgramPipeline.place_buffers`).
   Every element-wise op of a body must be one the compute unit executes on its element
   types (the `ops` of the unit's `feature.simd`; absent: every op), else a located error.
3. **Tile** each to the compute unit's SIMD width for the result's element type (the fewest
   lanes of any element type of its body ops, for a cast), read from the device (a unit without lanes for that type is an error, Decision 7): one
   `scf.for` per tiled parallel loop, tagged `loop_type = parallel_loop`. A contraction the
   unit's matrix unit takes is tiled to its M x N output tile instead and marked with the
   tile (`passes/contraction.py`).
4. **Replace access tiles**: memory views and access tiles move before the loop nest; each
   tile becomes `memref.memory_space_cast` (to the memory the view's KTIR space maps to)
   plus `memref.reinterpret_cast` at the tile's offset.
5. **Build the pipelines**, each at the start of its innermost loop: a `ktdf.private` with one FIFO
   slot per load and per store plus three tokens; a LOAD stage (`data_transfer` memory →
   slot), a COMPUTE stage on the compute unit (`read_from_fifo`, the tiled generic,
   `write_to_fifo`) and a STORE stage (`data_transfer` slot → memory).
6. **Clean up**: the loads, stores, access tiles and whatever only they used disappear.

Upstream behaviour is reproduced op for op (constants, op order, the dead tile-size
constants at the top of the function). Where upstream only asserts or silently produces
wrong IR, this pass reports a located error instead: a program without a compute op (a
copy through an indirect access tile; a direct copy gets an identity compute op), compute ops in different blocks, a compute op's result read by anything but a
store or a later compute op, loads or stores that are not the compute ops' operands, a
reduction init that is neither empty nor a fill of a constant. Two upstream quirks are fixed: FIFO
slots are sized from the generic operand each load feeds (not by position), and the
private yields its slots in result order (upstream groups them by FIFO).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, tensor
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSymExpr
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.model import DeviceModel, ExecUnit
from dfsched.diagnostics import error
from dfsched.dialects import ktdf, ktdp
from dfsched.dialects.constants import constant_int
from dfsched.passes.builder import Builder
from dfsched.passes.contraction import plan_program_matrix_tiles
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.walk import RESHAPED_COPY, nearest_ancestor
from dfsched.passes.frontend.copy_programs import copies_through_compute
from dfsched.passes.frontend.generic_pipeline import PASS, Endpoint, GenericPipeline, body_lane_types, reads_init
from dfsched.passes.frontend.indirect_access import IndirectPlan, build_indirect_view, plan_indirect_tile
from dfsched.passes.frontend.linalg_fusion import fuse_elementwise_generics
from dfsched.passes.body_positions import positions_in_i32
from dfsched.passes.frontend.linalg_tiling import build_loop_nest, static_loop_ranges
from dfsched.passes.frontend.linalg_generalize import (
    ElementwiseToGeneric,
    drop_fill_inits,
    generalize_named_ops,
    indexing_maps,
    iterator_names,
    is_linalg_compute,
    is_reduction_init,
    op_class,
)
from dfsched.passes.frontend.pipeline_greedy import apply_patterns_greedily, constant_value
from dfsched.passes.scheduling.reduction_utils import init_form



@dataclass(frozen=True)
class ConstructThreeStagePipeline(DevicePass):
    """Generalize, fuse and tile each program's compute, and wrap it in a 3-stage pipeline."""

    name = "construct-three-stage-pipeline"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import required_device_model

        model = required_device_model(op, self.device)
        compute = compute_unit(model, op)
        functions = [f for f in op.walk() if isinstance(f, func.FuncOp) and f.body.blocks]
        for function in functions:
            ProgramPipeline(function, model, compute, ctx).build()


def compute_unit(model: DeviceModel, at: Operation) -> ExecUnit:
    if not any(unit.compute for unit in model.units.values()):
        raise model.fail(f"{PASS}: no compute resource kind found in device description", at)
    return model.compute_unit(at)  # two compute kinds: the model's error names both


# ---------------------------------------------------------------------------
# One program
# ---------------------------------------------------------------------------


@dataclass
class ProgramPipeline:
    """The state of C3SP on one function (upstream resets it per function).

    Every compute op left after fusion gets its own loop nest and pipeline, in program order
    (`GenericPipeline`). A value two of them share stays in the scratchpad (a `memref.alloc`
    in the memory `ct_local` maps to): an intermediate is written there by its producer's
    store stage, and a load read by several compute ops (or, in a program of several, read
    broadcast along a loop) is copied there once by a pipeline of one transfer stage. So
    nothing is read from or written to DDR twice."""

    function: func.FuncOp
    model: DeviceModel
    compute: ExecUnit
    ctx: Context

    loads: list[ktdp.LoadOp] = field(default_factory=list)
    stores: list[ktdp.StoreOp] = field(default_factory=list)
    pipelines: list[GenericPipeline] = field(default_factory=list)
    casts: dict[SSAValue, SSAValue] = field(default_factory=dict)  # access tile → reinterpret_cast
    tiles: dict[Operation, ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp] = field(
        default_factory=dict)  # load/store → its tile
    indirect: dict[Operation, IndirectPlan] = field(default_factory=dict)  # indirect tile → its split
    staged: list[ktdp.LoadOp] = field(default_factory=list)  # loads copied once into the scratchpad
    reviews: dict[ktdp.LoadOp, Operation] = field(default_factory=dict)  # load → the collapse compute reads
    expanded: dict[ktdp.StoreOp, Operation] = field(default_factory=dict)  # store → the expand it stores
    buffers: dict[SSAValue, SSAValue] = field(default_factory=dict)  # shared value → its scratchpad buffer
    widened: set[SSAValue] = field(default_factory=set)  # intermediates kept with a trailing unit dim
    matrix_tiles: dict[Operation, tuple[int, int, int]] = field(default_factory=dict)  # contraction → block

    def build(self) -> None:
        # Step 0: a load stored unchanged is copied through the compute unit (`copy_programs.py`).
        copies_through_compute(self.function)
        # Step 1: generalize named linalg ops and elementwise arith/math on tensors.
        drop_fill_inits(self.function)
        generalize_named_ops(self.function, self.ctx)
        apply_patterns_greedily(self.function, self.ctx, [ElementwiseToGeneric(self.ctx)])
        positions_in_i32(self.function)  # a body's linalg.index computes in i32 (Decision 107)
        # Step 2: fuse producer-consumer chains.
        fuse_elementwise_generics(self.function, self.ctx, self.holds_rows)
        generics = self.collect()
        if not generics:
            return
        self.plan(generics)
        # Step 3: tile each compute op to the SIMD width (a contraction to its matrix-unit block).
        generics = [p.generic for p in self.pipelines]
        tiles = plan_program_matrix_tiles(self.model, [(g, static_loop_ranges(g)) for g in generics])
        self.matrix_tiles = {g: t for g, t in zip(generics, tiles) if t is not None}
        for pipeline in self.pipelines:
            pipeline.tile()
        # Steps 4 and 5: reinterpret casts for the access tiles, scratchpad buffers, the pipelines.
        self.replace_access_tiles()
        self.place_buffers()
        for pipeline in self.pipelines:
            pipeline.create_pipeline()
        for store, expand in self.expanded.items():  # a compute result stored reshaped: copied out after
            self._reshaped_copy(store, expand, expand.operands[0], store, into_buffer=False)
        # Step 6: erase loads, stores, access tiles and what only they used.
        self.cleanup()

    def holds_rows(self, reduction: GenericOp) -> bool:
        """Whether `reduction` may hold one value per row over its steps (Decision 101): its rows
        fill at least half the compute unit's lanes, so it does not step lane-wide (Decision 65,
        which reads a single input), and its input stays under `reduction-dim-chunking`'s
        threshold (whose chunks resend only the stepped input)."""
        from dfsched.passes.scheduling.reduction_dim_chunking import ReductionDimChunking

        element = getattr(reduction.outputs[0].type, "element_type", None) if reduction.outputs else None
        simd = self.compute.simd
        lanes = simd.lanes_for(element) if simd is not None and element is not None else 0
        width = getattr(element, "bitwidth", None)
        rows, total = 1, (width + 7) // 8 if isinstance(width, int) else 0
        for extent, kind in zip(static_loop_ranges(reduction), iterator_names(reduction)):
            rows *= extent if kind == "parallel" else 1
            total *= extent
        return lanes > 0 and rows * 2 > lanes and 0 < total <= ReductionDimChunking.chunk_size_threshold

    # -- collection and checks ---------------------------------------------
    def collect(self) -> list[GenericOp]:
        computes: list[Operation] = []
        for op in self.function.walk():
            if isinstance(op, ktdp.LoadOp):
                self.loads.append(op)
            elif isinstance(op, ktdp.StoreOp):
                self.stores.append(op)
            elif is_linalg_compute(op) and not _inside_linalg(op) and nearest_ancestor(op, ktdf.StageOp) is None \
                    and not is_reduction_init(op):
                computes.append(op)
        if not self.loads and not self.stores:
            return []  # not a program: an orchestrator, or already scheduled
        if not computes:
            anchor = self.stores[0] if self.stores else self.loads[0]
            raise error(anchor, "program has no compute op between its loads and stores; "
                                "a pure copy cannot be scheduled")
        for op in computes:
            if not isinstance(op, GenericOp):
                raise error(op, "Failed to generalize linalg operation")
            if op.parent_block() is not computes[0].parent_block():
                raise error(op, "the program's compute ops must sit in one block",
                            [(computes[0], "first compute op")])
        return computes  # type: ignore[return-value]

    def plan(self, generics: list[GenericOp]) -> None:
        """Check the program and give every compute op its sources and sinks."""
        produced = {g.results[0]: g for g in generics if len(g.results) == 1}
        for load in self.loads:
            collapse = _collapse_read_by_compute(load, generics)
            if collapse is not None:
                self.reviews[load] = collapse
        for store in self.stores:
            expand = store.data_tile.owner
            if isinstance(expand, tensor.ExpandShapeOp) and expand.operands[0] in produced \
                    and len(list(expand.results[0].uses)) == 1 and _static(expand.results[0].type):
                self.expanded[store] = expand
        for generic in generics:
            self.check_compute(generic, produced)
        for store in self.stores:
            if store.data_tile not in produced and store not in self.expanded:
                raise error(store, "ktdp.store must store the result of the program's compute op")
            self.tiles[store] = self._access_tile(store, store.access_tile)
        consumers: dict[ktdp.LoadOp, list[GenericOp]] = {}
        for load in self.loads:
            data = self.data(load)
            users = list(dict.fromkeys(u.operation for u in data.uses))
            if not users or any(u not in generics for u in users) or any(
                    not any(use.operation is u and use.index < len(u.inputs) for use in data.uses)
                    for u in users):  # type: ignore[attr-defined]
                raise error(
                    load,
                    "could not locate matching linalg operand to project loop IVs and tile sizes through; "
                    "the data_transfer rank would not match the underlying memref",
                )
            self.tiles[load] = self._access_tile(load, load.access_tile)
            consumers[load] = users  # type: ignore[assignment]
            if load in self.reviews or len(consumers[load]) > 1 or (
                    len(generics) > 1 and _broadcast(data, users[0])):
                self.staged.append(load)
        for generic in generics:
            sources: list[Endpoint] = []
            for load in self.loads:
                if generic not in consumers[load]:
                    continue
                data = self.data(load)
                positions = [u.index for u in data.uses if u.operation is generic and u.index < len(generic.inputs)]
                if load in self.staged:
                    sources.append(Endpoint(load, positions, buffer_of=data))
                else:
                    sources.append(Endpoint(load, positions, tile=self.tiles[load]))
            for value, producer in produced.items():
                positions = [u.index for u in value.uses if u.operation is generic and u.index < len(generic.inputs)]
                if positions:
                    sources.append(Endpoint(producer, positions, buffer_of=value))
            result = generic.results[0]
            n_in = len(generic.inputs)
            sinks = [Endpoint(store, [n_in], tile=self.tiles[store])
                     for store in self.stores if store.data_tile is result]
            if any(isinstance(u.operation, GenericOp) for u in result.uses) or any(
                    expand.operands[0] is result for expand in self.expanded.values()):
                sinks.append(Endpoint(generic, [n_in], buffer_of=result))
            self.pipelines.append(GenericPipeline(self, generic, sources, sinks))
        for value in produced:  # an intermediate broadcast along a consumer's innermost loop
            for use in value.uses:
                amap = indexing_maps(use.operation)[use.index] if isinstance(use.operation, GenericOp) else None
                if amap is not None and amap.num_dims - 1 not in amap.used_dims():
                    self.widened.add(value)
        for pipeline in self.pipelines:
            pipeline.maps = pipeline.operand_maps()

    def check_compute(self, generic: GenericOp, produced: dict[SSAValue, GenericOp]) -> None:
        if len(generic.results) != 1 or not isinstance(generic.results[0].type, TensorType):
            raise error(generic, "the program's compute op must produce exactly one tensor")
        result = generic.results[0]
        if not result.uses:
            raise error(generic, "the result of the program's compute op is never stored")
        for use in result.uses:
            user = use.operation
            if isinstance(user, ktdp.StoreOp) and use.index == 0 or user in self.expanded.values():
                continue
            if isinstance(user, GenericOp) and use.index < len(user.inputs):
                continue
            raise error(user, "the result of the program's compute op may only be stored")
        if reads_init(generic) and init_form(generic.outputs[0]) is None:
            raise error(generic, "the compute op accumulates into an init that is not a tensor.empty; "
                                 "the scheduler starts accumulators at zero")
        reviewed = {collapse.results[0] for collapse in self.reviews.values()}
        for position, value in enumerate(generic.inputs):
            if isinstance(value.owner, ktdp.LoadOp) or value in produced or value in reviewed:
                continue
            culprit = _computed_from_load(value)
            if culprit is not None:
                raise error(culprit, f"operand {position} of the program's compute op is computed from a "
                                     f"ktdp.load by '{culprit.name}'; only loads may feed the compute op")
        self.check_body_ops(generic)

    def check_body_ops(self, generic: GenericOp) -> None:
        """Every element-wise body op must be one the compute unit executes on its element
        types (the `ops` of its `feature.simd`; i1 masks are not a lane type)."""
        for inner, ty in body_lane_types(generic):
            self.model.check_executes(self.compute.kind, inner.name, ty, inner)

    def _access_tile(self, user: Operation, value: SSAValue
                     ) -> ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp:
        tile = value.owner
        if isinstance(tile, ktdp.ConstructIndirectAccessTileOp):
            if tile not in self.indirect:
                self.indirect[tile] = plan_indirect_tile(tile, self.model, isinstance(user, ktdp.LoadOp))
            return tile
        if not isinstance(tile, ktdp.ConstructAccessTileOp):
            raise error(user, "the access tile must come from ktdp.construct_access_tile")
        if not isinstance(tile.base.owner, ktdp.ConstructMemoryViewOp):
            raise error(tile, "Memory view must be defined by construct_memory_view operation")
        return tile

    # -- step 5 (done before the pipeline, whose transfers use the casts) -----
    def anchor(self) -> Operation:
        """Where the program's loop nests start: views, casts and buffers go before it."""
        first = self.pipelines[0]
        return first.loops[0] if first.loops else first.generic

    def replace_access_tiles(self) -> None:
        tiles = [op for op in self.function.walk() if isinstance(op, ktdp.ConstructAccessTileOp)]
        if not tiles and not self.indirect:
            return
        anchor = self.anchor()
        for view in [op for op in self.function.walk() if isinstance(op, ktdp.ConstructMemoryViewOp)]:
            if not _used_before(view, anchor, ignore=ktdp.ConstructAccessTileOp):
                _hoist_before(view, anchor)
        for tile in [*tiles, *self.indirect]:
            _hoist_before(tile, anchor)
        for tile in tiles:
            self.casts[tile.result] = self._reinterpret_cast(tile)
        for tile, plan in self.indirect.items():
            self.casts[tile.result] = self._indirect_view(tile, plan, anchor)

    def _indirect_view(self, tile: ktdp.ConstructIndirectAccessTileOp, plan: IndirectPlan,
                       anchor: Operation) -> SSAValue:
        """The address program and the gather/scatter view of an indirect tile (`indirect_access.py`)."""
        scratchpad = StringAttr(self.model.memory_for_space(ktdp.MemorySpaceAttr("ct_local"), at=tile).kind)
        source = plan.view.result
        source_type = source.type
        assert isinstance(source_type, MemRefType)
        cast_cls = op_class(self.ctx, "memref.memory_space_cast", memref.MemorySpaceCastOp)
        in_memory = cast_cls(source, MemRefType(  # type: ignore[call-arg]
            source_type.element_type, source_type.get_shape(), source_type.layout, self.mapped_space(plan.view, tile)))
        view = build_indirect_view(plan, anchor, in_memory, scratchpad,
                                   lambda scratch: ProgramPipeline(scratch, self.model, self.compute, self.ctx).build())
        tile.result.replace_all_uses_with(view)
        Rewriter.erase_op(tile)
        return view

    def place_buffers(self) -> None:
        """A scratchpad buffer for every shared value, before the first loop nest, then a copy
        pipeline filling the buffer of each staged load."""
        shared = [self.data(load) for load in self.staged]
        shared += [p.generic.results[0] for p in self.pipelines if any(s.buffer_of is not None for s in p.sinks)]
        if not shared:
            return
        anchor = self.anchor()
        kind = self.buffer_space(self.function)
        for value in shared:
            tensor_type = value.type
            assert isinstance(tensor_type, TensorType)
            alloc = memref.AllocOp([], [], MemRefType(tensor_type.element_type, self.buffer_shape(value),
                                                      memory_space=kind))
            alloc.location = value.owner.location  # type: ignore[union-attr]
            Rewriter.insert_op(alloc, InsertPoint.before(anchor))
            self.buffers[value] = alloc.memref
        for load in self.staged:  # all copies first: a copy between two pipelines would break
            self._copy_into_buffer(load, anchor)  # the signal chain ordering them (DMA units only)

    def data(self, load: ktdp.LoadOp) -> SSAValue:
        """What compute reads of `load`: its result, or the collapse of it (Decision 108)."""
        collapse = self.reviews.get(load)
        return collapse.results[0] if collapse is not None else load.result

    def _copy_into_buffer(self, load: ktdp.LoadOp, before: Operation) -> None:
        if load in self.reviews:
            return self._reshaped_copy(load, self.reviews[load], self.data(load), before, into_buffer=True)
        shape = list(self.tiles[load].result.type.get_shape())  # type: ignore[union-attr]
        at_origin = AffineMap(0, 0, tuple(AffineExpr.constant(0) for _ in shape))
        transfer = ktdf.DataTransferOp(self.memory(Endpoint(load, [], tile=self.tiles[load])),
                                       self.buffers[load.result], at_origin, (), shape, at_origin, (), shape)
        source, dest = self.space(Endpoint(load, [], tile=self.tiles[load])).data, self.buffer_space(load).data
        self._copy_pipeline(transfer, source, dest, load, InsertPoint.before(before),
                            "the data of this load is read by several compute ops and must be copied into the "
                            "scratchpad once")

    def _copy_pipeline(self, transfer: Operation, source: str, dest: str, at: Operation, point: InsertPoint,
                       why: str, reshaped: bool = False) -> None:
        """`transfer` in a one-stage pipeline on the unit that routes `source` to `dest`, at `point`."""
        route = self.model.route(source, dest, at=at)
        if len(route) != 3:
            raise error(at, f"{why}, but the route from '{source}' to '{dest}' is not one transfer unit "
                            f"({' -> '.join(route)})")
        stage = ktdf.StageOp([], [], applicable_units=[route[1]])
        stage.body.blocks[0].add_op(transfer)
        pipeline = ktdf.PipelineOp()
        if reshaped:
            pipeline.attributes[RESHAPED_COPY] = UnitAttr()  # ordered with the compute ops (walk.py)
        pipeline.body.blocks[0].add_op(stage)
        for op in (transfer, stage, pipeline):
            op.location = at.location
        Rewriter.insert_op(pipeline, point)

    def _reshaped_copy(self, end: ktdp.LoadOp | ktdp.StoreOp, reshape: Operation, value: SSAValue,
                       before: Operation, into_buffer: bool) -> None:
        """Copy between the tile of `end` and the scratchpad buffer of `value`, which holds the
        tile's bytes row-major at the collapsed shape (`reshape`'s groups of tile dimensions;
        Decision 108): a loop over the tile dimensions before the last group moves one block of
        that group a step, so both sides walk the same vectors."""
        tile = self.tiles[end]
        tile_end = Endpoint(end, [], tile=tile)
        shape = list(tile.result.type.get_shape())  # type: ignore[union-attr]
        groups = [[int(i.value.data) for i in group.data] for group in reshape.reassociation.data]
        outer = groups[-1][0]
        loops = build_loop_nest(before, [1] * outer, shape[:outer], ["parallel"] * outer)
        ivs = [loop.regions[0].blocks[0].args[0] for loop in loops]
        tile_map = AffineMap(outer, 0, tuple(AffineExpr.dimension(d) if d < outer else AffineExpr.constant(0)
                                             for d in range(len(shape))))
        rows: list[AffineExpr] = []
        for group in groups[:-1]:
            row: AffineExpr = AffineExpr.constant(0)
            for d in group:
                row = row * shape[d] + AffineExpr.dimension(d)
            rows.append(row)
        buffer_map = AffineMap(outer, 0, (*rows, AffineExpr.constant(0)))
        tile_sizes = [1] * outer + shape[outer:]
        buffer_sizes = [1] * len(rows) + [self.buffer_shape(value)[-1]]
        sides = [(self.memory(tile_end), tile_map, tile_sizes), (self.buffers[value], buffer_map, buffer_sizes)]
        (src, src_map, src_sizes), (dst, dst_map, dst_sizes) = sides if into_buffer else sides[::-1]
        transfer = ktdf.DataTransferOp(src, dst, src_map, ivs, src_sizes, dst_map, ivs, dst_sizes)
        tile_space, buffer_space = self.space(tile_end).data, self.buffer_space(end).data
        source, dest = (tile_space, buffer_space) if into_buffer else (buffer_space, tile_space)
        point = InsertPoint.at_start(loops[-1].regions[0].blocks[0]) if loops else InsertPoint.before(before)
        self._copy_pipeline(transfer, source, dest, end, point,
                            "this tile is reshaped between memory and compute, so it is copied through the "
                            "scratchpad", reshaped=True)

    def memory(self, end: Endpoint) -> SSAValue:
        """The memref a transfer of `end` reads or writes."""
        if end.tile is not None:
            return self.casts[end.tile.result]
        assert end.buffer_of is not None
        return self.buffers[end.buffer_of]

    def memory_shape(self, end: Endpoint) -> list[int]:
        if end.tile is not None:
            return list(end.tile.result.type.get_shape())  # type: ignore[union-attr]
        assert end.buffer_of is not None
        return self.buffer_shape(end.buffer_of)

    def buffer_shape(self, value: SSAValue) -> list[int]:
        """A shared value's buffer: its shape, plus a trailing unit dim when a consumer broadcasts
        it along its innermost loop (read as `(..., 0)`, the form `scalar-broadcast-legalization`
        splats into vectors)."""
        shape = list(value.type.get_shape())  # type: ignore[union-attr]
        return [*shape, 1] if value in self.widened else shape

    def space(self, end: Endpoint) -> StringAttr:
        """The device memory kind `end` lives in."""
        if end.tile is not None:
            view = end.tile.base.owner
            assert isinstance(view, ktdp.ConstructMemoryViewOp)
            return self.mapped_space(view, end.op)
        return self.buffer_space(end.op)

    def buffer_space(self, at: Operation) -> StringAttr:
        """The scratchpad the shared values stay in: the memory `ct_local` maps to."""
        return StringAttr(self.model.memory_for_space("ct_local", at=at).kind)

    def _reinterpret_cast(self, tile: ktdp.ConstructAccessTileOp) -> SSAValue:
        view = tile.base.owner
        assert isinstance(view, ktdp.ConstructMemoryViewOp)
        view_type = view.result.type
        if not isinstance(view_type, MemRefType):
            raise error(tile, "Memory view is not a memref type")
        tile_type = tile.result.type
        if not isinstance(tile_type, ktdp.AccessTileType):
            raise error(tile, "Result is not an access tile type")
        tile_shape = list(tile_type.get_shape())
        _check_static_view(tile, view_type)
        strides = _view_strides(view)
        builder = Builder(InsertPoint.before(tile))
        operands = [*tile.indices, *tile.symbol_operands]
        base_map = tile.base_map.data
        indices = [_expand_expr(builder, e, operands[: base_map.num_dims], operands[base_map.num_dims:])
                   for e in base_map.results]
        if len(indices) != len(strides):
            raise error(tile, f"Number of indices ({len(indices)}) does not match number of strides ({len(strides)})")
        if len(tile_shape) != len(strides):
            raise error(tile, f"access tile rank ({len(tile_shape)}) does not match the rank of its memory view "
                              f"({len(strides)})")
        offset = _offset(builder, indices, strides)
        strides = [strides[d] for d in _tile_order(tile, len(strides))]
        space = self.mapped_space(view, tile)
        cast_cls = op_class(self.ctx, "memref.memory_space_cast", memref.MemorySpaceCastOp)
        cast = builder.insert(cast_cls(view.result, MemRefType(  # type: ignore[call-arg]
            view_type.element_type, view_type.get_shape(), view_type.layout, space)))
        result_type = MemRefType(view_type.element_type, tile_shape, StridedLayoutAttr(strides, None), space)
        reinterpret_cls = op_class(self.ctx, "memref.reinterpret_cast", memref.ReinterpretCastOp)
        reinterpret = builder.insert(reinterpret_cls(  # type: ignore[call-arg]
            cast.results[0], [offset], [], [], [memref.DYNAMIC_INDEX], tile_shape, strides, result_type))
        tile.result.replace_all_uses_with(reinterpret.results[0])
        return reinterpret.results[0]

    def mapped_space(self, view: ktdp.ConstructMemoryViewOp, at: Operation) -> StringAttr:
        """The device memory kind a view's KTIR memory space maps to (`mem_space_mapping`)."""
        space = view.memory_space
        if space is None:
            raise error(view, "memory view has no memory_space")
        return StringAttr(self.model.memory_for_space(space, at=at).kind)

    # -- step 6 --------------------------------------------------------------
    def cleanup(self) -> None:
        tiles = [op for op in self.function.walk() if isinstance(op, ktdp.ConstructAccessTileOp)]
        erased: set[Operation] = set()
        for op in [*self.reviews.values(), *self.loads, *self.stores, *self.expanded.values(), *tiles]:
            if op in erased or any(r.uses for r in op.results):
                continue
            _erase_with_unused_operands(op, erased)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _broadcast(data: SSAValue, generic: GenericOp) -> bool:
    """Whether `generic` reads a load's data along fewer loops than it has (a row of weights
    for every row): its loop nest would fetch the same bytes again and again."""
    maps = indexing_maps(generic)
    return any(len(maps[u.index].used_dims()) < maps[u.index].num_dims
               for u in data.uses if u.operation is generic and u.index < len(generic.inputs))


def _static(ty: Attribute) -> bool:
    return isinstance(ty, TensorType) and all(d >= 0 for d in ty.get_shape())


def _collapse_read_by_compute(load: ktdp.LoadOp, generics: list[GenericOp]) -> Operation | None:
    """The `tensor.collapse_shape` (static shapes) that is the only reader of `load` and is read
    only as an input of the program's compute ops: the load's scratchpad copy, row-major, is the
    collapsed tensor (Decision 108)."""
    uses = list(load.result.uses)
    if len(uses) != 1 or not isinstance(uses[0].operation, tensor.CollapseShapeOp):
        return None
    collapse = uses[0].operation
    result = collapse.results[0]
    if not _static(result.type):
        return None
    if not result.uses or any(u.operation not in generics or u.index >= len(u.operation.inputs)
                              for u in result.uses):
        return None
    return collapse


def _inside_linalg(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not is_linalg_compute(parent):
        parent = parent.parent_op()
    return parent is not None


def _computed_from_load(value: SSAValue) -> Operation | None:
    """The op that computes `value` from a `ktdp.load` (None if no load is involved)."""
    seen: set[Operation] = set()
    stack = [value]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or owner in seen:
            continue
        seen.add(owner)
        if isinstance(owner, ktdp.LoadOp):
            return value.owner if isinstance(value.owner, Operation) else owner
        stack.extend(owner.operands)
    return None


def _hoist_before(op: Operation, anchor: Operation) -> None:
    """Move `op` right before `anchor`, first hoisting same-block operands defined after it."""
    block = anchor.parent_block()
    if op.parent_block() is block and _comes_before(op, anchor):
        op.detach()
        block.insert_op_before(op, anchor)  # type: ignore[union-attr]
        return
    for value in op.operands:
        owner = value.owner
        if isinstance(owner, Operation) and owner.parent_block() is block and not _comes_before(owner, anchor):
            _hoist_before(owner, anchor)
    op.detach()
    block.insert_op_before(op, anchor)  # type: ignore[union-attr]


def _used_before(op: Operation, anchor: Operation, ignore: type[Operation]) -> bool:
    """Whether a user of `op` (other than an `ignore` op) sits between `op` and `anchor`:
    moving `op` down to `anchor` would then break dominance."""
    block = anchor.parent_block()
    if op.parent_block() is not block or not _comes_before(op, anchor):
        return False
    for result in op.results:
        for use in result.uses:
            user = block.find_ancestor_op_in_block(use.operation) if block is not None else None
            if user is not None and not isinstance(use.operation, ignore) and _comes_before(user, anchor) \
                    and user is not anchor:
                return True
    return False


def _comes_before(op: Operation, anchor: Operation) -> bool:
    node = op
    while node is not None:
        if node is anchor:
            return True
        node = node.next_op
    return False


def _tile_order(tile: ktdp.ConstructAccessTileOp, rank: int) -> list[int]:
    """The view dimension each dimension of the tile's data follows (`access_tile_order`, a
    permutation): a tile enumerated in another order is the view's strides permuted."""
    order = tile.access_tile_order.data if tile.access_tile_order is not None else AffineMap.identity(rank)
    dims = [e.position for e in order.results if isinstance(e, AffineDimExpr)]
    if order.num_dims != rank or len(order.results) != rank or sorted(dims) != list(range(rank)):
        raise error(tile, f"access_tile_order {order} is not a permutation of the tile's {rank} dimensions")
    return dims


def _check_static_view(tile: ktdp.ConstructAccessTileOp, view_type: MemRefType) -> None:
    """Refuse a tile over a view whose memref type has a dynamic size (README Decision 91):
    the transfers move every position of the tile, so positions past a size the type does not
    give (Triton's `n_elements` tail) would be read and written instead of masked (Decision 23),
    and the DataflowIR simulator cannot address a view of dynamic shape."""
    if memref.DYNAMIC_INDEX not in view_type.get_shape():
        return
    raise error(tile, f"access tile over a memory view of dynamic shape {view_type}: the scheduler moves all "
                      f"positions of the tile and cannot mask those past a size its type does not give (a run-time "
                      f"size, even one bound by --bind; masked transfers are not scheduled); give the view static sizes")


def _view_strides(view: ktdp.ConstructMemoryViewOp) -> list[int]:
    """The element strides the view's op gives (static, or constant operands): the layout the
    kernel's data has. Its memref type's layout says nothing of it (`memref<32x64xf16>` for a
    column-major view too), so deriving row-major strides from the shape would transfer the
    wrong elements of every view that is not dense row-major (README Decision 62)."""
    strides, dynamic = [], iter(view.strides)
    for stride in view.get_static_strides():
        if stride == ktdp.DYNAMIC:
            operand = next(dynamic)
            stride = constant_int(operand)
            if stride is None:
                raise error(view, f"memory view stride {_name(operand)} is not a constant; "
                                  f"construct-three-stage-pipeline needs the view's strides to build its transfers")
        strides.append(stride)
    return strides


def _name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "operand"


def _expand_expr(builder: Builder, expr: AffineExpr, dims: Sequence[SSAValue], symbols: Sequence[SSAValue]) -> SSAValue:
    """MLIR's `expandAffineExpr`: the value of `expr` as index arithmetic."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return builder.constant(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    if expr.kind == AffineBinaryOpKind.Mul and isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value == -1:
        lhs = _expand_expr(builder, expr.lhs, dims, symbols)
        zero = builder.constant(0)
        return builder.insert(arith.SubiOp(zero, lhs)).results[0]
    lhs = _expand_expr(builder, expr.lhs, dims, symbols)
    rhs = _expand_expr(builder, expr.rhs, dims, symbols)
    if expr.kind == AffineBinaryOpKind.Add:
        return builder.insert(arith.AddiOp(lhs, rhs)).results[0]
    if expr.kind == AffineBinaryOpKind.Mul:
        return builder.insert(arith.MuliOp(lhs, rhs)).results[0]
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return builder.insert(arith.FloorDivSIOp(lhs, rhs)).results[0]
    if expr.kind == AffineBinaryOpKind.CeilDiv:
        return builder.insert(arith.CeilDivSIOp(lhs, rhs)).results[0]
    remainder = builder.insert(arith.RemSIOp(lhs, rhs)).results[0]
    zero = builder.constant(0)
    negative = builder.insert(arith.CmpiOp(remainder, zero, "slt")).results[0]
    corrected = builder.insert(arith.AddiOp(remainder, rhs)).results[0]
    return builder.insert(arith.SelectOp(negative, corrected, remainder)).results[0]


def _is_constant_zero(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    attr = constant_value(owner)
    return isinstance(attr, IntegerAttr) and attr.value.data == 0


def _offset(builder: Builder, indices: Sequence[SSAValue], strides: Sequence[int]) -> SSAValue:
    """Σ index·stride: constant-0 indices skipped, stride 1 not multiplied, adds left to right."""
    terms: list[SSAValue] = []
    for index, stride in zip(indices, strides):
        if _is_constant_zero(index):
            continue
        if stride == 1:
            terms.append(index)
        else:
            factor = builder.constant(stride)
            terms.append(builder.insert(arith.MuliOp(index, factor)).results[0])
    if not terms:
        return builder.constant(0)
    offset = terms[0]
    for term in terms[1:]:
        offset = builder.insert(arith.AddiOp(offset, term)).results[0]
    return offset


def _erase_with_unused_operands(op: Operation, erased: set[Operation]) -> None:
    """Erase `op`, then every operand's defining op that is left without uses."""
    operands = list(op.operands)
    for nested in op.walk():
        erased.add(nested)
    Rewriter.erase_op(op, safe_erase=False)
    for value in operands:
        owner = value.owner
        if isinstance(owner, Operation) and owner not in erased and all(not r.uses for r in owner.results):
            _erase_with_unused_operands(owner, erased)


__all__ = ["ConstructThreeStagePipeline", "ProgramPipeline"]
