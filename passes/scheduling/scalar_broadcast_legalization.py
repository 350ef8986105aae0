"""`scalar-broadcast-legalization`: send scalars broadcast along the vector dim as splats.

See `docs/passes.md#scalar-broadcast-legalization`. After path expansion a compute stage may read an operand that
a `linalg.generic` broadcasts along the innermost (vector) dimension: its indexing map
ends in a constant, e.g. `(d0, d1, d2, d3, d4) -> (d0, d2, d3, 0)`, so one element serves
a whole vector. The hardware cannot hand the compute unit a single element; the pass
makes the load path deliver a full vector instead:

1. **Find the sites.** For every `linalg.generic` in a stage that runs on one unit, every
   input whose map ends in a constant, does not use the innermost loop dimension elsewhere
   (`(d0) -> (d0, 0)` reads a unit trailing dim, no broadcast) and is read from a FIFO slot. Its *load path*
   is traced back from the slot: the one `ktdf.data_transfer` filling the slot, the one
   filling that transfer's source buffer, and so on up to memory outside the pipeline.
2. **Decide.** The operand needs legalizing when the compute unit cannot splat
   (`feature.simd` without `splat`), or when the unit making the first load cannot load
   one element on its own (the element is not a whole number of its words for that
   memory, or no access shape fits it exactly).
3. **Check the splat.** The load/store unit that fills the FIFO (the stage's unit) must
   have `feature.simd {splat}` (or its link from memory must), and when that link states
   a `transfer_granularity` it must allow a one-element read.
4. **Rewrite** (all sites are collected before anything changes): every
   memory-to-memory transfer of the path is widened to the vector width (its destination
   buffer's last dimension and both sides' last size become `lanes`), except one whose
   source rows are narrower than `lanes` (a column or a 1x1 tile: widened, it would read past
   the view; the DMA moves the word holding the element, dfsched); the transfer
   filling the FIFO gets `transfer_mode = "splat"` (sizes unchanged); the compute stage's
   `read_from_fifo` returns a vector (last dimension `lanes`); the operand's map gets the
   generic's last loop dimension in place of the constant. When the FIFO slot holds fewer
   elements than the widened read, the slot (and the FIFO side of the splat transfer)
   grows to match.

`lanes` is the compute unit's SIMD width for the operand's element type (a unit without
lanes for it is an error, Decision 7), or the generic's innermost extent when that is narrower
(a row of 8 elements on 64 lanes: dfsched).

Differences from upstream: upstream's only failure mode for a broadcast it cannot trace
is a warning and a skipped operand, and dfsched has no warnings, so these are located
errors (Decision 4); the splat check looks at the unit that fills the FIFO (upstream reads
the SIMD feature of the link, and only when the first hop of the path is a queue, so on
the sample device it never checks); the load rule asks whether a single element *cannot*
be loaded (upstream returns the opposite when the element is a whole number of words).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from dfsched.arch.model import DeviceModel
from dfsched.compat import linalg_ops
from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.passes.walk import pipelines_post_order
from dfsched.passes.scheduling.pipeline_tree import nearest_pipeline, nearest_stage
from dfsched.passes.scheduling.privates import retype_private_results
from dfsched.passes.scheduling.reduction_utils import held_inputs
from dfsched.passes.device_pass import DevicePass

PASS = "scalar-broadcast-legalization"


@dataclass(frozen=True)
class ScalarBroadcastLegalization(DevicePass):
    """Widen scalar operands broadcast along the vector dim and send them as splats."""

    name = "scalar-broadcast-legalization"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import required_device_model

        required_device_model(op, self.device)
        sites: list[Site] = []
        for pipeline in pipelines_post_order(op):
            model = required_device_model(pipeline, self.device)  # None: two devices on the way up
            sites.extend(collect_sites(pipeline, model))
        done: set[Operation] = set()
        for site in sites:
            site.apply(done)


# ===========================================================================
# Finding the sites
# ===========================================================================


@dataclass(eq=False)
class Site:
    """One broadcast operand to legalize and the transfers on its way from memory."""

    generic: linalg_ops.GenericOp
    operand: int
    read: ktdf.ReadFromFifoOp
    path: list[ktdf.DataTransferOp]  # from memory to the FIFO, in order
    lanes: int
    new_map: AffineMap
    widened: list[ktdf.DataTransferOp] = field(default_factory=list)

    def apply(self, done: set[Operation]) -> None:
        *memory_hops, splat = self.path
        for transfer in memory_hops:
            if _narrower_source(transfer, self.lanes):
                continue  # a view that holds fewer elements than the lanes: nothing past it to move
            if transfer not in done:
                done.add(transfer)
                widen_transfer(transfer, self.lanes)
        if splat not in done:
            done.add(splat)
            splat.attributes["transfer_mode"] = StringAttr("splat")
        widen_read(self.read, splat, self.lanes)
        maps = list(self.generic.indexing_maps.data)
        maps[self.operand] = AffineMapAttr(self.new_map)
        self.generic.properties["indexing_maps"] = ArrayAttr(maps)


def collect_sites(pipeline: ktdf.PipelineOp, model: DeviceModel) -> list[Site]:
    sites: list[Site] = []
    for generic in pipeline.walk():
        if not isinstance(generic, linalg_ops.GenericOp):
            continue
        stage = nearest_stage(generic)
        if stage is None or nearest_pipeline(stage) is not pipeline:
            continue
        units = stage.unit_kinds
        if len(units) != 1 or units[0] not in model.units or not model.units[units[0]].compute:
            continue
        maps = [m.data for m in generic.indexing_maps.data]
        for index, value in enumerate(generic.inputs):
            amap = maps[index]
            if not amap.results or not isinstance(amap.results[-1], AffineConstantExpr):
                continue
            if amap.num_dims - 1 in amap.used_dims():
                continue  # a unit trailing dim read along the innermost loop: no broadcast
            if index in held_inputs(generic):
                continue  # one value per row of a reduction: read once and held (Decision 101), no splat
            if not isinstance(value, OpResult) or not isinstance(value.owner, ktdf.ReadFromFifoOp):
                continue  # not fed through a FIFO: nothing on a load path to legalize
            site = legalize_operand(generic, index, value.owner, pipeline, units[0], model)
            if site is not None:
                sites.append(site)
    return sites


def _innermost_extent(generic: linalg_ops.GenericOp, default: int) -> int:
    """The extent of the generic's innermost loop, from its output (`default` when unknown)."""
    maps = [m.data for m in generic.indexing_maps.data]
    out_map, out_type = maps[len(generic.inputs)], generic.outputs[0].type
    shape = out_type.get_shape() if isinstance(out_type, TensorType | MemRefType) else ()
    for position, expr in enumerate(out_map.results):
        if isinstance(expr, AffineDimExpr) and expr.position == out_map.num_dims - 1 and position < len(shape):
            return shape[position] if shape[position] > 0 else default
    return default


def legalize_operand(generic: linalg_ops.GenericOp, index: int, read: ktdf.ReadFromFifoOp, pipeline: ktdf.PipelineOp,
                     compute_kind: str, model: DeviceModel) -> Site | None:
    """The site for broadcast operand `index` of `generic`, or None when it needs nothing."""
    element_type = ktdf.element_type_of(read.result.type)
    lanes = model.simd_lanes(compute_kind, element_type, generic)
    size = element_bytes(element_type)
    if size is None:
        raise error(generic, f"{PASS}: unsupported vector scalar type {attribute_text(element_type)}")
    path = load_path(read, pipeline, index, generic)
    compute = model.unit(compute_kind, generic)
    first = path[0]
    first_unit = _stage_unit(first, index, generic)
    needs = must_legalize_load(model, first_unit, _memory_kind(first.source, model, first), size, generic)
    needs |= not compute.splat
    if not needs:
        return None
    check_splat(model, path[-1], _stage_unit(path[-1], index, generic), size, index, generic)
    for transfer in path[:-1]:
        check_widen(transfer)
    lanes = min(lanes, _innermost_extent(generic, lanes))  # a row narrower than the lanes: its width
    check_grow(read, lanes)
    maps = [m.data for m in generic.indexing_maps.data]
    amap = maps[index]
    results = list(amap.results)
    results[-1] = AffineDimExpr(amap.num_dims - 1)
    return Site(generic, index, read, path, lanes, AffineMap(amap.num_dims, amap.num_symbols, tuple(results)))


def load_path(read: ktdf.ReadFromFifoOp, pipeline: ktdf.PipelineOp, index: int,
              generic: linalg_ops.GenericOp) -> list[ktdf.DataTransferOp]:
    """The transfers bringing the operand from memory outside the pipeline to its FIFO slot."""
    transfers = [op for op in pipeline.walk() if isinstance(op, ktdf.DataTransferOp)]
    path: list[ktdf.DataTransferOp] = []
    value: SSAValue = read.fifo_slot
    while True:
        writers = [t for t in transfers if t.destination is value]
        if len(writers) > 1:
            raise error(writers[1], f"{PASS}: multiple transfers fill the value that broadcast operand {index} is "
                                    "read from", [(writers[0], "previous transfer is here")])
        if not writers:
            break
        path.append(writers[0])
        value = writers[0].source
        if len(path) > len(transfers):
            raise error(generic, f"{PASS}: the load path of broadcast operand {index} is a cycle")
    if not path:
        raise error(read, f"{PASS}: no transfer fills the FIFO slot of broadcast operand {index}")
    if isinstance(path[-1].source.type, ktdf.FifoSlotType):
        raise error(path[-1], f"{PASS}: broadcast operand {index} does not come from memory")
    path.reverse()
    for transfer in path[:-1]:
        if not isinstance(transfer.destination.type, MemRefType) or not isinstance(transfer.source.type, MemRefType):
            raise error(transfer, f"{PASS}: broadcast operand {index} has unexpected path structure: a FIFO "
                                  "before the last transfer")
    return path


def _stage_unit(transfer: ktdf.DataTransferOp, index: int, generic: linalg_ops.GenericOp) -> str:
    stage = nearest_stage(transfer)
    units = stage.unit_kinds if stage is not None else []
    if len(units) != 1:
        raise error(transfer, f"{PASS}: the stage moving broadcast operand {index} does not name the one unit "
                              "that runs it (run path-expansion first)")
    return units[0]


def _memory_kind(value: SSAValue, model: DeviceModel, at: Operation) -> str:
    type_ = value.type
    assert isinstance(type_, MemRefType)
    return model.memory_for_space(type_.memory_space, at).kind


def must_legalize_load(model: DeviceModel, unit_kind: str, memory_kind: str, size: int, at: Operation) -> bool:
    """True unless unit `unit_kind` can load one `size`-byte element from `memory_kind` exactly."""
    unit = model.unit(unit_kind, at)
    if unit.load is None:
        raise model.fail(f"{PASS}: unit '{unit_kind}' does not support load", at)
    memory = StringAttr(memory_kind)
    accesses = unit.load.access_granularity(memory)
    if accesses is None:
        raise model.fail(f"{PASS}: unit '{unit_kind}' does not support load from '{memory_kind}'", at)
    word = unit.load.word_size(memory)
    if size % word != 0:
        return True
    words = size // word
    access = unit.load.fit_access(memory, words, words)
    return access is None or access.size_in_words != words


def check_splat(model: DeviceModel, transfer: ktdf.DataTransferOp, unit_kind: str, size: int, index: int,
                at: Operation) -> None:
    """The unit filling the FIFO must read one element and splat it (step 3)."""
    unit = model.unit(unit_kind, at)
    source = _memory_kind(transfer.source, model, transfer)
    link = model.link_between(source, unit_kind)
    if link is not None and link.transfer_granularity and size not in link.transfer_granularity:
        raise model.fail(f"{PASS}: transfer unit '{unit_kind}' does not support sub-vector reads; cannot legalize "
                         f"scalar broadcast operand {index}", at)
    link_splat = link is not None and _link_splat(link.op)
    if not unit.splat and not link_splat:
        raise model.fail(f"{PASS}: transfer unit '{unit_kind}' does not support splat; cannot legalize scalar "
                         f"broadcast operand {index}", at)


def _link_splat(op: Operation) -> bool:
    from dfsched.arch.intrinsics import read_features

    simd = read_features(op).simd
    return simd is not None and simd.splat


def element_bytes(element_type: Attribute) -> int | None:
    """Bytes of one element (rounded up), None for types without a fixed size (index)."""
    if isinstance(element_type, IntegerType):
        return (element_type.width.data + 7) // 8
    bits = getattr(element_type, "bitwidth", None)
    return (bits + 7) // 8 if isinstance(bits, int) else None


# ===========================================================================
# Rewriting
# ===========================================================================


def check_widen(transfer: ktdf.DataTransferOp) -> None:
    """A memory hop can be widened: its destination is a static buffer of the private."""
    destination = transfer.destination
    private = destination.owner if isinstance(destination, OpResult) else None
    if not isinstance(private, ktdf.PrivateOp):
        raise error(transfer, f"{PASS}: cannot widen this transfer: its destination is not a scratchpad buffer of "
                              "the pipeline")
    source_value = private.yield_op.values[destination.index] if private.yield_op is not None else None
    if not isinstance(source_value, OpResult) or not isinstance(source_value.owner, memref.AllocOp) \
            or source_value.owner.dynamic_sizes:
        raise error(transfer, f"{PASS}: cannot widen this transfer: its destination buffer is not a static "
                              "memref.alloc of the pipeline's private")
    for side in ("source", "dest"):
        static = transfer.properties.get(f"static_{side}_sizes")
        if isinstance(static, DenseArrayBase):
            values = list(static.get_values())
            if values and values[-1] == ktdf.KDYNAMIC:
                raise error(transfer, f"{PASS}: cannot widen this transfer: its last {side} size is dynamic")


def check_grow(read: ktdf.ReadFromFifoOp, lanes: int) -> None:
    """A FIFO slot that must grow for the widened read is a result of the pipeline's private."""
    shape = list(read.result.type.get_shape()) if isinstance(read.result.type, TensorType | MemRefType) else []
    if not shape or shape[-1] == lanes:
        return
    slot = read.fifo_slot
    slot_type = slot.type
    assert isinstance(slot_type, ktdf.FifoSlotType)
    count = lanes
    for d in shape[:-1]:
        count *= d
    if not slot_type.is_dynamic and slot_type.num_elements.data != count \
            and not (isinstance(slot, OpResult) and isinstance(slot.owner, ktdf.PrivateOp)):
        raise error(read, f"{PASS}: cannot grow the FIFO slot of this read: it is not a result of the pipeline's "
                          "private")


def _narrower_source(transfer: ktdf.DataTransferOp, lanes: int) -> bool:
    """Whether the hop reads a memref whose last dimension is shorter than `lanes` (a 1x1 tile of
    a scalar broadcast): widened, it would read past the kernel's view."""
    source_type = transfer.source.type
    if not isinstance(source_type, MemRefType) or not source_type.get_shape():
        return False
    last = source_type.get_shape()[-1]
    return 0 < last < lanes


def widen_transfer(transfer: ktdf.DataTransferOp, lanes: int) -> None:
    """Memory hop: the destination buffer and both sides' last size become `lanes` wide."""
    destination = transfer.destination
    private = destination.owner
    assert isinstance(destination, OpResult) and isinstance(private, ktdf.PrivateOp)  # check_widen
    for side in ("source", "dest"):
        static = transfer.properties.get(f"static_{side}_sizes")
        if isinstance(static, DenseArrayBase):
            values = list(static.get_values())
            if values:
                values[-1] = lanes
                transfer.properties[f"static_{side}_sizes"] = DenseArrayBase.from_list(i64, values)
    old_type = destination.type
    assert isinstance(old_type, MemRefType)
    shape = list(old_type.get_shape())
    shape[-1] = lanes
    new_type = MemRefType(old_type.element_type, shape, old_type.layout, old_type.memory_space)
    retype_private_results(private, {destination.index: new_type})


def widen_read(read: ktdf.ReadFromFifoOp, splat: ktdf.DataTransferOp, lanes: int) -> None:
    """The compute stage reads a whole vector; a FIFO slot too small for it grows."""
    old_type = read.result.type
    assert isinstance(old_type, TensorType | MemRefType)
    shape = list(old_type.get_shape())
    if not shape or shape[-1] == lanes:
        return
    old_last = shape[-1]
    shape[-1] = lanes
    new_type = (TensorType(old_type.element_type, shape) if isinstance(old_type, TensorType)
                else MemRefType(old_type.element_type, shape, old_type.layout, old_type.memory_space))
    count = 1
    for d in shape:
        count *= d
    slot = read.fifo_slot
    slot_type = slot.type
    assert isinstance(slot_type, ktdf.FifoSlotType)
    if not slot_type.is_dynamic and slot_type.num_elements.data != count:
        private = slot.owner
        assert isinstance(slot, OpResult) and isinstance(private, ktdf.PrivateOp)  # check_grow
        static = splat.properties.get("static_dest_sizes")
        if isinstance(static, DenseArrayBase) and old_last > 0:
            values = list(static.get_values())
            if values and values[-1] != ktdf.KDYNAMIC:
                values[-1] = values[-1] * lanes // old_last
                splat.properties["static_dest_sizes"] = DenseArrayBase.from_list(i64, values)
        new_slot = ktdf.FifoSlotType(slot_type.src, slot_type.dest, count, slot_type.element_type)
        retype_private_results(private, {slot.index: new_slot})
    new_read = ktdf.ReadFromFifoOp(read.fifo_slot, new_type, read.attributes)
    new_read.location = read.location
    block = read.parent
    assert block is not None
    block.insert_op_before(new_read, read)
    read.result.replace_all_uses_with(new_read.result)
    block.erase_op(read)
