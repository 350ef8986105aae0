"""`path-expansion`: make every pipeline move its data along the device's datapaths.

See `docs/passes.md#path-expansion`. The frontend's pipelines move data in one
step from where it lives to the compute unit and back (a DDR view straight into a FIFO
of the SFU). This pass follows each piece of data through the pipeline, finds the
device's shortest route for every step (breadth-first over the routing graph, ties as
upstream), and rebuilds the pipeline so that every step is one hop the hardware has:
one transfer stage per load/store unit on the route, scratchpad buffers
(`memref.alloc` in the scratchpad's memory) in the pipeline's `ktdf.private` where a
route stops in a memory, FIFO slots typed with the two adjacent units they connect, and
every stage tagged with the unit kind that runs it. On the sample device the 3-stage add
becomes MNILU, L1LU, SFU, L1SU, MNISU.

The algorithm, per pipeline (inner pipelines first):

1. **Chain.** The stages must form one linear chain (token edges). Stages whose
   `applicable_units` names a compute unit are *compute stages*; the others move data
   (*transfer stages*; a unit they already name is kept when the hop through it exists).
2. **Moves.** Every `ktdf.data_transfer`, and every FIFO slot written and read by two
   compute stages, is a *move* between two places: a memory (a memref: a view outside the
   pipeline or a private buffer) or a compute stage (reached through a FIFO slot). Moves
   chained through private buffers form a *lane*: one operand's way from where it lives
   to the compute stage that reads it, or from the compute stage that writes it to where
   it is stored.
3. **Routes.** Each move follows the device's shortest route from its source kind to its
   destination kind; the route splits into *hops*, each memory → load/store unit → memory
   (or compute unit). A route that stops in intermediate memories needs a new buffer
   there; the move's own transfer keeps the hop on its memref side (the first hop of a
   load, the last of a store) and the other hops become new transfers. FIFO slots are
   retyped to `<unit -> compute>` / `<compute -> unit>`.
4. **Stages.** Hops are placed by their distance from the compute stage: a lane's load
   hops end right before the compute stage that reads it, its store hops start right
   after the compute stage that writes it. Hops at the same distance run on the same unit
   share one stage. So an operand whose view is already in the scratchpad (`ct_local`)
   joins at the scratchpad's load unit and no DMA stage moves it.
5. **Rebuild** (only if something changed): a new pipeline replaces the old one. Its
   private yields the original resources, then the new buffers and FIFOs in the order the
   new stages first use them, then one token per stage that has a successor;
   results nobody uses any more are cleaned up. A stage that holds exactly the transfers
   of one original stage is that stage's body, cloned, with only the transfers that
   changed rebuilt; rebuilt subscripts are canonicalized (`%buf[0, 0]`).

A pipeline whose hops are all legal already is left as it is, except that a transfer
stage without `applicable_units` gets the unit that runs it. Running the pass twice is
the same as running it once (unlike upstream, which re-expands an expanded pipeline).

Differences from upstream, deliberately: routes are planned per operand, not per stage
(upstream takes one memory space per stage from its first transfer, so a stage mixing a
scratchpad operand and a DDR operand is routed wrongly); FIFOs of a legal pipeline are
still retyped to the units they connect, and every transfer stage is tagged with its unit
(upstream leaves preserved stages untagged; its lit tests still pass, FileCheck matching
`}` inside `} {applicable_units = [...]}`); every failure is a located diagnostic.
Upstream compatibility kept on purpose: one dead `arith.constant 0 : index` per transfer
whose FIFO side became a scratchpad buffer is left at the start of the function (upstream
builds the buffer subscripts from them; `canonicalize` removes them).

Outer pipelines of a hierarchical schedule (a stage holding a nested pipeline) are left
alone: their inner pipelines are routed on their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    ShapedType,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr

from dfsched.arch.model import DeviceModel
from dfsched.arch.routing import NodeClass, RouteNode
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects import ktdf
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.dialects.constants import constant_int, index_constant
from dfsched.passes.cleanup.affine_utils import substitute
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.walk import nearest_ancestor, pipelines_post_order
from dfsched.passes.scheduling.pipeline_tree import (ChainError, contains_pipeline, linear_stage_chain, nearest_stage,
                                                     stage_ops)
from dfsched.passes.scheduling.privates import TokenPlan, cleanup_private, extend_private

PASS = "path-expansion"
NO_DEVICE = ("Unable to import the device specification for path expansion. This could happen if the device "
             "spec file is empty or contains multiple devices")
PLAN_FAILED = f"{PASS}: failed to plan path expansion"


@dataclass(frozen=True)
class PathExpansion(DevicePass):
    """Expand every pipeline's data movement into hops the device has."""

    name = "path-expansion"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import required_device_model

        required_device_model(op, self.device, NO_DEVICE)
        plans: list[PipelinePlan] = []
        for pipeline in pipelines_post_order(op):
            model = required_device_model(pipeline, self.device, NO_DEVICE)  # None: two devices on the way up
            plan = plan_pipeline(pipeline, model)
            if plan is not None:
                plans.append(plan)
        # Everything is planned (and every error reported) before the IR changes.
        for plan in plans:
            plan.apply()


# ===========================================================================
# The plan
# ===========================================================================


@dataclass(eq=False)
class Place:
    """Where data rests between two moves: a memory (a memref value) or a compute stage."""

    node: RouteNode
    value: SSAValue | None = None
    stage: ktdf.StageOp | None = None
    compute_index: int = -1

    @property
    def is_compute(self) -> bool:
        return self.stage is not None

    @property
    def kind(self) -> str:
        return self.node.name


@dataclass(eq=False)
class BufferSpec:
    """A new scratchpad buffer: `memref<shape x elt, kind>` in the pipeline's private."""

    node: RouteNode
    shape: tuple[int, ...]
    element_type: Attribute

    @property
    def type(self) -> MemRefType:
        return MemRefType(self.element_type, list(self.shape), memory_space=self.node.resource)


@dataclass(eq=False)
class SlotSpec:
    """A new FIFO slot `<src -> dst, count x elt>` (slots of one pair share one allocate)."""

    src: Attribute
    dst: Attribute
    count: int
    element_type: Attribute

    @property
    def type(self) -> ktdf.FifoSlotType:
        return ktdf.FifoSlotType(self.src, self.dst, self.count, self.element_type)


@dataclass(eq=False)
class Hop:
    """One step of a route: src → unit → dst (no unit: a compute → compute FIFO)."""

    move: Move
    index: int
    src: RouteNode
    unit: RouteNode | None
    dst: RouteNode
    kept: bool = False
    region: int = 0
    side: int = 0  # 0: placed after the compute stage that produces the lane, 1: before the consumer
    level: int = 0


@dataclass(eq=False)
class Move:
    """Data moved from one place to the next by one transfer (or one compute → compute slot)."""

    src: Place
    dst: Place
    order: int
    origin: Operation
    transfer: ktdf.DataTransferOp | None = None
    stage: ktdf.StageOp | None = None
    slot: SSAValue | None = None
    reader: ktdf.ReadFromFifoOp | None = None
    writer: ktdf.WriteToFifoOp | None = None
    hops: list[Hop] = field(default_factory=list)
    buffers: list[BufferSpec] = field(default_factory=list)
    src_slot: SlotSpec | None = None  # the slot the writer fills, when it changes
    dst_slot: SlotSpec | None = None  # the slot the reader drains, when it changes

    @property
    def changed(self) -> bool:
        return len(self.hops) > 1 or self.src_slot is not None or self.dst_slot is not None


@dataclass(eq=False)
class Group:
    """A stage of the new pipeline: the hops one unit runs at one distance from compute."""

    unit: RouteNode | None = None
    hops: list[Hop] = field(default_factory=list)
    compute: ktdf.StageOp | None = None

    @property
    def transfer_stages(self) -> list[ktdf.StageOp]:
        out: list[ktdf.StageOp] = []
        for hop in self.hops:
            if hop.kept and hop.move.stage is not None and hop.move.stage not in out:
                out.append(hop.move.stage)
        return out


def plan_pipeline(pipeline: ktdf.PipelineOp, model: DeviceModel) -> PipelinePlan | None:
    """The plan for one pipeline, None when there is nothing to do; errors are diagnostics."""
    return Planner(pipeline, model).plan()


class Planner:
    """Builds a `PipelinePlan` (steps 1-4 of the module docstring)."""

    def __init__(self, pipeline: ktdf.PipelineOp, model: DeviceModel):
        self.pipeline = pipeline
        self.model = model
        self.routing = model.routing
        self.private = pipeline.private
        self.position = {op: i for i, op in enumerate(pipeline.walk())}
        self.compute_stages: list[ktdf.StageOp] = []
        self.transfer_stages: list[ktdf.StageOp] = []
        self.tags: dict[ktdf.StageOp, RouteNode] = {}
        self.transfers: dict[ktdf.StageOp, list[ktdf.DataTransferOp]] = {}
        self.moves: list[Move] = []

    def fail(self, op: Operation, message: str) -> DiagnosticError:
        return error(op, f"{PLAN_FAILED}: {message}")

    # -- step 1 -------------------------------------------------------------
    def plan(self) -> PipelinePlan | None:
        try:
            chain = linear_stage_chain(self.pipeline)
        except ChainError as exc:
            raise self.fail(self.pipeline, f"the stages are not one linear chain ({exc})") from None
        if not chain or any(contains_pipeline(stage) for stage in chain):
            return None
        self.chain = chain
        for stage in chain:
            self.classify(stage)
        if not self.compute_stages:
            if all(stage.unit_kinds for stage in chain) and self.private is None:
                return None  # a copy whose every stage names its unit (C3SP's scratchpad copies)
            raise self.fail(self.pipeline, "no stage runs on a compute unit (a stage whose applicable_units "
                                            "names the device's compute resource)")
        self.collect_moves()
        lanes = self.build_lanes()
        for move in self.moves:
            self.route(move)
        groups = self.place(lanes)
        plan = PipelinePlan(self, groups)
        for stage in self.transfer_stages:
            if plan.whole(stage):
                continue
            for t in self.transfers[stage]:
                if t.parent is not stage.body.block:
                    raise self.fail(t, "the transfers of this stage go to different units, and this one is "
                                       "nested in another op of the stage")
        return plan

    def classify(self, stage: ktdf.StageOp) -> None:
        units = stage.unit_kinds
        if stage.applicable_units is not None and len(stage.applicable_units.data) != 1:
            raise self.fail(stage, f"expected exactly one applicable unit on the stage, got "
                                   f"{len(stage.applicable_units.data)}")
        node = None
        if units:
            node = self.routing.node_for(units[0])
            if node is None:
                raise self.fail(stage, f"applicable unit '{units[0]}' is not a resource of "
                                       f"{self.model.describe()}")
            if node.cls is NodeClass.MEMORY:
                raise self.fail(stage, f"applicable unit '{units[0]}' is a memory, not an execution unit")
        transfers = [op for op in stage_ops(stage) if isinstance(op, ktdf.DataTransferOp)]
        fifo_ops = [op for op in stage_ops(stage) if isinstance(op, ktdf.ReadFromFifoOp | ktdf.WriteToFifoOp)]
        if node is not None and node.cls is NodeClass.COMPUTE:
            if transfers:
                raise self.fail(transfers[0], f"a stage on compute unit '{node.name}' moves data with "
                                              "ktdf.data_transfer; only load/store stages may")
            self.compute_stages.append(stage)
            self.tags[stage] = node
            return
        if fifo_ops:
            raise self.fail(fifo_ops[0], "a stage that is not on a compute unit reads or writes a FIFO slot")
        if not transfers:
            raise self.fail(stage, "the stage moves no data and runs on no compute unit")
        if node is not None:
            self.tags[stage] = node
        self.transfer_stages.append(stage)
        self.transfers[stage] = transfers

    # -- step 2 -------------------------------------------------------------
    def is_private_result(self, value: SSAValue) -> bool:
        return self.private is not None and isinstance(value, OpResult) and value.owner is self.private

    def memory_place(self, value: SSAValue, at: Operation) -> Place:
        type_ = value.type
        assert isinstance(type_, MemRefType)
        space = type_.memory_space
        if isinstance(space, NoneAttr):
            raise self.fail(at, f"memref of type {attribute_text(type_)} has no memory space, so its memory "
                                "is unknown")
        memory = self.model.memory_for_space(space, at)
        node = self.routing.node_for(memory.kind)
        assert node is not None  # every memory kind has a routing node
        return Place(node, value=value)

    def compute_place(self, stage: ktdf.StageOp) -> Place:
        return Place(self.tags[stage], stage=stage, compute_index=self.compute_stages.index(stage))

    def collect_moves(self) -> None:
        slot_writers: dict[SSAValue, Operation] = {}
        slot_readers: dict[SSAValue, Operation] = {}

        def claim(table: dict[SSAValue, Operation], value: SSAValue, op: Operation, what: str) -> None:
            if value in table:
                raise self.fail(op, f"the FIFO slot is {what} twice in the pipeline")
            table[value] = op

        for stage in self.chain:
            for op in stage_ops(stage):
                if isinstance(op, ktdf.DataTransferOp):
                    if isinstance(op.source.type, ktdf.FifoSlotType):
                        claim(slot_readers, op.source, op, "drained")
                    if isinstance(op.destination.type, ktdf.FifoSlotType):
                        claim(slot_writers, op.destination, op, "filled")
                elif isinstance(op, ktdf.ReadFromFifoOp):
                    claim(slot_readers, op.fifo_slot, op, "drained")
                elif isinstance(op, ktdf.WriteToFifoOp):
                    claim(slot_writers, op.fifo_slot, op, "filled")
        for slot, reader in slot_readers.items():
            if slot not in slot_writers:
                raise self.fail(reader, "nothing in the pipeline fills this FIFO slot")
        for slot, writer in slot_writers.items():
            if slot not in slot_readers:
                raise self.fail(writer, "nothing in the pipeline drains this FIFO slot")

        for stage in self.transfer_stages:
            for t in self.transfers[stage]:
                self.moves.append(self.transfer_move(stage, t, slot_writers, slot_readers))
        for stage in self.compute_stages:
            for op in stage_ops(stage):
                if isinstance(op, ktdf.WriteToFifoOp):
                    reader = slot_readers[op.fifo_slot]
                    if isinstance(reader, ktdf.ReadFromFifoOp):
                        self.moves.append(Move(self.compute_place(stage), self.compute_place(_stage_of(reader)),
                                               self.position[op], op, slot=op.fifo_slot, writer=op,
                                               reader=reader))
        self.moves.sort(key=lambda m: m.order)

    def transfer_move(self, stage: ktdf.StageOp, t: ktdf.DataTransferOp, slot_writers: dict[SSAValue, Operation],
                      slot_readers: dict[SSAValue, Operation]) -> Move:
        src_is_slot = isinstance(t.source.type, ktdf.FifoSlotType)
        dst_is_slot = isinstance(t.destination.type, ktdf.FifoSlotType)
        if src_is_slot and dst_is_slot:
            raise self.fail(t, "a transfer from one FIFO slot to another is not supported")
        move = Move(Place(self.routing.nodes[0]), Place(self.routing.nodes[0]), self.position[t], t, transfer=t,
                    stage=stage)
        sides = (("src", "writer", t.source, slot_writers, ktdf.WriteToFifoOp, "drains", "fills"),
                 ("dst", "reader", t.destination, slot_readers, ktdf.ReadFromFifoOp, "fills", "drains"))
        for side, end_name, value, ends, end_kind, verb, other in sides:
            if not isinstance(value.type, ktdf.FifoSlotType):
                setattr(move, side, self.memory_place(value, t))
                continue
            end = ends[value]
            if not isinstance(end, end_kind):
                raise self.fail(t, f"this transfer {verb} a FIFO slot that another transfer {other}; a FIFO slot "
                                   "must connect a unit with a compute stage")
            setattr(move, side, self.compute_place(_stage_of(end)))
            setattr(move, end_name, end)
            move.slot = value
        return move

    def build_lanes(self) -> list[list[Move]]:
        """Moves chained through private buffers, in order of their first move."""
        writer: dict[SSAValue, Move] = {}
        reader: dict[SSAValue, Move] = {}
        for move in self.moves:
            for table, place, what in ((writer, move.dst, "written"), (reader, move.src, "read")):
                value = place.value
                if value is None or not self.is_private_result(value):
                    continue
                if value in table:
                    raise self.fail(move.origin, f"the scratchpad buffer is {what} by two transfers of the "
                                                 "pipeline; path-expansion expects one writer and one reader")
                table[value] = move
        lanes: list[list[Move]] = []
        seen: set[int] = set()
        for move in self.moves:
            value = move.src.value
            if value is not None and value in writer:
                continue  # not the first move of its lane
            lane = [move]
            while lane[-1].dst.value is not None and lane[-1].dst.value in reader:
                lane.append(reader[lane[-1].dst.value])
            seen.update(id(m) for m in lane)
            lanes.append(lane)
        for move in self.moves:
            if id(move) not in seen:
                raise self.fail(move.origin, "the pipeline's scratchpad buffers form a cycle")
        for lane in lanes:
            first, last = lane[0].src, lane[-1].dst
            if not first.is_compute and not last.is_compute:
                raise self.fail(lane[0].origin, f"data moves from memory '{first.kind}' to memory '{last.kind}' "
                                                "without reaching a compute stage; only data read or written "
                                                "by a compute stage is routed")
            if first.is_compute and last.is_compute and last.compute_index <= first.compute_index:
                raise self.fail(lane[0].origin, "data flows from a compute stage to one that does not come "
                                                "after it in the pipeline")
        return lanes

    # -- step 3 -------------------------------------------------------------
    def route(self, move: Move) -> None:
        src, dst = move.src.node, move.dst.node
        hint = self.unit_hint(move)
        routing = self.routing
        if hint is not None and routing.has_edge(src.id, hint.id) and routing.has_edge(hint.id, dst.id):
            nodes = [src, hint, dst]
        else:
            ids = self.shortest_route(src, dst)
            if ids is None:
                raise error(move.origin, f"{PLAN_FAILED}: no route from '{src.name}' to '{dst.name}' in "
                                         f"{self.model.describe()}")
            nodes = [self.routing.nodes[i] for i in ids]
        move.hops = self.split_route(move, nodes)
        if move.transfer is not None:
            kept = move.hops[0] if not isinstance(move.transfer.source.type, ktdf.FifoSlotType) else move.hops[-1]
            kept.kept = True
        self.plan_resources(move)

    def shortest_route(self, src: RouteNode, dst: RouteNode) -> list[int] | None:
        """Breadth-first route (upstream's ties); from a kind to itself, the shortest round trip."""
        if src.id != dst.id:
            return self.routing.shortest_path(src.id, dst.id)
        best: list[int] | None = None
        for succ in self.routing.successors(src.id):
            tail = self.routing.shortest_path(succ, dst.id)
            if tail is not None and (best is None or len(tail) + 1 < len(best)):
                best = [src.id, *tail]
        return best

    def unit_hint(self, move: Move) -> RouteNode | None:
        """The unit the input already chose: the stage's tag, else the FIFO slot's unit side."""
        if move.stage is not None and move.stage in self.tags:
            return self.tags[move.stage]
        if move.transfer is not None and move.slot is not None and isinstance(move.slot.type, ktdf.FifoSlotType):
            slot = move.slot.type
            end = slot.src if move.dst.is_compute else slot.dest
            node = self.routing.node_for(end) if isinstance(end, StringAttr) else None
            if node is not None and node.cls is NodeClass.LOAD_STORE_UNIT:
                return node
        return None

    def split_route(self, move: Move, nodes: list[RouteNode]) -> list[Hop]:
        names = " -> ".join(n.name for n in nodes)
        stops = [i for i, n in enumerate(nodes) if n.cls is not NodeClass.LOAD_STORE_UNIT]
        assert stops[0] == 0 and stops[-1] == len(nodes) - 1  # places are memories or compute units
        hops: list[Hop] = []
        for a, b in zip(stops, stops[1:]):
            src, dst = nodes[a], nodes[b]
            if b < len(nodes) - 1 and dst.cls is NodeClass.COMPUTE:
                raise self.fail(move.origin, f"route {names} passes through compute unit '{dst.name}'")
            units = nodes[a + 1 : b]
            if len(units) == 1:
                hops.append(Hop(move, len(hops), src, units[0], dst))
            elif not units and src.cls is NodeClass.COMPUTE and dst.cls is NodeClass.COMPUTE:
                hops.append(Hop(move, len(hops), src, None, dst))
            elif not units:
                raise self.fail(move.origin, f"route {names} has no load/store unit between '{src.name}' and "
                                             f"'{dst.name}' to run the transfer")
            else:
                raise self.fail(move.origin, f"route {names} chains {len(units)} load/store units between "
                                             f"'{src.name}' and '{dst.name}'; only one unit per hop is supported")
        return hops

    def plan_resources(self, move: Move) -> None:
        """New buffers where the route stops in a memory, new FIFO slots where one changes."""
        if len(move.hops) > 1:
            shape, element_type = self.buffer_shape(move)
            move.buffers = [BufferSpec(hop.dst, shape, element_type) for hop in move.hops[:-1]]
        if move.writer is not None:
            first = move.hops[0]
            peer = first.unit if first.unit is not None else first.dst
            move.src_slot = self.slot_spec(move, first.src, peer)
        if move.reader is not None:
            last = move.hops[-1]
            peer = last.unit if last.unit is not None else last.src
            move.dst_slot = self.slot_spec(move, peer, last.dst)
            if move.src_slot is not None and last.unit is None:
                move.dst_slot = move.src_slot  # one direct compute → compute slot

    def slot_spec(self, move: Move, src: RouteNode, dst: RouteNode) -> SlotSpec | None:
        """None when the old slot already connects `src` to `dst`."""
        assert move.slot is not None
        slot = move.slot.type
        assert isinstance(slot, ktdf.FifoSlotType)
        if _kind(slot.src) == src.name and _kind(slot.dest) == dst.name:
            return None
        if slot.is_dynamic:
            raise self.fail(move.origin, "FIFO slots with a dynamic element count cannot be re-routed")
        return SlotSpec(src.resource, dst.resource, slot.num_elements.data, slot.element_type)

    def buffer_shape(self, move: Move) -> tuple[tuple[int, ...], Attribute]:
        """The tile an intermediate buffer holds: the static sizes of the move's memref side."""
        t = move.transfer
        if t is None:
            assert move.writer is not None
            data = move.writer.data.type
            assert isinstance(data, ShapedType)
            shape = tuple(data.get_shape())
            if any(d < 0 for d in shape):
                raise self.fail(move.origin, "cannot size a scratchpad buffer for data of dynamic shape")
            return shape, ktdf.element_type_of(data)
        side = "dest" if isinstance(t.source.type, ktdf.FifoSlotType) else "source"
        value = t.destination if side == "dest" else t.source
        sizes = t.mixed_sizes(side)
        if sizes is None or any(not isinstance(s, int) or s < 0 for s in sizes):
            raise self.fail(t, f"cannot size a scratchpad buffer: the {side} sizes of this transfer are not all "
                               "static")
        return tuple(int(s) for s in sizes), ktdf.element_type_of(value.type)

    # -- step 4 -------------------------------------------------------------
    def place(self, lanes: list[list[Move]]) -> list[Group]:
        """The stages of the new pipeline, in order (step 4 of the module docstring)."""
        count = len(self.compute_stages)
        regions: list[list[Hop]] = [[] for _ in range(count + 1)]
        for lane in lanes:
            hops = [h for m in lane for h in m.hops if h.unit is not None]
            first = lane[0].src
            for k, hop in enumerate(hops):
                if first.is_compute:  # after the producing compute stage, counting up
                    hop.region, hop.side, hop.level = first.compute_index + 1, 0, k + 1
                else:  # before the consuming compute stage, counting down to it
                    hop.region, hop.side, hop.level = lane[-1].dst.compute_index, 1, k - len(hops)
                regions[hop.region].append(hop)
        groups: list[Group] = []
        for index in range(count + 1):
            keyed: dict[tuple[int, int, str], Group] = {}
            for hop in sorted(regions[index], key=lambda h: (h.side, h.level, h.move.order)):
                assert hop.unit is not None
                key = (hop.side, hop.level, hop.unit.name)
                if key not in keyed:
                    keyed[key] = Group(hop.unit)
                    groups.append(keyed[key])
                keyed[key].hops.append(hop)
            if index < count:
                stage = self.compute_stages[index]
                groups.append(Group(self.tags[stage], compute=stage))
        return groups


def _stage_of(op: Operation) -> ktdf.StageOp:
    stage = nearest_stage(op)
    assert stage is not None
    return stage


def _kind(attr: Attribute) -> str:
    return attr.data if isinstance(attr, StringAttr) else attribute_text(attr)


# ===========================================================================
# Applying a plan
# ===========================================================================


class PipelinePlan:
    """What to do with one pipeline: tag its stages, or rebuild it (step 5)."""

    def __init__(self, planner: Planner, groups: list[Group]):
        self.planner = planner
        self.pipeline = planner.pipeline
        self.groups = groups
        self.moves = planner.moves
        # Where each original transfer stage went: the groups holding its kept hops.
        self.homes: dict[ktdf.StageOp, list[Group]] = {}
        for group in groups:
            for stage in group.transfer_stages:
                self.homes.setdefault(stage, []).append(group)

    def whole(self, stage: ktdf.StageOp) -> bool:
        return len(self.homes.get(stage, [])) == 1

    def unchanged(self) -> bool:
        if any(move.changed for move in self.moves) or len(self.groups) != len(self.planner.chain):
            return False
        for group, stage in zip(self.groups, self.planner.chain):
            if group.compute is not None:
                if group.compute is not stage:
                    return False
                continue
            if group.transfer_stages != [stage] or not all(h.kept for h in group.hops):
                return False
            if len(group.hops) != len(self.planner.transfers[stage]):
                return False
            tag = self.planner.tags.get(stage)
            if tag is not None and tag.name != group.unit.name:
                return False
        return True

    def apply(self) -> None:
        if self.unchanged():
            for group, stage in zip(self.groups, self.planner.chain):
                if group.compute is None and stage.applicable_units is None:
                    assert group.unit is not None
                    stage.properties["applicable_units"] = ArrayAttr([StringAttr(group.unit.name)])
            return
        Materializer(self).run()


class Materializer:
    """Builds the new pipeline before the old one, then erases the old one."""

    def __init__(self, plan: PipelinePlan):
        self.plan = plan
        self.old = plan.pipeline
        self.values: dict[SSAValue, SSAValue] = {}
        self.resources: list[Operation] = []  # new allocs and slot placeholders, in first-use order
        self.buffer_values: dict[int, SSAValue] = {}
        self.slot_values: dict[int, SSAValue] = {}
        self.slot_groups: dict[tuple[str, str], list[tuple[SlotSpec, ktdf.FifoAllocateOp]]] = {}
        self.zero_constants = 0
        # Rewrites of original ops, keyed by op: read/write on a new slot, transfers that change.
        self.rewrites: dict[Operation, Callable[[], Operation]] = {}
        for move in plan.moves:
            self.plan_rewrites(move)

    # -- resources ----------------------------------------------------------
    def buffer(self, spec: BufferSpec) -> SSAValue:
        if id(spec) not in self.buffer_values:
            alloc = memref.AllocOp([], [], spec.type)
            self.resources.append(alloc)
            self.buffer_values[id(spec)] = alloc.memref
        return self.buffer_values[id(spec)]

    def slot(self, spec: SlotSpec) -> SSAValue:
        if id(spec) not in self.slot_values:
            placeholder = ktdf.FifoAllocateOp([spec.type])
            self.resources.append(placeholder)
            self.slot_groups.setdefault((_kind(spec.src), _kind(spec.dst)), []).append((spec, placeholder))
            self.slot_values[id(spec)] = placeholder.slots[0]
        return self.slot_values[id(spec)]

    def mapped(self, value: SSAValue) -> SSAValue:
        return self.values.get(value, value)

    # -- transfer sides -------------------------------------------------------
    def template_side(self, t: ktdf.DataTransferOp, side: str, slot: SlotSpec | None = None) -> _Side:
        value = t.source if side == "source" else t.destination
        amap = t.source_map if side == "source" else t.dest_map
        indices = t.source_indices if side == "source" else t.dest_indices
        sizes = t.mixed_sizes(side)
        mapped_sizes = None if sizes is None else [s if isinstance(s, int) else self.mapped(s) for s in sizes]
        if slot is not None:
            return _Side(lambda: self.slot(slot), None, [], mapped_sizes)
        new_map = amap.data if amap is not None else None
        new_indices = [self.mapped(i) for i in indices]
        if new_map is not None:
            new_map, new_indices = fold_subscript_map_and_operands(new_map, new_indices)
        return _Side(lambda: self.mapped(value), new_map, new_indices, mapped_sizes)

    def buffer_side(self, spec: BufferSpec) -> _Side:
        return _Side(lambda: self.buffer(spec), zero_map(len(spec.shape)), [], list(spec.shape))

    def slot_side(self, spec: SlotSpec | None, old: SSAValue | None) -> _Side:
        if spec is not None:
            return _Side(lambda: self.slot(spec), None, [], [spec.count])
        assert old is not None and isinstance(old.type, ktdf.FifoSlotType)
        return _Side(lambda: self.mapped(old), None, [], [old.type.num_elements.data])

    def stop_side(self, move: Move, stop: int, outgoing: bool) -> _Side:
        """The subscripts of stop `stop` of `move` (0: its source, len(hops): its destination)."""
        last = len(move.hops)
        if 0 < stop < last:
            return self.buffer_side(move.buffers[stop - 1])
        if stop == 0:
            return self.end_side(move, move.hops[0], move.src.is_compute, move.src_slot, "source")
        return self.end_side(move, move.hops[-1], move.dst.is_compute, move.dst_slot, "dest")

    def end_side(self, move: Move, hop: Hop, on_compute: bool, slot: SlotSpec | None, side: str) -> _Side:
        """The subscripts of `move`'s source or destination (`side`): the template transfer's
        when that end is a memory or its hop keeps the compute slot, else the slot's."""
        if not on_compute or hop.kept:
            assert move.transfer is not None
            return self.template_side(move.transfer, side, slot if on_compute else None)
        return self.slot_side(slot, move.slot)

    def hop_transfer(self, hop: Hop) -> ktdf.DataTransferOp:
        move = hop.move
        src = self.stop_side(move, hop.index, True)
        dst = self.stop_side(move, hop.index + 1, False)
        attributes = dict(move.transfer.attributes) if hop.kept and move.transfer is not None else {}
        op = ktdf.DataTransferOp(src.value(), dst.value(), src.amap, src.indices, src.sizes, dst.amap,
                                 dst.indices, dst.sizes, attributes)
        op.location = move.origin.location
        return op

    def plan_rewrites(self, move: Move) -> None:
        t = move.transfer
        if t is not None and move.changed:
            kept = next(h for h in move.hops if h.kept)
            self.rewrites[t] = lambda hop=kept: self.kept_transfer(hop)
        if move.reader is not None and move.dst_slot is not None:
            self.rewrites[move.reader] = lambda r=move.reader, spec=move.dst_slot: ktdf.ReadFromFifoOp(
                self.slot(spec), r.result.type, r.attributes)
        if move.writer is not None and move.src_slot is not None:
            self.rewrites[move.writer] = lambda w=move.writer, spec=move.src_slot: ktdf.WriteToFifoOp(
                self.mapped(w.data), self.slot(spec), w.attributes)

    def kept_transfer(self, hop: Hop) -> ktdf.DataTransferOp:
        if len(hop.move.hops) > 1:
            self.zero_constants += 1  # upstream subscripts its new buffer with a constant 0
        return self.hop_transfer(hop)

    # -- bodies ---------------------------------------------------------------
    def emit(self, op: Operation, block: Block) -> None:
        """Clone `op` into `block`, rebuilding the ops (possibly nested) that change."""
        rewrite = self.rewrites.get(op)
        if rewrite is not None:
            new = rewrite()
            new.location = op.location
            block.add_op(new)
            for old_result, new_result in zip(op.results, new.results):
                self.values[old_result] = new_result
            return
        clone = op.clone(self.values)
        block.add_op(clone)
        if not any(inner in self.rewrites for inner in op.walk()):
            return
        for old_inner, new_inner in list(zip(op.walk(), clone.walk())):
            rewrite = self.rewrites.get(old_inner)
            if rewrite is None or old_inner is op:
                continue
            new = rewrite()
            new.location = old_inner.location
            parent = new_inner.parent
            assert parent is not None
            parent.insert_op_before(new, new_inner)
            for old_result, clone_result, new_result in zip(old_inner.results, new_inner.results, new.results):
                clone_result.replace_all_uses_with(new_result)
                self.values[old_result] = new_result
            parent.erase_op(new_inner)

    def group_body(self, group: Group) -> Region:
        block = Block()
        if group.compute is not None:
            for op in group.compute.body.block.ops:
                self.emit(op, block)
            return Region(block)
        emitted_stages: set[ktdf.StageOp] = set()
        emitted_ops: set[Operation] = set()
        for hop in group.hops:
            move = hop.move
            if not hop.kept:
                block.add_op(self.hop_transfer(hop))
                continue
            stage, t = move.stage, move.transfer
            assert stage is not None and t is not None
            if self.plan.whole(stage):
                if stage not in emitted_stages:
                    emitted_stages.add(stage)
                    for op in stage.body.block.ops:
                        self.emit(op, block)
                continue
            for op in _slice(t, stage.body.block):
                if op not in emitted_ops:
                    emitted_ops.add(op)
                    self.emit(op, block)
            self.emit(t, block)
        return Region(block)

    # -- the new pipeline ---------------------------------------------------
    def run(self) -> None:
        old = self.old
        groups = self.plan.groups
        modulo = old.modulo.value.data if old.modulo is not None else None
        pipeline = ktdf.PipelineOp(modulo=modulo, attributes=old.attributes)
        pipeline.location = old.location
        parent = old.parent
        assert parent is not None
        parent.insert_op_before(pipeline, old)
        block = pipeline.body.block

        # The original private first (its results keep their positions).
        old_private = old.private
        if old_private is not None:
            private = old_private.clone(self.values)
        else:
            private = ktdf.PrivateOp()
        block.add_op(private)

        bodies = [self.group_body(group) for group in groups]
        resources = self.group_slots()
        tokens = TokenPlan(groups)
        private, _, token_values = extend_private(private, resources, tokens.count)
        tokens.bind(token_values)

        for group, body in zip(groups, bodies):
            template = group.compute or self.template_stage(group)
            units = group.compute.applicable_units if group.compute is not None else [group.unit.name]
            attributes = dict(template.attributes) if template is not None else {}
            stage = ktdf.StageOp(tokens.depends_in(group), tokens.depends_out(group), body, units, attributes)
            stage.location = template.location if template is not None else group.hops[0].move.origin.location
            block.add_op(stage)
        cleanup_private(private)
        for _ in range(self.zero_constants):
            index_constant_at_function_entry(old, 0)
        parent.erase_op(old)

    def template_stage(self, group: Group) -> ktdf.StageOp | None:
        stages = group.transfer_stages
        return stages[0] if len(stages) == 1 and self.plan.whole(stages[0]) else None

    def group_slots(self) -> list[Operation]:
        """New resources in first-use order, the slots of one `<src -> dst>` pair in one allocate."""
        out: list[Operation] = []
        done: set[tuple[str, str]] = set()
        for op in self.resources:
            if not isinstance(op, ktdf.FifoAllocateOp):
                out.append(op)
                continue
            slot_type = op.slots[0].type
            assert isinstance(slot_type, ktdf.FifoSlotType)
            key = (_kind(slot_type.src), _kind(slot_type.dest))
            if key in done:
                continue
            done.add(key)
            members = self.slot_groups[key]
            allocate = ktdf.FifoAllocateOp([spec.type for spec, _ in members])
            allocate.location = self.old.location
            for (_, placeholder), slot in zip(members, allocate.slots):
                placeholder.slots[0].replace_all_uses_with(slot)
                placeholder.erase()
            out.append(allocate)
        return out


@dataclass
class _Side:
    """One side of a transfer to build: its value (resolved late), subscripts and sizes."""

    value: Callable[[], SSAValue]
    amap: AffineMap | None
    indices: Sequence[SSAValue]
    sizes: Sequence[int | SSAValue] | None


def _slice(t: Operation, block: Block) -> list[Operation]:
    """The ops of `block` (in order) that `t` needs, directly or through other ops."""
    needed: set[Operation] = set()
    worklist = list(t.operands)
    for inner in t.walk():
        worklist.extend(inner.operands)
    while worklist:
        value = worklist.pop()
        if not isinstance(value, OpResult):
            continue
        owner = value.owner
        if owner.parent is not block or owner in needed or isinstance(owner, ktdf.DataTransferOp):
            continue
        needed.add(owner)
        worklist.extend(owner.operands)
    return [op for op in block.ops if op in needed]


# ---------------------------------------------------------------------------
# Constants at function entry, subscript folding
# ---------------------------------------------------------------------------


def enclosing_function(op: Operation) -> func.FuncOp | None:
    return nearest_ancestor(op, func.FuncOp)


def index_constant_at_function_entry(op: Operation, value: int) -> SSAValue | None:
    """A new `arith.constant <value> : index` at the start of `op`'s function (None outside one)."""
    function = enclosing_function(op)
    if function is None or not function.body.blocks:
        return None
    constant = index_constant(value)
    entry = function.body.blocks[0]
    first = entry.first_op
    if first is None:
        entry.add_op(constant)
    else:
        entry.insert_op_before(constant, first)
    return constant.result


def fold_subscript_map_and_operands(
    amap: AffineMap, operands: Sequence[SSAValue]
) -> tuple[AffineMap, list[SSAValue]]:
    """Subscript maps as path expansion wants them (not MLIR's `canonicalizeMapAndOperands`,
    which `cleanup.affine_utils` implements: that one keeps constant dims and may turn dims into
    symbols). Operands defined by index constants fold into the map, repeated operands share one
    dim, and dims the map no longer uses are dropped (dims renumbered in operand order).
    Symbols are kept as they are.
    """
    num_dims = amap.num_dims
    dim_operands = list(operands[:num_dims])
    sym_operands = list(operands[num_dims:])
    used = set()
    for result in amap.results:
        used |= _used_dims(result)
    replacement: list[AffineExpr] = []
    kept: list[SSAValue] = []
    seen: dict[SSAValue, int] = {}
    for position, value in enumerate(dim_operands):
        if position not in used:
            replacement.append(AffineConstantExpr(0))  # never referenced
            continue
        constant = constant_int(value)
        if constant is not None:
            replacement.append(AffineConstantExpr(constant))
            continue
        if value in seen:
            replacement.append(AffineDimExpr(seen[value]))
            continue
        seen[value] = len(kept)
        replacement.append(AffineDimExpr(len(kept)))
        kept.append(value)
    symbols = [AffineSymExpr(i) for i in range(amap.num_symbols)]
    results = tuple(substitute(r, replacement, symbols) for r in amap.results)
    return AffineMap(len(kept), amap.num_symbols, results), kept + sym_operands


def _used_dims(expr: AffineExpr) -> set[int]:
    if isinstance(expr, AffineDimExpr):
        return {expr.position}
    if isinstance(expr, AffineBinaryOpExpr):
        return _used_dims(expr.lhs) | _used_dims(expr.rhs)
    return set()


def zero_map(rank: int) -> AffineMap:
    """`() -> (0, ..., 0)`: the subscripts of a whole scratchpad buffer."""
    return AffineMap(0, 0, tuple(AffineConstantExpr(0) for _ in range(rank)))
