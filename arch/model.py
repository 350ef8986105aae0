"""The device model: everything passes may ask about a target, read from `ktdf_arch`.

Passes read the device only through `DeviceModel`. Build one with
`DeviceModel.from_device(op)`, `DeviceModel.from_module(module)` or
`dfsched.arch.loading.load_device("sample")` (a file path or a short name), or get the one
attached to a kernel with `dfsched.arch.loading.device_model_for(op, device=...)`.

Kinds are compared as strings (`"DDR"`, `"SFU"`): the `kind` of every resource, as
`get_unit` types and memref memory spaces spell them. What the model offers:

- memories: `.memories` (kind → `Memory`: size, depth in the memory tree and level
  global / scratchpad / below), `.memory(kind)`, `.memory_for_space(space)`
  (`#ktdp.memory_space<...>` through `mem_space_mapping`, Decision 6 defaults otherwise),
  `.capacities()`;
- execution units: `.units` (kind → `ExecUnit`: compute, load/store word sizes and access
  shapes, SIMD lanes/splat/zero-pad, double_buffer_last, attached links), `.unit(kind)`,
  `.compute_kind`, `.compute_unit`, `.simd_lanes(kind, element_type)`, `.matrix_unit`
  (tile, operand/accumulator types and cycles of a `feature.matrix`);
- links: `.links`, `.incoming_links(kind)`, `.outgoing_links(kind)`, `.link_between(a, b)`,
  `.read_kinds(kind)`, `.write_kinds(kind)` (transfer granularity, queue depth/order);
- hierarchy: `.cores`, `.corelets_per_core`, `.instances(kinds)`, `.local_memory(kind)`;
- routing: `.route(src, dst)`, `.route_through(kinds)`, `.routing` (the graph);
- between cores: `.core_links` (`ktdf_arch.core_links`: topology, bandwidth, latency),
  `.core_route(src_core, dst_core)` (the cores a transfer crosses, through `.routing`).

A failed lookup raises a `DiagnosticError` naming the device and its file. Pass `at=op` to
place the error on your own op instead (the device is then named in a note).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation

from dfsched.arch import intrinsics, views
from dfsched.arch.intrinsics import Features, Matrix, Queue
from dfsched.arch.routing import RoutingGraph
from dfsched.arch.views import Direction, kind_name
from dfsched.diagnostics import DiagnosticError, error, location_of
from dfsched.dialects.ktdf_arch import (
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    MapAttr,
    MemoryOp,
    attribute_text,
)

GLOBAL = "global"
SCRATCHPAD = "scratchpad"
BELOW_SCRATCHPAD = "below"


@dataclass
class Memory:
    """A memory kind: its size in bytes and where it sits in the memory tree.

    `depth` 0 is device-level (global), 1 a per-core scratchpad, 2+ below the scratchpad.
    """

    kind: str
    kind_attr: Attribute
    size: int | None
    depth: int
    op: MemoryOp

    @property
    def level(self) -> str:
        return GLOBAL if self.depth == 0 else SCRATCHPAD if self.depth == 1 else BELOW_SCRATCHPAD


@dataclass
class Link:
    """A datapath between two endpoints, with the facts passes read from it."""

    op: DatapathOp
    source: str | None
    target: str | None
    source_is_memory: bool
    target_is_memory: bool
    transfer_granularity: tuple[int, ...]
    queue: Queue | None
    bandwidth: int | None

    @property
    def max_granularity(self) -> int | None:
        return max(self.transfer_granularity) if self.transfer_granularity else None

    @property
    def ordered(self) -> bool:
        return self.queue is not None and self.queue.ordered


@dataclass
class ExecUnit:
    """An execution-unit kind and its features (read from the kind's exemplar op)."""

    kind: str
    kind_attr: Attribute | None
    op: ExecUnitOp
    features: Features
    double_buffer_last: bool
    incoming: list[Link] = field(default_factory=list)
    outgoing: list[Link] = field(default_factory=list)

    compute = property(lambda self: self.features.compute)  # the features, read through the unit
    load = property(lambda self: self.features.load)
    store = property(lambda self: self.features.store)
    simd = property(lambda self: self.features.simd)
    matrix = property(lambda self: self.features.matrix)

    @property
    def is_load_store(self) -> bool:
        return self.load is not None or self.store is not None

    @property
    def splat(self) -> bool:
        return self.simd is not None and self.simd.splat

    def lanes(self) -> dict[str, int]:
        """Element type (as printed, e.g. "f16") → lanes."""
        if self.simd is None:
            return {}
        return {attribute_text(t): n for t, n in self.simd.lanes}


class DeviceModel:
    """Read-only facts about one device definition (see the module docstring)."""

    def __init__(self, device: DeviceOp, source: str | None = None):
        if device.is_import:
            raise error(device, f"device '{device.device_name}' is only declared here; import it first "
                                "(dfsched.arch.loading.resolve_device)")
        self.device = device
        self.name = device.device_name
        self.source = source or location_of(device)[0]

    @classmethod
    def from_device(cls, device: DeviceOp, source: str | None = None) -> DeviceModel:
        return cls(device, source)

    @classmethod
    def from_module(cls, module: ModuleOp, name: str | None = None, source: str | None = None) -> DeviceModel:
        """The one device defined at the top of `module` (or the one called `name`)."""
        devices = [op for op in module.ops if isinstance(op, DeviceOp) and not op.is_import]
        if name is not None:
            devices = [d for d in devices if d.device_name == name]
            if not devices:
                raise error(module, f"no device named '{name}'")
        if not devices:
            raise error(module, "no device in module")
        if len(devices) > 1:
            raise error(devices[1], "multiple devices in module; name the one to use")
        return cls(devices[0], source)

    # -- diagnostics ------------------------------------------------------
    def describe(self) -> str:
        return f"device '{self.name}'" + (f" ({self.source})" if self.source else "")

    def fail(self, message: str, at: Operation | None = None, where: Operation | None = None) -> DiagnosticError:
        """An error about this device, on `at` if given (the device in a note), else on `where`."""
        if at is not None:
            return error(at, message, [(where or self.device, f"in {self.describe()}")])
        return error(where or self.device, f"{message} in {self.describe()}")

    # -- views (computed once; the device is treated as immutable) --------
    @cached_property
    def _order(self) -> dict[Operation, int]:
        return views.op_order(self.device)

    @cached_property
    def _exemplars(self):
        return views.exemplars(self.device)

    @cached_property
    def _memory_tree(self) -> list[views.MemoryNode]:
        return views.memory_tree(self.device)

    @cached_property
    def routing(self) -> RoutingGraph:
        routing = RoutingGraph.from_device(self.device)
        links, scratchpad = self.core_links, self.core_memory
        if links is not None and scratchpad is not None:
            routing.add_core_links(scratchpad.kind_attr, scratchpad.size, self.cores, links)
        return routing

    @cached_property
    def core_links(self) -> intrinsics.CoreLinks | None:
        """How the cores' scratchpads are linked (`ktdf_arch.core_links` on the device), or None."""
        return intrinsics.read_core_links(self.device)

    @cached_property
    def links(self) -> list[Link]:
        """Every datapath of the device, in textual order."""
        return [self._link(op) for op in views.body_ops(self.device) if isinstance(op, DatapathOp)]

    def _link(self, op: DatapathOp) -> Link:
        src, dst = views.endpoint(op.src), views.endpoint(op.dst)
        return Link(
            op,
            kind_name(src.kind_attr) if src is not None else None,
            kind_name(dst.kind_attr) if dst is not None else None,
            isinstance(src, MemoryOp),
            isinstance(dst, MemoryOp),
            intrinsics.read_transfer_granularity(op),
            intrinsics.read_features(op).queue,
            intrinsics.read_bandwidth(op),
        )

    @cached_property
    def memories(self) -> dict[str, Memory]:
        """Memory kinds in order of first appearance (post-order, as upstream's exemplars)."""
        depth: dict[str | None, int] = {}
        for node in self._memory_tree:  # the last node of a kind wins, as upstream
            depth[node.kind] = node.depth
        out: dict[str, Memory] = {}
        for kind, op in self._exemplars.items():
            if isinstance(op, MemoryOp) and kind is not None:
                out[kind] = Memory(kind, op.kind_attr, op.size_bytes, depth.get(kind, 0), op)
        return out

    @cached_property
    def units(self) -> dict[str, ExecUnit]:
        """Exec-unit kinds (unkinded units are not listed), with their links."""
        by_link = {link.op: link for link in self.links}
        out: dict[str, ExecUnit] = {}
        for kind, op in self._exemplars.items():
            if not isinstance(op, ExecUnitOp) or kind is None:
                continue
            unit = ExecUnit(
                kind, op.kind_attr, op, intrinsics.read_features(op), intrinsics.DOUBLE_BUFFER_LAST in op.attributes
            )
            for direction, link_op in views.node_links(op, self._order):
                link = by_link[link_op]
                if direction in (Direction.INCOMING, Direction.BIDIRECTIONAL):
                    unit.incoming.append(link)
                if direction in (Direction.OUTGOING, Direction.BIDIRECTIONAL):
                    unit.outgoing.append(link)
            out[kind] = unit
        return out

    # -- memories ---------------------------------------------------------
    def memory(self, kind: str, at: Operation | None = None) -> Memory:
        memory = self.memories.get(kind)
        if memory is None:
            raise self.fail(f"no memory of kind '{kind}'", at)
        return memory

    def capacities(self) -> dict[str, int]:
        """Bytes per memory kind, for every memory that declares a size."""
        return {kind: m.size for kind, m in self.memories.items() if m.size is not None}

    @cached_property
    def mem_space_mapping(self) -> list[tuple[Attribute, str]]:
        """The device's explicit `mem_space_mapping` (KTIR space → memory kind), in order."""
        mapping = self.device.attributes.get(intrinsics.MEM_SPACE_MAPPING)
        if not isinstance(mapping, MapAttr):
            return []
        return [(k, kind_name(v) or "") for k, v in mapping.items]

    def memory_for_space(self, space: Attribute | str, at: Operation | None = None) -> Memory:
        """The memory a KTIR memory space (or a memory kind) lives in.

        Order: the explicit `mem_space_mapping`; a memory whose kind is that string;
        Decision 6 defaults: `global` → the device-level memory shared by all cores,
        `ct_local` → the core's private memory.
        """
        if isinstance(space, Attribute):
            for key, kind in self.mem_space_mapping:
                if key == space:
                    return self.memory(kind, at)
        name = _space_name(space)
        for key, kind in self.mem_space_mapping:
            if _space_name(key) == name:
                return self.memory(kind, at)
        if name in self.memories:
            return self.memories[name]
        if name == "global" and (memory := self.global_memory) is not None:
            return memory
        if name == "ct_local" and (memory := self.core_memory) is not None:
            return memory
        shown = space if isinstance(space, str) else attribute_text(space)
        raise self.fail(f"no memory for memory space '{shown}'", at)

    @cached_property
    def global_memory(self) -> Memory | None:
        """The device-level memory the cores share (first memory shared into the core group)."""
        core = self.core_group
        if core is not None and core.operands:
            shared = views.endpoint(core.operands[0])
            if isinstance(shared, MemoryOp):
                return self.memories.get(kind_name(shared.kind_attr) or "")
        return next((m for m in self.memories.values() if m.depth == 0), None)

    @cached_property
    def core_memory(self) -> Memory | None:
        """A core's private memory: the first memory defined directly in the core group."""
        core = self.core_group
        if core is not None:
            for op in core.body.block.ops:
                if isinstance(op, MemoryOp):
                    return self.memories.get(kind_name(op.kind_attr) or "")
        return next((m for m in self.memories.values() if m.depth == 1), None)

    # -- execution units --------------------------------------------------
    def unit(self, kind: str, at: Operation | None = None) -> ExecUnit:
        unit = self.units.get(kind)
        if unit is None:
            raise self.fail(f"no exec_unit of kind '{kind}'", at)
        return unit

    @cached_property
    def _compute(self) -> tuple[str | None, DiagnosticError | None]:
        found: tuple[str, Operation] | None = None
        for kind, op in self._exemplars.items():
            if isinstance(op, ExecUnitOp) and intrinsics.COMPUTE in intrinsics.read_features(op).raw.data:
                if found is not None:
                    return None, error(op, f"found second compute resource in {self.describe()}",
                                       [(found[1], "previous resource is here")])
                found = (kind_name(op.kind_attr) or "exec_unit", op)
        return (found[0] if found else None), None

    @property
    def compute_kind(self) -> str | None:
        """The kind carrying `feature.compute` (None if none, or if two kinds claim it)."""
        return self._compute[0]

    @property
    def accumulation_type(self) -> str | None:
        """The float type the compute unit declares it accumulates reductions in
        (`ktdf_arch.feature.compute = {accumulate = f32}`), or None: it accumulates in the
        reduction's own output type."""
        kind = self.compute_kind
        return self.units[kind].features.accumulate if kind in self.units else None

    @property
    def matrix_unit(self) -> Matrix | None:
        """The compute unit's matrix-multiply capability (`ktdf_arch.feature.matrix`), or None:
        contractions then run on its vector lanes."""
        kind = self.compute_kind
        return self.units[kind].matrix if kind in self.units else None

    def compute_unit(self, at: Operation | None = None) -> ExecUnit:
        kind, problem = self._compute
        if problem is not None:
            raise problem
        if kind is None:
            raise self.fail("no exec_unit has 'ktdf_arch.feature.compute'", at)
        return self.unit(kind, at)

    def simd_lanes(self, kind: str, element_type: Attribute, at: Operation | None = None) -> int:
        """Hardware vector width of unit `kind` for `element_type` (Decision 7: no lanes is an error)."""
        unit = self.unit(kind, at)
        lanes = unit.simd.lanes_for(element_type) if unit.simd is not None else 0
        if lanes <= 0:
            raise self.fail(
                f"exec_unit '{kind}' declares no SIMD lanes for element type {attribute_text(element_type)}",
                at,
                unit.op,
            )
        return lanes

    def check_executes(self, kind: str, op_name: str, element_type: Attribute, at: Operation | None = None) -> None:
        """Error unless unit `kind` executes `op_name` on `element_type` (its SIMD `ops`)."""
        unit = self.unit(kind, at)
        if unit.simd is not None and not unit.simd.executes(op_name, element_type):
            raise self.fail(
                f"exec_unit '{kind}' does not execute '{op_name}' on element type {attribute_text(element_type)} "
                "(not in its ktdf_arch.feature.simd ops)",
                at,
                unit.op,
            )

    def address_list_units(self) -> list[ExecUnit]:
        """The units that issue address-list transfers (`ktdf_arch.feature.address_list`)."""
        return [u for u in self.units.values() if u.features.address_list_memory is not None]

    # -- links ------------------------------------------------------------
    def incoming_links(self, kind: str) -> list[Link]:
        return list(self.unit(kind).incoming)

    def outgoing_links(self, kind: str) -> list[Link]:
        return list(self.unit(kind).outgoing)

    def link_between(self, src_kind: str, dst_kind: str) -> Link | None:
        """The first datapath from a `src_kind` endpoint to a `dst_kind` endpoint."""
        return next((l for l in self.links if l.source == src_kind and l.target == dst_kind), None)

    def read_kinds(self, kind: str) -> set[str]:
        """Memory kinds the unit reads (sources of its incoming links)."""
        return {l.source for l in self.unit(kind).incoming if l.source_is_memory and l.source}

    def write_kinds(self, kind: str) -> set[str]:
        """Memory kinds the unit writes (targets of its outgoing links)."""
        return {l.target for l in self.unit(kind).outgoing if l.target_is_memory and l.target}

    # -- hierarchy --------------------------------------------------------
    @cached_property
    def core_group(self) -> GroupOp | None:
        """The outermost group holding the compute unit (one core)."""
        kind = self.compute_kind
        unit = self.units.get(kind) if kind else None
        return views.outermost_group(unit.op) if unit is not None else None

    @property
    def cores(self) -> int:
        """Core groups in the device (upstream takes the core count from the kernel's grid)."""
        core = self.core_group
        return len(views.equivalent_groups(core)) if core is not None else 1

    def instance_groups(self, kinds: list[str]) -> list[GroupOp]:
        """The groups a pipeline over `kinds` can be replicated on (corelets: `docs/devices.md`)."""
        ops = []
        for kind in kinds:
            op = self._exemplars.get(kind)
            if op is None:
                return []
            ops.append(op)
        group = views.common_group(ops)
        return views.equivalent_groups(group) if group is not None else []

    def instances(self, kinds: list[str]) -> int:
        """How many copies of a pipeline over `kinds` the device has (1 if not replicated)."""
        return max(1, len(self.instance_groups(kinds)))

    @property
    def corelets_per_core(self) -> int:
        """Instances of the compute unit's pipeline inside one core."""
        kind = self.compute_kind
        return self.instances([kind]) if kind else 1

    @cached_property
    def local_memories(self) -> dict[str, str | None]:
        """exec kind → its group-local memory kind, None where ambiguous (`docs/devices.md#the-model-in-one-page`)."""
        return views.group_local_memory(self.device)

    def local_memory(self, kind: str, at: Operation | None = None) -> str:
        """The one memory kind private to the groups holding exec unit `kind`."""
        memory = self.local_memories.get(kind)
        if memory is None:
            raise self.fail(f"no unambiguous local memory found for exec_unit kind '{kind}' in device description", at)
        return memory

    # -- routing ----------------------------------------------------------
    def route(self, src: str, dst: str, at: Operation | None = None) -> list[str]:
        """Shortest route of kinds from `src` to `dst`, both included."""
        for kind in (src, dst):
            if self.routing.node_for(kind) is None:
                raise self.fail(f"no resource of kind '{kind}' to route through", at)
        nodes = self.routing.route(src, dst)
        if nodes is None:
            raise self.fail(f"no route from '{src}' to '{dst}'", at)
        return [n.name for n in nodes]

    def core_route(self, src_core: int, dst_core: int, at: Operation | None = None) -> list[int]:
        """The cores a transfer from `src_core`'s scratchpad to `dst_core`'s crosses, both included."""
        if self.core_links is None:
            raise self.fail(f"no core-to-core links ('{intrinsics.CORE_LINKS}') to route from core {src_core} "
                            f"to core {dst_core}", at)
        for core in (src_core, dst_core):
            if not 0 <= core < self.cores:
                raise self.fail(f"no core {core}: the device has {self.cores} core(s)", at)
        path = self.routing.core_path(src_core, dst_core)
        if path is None:
            raise self.fail(f"no route from core {src_core} to core {dst_core}", at)
        return path

    def route_through(self, kinds: list[str], at: Operation | None = None) -> list[str]:
        """Routes between consecutive kinds, concatenated without repeating junctions."""
        if len(kinds) == 1:
            self.route(kinds[0], kinds[0], at)
            return list(kinds)
        full: list[str] = []
        for src, dst in zip(kinds, kinds[1:]):
            segment = self.route(src, dst, at)
            full.extend(segment if not full else segment[1:])
        return full


def _space_name(space: Attribute | str) -> str:
    """`global` for `#ktdp.memory_space<global>`, the string for a string, else the text."""
    if isinstance(space, str):
        return space
    if isinstance(space, StringAttr):
        return space.data
    kind = getattr(space, "kind", None)
    if getattr(space, "name", "") == "ktdp.memory_space" and isinstance(kind, StringAttr):
        return kind.data
    return attribute_text(space)
