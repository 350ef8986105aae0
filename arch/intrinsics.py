"""`ktdf_arch.*` intrinsic attributes: their verifier rules and their typed reading.

Properties are discardable attributes named `ktdf_arch.<name>` on any op; features are
the entries of a `ktdf_arch.features` dictionary (`docs/devices.md#the-model-in-one-page`
). The dialect verifier and the device model both go through this module, so a
fact is checked where it is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, TypeAttribute

from dfsched.arch.elementwise import is_elementwise_op_name
from dfsched.dialects.ktdf_arch import MapAttr, attribute_text, verify_error

PREFIX = "ktdf_arch."
BANDWIDTH = "ktdf_arch.bandwidth"
CORE_LINKS = "ktdf_arch.core_links"  # dfsched: on the device, the links between its cores' scratchpads
FEATURES = "ktdf_arch.features"
MAPS_TO = "ktdf_arch.maps_to"
OVERLAPS = "ktdf_arch.overlaps"
TRANSFER_GRANULARITY = "ktdf_arch.transfer_granularity"

COMPUTE = "ktdf_arch.feature.compute"
LOAD = "ktdf_arch.feature.load"
STORE = "ktdf_arch.feature.store"
SIMD = "ktdf_arch.feature.simd"
QUEUE = "ktdf_arch.feature.queue"
ADDRESS_LIST = "ktdf_arch.feature.address_list"  # dfsched: the unit moves rows at addresses read from a list
MATRIX = "ktdf_arch.feature.matrix"

DOUBLE_BUFFER_LAST = "dataflow_scheduler.double_buffer_last"
CYCLES_PER_OP = "dfsched.cycles_per_op"  # simulator: cycles per compute issue of an exec unit
MEM_SPACE_MAPPING = "mem_space_mapping"  # on the device: KTIR memory space -> memory kind
# Not a device attribute: the mark `construct-three-stage-pipeline` puts on a contraction the
# compute unit's matrix unit runs (its M, N, K tile; passes/contraction.py), read down to the
# simulator, which costs each marked step by the unit's `cycles_per_tile`.
MATRIX_TILE = "dfsched.matrix_tile"

# The registry of what a device may declare besides the ktdf_arch ops' own attributes (`kind`,
# `size`, ...): the fields of each feature, the fields of an access shape, and the attributes
# other dialects put on resources. docs/devices.md documents every entry, and every property
# and feature of this module (tests/unit/test_docs.py checks both ways).
FEATURE_FIELDS: dict[str, tuple[str, ...]] = {
    COMPUTE: (),
    LOAD: ("word_size", "access_granularity"),
    STORE: ("word_size", "access_granularity"),
    SIMD: ("splat", "zero_pad", "lanes", "ops"),
    QUEUE: ("ordered", "size", "depth"),
    ADDRESS_LIST: ("memory",),
    MATRIX: ("tile", "types", "cycles_per_tile"),
}
ACCESS_FIELDS = ("size_in_words", "align_in_words")
# The fields of `ktdf_arch.core_links` (see read_core_links).
CORE_LINK_FIELDS = ("topology", "bidirectional", "bandwidth", "latency")
CORE_TOPOLOGIES = ("ring",)
OTHER_DEVICE_ATTRIBUTES = (DOUBLE_BUFFER_LAST, CYCLES_PER_OP, MEM_SPACE_MAPPING)

ACCUMULATE = "accumulate"  # field of feature.compute: the type reductions accumulate in
ACCUMULATE_TYPES = ("f16", "f32", "f64")


def is_i64(attr: Attribute | None) -> bool:
    """A signless 64-bit IntegerAttr (what bare integers like `size = 4` parse to)."""
    return (
        isinstance(attr, IntegerAttr)
        and isinstance(attr.type, IntegerType)
        and attr.type.width.data == 64
        and attr.type.signedness.data.name == "SIGNLESS"
    )


def i64_value(attr: Attribute | None) -> int | None:
    return attr.value.data if is_i64(attr) else None  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# Op classes, by name (the dialect imports this module, so no class imports here)
# ---------------------------------------------------------------------------


def _is_arch_op(op: Operation) -> bool:
    return op.name.startswith(PREFIX)


def _is_exec_unit(op: Operation) -> bool:
    return op.name == "ktdf_arch.exec_unit"


def _is_link(op: Operation) -> bool:
    return op.name == "ktdf_arch.datapath"


# ---------------------------------------------------------------------------
# Verification
# ---------------------------------------------------------------------------


class _Fail(Exception):
    """Internal: a rule failed with this message (the caller adds the prefix)."""


def verify_intrinsics(op: Operation) -> None:
    """Verify every `ktdf_arch.*` discardable attribute of `op`."""
    for name, value in op.attributes.items():
        if name.startswith(PREFIX):
            verify_intrinsic(op, name, value)


def verify_intrinsic(op: Operation, name: str, value: Attribute) -> None:
    """Verify one `ktdf_arch.*` attribute; raise a located error naming it."""
    _run_check(op, _PROPERTY_CHECKS, name, value, "intrisic")


def _run_check(op: Operation, checks: dict, name: str, value: Attribute, what: str) -> None:
    """Run the check `checks[name]` (an intrinsic's or a feature's) on `value`; an unknown `name`
    or a failed check is a located error naming it."""
    checker = checks.get(name)
    if checker is None:
        raise verify_error(
            op,
            f"unrecognized 'ktdf_arch' {what}: {name}",
            [(op, "expected one of: " + ", ".join(sorted(checks)))],
        )
    try:
        checker(op, value)
    except _Fail as failure:
        raise verify_error(op, f"'{name}' intrisic {failure}") from None


def _check_bandwidth(op: Operation, value: Attribute) -> None:
    if not _is_link(op):
        raise _Fail("only valid on links")
    if not is_i64(value):
        raise _Fail("requires 64-bit integer attribute")
    if i64_value(value) <= 0:  # type: ignore[operator]
        raise _Fail("value must be > 0")


def _check_core_links(op: Operation, value: Attribute) -> None:
    """`ktdf_arch.core_links = {topology = "ring", bidirectional, bandwidth = B, latency = L}` on
    the device: its cores' scratchpads are linked in that topology, each link moving B bytes per
    cycle (per direction) after L cycles per hop (a dfsched extension; see read_core_links)."""
    if op.name != "ktdf_arch.device":
        raise _Fail("only valid on the device")
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires dictionary attribute")
    fields = value.data
    for key in fields:
        if key not in CORE_LINK_FIELDS:
            raise _Fail(f"unknown attribute '{key}' (expected one of: {', '.join(CORE_LINK_FIELDS)})")
    topology = fields.get("topology")
    if not isinstance(topology, StringAttr) or topology.data not in CORE_TOPOLOGIES:
        raise _Fail(f"attribute 'topology' requires one of: {', '.join(repr(t) for t in CORE_TOPOLOGIES)}")
    if "bidirectional" in fields and not isinstance(fields["bidirectional"], UnitAttr):
        raise _Fail("attribute 'bidirectional' requires unit")
    for key, least in (("bandwidth", 1), ("latency", 0)):
        if not is_i64(fields.get(key)) or i64_value(fields.get(key)) < least:  # type: ignore[operator]
            raise _Fail(f"attribute '{key}' requires 64-bit integer >= {least}")


def _check_features(op: Operation, value: Attribute) -> None:
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires dictionary attribute")
    for feature, provided in value.data.items():
        if not feature.startswith(PREFIX):
            continue  # other dialects' features are theirs to check
        _run_check(op, _FEATURE_CHECKS, feature, provided, "feature")


def _check_maps_to(op: Operation, value: Attribute) -> None:
    if _is_arch_op(op):
        raise _Fail("only valid on mappable ops")


def _check_overlaps(op: Operation, value: Attribute) -> None:
    if not isinstance(value, ArrayAttr):
        raise _Fail("requires array attribute")


def _check_transfer_granularity(op: Operation, value: Attribute) -> None:
    if not _is_link(op):
        raise _Fail("only valid on links")
    if not isinstance(value, DenseArrayBase) or not _is_i64_type(value.elt_type):
        raise _Fail("requires dense 64-bit integer array attribute")
    seen: set[int] = set()
    for size in value.get_values():
        if size < 0:
            raise _Fail("granularity must be >= 0")
        if size in seen:
            raise _Fail(f"repeated granularity ({size})")
        seen.add(size)


def _is_i64_type(ty: Attribute) -> bool:
    return isinstance(ty, IntegerType) and ty.width.data == 64


_PROPERTY_CHECKS = {
    BANDWIDTH: _check_bandwidth,
    CORE_LINKS: _check_core_links,
    FEATURES: _check_features,
    MAPS_TO: _check_maps_to,
    OVERLAPS: _check_overlaps,
    TRANSFER_GRANULARITY: _check_transfer_granularity,
}


def _exec_unit_only(op: Operation) -> None:
    if _is_arch_op(op) and not _is_exec_unit(op):
        raise _Fail("only valid on execution units")


def _check_compute(op: Operation, value: Attribute) -> None:
    """`ktdf_arch.feature.compute` (a unit attribute), or `{accumulate = T}` with T the float
    type the unit accumulates reductions in (a dfsched extension; see read_accumulate)."""
    _exec_unit_only(op)
    if isinstance(value, UnitAttr):
        return
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires unit or dictionary attribute")
    for key, field_value in value.data.items():
        if key != ACCUMULATE:
            raise _Fail(f"unknown attribute '{key}' (expected '{ACCUMULATE}')")
        if read_accumulate(field_value) is None:
            raise _Fail(f"'{ACCUMULATE}' requires one of the float types {', '.join(ACCUMULATE_TYPES)}")


def _feature_fields(op: Operation, value: Attribute) -> dict[str, Attribute]:
    """The fields of an exec unit's feature given as a unit (none) or a dictionary attribute."""
    _exec_unit_only(op)
    if not isinstance(value, (UnitAttr, DictionaryAttr)):
        raise _Fail("requires unit or dictionary attribute")
    return value.data if isinstance(value, DictionaryAttr) else {}


def _check_load_store(op: Operation, value: Attribute) -> None:
    fields = _feature_fields(op, value)
    word_size = fields.get("word_size")
    if word_size is not None:
        if not isinstance(word_size, MapAttr) or not all(is_i64(v) for _, v in word_size.items):
            raise _Fail("attribute 'word_size' requires map from attribute to 64-bit integer")
        for space, size in word_size.items:
            if i64_value(size) <= 0:  # type: ignore[operator]
                raise _Fail(f"attribute 'word_size[{attribute_text(space)}]' must be >= 0")
    access = fields.get("access_granularity")
    if access is not None:
        if not isinstance(access, MapAttr) or not all(
            isinstance(v, ArrayAttr) and all(isinstance(d, DictionaryAttr) for d in v.data) for _, v in access.items
        ):
            raise _Fail(
                "attribute 'access_granularity' requires map from attribute to array of dictionary attribtues"
            )
        for space, accesses in access.items:
            where = f"attribute 'access_granularity[{attribute_text(space)}]' "
            for entry in accesses.data:  # type: ignore[union-attr]
                for key, required in (("size_in_words", True), ("align_in_words", False)):
                    attr = entry.data.get(key)
                    if attr is None and not required:
                        continue
                    if not is_i64(attr):
                        raise _Fail(f"{where}attribute '{key}' requires 64-bit integer")
                    if i64_value(attr) <= 0:  # type: ignore[operator]
                        raise _Fail(f"{where}attribute '{key}' must be >= 0")


def _check_simd(op: Operation, value: Attribute) -> None:
    fields = _feature_fields(op, value)
    for flag in ("splat", "zero_pad"):
        if flag in fields and not isinstance(fields[flag], UnitAttr):
            raise _Fail(f"attribute '{flag}' requires unit")
    lanes = fields.get("lanes")
    if lanes is not None and (
        not isinstance(lanes, MapAttr) or not all(isinstance(k, TypeAttribute) and is_i64(v) for k, v in lanes.items)
    ):
        raise _Fail("attribute 'lanes' requires map from type to 64-bit integer")
    ops = fields.get("ops")
    if ops is not None:
        if not isinstance(ops, MapAttr) or not all(
            isinstance(k, TypeAttribute) and isinstance(v, ArrayAttr) and all(isinstance(n, StringAttr) for n in v.data)
            for k, v in ops.items
        ):
            raise _Fail("attribute 'ops' requires map from type to array of op names")
        for ty, names in ops.items:
            for name in names.data:  # type: ignore[union-attr]
                if not is_elementwise_op_name(name.data):
                    raise _Fail(f"attribute 'ops[{attribute_text(ty)}]' names '{name.data}', "
                                "not an element-wise arith/math op or spyreop intrinsic")


def _check_queue(op: Operation, value: Attribute) -> None:
    if _is_arch_op(op) and not _is_link(op):
        raise _Fail("only valid on links")
    if not isinstance(value, (UnitAttr, DictionaryAttr)):
        raise _Fail("requires unit or dictionary attribute")
    fields = value.data if isinstance(value, DictionaryAttr) else {}
    if "ordered" in fields and not isinstance(fields["ordered"], UnitAttr):
        raise _Fail("attribute 'ordered' requires unit")
    for key in ("size", "depth"):
        if key not in fields:
            continue
        if not is_i64(fields[key]):
            raise _Fail(f"attribute '{key}' requires 64-bit integer")
        if i64_value(fields[key]) <= 0:  # type: ignore[operator]
            raise _Fail(f"'{key}' must be > 0")


def _check_address_list(op: Operation, value: Attribute) -> None:
    """`ktdf_arch.feature.address_list = {memory = "L1"}`: the unit issues address-list
    transfers (gathers, scatters), reading each list from `memory`."""
    _exec_unit_only(op)
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires dictionary attribute")
    for key, field_value in value.data.items():
        if key != "memory":
            raise _Fail(f"unknown attribute '{key}' (expected 'memory')")
        if not isinstance(field_value, StringAttr):
            raise _Fail("attribute 'memory' requires a memory kind string")
    if "memory" not in value.data:
        raise _Fail("requires attribute 'memory' (the memory kind the address lists are read from)")
def _check_matrix(op: Operation, value: Attribute) -> None:
    """`{tile = array<i64: M, N, K>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = C}`:
    a matrix-multiply unit (a dfsched extension; see `read_matrix`)."""
    _exec_unit_only(op)
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires dictionary attribute")
    fields = value.data
    for key in fields:
        if key not in FEATURE_FIELDS[MATRIX]:
            raise _Fail(f"unknown attribute '{key}' (expected one of: {', '.join(FEATURE_FIELDS[MATRIX])})")
    tile = fields.get("tile")
    if (not isinstance(tile, DenseArrayBase) or not _is_i64_type(tile.elt_type)
            or len(tile.get_values()) != 3 or any(v <= 0 for v in tile.get_values())):
        raise _Fail("attribute 'tile' requires array<i64: M, N, K> of three sizes > 0")
    types = fields.get("types")
    if not isinstance(types, MapAttr) or not types.items or not all(
            isinstance(k, TypeAttribute) and read_accumulate(v) is not None for k, v in types.items):
        raise _Fail("attribute 'types' requires map from operand type to an accumulator type "
                    f"({', '.join(ACCUMULATE_TYPES)})")
    cycles = fields.get("cycles_per_tile")
    if not is_i64(cycles) or i64_value(cycles) <= 0:  # type: ignore[operator]
        raise _Fail("attribute 'cycles_per_tile' requires 64-bit integer > 0")


_FEATURE_CHECKS = {
    ADDRESS_LIST: _check_address_list,
    COMPUTE: _check_compute,
    LOAD: _check_load_store,
    STORE: _check_load_store,
    SIMD: _check_simd,
    QUEUE: _check_queue,
    MATRIX: _check_matrix,
}


# ---------------------------------------------------------------------------
# Typed reading (the attributes are assumed verified)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Access:
    """One permitted access shape of a load/store unit, in words."""

    size_in_words: int
    align_in_words: int = 1


def fit_access(accesses: tuple[Access, ...], min_size: int, max_align: int | None = None) -> Access | None:
    """The smallest access with size >= `min_size` and align <= `max_align`.

    Ties on size go to the smaller (more permissive) alignment, as upstream's fitAccess.
    """
    best: Access | None = None
    for access in accesses:
        if access.size_in_words < min_size:
            continue
        if max_align is not None and access.align_in_words > max_align:
            continue
        if best is None or (access.size_in_words, access.align_in_words) < (best.size_in_words, best.align_in_words):
            best = access
    return best


@dataclass(frozen=True)
class LoadStore:
    """A `feature.load` / `feature.store`: word sizes and access shapes per memory space.

    Spaces are the map keys as attributes (usually memory-kind strings such as "L1").
    """

    word_sizes: tuple[tuple[Attribute, int], ...] = ()
    accesses: tuple[tuple[Attribute, tuple[Access, ...]], ...] = ()

    def word_size(self, space: Attribute) -> int:
        """Bytes per addressed word in `space`; 1 when the map does not say."""
        for key, size in self.word_sizes:
            if key == space:
                return size
        return 1

    def access_granularity(self, space: Attribute) -> tuple[Access, ...] | None:
        for key, accesses in self.accesses:
            if key == space:
                return accesses
        return None

    def fit_access(self, space: Attribute, min_size: int, max_align: int | None = None) -> Access | None:
        accesses = self.access_granularity(space)
        return fit_access(accesses, min_size, max_align) if accesses else None


@dataclass(frozen=True)
class Simd:
    """A `feature.simd`: splat / zero-pad support and lanes per element type."""

    splat: bool = False
    zero_pad: bool = False
    lanes: tuple[tuple[Attribute, int], ...] = ()
    ops: tuple[tuple[Attribute, frozenset[str]], ...] = ()  # element type -> ops executed; absent: all

    def executes(self, op_name: str, element_type: Attribute) -> bool:
        """Whether the unit executes `op_name` on `element_type` (a type `ops` omits: every op)."""
        for key, names in self.ops:
            if key == element_type:
                return op_name in names
        return True

    def lanes_for(self, element_type: Attribute) -> int:
        """Lanes for `element_type`, 0 when not declared (callers decide what that means)."""
        for key, count in self.lanes:
            if key == element_type:
                return count
        return 0


@dataclass(frozen=True)
class Queue:
    """A `feature.queue` on a link: FIFO ordering and capacity."""

    ordered: bool = False
    size: int | None = None
    depth: int | None = None


@dataclass(frozen=True)
class Matrix:
    """A `feature.matrix`: the unit multiplies an M x K by a K x N tile into an M x N
    accumulator per step, in `cycles_per_tile` cycles, for each operand type it lists."""

    tile: tuple[int, int, int]  # M, N, K
    types: tuple[tuple[Attribute, str], ...]  # operand type -> accumulator type ("f32")
    cycles_per_tile: int

    def accumulator_for(self, operand_type: Attribute) -> str | None:
        """The accumulator type for `operand_type` operands, None when the unit does not take them."""
        return next((acc for key, acc in self.types if key == operand_type), None)

    @property
    def macs_per_cycle(self) -> float:
        m, n, k = self.tile
        return m * n * k / self.cycles_per_tile


@dataclass(frozen=True)
class Features:
    """Everything a resource's `ktdf_arch.features` dictionary says, typed."""

    compute: bool = False
    accumulate: str | None = None  # "f16" | "f32" | "f64": feature.compute's accumulation type
    load: LoadStore | None = None
    store: LoadStore | None = None
    simd: Simd | None = None
    queue: Queue | None = None
    address_list_memory: str | None = None  # feature.address_list: the memory its lists are read from
    matrix: Matrix | None = None
    raw: DictionaryAttr = field(default_factory=lambda: DictionaryAttr({}))


def _fields(value: Attribute | None) -> dict[str, Attribute]:
    return dict(value.data) if isinstance(value, DictionaryAttr) else {}


def _map_items(fields: dict[str, Attribute], key: str, entry) -> tuple:
    """`(key, entry(value))` for each pair of the `#ktdf_arch.map` at `fields[key]`, where `entry`
    gives a value (None drops the pair); () when the field is absent or not a map."""
    found = fields.get(key)
    pairs = ((k, entry(v)) for k, v in found.items) if isinstance(found, MapAttr) else ()
    return tuple((k, v) for k, v in pairs if v is not None)


def _access_shapes(entries: Attribute) -> tuple[Access, ...]:
    return tuple(Access(i64_value(entry.data.get("size_in_words")) or 1,
                        i64_value(entry.data.get("align_in_words")) or 1)
                 for entry in (entries.data if isinstance(entries, ArrayAttr) else ()))


def read_load_store(value: Attribute | None) -> LoadStore | None:
    if value is None:
        return None
    fields = _fields(value)
    return LoadStore(_map_items(fields, "word_size", lambda v: i64_value(v) or 1),
                     _map_items(fields, "access_granularity", _access_shapes))


def read_simd(value: Attribute | None) -> Simd | None:
    if value is None:
        return None
    fields = _fields(value)
    lanes = _map_items(fields, "lanes", lambda v: i64_value(v) or 0)
    ops = _map_items(fields, "ops", lambda v: frozenset(n.data for n in v.data if isinstance(n, StringAttr))
                     if isinstance(v, ArrayAttr) else None)
    return Simd(isinstance(fields.get("splat"), UnitAttr), isinstance(fields.get("zero_pad"), UnitAttr), lanes, ops)


def read_queue(value: Attribute | None) -> Queue | None:
    if value is None:
        return None
    fields = _fields(value)
    return Queue(
        isinstance(fields.get("ordered"), UnitAttr), i64_value(fields.get("size")), i64_value(fields.get("depth"))
    )


def read_matrix(value: Attribute | None) -> Matrix | None:
    if not isinstance(value, DictionaryAttr):
        return None
    fields = value.data
    tile = fields.get("tile")
    types = fields.get("types")
    if not isinstance(tile, DenseArrayBase) or not isinstance(types, MapAttr):
        return None
    m, n, k = tile.get_values()
    pairs = tuple((key, acc) for key, v in types.items if (acc := read_accumulate(v)) is not None)
    return Matrix((m, n, k), pairs, i64_value(fields.get("cycles_per_tile")) or 1)


def read_features(op: Operation) -> Features:
    raw = op.attributes.get(FEATURES)
    if not isinstance(raw, DictionaryAttr):
        return Features()
    data = raw.data
    return Features(
        compute=COMPUTE in data,
        accumulate=read_accumulate(_fields(data.get(COMPUTE)).get(ACCUMULATE)),
        load=read_load_store(data.get(LOAD)),
        store=read_load_store(data.get(STORE)),
        simd=read_simd(data.get(SIMD)),
        queue=read_queue(data.get(QUEUE)),
        address_list_memory=_address_list_memory(data.get(ADDRESS_LIST)),
        matrix=read_matrix(data.get(MATRIX)),
        raw=raw,
    )


def _address_list_memory(value: Attribute | None) -> str | None:
    memory = _fields(value).get("memory")
    return memory.data if isinstance(memory, StringAttr) else None


def read_accumulate(value: Attribute | None) -> str | None:
    """The accumulation type named by `value` ("f16", "f32", "f64"), or None."""
    text = attribute_text(value) if isinstance(value, TypeAttribute) else None
    return text if text in ACCUMULATE_TYPES else None


def read_transfer_granularity(op: Operation) -> tuple[int, ...]:
    value = op.attributes.get(TRANSFER_GRANULARITY)
    return tuple(value.get_values()) if isinstance(value, DenseArrayBase) else ()


@dataclass(frozen=True)
class CoreLinks:
    """A device's `ktdf_arch.core_links`: how its cores' scratchpads are linked."""

    topology: str  # "ring": core i to core i+1, the last to the first
    bidirectional: bool  # links in both directions (else only i -> i+1)
    bandwidth: int  # bytes per cycle of each link (per direction)
    latency: int  # cycles before the first byte crosses one link (one hop)


def read_core_links(op: Operation) -> CoreLinks | None:
    fields = _fields(op.attributes.get(CORE_LINKS))
    topology = fields.get("topology")
    if not isinstance(topology, StringAttr):
        return None
    return CoreLinks(topology.data, isinstance(fields.get("bidirectional"), UnitAttr),
                     i64_value(fields.get("bandwidth")) or 1, i64_value(fields.get("latency")) or 0)


def read_bandwidth(op: Operation) -> int | None:
    return i64_value(op.attributes.get(BANDWIDTH))


def feature_satisfies(name: str, provided: Attribute | None, required: Attribute) -> bool:
    """Does the `provided` value of feature `name` meet `required` (PDL `has_feature`)?

    Equal values and unit requirements always match; ktdf_arch features also compare
    field-wise (`docs/devices.md#the-model-in-one-page`).
    """
    if provided is None:
        return False
    if provided == required or isinstance(required, UnitAttr):
        return True
    if name in (LOAD, STORE):
        have, want = read_load_store(provided), read_load_store(required)
        if have is None or want is None:
            return False
        if any(have.word_size(space) != size for space, size in want.word_sizes):
            return False
        for space, needed in want.accesses:
            offered = have.access_granularity(space)
            if needed and (not offered or any(fit_access(offered, a.size_in_words, a.align_in_words) is None
                                              for a in needed)):
                return False
        return True
    if name == SIMD:
        have_s, want_s = read_simd(provided), read_simd(required)
        if have_s is None or want_s is None:
            return False
        if (want_s.splat and not have_s.splat) or (want_s.zero_pad and not have_s.zero_pad):
            return False
        return all(have_s.lanes_for(t) >= n for t, n in want_s.lanes)
    if name == QUEUE:
        have_q, want_q = read_queue(provided), read_queue(required)
        if have_q is None or want_q is None:
            return False
        if want_q.ordered and not have_q.ordered:
            return False
        for need, have in ((want_q.size, have_q.size), (want_q.depth, have_q.depth)):
            if need is not None and (have is None or have < need):
                return False
        return True
    return False
