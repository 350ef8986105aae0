"""`construct-three-stage-pipeline`: turn each program into a naive load/compute/store pipeline.

See `docs/passes.md#construct-three-stage-pipeline`. For every `func.func` in the module (the programs that
`compute-group-extraction` made, and the orchestrator, which has nothing to do):

1. **Generalize**: named linalg ops and elementwise `arith`/`math` ops on tensors become
   `linalg.generic` (a `linalg.fill` of zero that only initialises them folds into their
   `tensor.empty`), under MLIR's greedy driver (constants uniqued and hoisted, dead ops
   erased, folding).
2. **Fuse** producer-consumer chains into one generic.
   Every element-wise op of its body must be one the compute unit executes on its element
   types (the `ops` of the unit's `feature.simd`; absent: every op), else a located error.
3. **Tile** it to the compute unit's SIMD width for the result's element type (the fewest
   lanes of any element type of its body ops, for a cast), read from the device (a unit without lanes for that type is an error, Decision 7): one
   `scf.for` per tiled parallel loop, tagged `loop_type = parallel_loop`. A contraction the
   unit's matrix unit takes is tiled to its M x N output tile instead and marked with the
   tile (`passes/contraction.py`).
4. **Replace access tiles**: memory views and access tiles move before the loop nest; each
   tile becomes `memref.memory_space_cast` (to the memory the view's KTIR space maps to)
   plus `memref.reinterpret_cast` at the tile's offset.
5. **Build the pipeline** at the start of the innermost loop: a `ktdf.private` with one FIFO
   slot per load and per store plus three tokens; a LOAD stage (`data_transfer` memory →
   slot), a COMPUTE stage on the compute unit (`read_from_fifo`, the tiled generic,
   `write_to_fifo`) and a STORE stage (`data_transfer` slot → memory).
6. **Clean up**: the loads, stores, access tiles and whatever only they used disappear.

Upstream behaviour is reproduced op for op (constants, op order, the dead tile-size
constants at the top of the function). Where upstream only asserts or silently produces
wrong IR, this pass reports a located error instead: a program without a compute op (a
pure copy), compute that does not fuse into one generic, loads or stores that are not
the generic's operands, non-zero reduction inits. Two upstream quirks are fixed: FIFO
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
    IntegerType,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.elementwise import is_elementwise_op_name
from dfsched.dialects.constants import index_constant
from dfsched.arch.model import DeviceModel, ExecUnit, Link
from dfsched.diagnostics import error
from dfsched.dialects import ktdf, ktdp
from dfsched.passes.builder import Builder
from dfsched.passes.frontend.indirect_access import IndirectPlan, build_indirect_view, plan_indirect_tile
from dfsched.passes.contraction import mark, matrix_tile_sizes, plan_matrix_tile
from dfsched.passes.frontend.linalg_fusion import fuse_elementwise_generics
from dfsched.passes.frontend.linalg_generalize import (
    ElementwiseToGeneric,
    drop_fill_inits,
    generalize_named_ops,
    indexing_maps,
    is_linalg_compute,
    iterator_names,
    op_class,
)
from dfsched.passes.frontend.linalg_tiling import (
    build_loop_nest,
    loop_tile_sizes,
    operand_tile_shape,
    static_loop_ranges,
)
from dfsched.passes.frontend.pipeline_greedy import apply_patterns_greedily, constant_value

PASS = "ConstructThreeStagePipeline"
NO_DEVICE = ("Unable to import the device specification. This could happen if the device spec file is empty "
             "or contains multiple devices")


@dataclass(frozen=True)
class ConstructThreeStagePipeline(ModulePass):
    """Generalize, fuse and tile each program's compute, and wrap it in a 3-stage pipeline."""

    name = "construct-three-stage-pipeline"

    device: str | None = None
    """Architecture file (or shipped short name) used when the module declares no device."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import device_model_for

        model = device_model_for(op, device=self.device)
        if model is None:
            raise error(op, NO_DEVICE)
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
    """The state of C3SP on one function (upstream resets it per function)."""

    function: func.FuncOp
    model: DeviceModel
    compute: ExecUnit
    ctx: Context

    loads: list[ktdp.LoadOp] = field(default_factory=list)
    stores: list[ktdp.StoreOp] = field(default_factory=list)
    generic: GenericOp | None = None
    tile_sizes: list[int] = field(default_factory=list)
    loop_ranges: list[int] = field(default_factory=list)
    loops: list[Operation] = field(default_factory=list)
    casts: dict[SSAValue, SSAValue] = field(default_factory=dict)  # access tile → reinterpret_cast
    load_operands: list[int] = field(default_factory=list)  # generic input each load feeds
    tiles: dict[Operation, ktdp.ConstructAccessTileOp | ktdp.ConstructIndirectAccessTileOp] = field(
        default_factory=dict)  # load/store → its tile
    indirect: dict[Operation, IndirectPlan] = field(default_factory=dict)  # indirect tile → its split

    def build(self) -> None:
        # Step 1: generalize named linalg ops and elementwise arith/math on tensors.
        drop_fill_inits(self.function)
        generalize_named_ops(self.function, self.ctx)
        apply_patterns_greedily(self.function, self.ctx, [ElementwiseToGeneric(self.ctx)])
        # Step 2: fuse producer-consumer chains.
        fuse_elementwise_generics(self.function, self.ctx)
        if not self.collect():
            return
        self.check_program()
        # Step 3: tile to the SIMD width.
        self.tile()
        # Steps 4 and 5: reinterpret casts for the access tiles, then the pipeline.
        self.replace_access_tiles()
        self.create_pipeline()
        # Step 6: erase loads, stores, access tiles and what only they used.
        self.cleanup()

    # -- collection and checks ---------------------------------------------
    def collect(self) -> bool:
        computes: list[Operation] = []
        for op in self.function.walk():
            if isinstance(op, ktdp.LoadOp):
                self.loads.append(op)
            elif isinstance(op, ktdp.StoreOp):
                self.stores.append(op)
            elif is_linalg_compute(op) and not _inside_linalg(op) and not _inside_stage(op):
                computes.append(op)
        if not self.loads and not self.stores:
            return False  # not a program: an orchestrator, or already scheduled
        if len(computes) > 1:
            raise error(
                computes[1],
                f"Expected exactly one compute op after fusion, got {len(computes)}: this program's compute "
                "does not fuse into a single linalg.generic",
                [(computes[0], "first compute op")],
            )
        if not computes:
            anchor = self.stores[0] if self.stores else self.loads[0]
            raise error(anchor, "program has no compute op between its loads and stores; "
                                "a pure copy cannot be scheduled")
        generic = computes[0]
        if not isinstance(generic, GenericOp):
            raise error(generic, "Failed to generalize linalg operation")
        self.generic = generic
        return True

    def check_program(self) -> None:
        generic = self.generic
        assert generic is not None
        if len(generic.results) != 1 or not isinstance(generic.results[0].type, TensorType):
            raise error(generic, "the program's compute op must produce exactly one tensor")
        if not self.stores:
            raise error(generic, "the result of the program's compute op is never stored")
        for store in self.stores:
            if store.data_tile is not generic.results[0]:
                raise error(store, "ktdp.store must store the result of the program's compute op")
        for use in generic.results[0].uses:
            if not isinstance(use.operation, ktdp.StoreOp):
                raise error(use.operation, "the result of the program's compute op may only be stored")
        init = generic.outputs[0]
        if _reads_init(generic) and not isinstance(init.owner, tensor.EmptyOp):
            raise error(generic, "the compute op accumulates into an init that is not a tensor.empty; "
                                 "the scheduler starts accumulators at zero")
        n_in = len(generic.inputs)
        for load in self.loads:
            positions = [u.index for u in load.result.uses if u.operation is generic]
            inputs = [p for p in positions if p < n_in]
            others = [u.operation for u in load.result.uses if u.operation is not generic]
            if not inputs or others:
                raise error(
                    load,
                    "could not locate matching linalg operand to project loop IVs and tile sizes through; "
                    "the data_transfer rank would not match the underlying memref",
                )
            self.load_operands.append(inputs[0])
        for position, value in enumerate(generic.inputs):
            if isinstance(value.owner, ktdp.LoadOp):
                continue
            culprit = _computed_from_load(value)
            if culprit is not None:
                raise error(culprit, f"operand {position} of the program's compute op is computed from a "
                                     f"ktdp.load by '{culprit.name}'; only loads may feed the compute op")
        for op in [*self.loads, *self.stores]:
            self.tiles[op] = self._access_tile(op, op.access_tile)
        self.check_body_ops(generic)

    def check_body_ops(self, generic: GenericOp) -> None:
        """Every element-wise body op must be one the compute unit executes on its element
        types (the `ops` of its `feature.simd`; i1 masks are not a lane type)."""
        for inner, ty in _body_lane_types(generic):
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

    # -- step 3: the SIMD width of the narrowest element type of the body -----
    def tile(self) -> None:
        generic = self.generic
        assert generic is not None
        element_type = generic.results[0].type.get_element_type()  # type: ignore[union-attr]
        lanes = self.model.simd_lanes(self.compute.kind, element_type, at=generic)
        for inner, ty in _body_lane_types(generic):  # a cast: the narrowest vector of its types
            lanes = min(lanes, self.model.simd_lanes(self.compute.kind, ty, at=inner))
        self.loop_ranges = static_loop_ranges(generic)
        self.tile_sizes = loop_tile_sizes(generic, lanes)
        matrix = plan_matrix_tile(self.model, generic, self.loop_ranges)
        if matrix is not None:  # a contraction on the matrix unit: output tiles of M x N
            mark(generic, matrix)
            self.tile_sizes = matrix_tile_sizes(generic, matrix)
        # Upstream's tiling options materialize every tile size as a constant at the start
        # of the function (they stay unused).
        entry = self.function.body.blocks[0]
        first = entry.first_op
        for size in self.tile_sizes:
            constant = index_constant(size)
            if first is None:
                entry.add_op(constant)
            else:
                entry.insert_op_before(constant, first)
        self.loops = build_loop_nest(generic, self.tile_sizes, self.loop_ranges, iterator_names(generic))

    # -- step 5 (done before the pipeline, whose transfers use the casts) -----
    def replace_access_tiles(self) -> None:
        tiles = [op for op in self.function.walk() if isinstance(op, ktdp.ConstructAccessTileOp)]
        if not tiles and not self.indirect:
            return
        anchor = self.loops[0] if self.loops else self.generic
        assert anchor is not None
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
        strides = _view_strides(view_type, tile)
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

    # -- step 4 --------------------------------------------------------------
    def create_pipeline(self) -> None:
        generic = self.generic
        assert generic is not None
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
        for i, load in enumerate(self.loads):
            self.add_transfer(load_stage, load, slots[i], is_load=True)
        block.add_op(load_stage)
        compute_stage = ktdf.StageOp([tokens[0]], [tokens[1]], applicable_units=[self.compute.kind])
        self.add_compute(compute_stage, slots)
        block.add_op(compute_stage)
        store_stage = ktdf.StageOp([tokens[1]], [tokens[2]])
        for j, store in enumerate(self.stores):
            self.add_transfer(store_stage, store, slots[len(self.loads) + j], is_load=False)
        block.add_op(store_stage)
        for stage in (load_stage, compute_stage, store_stage):
            stage.location = generic.location

    def compute_links(self) -> tuple[Link, Link]:
        """The compute unit's unique in/out links: ordered queues with equal granularity."""
        generic = self.generic
        assert generic is not None
        incoming, outgoing = self.compute.incoming, self.compute.outgoing
        if len(incoming) != 1 or len(outgoing) != 1:
            raise self.model.fail(f"{PASS}: compute resource has no incoming or outgoing link in device "
                                  f"description (exec_unit '{self.compute.kind}' has {len(incoming)} incoming and "
                                  f"{len(outgoing)} outgoing links; exactly one of each is needed)", generic)
        link_in, link_out = incoming[0], outgoing[0]
        if not link_in.ordered or not link_out.ordered:
            raise self.model.fail(f"{PASS}: compute unit link does not use an ordered queue; only ordered "
                                  "queues are supported", generic)
        if not link_in.transfer_granularity or not link_out.transfer_granularity:
            raise self.model.fail(f"{PASS}: compute resource link is missing a TransferGranularity property",
                                  generic)
        if link_in.max_granularity != link_out.max_granularity:
            raise self.model.fail(f"{PASS}: incoming and outgoing transfer granularities differ "
                                  f"({link_in.max_granularity} vs {link_out.max_granularity})", generic)
        return link_in, link_out

    def operand_tile_type(self, position: int) -> TensorType:
        generic = self.generic
        assert generic is not None
        value = generic.operands[position]
        amap = indexing_maps(generic)[position]
        shape = operand_tile_shape(amap, self.tile_sizes, self.loop_ranges, generic)
        return TensorType(value.type.get_element_type(), shape)  # type: ignore[union-attr]

    def create_private(self) -> tuple[ktdf.PrivateOp, list[SSAValue], list[SSAValue]]:
        generic = self.generic
        assert generic is not None
        kind = StringAttr(self.compute.kind)
        slot_types: list[ktdf.FifoSlotType] = []
        for load, position in zip(self.loads, self.load_operands):
            tile_type = self.operand_tile_type(position)
            space = self.mapped_space(self._view_of(load), load)
            slot_types.append(ktdf.FifoSlotType(space, kind, _elements(tile_type), tile_type.element_type))
        init_type = self.operand_tile_type(len(generic.inputs))
        for store in self.stores:
            space = self.mapped_space(self._view_of(store), store)
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

    def add_transfer(self, stage: ktdf.StageOp, op: ktdp.LoadOp | ktdp.StoreOp, slot: SSAValue, is_load: bool) -> None:
        generic = self.generic
        assert generic is not None
        maps = indexing_maps(generic)
        position = self.load_operands[self.loads.index(op)] if is_load else len(generic.inputs)
        amap = maps[position]
        tile = self.tiles[op]
        memory = self.casts[tile.result]
        full_shape = list(tile.result.type.get_shape())  # type: ignore[union-attr]
        transfer_map, map_ivs = self._transfer_map(amap)
        memory_sizes: list[int] = []
        for expr in amap.results:
            if isinstance(expr, AffineDimExpr):
                size = self.tile_sizes[expr.position]
                memory_sizes.append(size if size > 0 else full_shape[len(memory_sizes)])
            elif isinstance(expr, AffineConstantExpr):
                memory_sizes.append(1)
            else:
                raise error(op, "unsupported affine expression in operand indexing map for data_transfer size "
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
        transfer.location = op.location
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
        assert generic is not None
        block = stage.body.blocks[0]
        inputs: list[SSAValue | None] = [None] * len(generic.inputs)
        for i, (load, position) in enumerate(zip(self.loads, self.load_operands)):
            read = ktdf.ReadFromFifoOp(slots[i], self.operand_tile_type(position))
            read.location = load.location
            block.add_op(read)
            for use in load.result.uses:
                if use.operation is generic and use.index < len(generic.inputs):
                    inputs[use.index] = read.result
        result_type = self.operand_tile_type(len(generic.inputs))
        empty = tensor.EmptyOp([], result_type)
        empty.location = generic.location
        block.add_op(empty)
        for position, value in enumerate(generic.inputs):
            if inputs[position] is None:
                inputs[position] = self._slice_into(block, value, position)
        operands = [*inputs, empty.tensor]
        cloned = type(generic).create(
            operands=operands,  # type: ignore[arg-type]
            result_types=[result_type],
            properties=dict(generic.properties),
            attributes=dict(generic.attributes),
            regions=[generic.body.clone()],
            location=generic.location,
        )
        block.add_op(cloned)
        for j, store in enumerate(self.stores):
            write = ktdf.WriteToFifoOp(cloned.results[0], slots[len(self.loads) + j])
            write.location = store.location
            block.add_op(write)

    def _slice_into(self, block: Block, value: SSAValue, position: int) -> SSAValue:
        """A non-load input: its tile, cut out inside the compute stage (as upstream clones it)."""
        generic = self.generic
        assert generic is not None
        tile_type = self.operand_tile_type(position)
        amap = indexing_maps(generic)[position]
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

    def _view_of(self, op: Operation) -> ktdp.ConstructMemoryViewOp:
        view = self.tiles[op].base.owner
        assert isinstance(view, ktdp.ConstructMemoryViewOp)
        return view

    # -- step 6 --------------------------------------------------------------
    def cleanup(self) -> None:
        tiles = [op for op in self.function.walk() if isinstance(op, ktdp.ConstructAccessTileOp)]
        erased: set[Operation] = set()
        for op in [*self.loads, *self.stores, *tiles]:
            if op in erased or any(r.uses for r in op.results):
                continue
            _erase_with_unused_operands(op, erased)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _body_lane_types(generic: GenericOp) -> list[tuple[Operation, Attribute]]:
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


def _inside_linalg(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if is_linalg_compute(parent):
            return True
        parent = parent.parent_op()
    return False


def _inside_stage(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ktdf.StageOp):
            return True
        parent = parent.parent_op()
    return False


def _reads_init(generic: GenericOp) -> bool:
    body = generic.body.blocks[0]
    return any(arg.uses for arg in body.args[len(generic.inputs):])


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


def _elements(tile_type: TensorType) -> int:
    count = 1
    for dim in tile_type.get_shape():
        count *= dim
    return count


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


def _view_strides(view_type: MemRefType, at: Operation) -> list[int]:
    layout = view_type.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        if any(s is None for s in strides):
            raise error(at, "memory view has dynamic strides; only static strides are supported")
        return [int(s) for s in strides]  # type: ignore[arg-type]
    shape = list(view_type.get_shape())
    strides, stride = [], 1
    for dim in reversed(shape):
        strides.insert(0, stride)
        if dim < 0 and len(strides) < len(shape):
            raise error(at, "memory view has a dynamic shape; its strides cannot be derived")
        stride *= dim
    return strides


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
