"""Shared vocabulary of the `ktdflowering-to-dfir` helpers (`docs/passes.md#ktdflowering-to-dfir`).

* unit values: `kind_of` (a `uniform.query_map` over a mapping of `dataflow.get_unit`s → the
  upper-cased unit type), `get_unit_of`, `corelet_of`, `expand_units`;
* unit names: `unit_type_tag` (the lower-case `type` of a `dataflow.get_unit` for a kind or
  a memory space), `unit_name`, `make_unit`;
* building: identity maps,
  `sizes_set` (the per-dimension integer set of a box), `uniform_map_query`;
* agen helpers: `emit_vector_load` / `emit_vector_store` of a whole memref;
* architecture facts: `vector_lanes`, `flattened_vector_type` (read through `DeviceModel`);

Unit kinds are compared as upper-case strings (`"MNILU"`), as upstream upper-cases the `type`
of a `get_unit` to find its kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    IndexType,
    MemRefType,
    StringAttr,
    i32,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import (
    AffineConstantExpr,
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
)

from dfsched.diagnostics import error
from dfsched.dialects.affine_subscripts import affine_add, affine_mul, affine_neg
from dfsched.dialects.constants import integer_attr
from dfsched.dialects.dataflow import GetUnitOp, ProgramUnitOp, ReceiveOp
from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.passes.builder import Builder

PASS = "ktdflowering-to-dfir"
INDEX = IndexType()


# ---------------------------------------------------------------------------
# Building IR
# ---------------------------------------------------------------------------


def identity_map(rank: int) -> AffineMap:
    return AffineMap.identity(rank)


def linear_layout(strides: Sequence[int]) -> AffineMap:
    """`(d0, ..., dn-1) -> (d0 * s0 + ... + dn-1 * sn-1)`, built as MLIR simplifies it."""
    total: AffineExpr = AffineConstantExpr(0)
    for i, stride in enumerate(strides):
        total = affine_add(total, affine_mul(AffineDimExpr(i), AffineConstantExpr(stride)))
    return AffineMap(len(strides), 0, (total,))


def row_major_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def sizes_set(sizes: Sequence[int]) -> AffineSetAttr:
    """One constraint per dimension: `di == 0` for a unit size, else `0 <= di <= size - 1`."""
    constraints: list[AffineConstraintExpr] = []
    zero = AffineConstantExpr(0)
    for i, size in enumerate(sizes):
        dim = AffineDimExpr(i)
        if size == 1:
            constraints.append(AffineConstraintExpr(AffineConstraintKind.eq, dim, zero, canonicalize=False))
        else:
            constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, dim, zero, canonicalize=False))
            upper = affine_add(AffineConstantExpr(size - 1), affine_neg(dim))
            constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, upper, zero, canonicalize=False))
    return AffineSetAttr(AffineSet(len(sizes), 0, tuple(constraints)))


def uniform_map_query(builder: Builder, keys: Sequence[SSAValue], values: Sequence[SSAValue],
                      key: SSAValue) -> SSAValue:
    """`def_immutable_mapping([k -> v]...)` then `query_map(map, key)`; returns the query."""
    mapping = builder.value(DefImmutableMappingOp(list(keys), list(values)))
    return builder.value(QueryMapOp(mapping, key, INDEX))


def queried_mapping(value: SSAValue) -> tuple[QueryMapOp, DefImmutableMappingOp] | None:
    """The `uniform.query_map` defining `value` and the `def_immutable_mapping` it queries."""
    query = value.owner
    if not isinstance(query, QueryMapOp):
        return None
    mapping = query.map.owner
    return (query, mapping) if isinstance(mapping, DefImmutableMappingOp) else None


# ---------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------


def unit_type_tag(kind: Attribute | str) -> str:
    """The `type` of a `dataflow.get_unit` for a kind: lower case.

    `#ktdp.memory_space<global>` / `<ct_local>` are spelled `hbm` / `lx` (what DFIR code
    generation expects); any other attribute is its printed form, lower-cased.
    """
    if isinstance(kind, str):
        return kind.lower()
    if isinstance(kind, StringAttr):
        return kind.data.lower()
    if kind.name == "ktdp.memory_space":
        space = getattr(kind, "kind", None)
        name = space.data if isinstance(space, StringAttr) else str(space)
        if name == "global":
            return "hbm"
        if name == "ct_local":
            return "lx"
    from dfsched.dialects.ktdf_arch import attribute_text

    return attribute_text(kind).lower()


def unit_name(tag: str, core: int | None = None, corelet: int | None = None) -> str:
    """`C<core>-<tag>[-CL<corelet>]`, or the bare tag for a unit that belongs to no core."""
    name = tag if core is None else f"C{core}-{tag}"
    return name if corelet is None else f"{name}-CL{corelet}"


def make_unit(name: str, tag: str, core: int | None = None, corelet: int | None = None):
    """`dataflow.get_unit {core = c : i32, corelet = k : i32, name = ..., type = ...} : index`."""
    attrs: dict[str, Attribute] = {}
    if core is not None:
        attrs["core"] = integer_attr(core, i32)
    if corelet is not None:
        attrs["corelet"] = integer_attr(corelet, i32)
    return GetUnitOp.create(result_types=[INDEX], attributes=attrs,  # one per core and unit kind:
                            properties={"name": StringAttr(name), "type": StringAttr(tag)})  # `create` is cheaper


def get_unit_of(value: SSAValue) -> GetUnitOp | None:
    owner = value.owner
    return owner if type(owner) is GetUnitOp or isinstance(owner, GetUnitOp) else None


def mapping_of(value: SSAValue) -> DefImmutableMappingOp | None:
    """The mapping a `uniform.query_map` result reads, if `value` is one."""
    query = value.owner
    if not isinstance(query, QueryMapOp):
        return None
    mapping = query.map.owner
    return mapping if isinstance(mapping, DefImmutableMappingOp) else None


def kind_of(value: SSAValue) -> str | None:
    """Upstream `getUnitResourceType`: the unit kind a query over `get_unit`s stands for."""
    mapping = mapping_of(value)
    if mapping is None or not mapping.values:
        return None
    unit = get_unit_of(mapping.values[0])
    if unit is None:
        return None
    return unit.unit_type.data.upper()


def unit_type(unit: GetUnitOp) -> str:
    return unit.unit_type.data.upper()


def corelet_of(unit: GetUnitOp) -> int:
    """The `corelet` attribute, -1 when absent (upstream `getCoreletId`)."""
    corelet = unit.corelet
    return -1 if corelet is None else corelet


def enclosing_program_unit(op: Operation) -> ProgramUnitOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ProgramUnitOp):
        parent = parent.parent_op()
    return parent


def unit_cores(pu: ProgramUnitOp, at: Operation, not_a_unit: str, no_core: str) -> list[tuple[SSAValue, int]]:
    """(unit operand, its core) for each unit `pu` runs on; a located error on `at` (upstream's
    words for the caller: `not_a_unit`, `no_core`) for an operand that is not a `dataflow.get_unit`
    with a core."""
    pairs = []
    for unit_value in pu.units:
        unit = get_unit_of(unit_value)
        if unit is None:
            raise error(at, not_a_unit)
        if unit.core is None:
            raise error(at, no_core)
        pairs.append((unit_value, unit.core))
    return pairs


def required_program_unit(op: Operation) -> ProgramUnitOp:
    """The program unit `op` runs in; a located error (`data_transfer must be inside a
    program_unit`) when it is in none."""
    pu = enclosing_program_unit(op)
    if pu is None:
        raise error(op, f"{op.name.split('.', 1)[1]} must be inside a program_unit")
    return pu


def program_unit_kind(pu: ProgramUnitOp) -> str | None:
    """The kind of the units a program unit runs on (from its first unit)."""
    if not pu.units:
        return None
    unit = get_unit_of(pu.units[0])
    return unit_type(unit) if unit is not None else None


def iter_arg_of(pu: ProgramUnitOp, at: Operation | None = None) -> SSAValue:
    arg = pu.iter_arg
    if arg is None:
        raise error(at or pu, "dataflow.program_unit has no iter_arg to key a uniform map with")
    return arg


def _first_targets(targets: Sequence[SSAValue]) -> tuple[dict[int, int], dict[tuple[int, int], int], int]:
    """The index of the first target per core and per (core, corelet), read up to the first
    target that is not a unit with a core (its index, or len(targets)): a unit with no match
    before it meets it in upstream's scan. One pass over the targets, not one per unit (grids
    of thousands of tiles)."""
    first_on_core: dict[int, int] = {}
    first_on_corelet: dict[tuple[int, int], int] = {}
    first_bad = len(targets)
    for index, target_value in enumerate(targets):
        target = get_unit_of(target_value)
        if target is None or target.core is None:
            first_bad = index
            break
        first_on_core.setdefault(target.core, index)
        first_on_corelet.setdefault((target.core, corelet_of(target)), index)
    return first_on_core, first_on_corelet, first_bad


def query_for_component(builder: Builder, pu: ProgramUnitOp, targets: Sequence[SSAValue],
                        at: Operation) -> SSAValue:
    """Upstream `createQueryMapForComponent`: each unit of `pu` → the first target on its core
    (and on its corelet, when it has one), queried by the program unit's iter_arg."""
    first_on_core, first_on_corelet, first_bad = _first_targets(targets)
    keys: list[SSAValue] = []
    values: list[SSAValue] = []
    for unit_value in pu.units:
        unit = get_unit_of(unit_value)
        if unit is None or unit.core is None:
            raise error(at, "program_unit operand must be a dataflow.get_unit with a 'core' attribute")
        core, corelet = unit.core, corelet_of(unit)
        index = first_on_corelet.get((core, corelet)) if corelet >= 0 else first_on_core.get(core)
        if index is None and first_bad < len(targets):
            raise error(at, "target unit must be a dataflow.get_unit with a 'core' attribute")
        if index is None:
            raise error(at, f"no unit of the peer kind runs on core {core}"
                            + (f", corelet {corelet}" if corelet >= 0 else "")
                            + f" for unit '{unit.unit_name.data}'")
        keys.append(unit_value)
        values.append(targets[index])
    if not keys:
        raise error(at, "dataflow.program_unit has no units")
    return uniform_map_query(builder, keys, values, iter_arg_of(pu, at))


def resolve_fifo_unit(builder: Builder, endpoint: Attribute, components: dict[str, list[SSAValue]],
                      pu: ProgramUnitOp, at: Operation) -> SSAValue:
    """Upstream `resolveUnitFromFifoAttr`: the peer unit a FIFO endpoint kind names."""
    if not isinstance(endpoint, StringAttr):
        raise error(at, "unsupported FIFO endpoint attribute type")
    kind = endpoint.data.upper()
    targets = components.get(kind)
    if targets is None:
        raise error(at, f"no units found for FIFO component type: \"{kind}\"")
    return query_for_component(builder, pu, targets, at)


def receive_from_fifo(builder: Builder, endpoint: Attribute, components: dict[str, list[SSAValue]],
                      pu: ProgramUnitOp, at: Operation, vector: VectorType) -> SSAValue:
    """A `dataflow.receive` of `vector` from the peer unit of a FIFO slot's source kind."""
    source = resolve_fifo_unit(builder, endpoint, components, pu, at)
    return builder.value(ReceiveOp.build(operands=[source], result_types=[vector]))


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Vectors and the device
# ---------------------------------------------------------------------------


def vector_lanes(model, element_type: Attribute, at: Operation) -> int:
    """SIMD lanes of the compute kind for `element_type` (Decision 7: none declared is an error)."""
    kind = model.compute_kind
    if kind is None:
        raise error(at, "cannot determine the hardware vector width: the architecture declares no "
                        "compute resource kind")
    return model.simd_lanes(kind, element_type, at)


def shape_and_element(type_: Attribute) -> tuple[list[int], Attribute] | None:
    if isinstance(type_, TensorType | MemRefType):
        return list(type_.get_shape()), type_.element_type
    return None


def flattened_vector_type(model, type_: Attribute, at: Operation, block: bool = False) -> VectorType:
    """A tensor/memref as one `vector<N x T>` that must fit the hardware vector width, unless
    `block`: a matrix step's operand or accumulator block, whole unit tiles that the FIFO
    streams and the unit consumes vector by vector (`dfir_compute.matrix_block_ops`)."""
    if isinstance(type_, VectorType):
        return type_
    found = shape_and_element(type_)
    if found is None:
        raise error(at, f"cannot turn {type_} into a vector")
    shape, element = found
    total = 1
    for dim in shape:
        if dim < 0:
            raise error(at, f"cannot turn {type_} into a vector: its shape is dynamic")
        total *= dim
    if block:
        return VectorType(element, [total])
    lanes = vector_lanes(model, element, at)
    if total > lanes:
        raise error(at, f"{type_} holds {total} elements, more than the hardware vector width of {lanes}")
    return VectorType(element, [total])


def _whole_memref_access(builder: Builder, memref: SSAValue) -> tuple[AffineMap, list[SSAValue], AffineSetAttr,
                                                                        AffineMapAttr]:
    """The subscript map, zero indices, set and identity order of an access to all of `memref`."""
    mtype = memref.type
    assert isinstance(mtype, MemRefType)
    rank = len(mtype.get_shape())
    order = identity_map(rank)
    return order, [builder.constant(0)] * rank, sizes_set(mtype.get_shape()), AffineMapAttr(order)


def emit_vector_load(builder: Builder, vector_type: Attribute, memref: SSAValue) -> SSAValue:
    """`agen.vector_load` of a whole memref at zero indices, identity order."""
    from dfsched.dialects.agen import VectorLoadOp

    return builder.value(VectorLoadOp(vector_type, memref, *_whole_memref_access(builder, memref)))


def emit_vector_store(builder: Builder, value: SSAValue, memref: SSAValue) -> Operation:
    """`agen.vector_store` of a whole memref at zero indices, identity order."""
    from dfsched.dialects.agen import VectorStoreOp

    return builder.insert(VectorStoreOp(value, memref, *_whole_memref_access(builder, memref)))
