"""Predicted cycles of a program for given tile sizes: the analytic cost `tile-size-selection
{strategy=model}` ranks its candidates by (Decision 11).

The program is read as `tile-size-selection` sees it (stages, transfers, FIFO slots, parallel
loops, double-buffered pipelines), and each piece is timed the way the DataflowIR simulator
(`interp/dataflow.py`, "Timing") times what the backend makes of it:

* a `ktdf.data_transfer` between memories (a DMA) costs, per row of the block (its innermost
  dimension), the larger of ceil(bytes / granularity) over the links from the source memory
  to the stage's unit and from the unit to the destination memory (`composite_load_and_store`
  per time step); memory -> FIFO is a `vector_load` (the memory -> unit link) plus a `send`
  (the FIFO's link); FIFO -> memory is a `vector_store`. A link without a granularity costs
  `ACCESS_CYCLES` per access, as in the simulator;
* `ktdf.write_to_fifo` is a `send` over the FIFO's link; `read_from_fifo` costs nothing once
  the data is there (`receive_cycles` 0);
* a `linalg.generic` costs, per scalar op of its body and per input it spreads over the output
  (a `vectorchain.shuffle`: a contraction step's column of A on the vector lanes), one cycle
  per issue of `lanes` elements of the compute unit (`dfsched.cycles_per_op` on the exec unit
  multiplies it); a contraction step marked for the matrix unit (`dfsched.matrix_tile`) costs
  `cycles_per_tile` per unit tile; the lane combine of a lane-wide reduction
  (`dfsched.lane_wide = L`) log2(L) shuffles and binaries, the shuffle that picks each row's
  total and the body's op. A generic on buffers also loads and stores its output (an
  accumulator in register memory: loaded when the body reads it) and loads each input that
  is not read from a FIFO, over the links between those memories and the unit;
* `scf.for` repeats its body; a splat transfer (memory -> FIFO) of a nested pipeline whose
  subscripts the loop does not change costs its first iteration only: the backend sends it
  once per loop and the receiver holds it (Decision 90, `passes/lowering/hold_broadcast_operands.py`);
  `ktdf.parallel ... distribute(num_instances = N)` runs its
  iterations on N corelets at once (ceil(trips / N) each); an `scf.if` on `iv == c` in a loop
  (a reduction's last step sending its result) counts once per loop, not per iteration;
* a loop's iterations overlap as far as their busiest unit allows: the body's latency once
  (fill and drain) plus its occupancy for every further iteration, unless the body holds
  several pipelines (a row tile's operands, then its loop over column blocks): those run in
  order, each iteration after the last. A `ktdf.pipeline` whose stages talk through FIFOs
  (streaming: a contraction's K loop) takes its slowest stage plus one step of each other
  stage (filling and draining the stream; a stage's steps are the trips of its loop) and is
  occupied for its slowest stage; so is one with
  `modulo(size : M)` (double buffering), each stage paying the token handshake, `SYNC_CYCLES`
  per sync its unit sends (one per corelet of a neighbouring stage spread over corelets, else
  one); a single-buffered one is occupied for its slowest pair of neighbouring stages (a stage
  refills its buffer only once the next stage has emptied it), handshakes included.

Every cost is a `Cost(latency, busy)`: `latency` from start to end, `busy` the time the
slowest unit is occupied, which bounds how often the piece can repeat when pipelined. Sizes
the model cannot bound (a loop without an upper bound) count once. The absolute figure is an
estimate (the unit tests compare it with simulated cycles); what the pass needs is its ranking.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.dialects.builtin import FixedBitwidthType, IndexType, MemRefType, StringAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from dfsched.arch.intrinsics import MATRIX_TILE
from dfsched.arch.model import DeviceModel
from dfsched.dialects import ktdf
from dfsched.passes.lane_wide import is_lane_combine, lane_width

ACCESS_CYCLES = 1  # the simulator's `access_cycles`: one access over a link without granularity
SYNC_CYCLES = 1  # the simulator's `sync_cycles`: one sync_send of a token handshake

Interval = tuple[int, int]
Bounds = Callable[[SSAValue, dict[Operation, int]], "Interval | None"]


@dataclass(frozen=True)
class Cost:
    latency: int
    busy: int

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.latency + other.latency, self.busy + other.busy)

    def times(self, n: int) -> Cost:
        return Cost(self.latency * n, self.busy * n)


ZERO = Cost(0, 0)


class TileCostModel:
    """Cycles of `program` under a size assignment (placeholder op -> size)."""

    def __init__(self, program: Operation, device: DeviceModel, bounds: Bounds):
        self.program = program
        self.device = device
        self.bounds = bounds
        self.env: dict[Operation, int] = {}
        self.free: set[Operation] = set()  # held splat transfers, after their loop's first iteration

    def cycles(self, env: dict[Operation, int]) -> int:
        self.env = env
        return sum(self.region(r, None).latency for r in self.program.regions)

    # -- structure -----------------------------------------------------------------------
    def region(self, region: Region, unit: str | None) -> Cost:
        total = ZERO
        for block in region.blocks:
            total = total + self.block(block, unit)
        return total

    def block(self, block: Block, unit: str | None) -> Cost:
        total = ZERO
        for op in block.ops:
            total = total + self.op(op, unit)
        return total

    def op(self, op: Operation, unit: str | None) -> Cost:
        if isinstance(op, scf.ForOp):
            trips = self.trips(op.lb, op.ub, op.step)
            held = held_splats(op)
            if not held or trips < 2:
                return self.repeat(op.body.block, trips, 1, unit)
            first = self.block(op.body.block, unit)
            self.free |= held
            rest = self.block(op.body.block, unit)
            self.free -= held
            return Cost(first.latency + rest.busy * (trips - 1), first.busy + rest.busy * (trips - 1))
        if isinstance(op, ktdf.ParallelOp):
            trips = 1
            for lb, ub, step in zip(op.lower_bounds, op.upper_bounds, op.steps):
                trips *= self.trips(lb, ub, step)
            return self.repeat(op.body.block, trips, max(1, op.num_instances.value.data), unit)
        if isinstance(op, ktdf.PipelineOp):
            return self.pipeline(op)
        if isinstance(op, ktdf.StageOp):
            return self.region(op.body, self.stage_unit(op, unit))
        if isinstance(op, ktdf.DataTransferOp):
            cycles = self.transfer(op, unit)
            return Cost(cycles, cycles)
        if isinstance(op, ktdf.WriteToFifoOp):
            cycles = self.send(op.fifo_slot.type, math.prod(shape_of(op.data.type)))
            return Cost(cycles, cycles)
        if isinstance(op, GenericOp):
            cycles = self.compute(op, unit)
            return Cost(cycles, cycles)
        if isinstance(op, ktdf.PrivateOp):
            return ZERO
        total = ZERO
        for region in op.regions:  # e.g. scf.if: its branches, as if both ran
            total = total + self.region(region, unit)
        return total

    def repeat(self, body: Block, trips: int, instances: int, unit: str | None) -> Cost:
        """`trips` iterations of `body` spread over `instances` units: each unit's iterations
        overlap as far as the body's busiest unit lets them (nothing, for a body on one unit).
        A branch taken at one iteration (`once_per_loop`) counts once, not every iteration. A
        body of several pipelines (a row tile's operands, then its loop over column blocks)
        runs them in order, every iteration after the last: its iterations do not overlap."""
        per_unit = -(-trips // instances) if trips > 0 else 0
        if per_unit == 0:
            return ZERO
        each, single = ZERO, ZERO
        for op in body.ops:
            if once_per_loop(op, body):
                single = single + self.op(op, unit)
            else:
                each = each + self.op(op, unit)
        if sum(1 for op in body.ops if holds_pipeline(op)) > 1:  # ordered one after the other
            return each.times(per_unit) + single
        return Cost(each.latency + each.busy * (per_unit - 1), each.busy * per_unit) + single

    def pipeline(self, pipeline: ktdf.PipelineOp) -> Cost:
        """One run of the stages: they overlap with the next run's when double-buffered
        (`modulo`, plus a handshake) or streaming through FIFOs, else they hold every unit."""
        ops = [op for op in pipeline.body.block.ops if isinstance(op, ktdf.StageOp)]
        stages = [self.op(op, None) for op in ops]
        if streams(pipeline):  # the slowest stage, plus one step of each other to fill and drain
            if not stages:
                return ZERO
            slowest = max(range(len(stages)), key=lambda i: stages[i].latency)
            fill = sum(-(-s.latency // self.steps(op)) for i, (s, op) in enumerate(zip(stages, ops)) if i != slowest)
            return Cost(stages[slowest].latency + fill, max(s.busy for s in stages))
        stages = [cost + Cost(h, h) for cost, h in zip(stages, handshakes(ops))]
        latency = sum(s.latency for s in stages)
        if pipeline.modulo is not None and pipeline.modulo.value.data >= 2:
            return Cost(latency, max((s.busy for s in stages), default=0))
        # one buffer between two stages: a stage starts its next run once its successor has
        # taken the previous one, so neighbours alternate
        pairs = [a.busy + b.busy for a, b in zip(stages, stages[1:])]
        return Cost(latency, max(pairs or [latency]))

    def steps(self, stage: ktdf.StageOp) -> int:
        """The iterations of a streaming stage's loop (its steps through the FIFOs; 1 without one)."""
        loops = [op for op in stage.body.block.ops if isinstance(op, scf.ForOp)]
        return max(1, self.trips(loops[0].lb, loops[0].ub, loops[0].step)) if len(loops) == 1 else 1

    @staticmethod
    def stage_unit(stage: ktdf.StageOp, outer: str | None) -> str | None:
        units = stage.applicable_units
        if units is None or not units.data:
            return outer
        first = units.data[0]
        return first.data if isinstance(first, StringAttr) else outer

    def trips(self, lb: SSAValue, ub: SSAValue, step: SSAValue) -> int:
        low, high, by = (self.bounds(v, self.env) for v in (lb, ub, step))
        if low is None or high is None or by is None or by[0] <= 0:
            return 1
        return max(0, -(-(high[1] - low[0]) // by[0]))

    # -- leaves --------------------------------------------------------------------------
    def transfer(self, op: ktdf.DataTransferOp, unit: str | None) -> int:
        if op in self.free:
            return 0
        source, dest = op.source.type, op.destination.type
        rows, row_elements = self.block_shape(op)
        if isinstance(source, MemRefType) and isinstance(dest, MemRefType):
            row_bytes = row_elements * element_bytes(source.element_type)
            load = self.link_cycles(memory_kind(source), unit, row_bytes)
            store = self.link_cycles(unit, memory_kind(dest), row_bytes)
            return rows * max(load, store)
        count = rows * row_elements
        if isinstance(source, MemRefType) and isinstance(dest, ktdf.FifoSlotType):
            load = self.link_cycles(memory_kind(source), unit, count * element_bytes(source.element_type))
            return load + self.send(dest, count)
        if isinstance(source, ktdf.FifoSlotType) and isinstance(dest, MemRefType):
            return self.link_cycles(unit, memory_kind(dest), count * element_bytes(dest.element_type))
        return ACCESS_CYCLES

    def block_shape(self, op: ktdf.DataTransferOp) -> tuple[int, int]:
        """(rows, elements per row) the transfer moves, from its source (else dest) sizes."""
        for static, dynamic, value in ((op.static_source_sizes, op.source_sizes, op.source),
                                       (op.static_dest_sizes, op.dest_sizes, op.destination)):
            if static is None:
                continue
            dims = self.sizes(static.get_values(), list(dynamic))
            if dims:
                return math.prod(dims[:-1]), dims[-1]
        shape = shape_of(op.source.type)
        return (math.prod(shape[:-1]), shape[-1]) if shape else (1, 1)

    def sizes(self, static: tuple[int, ...], dynamic: list[SSAValue]) -> list[int]:
        values = iter(dynamic)
        dims = []
        for size in static:
            if size >= 0:
                dims.append(size)
                continue
            bound = self.bounds(next(values), self.env)
            dims.append(max(0, bound[1]) if bound is not None else 1)
        return dims

    def send(self, slot: Attribute, count: int) -> int:
        if not isinstance(slot, ktdf.FifoSlotType):
            return ACCESS_CYCLES
        nbytes = count * element_bytes(slot.element_type)
        return self.link_cycles(kind_name(slot.src), kind_name(slot.dest), nbytes)

    def link_cycles(self, src: str | None, dst: str | None, nbytes: int) -> int:
        link = self.device.link_between(src, dst) if src is not None and dst is not None else None
        granularity = link.max_granularity if link is not None else None
        return max(1, -(-nbytes // granularity)) if granularity else ACCESS_CYCLES

    def compute(self, op: GenericOp, unit: str | None) -> int:
        matrix = self.device.matrix_unit
        if MATRIX_TILE in op.attributes and matrix is not None:  # one matrix-unit step per unit tile
            sizes = op.attributes[MATRIX_TILE].get_values()
            tiles = math.prod(-(-size // per) for size, per in zip(sizes, matrix.tile))
            return tiles * matrix.cycles_per_tile + self.buffer_traffic(op, unit)
        outputs = [v.type for v in op.outputs]
        if is_lane_combine(op):  # one issue per shuffle and binary (passes/lane_wide.py)
            return 2 * int(math.log2(lane_width(op) or 1)) + 2
        count = math.prod(shape_of(outputs[0])) if outputs else 1
        kind = unit if unit is not None and unit in self.device.units else self.device.compute_kind
        lanes, per_issue = 0, 1
        if kind is not None:
            exec_unit = self.device.units[kind]
            element = getattr(outputs[0], "element_type", None) if outputs else None
            if element is not None and exec_unit.simd is not None:
                lanes = exec_unit.simd.lanes_for(element)
            attr = exec_unit.op.attributes.get("dfsched.cycles_per_op")
            per_issue = int(attr.value.data) if attr is not None and hasattr(attr, "value") else 1
        issues = max(1, -(-count // lanes)) if lanes > 0 else 1
        scalar_ops = sum(1 for inner in op.body.block.ops if not isinstance(inner, YieldOp))
        shuffles = sum(1 for index in range(len(op.inputs)) if spreads(op, index))
        return (max(1, scalar_ops) + shuffles) * issues * per_issue + self.buffer_traffic(op, unit)

    def buffer_traffic(self, op: GenericOp, unit: str | None) -> int:
        """The vector loads and stores of a generic on buffers (`dfir_compute`): its output is
        stored (and loaded first when the body reads it: an accumulator in register memory),
        an input in a memory rather than read from a FIFO is loaded."""
        if not op.outputs or not isinstance(op.outputs[0].type, MemRefType):
            return 0
        out = op.outputs[0].type
        nbytes = math.prod(shape_of(out)) * element_bytes(out.element_type)
        cycles = self.link_cycles(unit, memory_kind(out), nbytes)
        if op.body.block.args[-1].uses:
            cycles += self.link_cycles(memory_kind(out), unit, nbytes)
        for value in op.inputs:
            if isinstance(value.type, MemRefType) and not isinstance(value.owner, ktdf.ReadFromFifoOp):
                size = math.prod(shape_of(value.type)) * element_bytes(value.type.element_type)
                cycles += self.link_cycles(memory_kind(value.type), unit, size)
        return cycles


def spreads(op: GenericOp, index: int) -> bool:
    """Input `index` is not indexed like the output: one `vectorchain.shuffle` spreads it over
    the output (a contraction step's column of A and row of B on the vector lanes)."""
    if not op.outputs:
        return False
    maps = [m.data for m in op.indexing_maps.data]
    shapes = [shape_of(v.type) for v in (*op.inputs, *op.outputs)]
    extents: dict[int, int] = {}
    for amap, shape in zip(maps, shapes):
        for result, size in zip(amap.results, shape):
            if isinstance(result, AffineDimExpr):
                extents[result.position] = size

    def varying(amap: AffineMap) -> list[int]:
        return [r.position for r in amap.results if isinstance(r, AffineDimExpr) and extents[r.position] > 1]

    return math.prod(shapes[index]) != math.prod(shapes[-1]) or varying(maps[index]) != varying(maps[-1])


def holds_pipeline(op: Operation) -> bool:
    return any(isinstance(inner, ktdf.PipelineOp) for inner in op.walk())


def once_per_loop(op: Operation, body: Block) -> bool:
    """An `scf.if` on `iv == c` (`c` from outside the loop): taken at one iteration, as a
    reduction loop's last step sends its result (`map-reduction-partials`)."""
    if not isinstance(op, scf.IfOp) or not isinstance(op.cond.owner, arith.CmpiOp):
        return False
    compare = op.cond.owner
    if compare.predicate.value.data != 0:  # eq
        return False
    ivs = [arg for arg in body.args if isinstance(arg.type, IndexType)]
    for iv, other in ((compare.lhs, compare.rhs), (compare.rhs, compare.lhs)):
        if iv in ivs and not body.is_ancestor(other.owner):
            return True
    return False


def held_splats(loop: scf.ForOp) -> set[Operation]:
    """The splat transfers memory -> FIFO whose nearest enclosing loop is `loop` and whose
    subscripts do not depend on its induction variable (sent once per loop, Decision 90)."""
    held = set()
    for op in loop.body.walk():
        if not isinstance(op, ktdf.DataTransferOp) or not isinstance(op.destination.type, ktdf.FifoSlotType):
            continue
        mode = op.attributes.get("transfer_mode")
        if not isinstance(mode, StringAttr) or mode.data != "splat" or _nearest_loop(op) is not loop:
            continue
        if not any(_depends_on(v, loop) for v in op.source_indices):
            held.add(op)
    return held


def _nearest_loop(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp | ktdf.ParallelOp):
        parent = parent.parent_op()
    return parent


def _depends_on(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether `value` is computed from a block argument inside `loop` (its index or an inner one)."""
    pending, seen = [value], set()
    while pending:
        v = pending.pop()
        owner = v.owner
        if isinstance(owner, Operation):
            if owner not in seen:
                seen.add(owner)
                pending.extend(owner.operands)
        elif loop.is_ancestor(owner.parent_op()) if owner.parent_op() is not None else False:
            return True
    return False


def handshakes(stages: list[ktdf.StageOp]) -> list[int]:
    """Sync cycles per run of each stage of a double-buffered pipeline: a stage spread over N
    corelets signals each of them (N), a spread stage's units signal one neighbour each (1)."""
    spread = [instances_of(stage) for stage in stages]
    found = []
    for i, count in enumerate(spread):
        neighbours = [spread[j] for j in (i - 1, i + 1) if 0 <= j < len(spread)]
        found.append(SYNC_CYCLES * (1 if count > 1 else max([1, *neighbours])))
    return found


def instances_of(stage: ktdf.StageOp) -> int:
    """The corelets a stage's `ktdf.parallel` spreads it over (1 without one)."""
    for op in stage.body.block.ops:
        if isinstance(op, ktdf.ParallelOp):
            return max(1, op.num_instances.value.data)
    return 1


def streams(pipeline: ktdf.PipelineOp) -> bool:
    """True when the pipeline's own stages talk through FIFOs (they overlap across iterations);
    FIFOs of a pipeline nested in a stage do not count."""
    for op in pipeline.walk():
        if isinstance(op, ktdf.FifoAllocateOp) and _enclosing_pipeline(op) is pipeline:
            return True
    return False


def _enclosing_pipeline(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ktdf.PipelineOp):
        parent = parent.parent_op()
    return parent


def shape_of(type_: Attribute) -> list[int]:
    if isinstance(type_, MemRefType | TensorType):
        return [max(1, d) for d in type_.get_shape()]
    if isinstance(type_, ktdf.FifoSlotType):
        return [max(1, type_.num_elements.data)]
    return [1]


def element_bytes(element: Attribute) -> int:
    if isinstance(element, IndexType):
        return 8
    if isinstance(element, FixedBitwidthType):
        return max(1, math.ceil(element.bitwidth / 8))
    return 1


def memory_kind(type_: MemRefType) -> str | None:
    return kind_name(type_.memory_space)


def kind_name(attr: Attribute) -> str | None:
    if isinstance(attr, StringAttr):
        return attr.data
    text = str(attr)
    return text.strip('"') if text.startswith('"') else None
