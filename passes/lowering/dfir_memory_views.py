"""Logical memory views (`docs/passes.md#ktdflowering-to-dfir`).

Memories become units (`dataflow.get_unit` per memory kind: one for a global or below-scratchpad
memory, one per core for a per-core scratchpad), and every memref a program reaches becomes a
`dataflow.get_logical_memory_view` of the right unit at a start address with a linear layout:

* source A: a `ktdp.construct_memory_view` followed by view-like memref ops (the chain ends in
  the memory space; a `reinterpret_cast` offset displaces the start, symbolically when the base
  address is a run input, see `dfir_symbols`);
* source B: an address-assigned buffer, `builtin.unrealized_conversion_cast %addr : index to
  memref<..., space>` (row-major layout); buffers only ever deallocated are dropped.

The views have plain memref types (no layout, no memory space); `ktdf.select_memref` results and
transfers that used the old values are retyped/rewired.

Start addresses are bytes (Decision 8): the base of a KTIR view and an address-assigned buffer
are byte addresses already; a `reinterpret_cast` offset counts elements and is multiplied by
the element size where it is added. As upstream, a KTIR view is lowered only when it reaches a
memory space through `memref.memory_space_cast` (the pipeline's shape); one typed with a space
directly is left as it is when no other memory is needed (and has no unit otherwise).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    MemRefType,
    StringAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.model import BELOW_SCRATCHPAD, GLOBAL, SCRATCHPAD, DeviceModel
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp, GetUnitOp, ProgramUnitOp
from dfsched.dialects.ktdf import SelectMemrefOp
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.passes.lowering import dfir_symbols as sym
from dfsched.dialects.constants import constant_int
from dfsched.passes.lowering.program import MISSING_GRID, one_d_grid_size
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_utils import (
    iter_arg_of,
    linear_layout,
    row_major_strides,
    uniform_map_query,
    unit_cores,
)

VIEW_LIKE = frozenset({
    "memref.cast", "memref.memory_space_cast", "memref.reinterpret_cast", "memref.subview", "memref.view",
    "memref.expand_shape", "memref.collapse_shape", "memref.transpose",
})


def memory_space(type_: Attribute) -> Attribute | None:
    if isinstance(type_, MemRefType) and not _is_no_space(type_.memory_space):
        return type_.memory_space
    return None


def _is_no_space(space: Attribute) -> bool:
    from xdsl.dialects.builtin import NoneAttr

    return isinstance(space, NoneAttr)


def _is_address_cast(op: Operation) -> bool:
    """`builtin.unrealized_conversion_cast %a : index to memref<..., space>`."""
    return (op.name == "builtin.unrealized_conversion_cast" and len(op.operands) == 1
            and len(op.results) == 1 and isinstance(op.operands[0].type, IndexType)
            and memory_space(op.results[0].type) is not None)


def unit_tag(space: Attribute) -> str:
    """Upstream `unitTypeTag`: `hbm`/`lx` for KTIR spaces, else the lower-cased kind."""
    if getattr(space, "name", "") == "ktdp.memory_space":
        kind = getattr(space, "kind", None)
        text = kind.data if isinstance(kind, StringAttr) else attribute_text(space)
        return {"global": "hbm", "ct_local": "lx"}.get(text, text.lower())
    if isinstance(space, StringAttr):
        return space.data.lower()
    return attribute_text(space).lower()


def _walk_program_units(func: FuncOp) -> list[ProgramUnitOp]:
    return [op for op in func.walk(region_first=True) if isinstance(op, ProgramUnitOp)]


# ---------------------------------------------------------------------------
# Phase 1: which memory spaces are reached
# ---------------------------------------------------------------------------


def discover_and_prune(func: FuncOp) -> list[Attribute]:
    needed: list[Attribute] = []

    def need(space: Attribute) -> None:
        if space not in needed:
            needed.append(space)

    for pu in _walk_program_units(func):
        to_prune: list[Operation] = []
        for op in pu.body.block.walk(region_first=True):
            if op.name == "ktdp.construct_memory_view":
                for use in op.results[0].uses:
                    if use.operation.name == "memref.memory_space_cast":
                        space = memory_space(use.operation.results[0].type)
                        if space is not None:
                            need(space)
                continue
            if _is_address_cast(op):
                result = op.results[0]
                if all(use.operation.name == "memref.dealloc" for use in result.uses):
                    to_prune.append(op)
                else:
                    need(memory_space(result.type))
        for cast in to_prune:
            for use in list(cast.results[0].uses):
                Rewriter.erase_op(use.operation)
            Rewriter.erase_op(cast)
    return needed


# ---------------------------------------------------------------------------
# Phase 2: memory units
# ---------------------------------------------------------------------------


def _level(model: DeviceModel, space: Attribute, func: FuncOp) -> str:
    try:
        memory = model.memory_for_space(space, func)
    except DiagnosticError:
        raise error(func, f"Unknown memory space classification for: {attribute_text(space)}") from None
    return memory.level


def materialize_memory_units(func: FuncOp, needed: list[Attribute], grid: int, model: DeviceModel,
                             builder: Builder) -> dict[tuple[Attribute, int], SSAValue]:
    units: dict[tuple[Attribute, int], SSAValue] = {}
    for space in needed:
        tag = unit_tag(space)
        level = _level(model, space, func)
        if level in (GLOBAL, BELOW_SCRATCHPAD):
            units[(space, -1)] = builder.value(GetUnitOp(tag, tag))
        elif level == SCRATCHPAD:
            for core in range(grid):
                op = GetUnitOp(f"C{core}-{tag}", tag)
                op.attributes["core"] = _i32(core)
                units[(space, core)] = builder.value(op)
        else:  # pragma: no cover - every level is one of the three
            raise error(func, f"Unknown memory space classification for: {attribute_text(space)}")
    return units


def _i32(value: int):
    from xdsl.dialects.builtin import i32

    from dfsched.dialects.constants import integer_attr

    return integer_attr(value, i32)


def _resolve_units(pu: ProgramUnitOp, needed: list[Attribute], memory_units, model: DeviceModel,
                   func: FuncOp, builder: Builder) -> dict[Attribute, SSAValue]:
    resolved: dict[Attribute, SSAValue] = {}
    per_core: list[Attribute] = []
    for space in needed:
        level = _level(model, space, func)
        if level in (GLOBAL, BELOW_SCRATCHPAD):
            unit = memory_units.get((space, -1))
            if unit is None:
                raise error(pu, "global memory unit SSA not found")
            resolved[space] = unit
        else:
            per_core.append(space)
    for space in per_core:
        keys: list[SSAValue] = []
        values: list[SSAValue] = []
        for unit_value, core in unit_cores(pu, pu, "program_unit operand is not defined by dataflow.get_unit",
                                           "dataflow.get_unit operand missing 'core' attribute"):
            memory = memory_units.get((space, core))
            if memory is None:
                raise error(pu, f"memory unit SSA value not found for core {core}")
            keys.append(unit_value)
            values.append(memory)
        resolved[space] = uniform_map_query(builder, keys, values, iter_arg_of(pu))
    return resolved


# ---------------------------------------------------------------------------
# Phase 3: views
# ---------------------------------------------------------------------------


def _reinterpret_offset(rc: Operation) -> int | SSAValue:
    """`getConstifiedMixedOffset`: the static offset, or the dynamic one (folded if constant)."""
    static = rc.properties["static_offsets"].get_values()
    if static and static[0] != DYNAMIC_INDEX:
        return static[0]
    dynamic = rc.offsets[0]
    constant = constant_int(dynamic)
    return constant if constant is not None else dynamic


def _owner_unit(cmv: Operation, space: Attribute, memory_units) -> SSAValue | None:
    """The memory unit of the core a view names with `ct_id` (`#ktdp.memory_space<ct_local,
    ct_id = N>`: compute tile N's scratchpad, read by every core's units over the core links),
    or None for a view of the running core's memory or a shared one."""
    owner = getattr(getattr(cmv.properties.get("memory_space"), "ct_id", None), "data", -1)
    if owner < 0 or (space, -1) in memory_units:
        return None
    unit = memory_units.get((space, owner))
    if unit is None:
        cores = sum(1 for key in memory_units if key[0] == space)
        raise error(cmv, f"the view lives in compute tile {owner}'s scratchpad (ct_id = {owner}), but the "
                         f"grid has {cores} tile(s)")
    return unit


def _replace_source_a(pu: ProgramUnitOp, resolved, model: DeviceModel, symbols, definitions: Builder,
                      memory_units) -> None:
    cmvs = [op for op in pu.body.block.walk(region_first=True) if op.name == "ktdp.construct_memory_view"]
    for cmv in cmvs:
        sizes, strides = cmv.constant_sizes(), cmv.constant_strides()
        if any(s is None for s in sizes):
            raise error(cmv, "construct_memory_view: dynamic sizes not supported")
        if any(s is None for s in strides):
            raise error(cmv, "construct_memory_view: dynamic strides not supported")
        layout = AffineMapAttr(linear_layout(strides))
        src_type = cmv.results[0].type
        assert isinstance(src_type, MemRefType)
        plain = MemRefType(src_type.element_type, src_type.get_shape())
        users = [use.operation for use in cmv.results[0].uses if use.operation.name in VIEW_LIKE]
        if not users:
            raise error(cmv, "construct_memory_view: no ViewLikeOpInterface users found")
        offset_value = cmv.operands[0]
        element_bytes = sym.element_size_bytes(src_type.element_type)
        for first in users:
            rc: Operation | None = None
            cursor = first.results[0]
            chain = [first]
            # As upstream, only a reinterpret_cast *after* the first view-like op displaces the
            # start (a chain always begins with the cast into the memory space).
            while len(list(cursor.uses)) == 1:
                user = next(iter(cursor.uses)).operation
                if user.name not in VIEW_LIKE:
                    break
                if rc is None and user.name == "memref.reinterpret_cast":
                    rc = user
                chain.append(user)
                cursor = user.results[0]

            taken = sym.take_address_apart(offset_value, pu, symbols)
            if rc is not None:
                offset: int | SSAValue = _reinterpret_offset(rc)
                builder = Builder.after(rc)
            else:
                offset = 0
                tail_owner = cursor.owner
                assert isinstance(tail_owner, Operation)
                builder = Builder.after(tail_owner)

            view_layout, view_type = layout, plain
            permuted = _permuted_tile(rc, strides)
            if permuted is not None:  # a tile enumerated in another order than its view
                view_layout = AffineMapAttr(linear_layout(permuted[1]))
                view_type = MemRefType(src_type.element_type, permuted[0])
            space = memory_space(cursor.type)
            if taken is not None:
                displacement = sym.take_displacement_apart(offset, pu)
                displacement.scale(element_bytes)
                if space is None:
                    raise error(cmv, "construct_memory_view: no memory space found in chain")
                start = sym.emit_symbolic_start_address(taken, displacement, pu, symbols, builder, definitions)
            else:
                # Decision 8: the base is a byte address, the offset counts elements.
                start = offset_value
                if isinstance(offset, int):
                    if offset != 0:
                        start = builder.value(_addi(start, builder.constant(offset * element_bytes)))
                else:
                    if element_bytes != 1:
                        offset = builder.value(_muli(offset, builder.constant(element_bytes)))
                    start = builder.value(_addi(start, offset))
            if space is None:
                raise error(cmv, "construct_memory_view: no memory space found in chain")
            unit = _owner_unit(cmv, space, memory_units) or resolved.get(space)
            if unit is None:
                raise error(cmv, "no resolved unit for memory space")
            view = builder.value(GetLogicalMemoryViewOp(unit, start, view_layout, view_type))
            cursor.replace_all_uses_with(view)
            for op in reversed(chain):
                Rewriter.erase_op(op)
        Rewriter.erase_op(cmv)


def _permuted_tile(rc: Operation | None, view_strides: list[int]) -> tuple[list[int], list[int]] | None:
    """(shape, strides) of a `reinterpret_cast` whose strides permute its view's (an access tile
    with a non-identity `access_tile_order`), else None: its transfers index the tile's own
    dimensions, so the logical view takes the tile's shape and strides."""
    if rc is None:
        return None
    strides = list(rc.properties["static_strides"].get_values())
    shape = list(rc.properties["static_sizes"].get_values())
    if strides == list(view_strides) or sorted(strides) != sorted(view_strides) or DYNAMIC_INDEX in strides + shape:
        return None
    return shape, strides


def _addi(lhs: SSAValue, rhs: SSAValue) -> Operation:
    from xdsl.dialects import arith

    return arith.AddiOp(lhs, rhs)


def _muli(lhs: SSAValue, rhs: SSAValue) -> Operation:
    from xdsl.dialects import arith

    return arith.MuliOp(lhs, rhs)


def _retype_select(select: SelectMemrefOp, new_type: Attribute) -> SelectMemrefOp:
    """`select_memref` with result type `new_type` (xDSL values cannot change type in place)."""
    if select.result.type == new_type:
        return select
    new = SelectMemrefOp(select.phase, list(select.candidates), new_type)
    new.attributes.update(select.attributes)
    new.location = select.location
    Rewriter.insert_op(new, _before(select))
    select.result.replace_all_uses_with(new.result)
    Rewriter.erase_op(select)
    return new


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def _replace_source_b(pu: ProgramUnitOp, resolved) -> dict[SSAValue, SSAValue]:
    replacements: dict[SSAValue, SSAValue] = {}
    casts = [op for op in pu.body.block.walk(region_first=True) if _is_address_cast(op)]
    for cast in casts:
        result_type = cast.results[0].type
        assert isinstance(result_type, MemRefType)
        shape = list(result_type.get_shape())
        if any(d == DYNAMIC_INDEX or d < 0 for d in shape):
            raise error(cast, "unrealized_conversion_cast: dynamic shape not supported")
        layout = AffineMapAttr(linear_layout(row_major_strides(shape)))
        space = memory_space(result_type)
        unit = resolved.get(space)
        if unit is None:
            raise error(cast, "no resolved unit for memory space")
        plain = MemRefType(result_type.element_type, shape)
        view = Builder.before(cast).value(GetLogicalMemoryViewOp(unit, cast.operands[0], layout, plain))
        result = cast.results[0]
        for use in list(result.uses):
            if use.operation.name == "memref.dealloc":
                Rewriter.erase_op(use.operation)
        for use in list(result.uses):
            mc = use.operation
            if mc.name == "memref.cast":
                for inner in list(mc.results[0].uses):
                    if isinstance(inner.operation, SelectMemrefOp):
                        _retype_select(inner.operation, plain)
                mc.results[0].replace_all_uses_with(view)
                Rewriter.erase_op(mc)
                break
        replacements[result] = view
    return replacements


def _propagate(pu: ProgramUnitOp, replacements: dict[SSAValue, SSAValue], model: DeviceModel,
               func: FuncOp) -> None:
    for old, new in replacements.items():
        users: list[Operation] = []
        for use in old.uses:
            if use.operation not in users:
                users.append(use.operation)
        for user in users:
            if user.name in ("ktdf.data_transfer", "ktdf.indirect_view"):
                _replace_uses_in(user, old, new)
            elif isinstance(user, SelectMemrefOp):
                _replace_uses_in(user, old, new)
                select = _retype_select(user, new.type)
                for use in select.result.uses:
                    if use.operation.name != "ktdf.data_transfer":
                        raise error(select, "select_memref result used by unexpected op; expected data_transfer")
            else:
                space = memory_space(old.type)
                if space is not None and _level(model, space, func) == BELOW_SCRATCHPAD:
                    _replace_uses_in(user, old, new)
                else:
                    raise error(user, "unexpected consumer of memory view; expected data_transfer or select_memref")


def _replace_uses_in(op: Operation, old: SSAValue, new: SSAValue) -> None:
    op.operands = tuple(new if v is old else v for v in op.operands)


def build_logical_memory_views(func: FuncOp, model: DeviceModel, symbols) -> None:
    needed = discover_and_prune(func)
    if not needed:
        return
    grid = one_d_grid_size(func, not_an_array=MISSING_GRID)
    block = func.body.blocks.first
    assert block is not None
    last_unit = None
    for op in block.ops:
        if isinstance(op, GetUnitOp):
            last_unit = op
    builder = Builder.after(last_unit) if last_unit is not None else Builder.at_start(block)
    memory_units = materialize_memory_units(func, needed, grid, model, builder)
    definitions = builder  # function-level definitions go right after the memory units
    symbols.declare_inputs_in(func, definitions)
    for pu in _walk_program_units(func):
        at_start = Builder(InsertPoint.at_start(pu.body.block), None, pu.location)
        resolved = _resolve_units(pu, needed, memory_units, model, func, at_start)
        _replace_source_a(pu, resolved, model, symbols, definitions, memory_units)
        replacements = _replace_source_b(pu, resolved)
        _propagate(pu, replacements, model, func)
        for old in replacements:
            if not old.uses and isinstance(old.owner, Operation):
                Rewriter.erase_op(old.owner)

