"""Program units: one `dataflow.program_unit` per unit kind (`docs/passes.md#ktdflowering-to-dfir`).

* `partition(func)`: the prelude (unit handles, constants, uniform maps/queries, tile ids) and
  the work (everything else) of the entry block;
* `discover_unit_types(work)`: kind → the `get_unit` values of that kind, in the order the
  `execute_on`s (walked innermost first) name them;
* `build_program_units(func, work, components)`: one program unit per kind, each a copy of the
  work with the `execute_on`s of its kind unwrapped and the others (and signals not involving
  it) removed; a compute tile id used inside becomes a per-unit core lookup.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.passes.walk import post_order
from dfsched.dialects.constants import index_constant
from dfsched.diagnostics import error
from dfsched.dialects.dataflow import GetUnitOp, ProgramUnitOp, ReturnOp
from dfsched.dialects.ktdf_lowering import ExecuteOnOp, SignalOp
from dfsched.dialects.ktdp import GetComputeTileIdOp
from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_utils import INDEX, get_unit_of, kind_of, uniform_map_query, unit_cores

Components = dict[str, list[SSAValue]]

_PRELUDE = (GetUnitOp, arith.ConstantOp, DefImmutableMappingOp, QueryMapOp, GetComputeTileIdOp)

UNRESOLVED_EXECUTE_ON = ("ktdflowering-to-dfir: could not resolve component type for unit operand of "
                         "ktdf_lowering.execute_on")


def entry_block(func: FuncOp) -> Block | None:
    return func.body.blocks.first


def partition(func: FuncOp) -> tuple[list[Operation], list[Operation]]:
    """(prelude ops, work ops) of the entry block, terminator excluded, in block order."""
    block = entry_block(func)
    if block is None:
        return [], []
    prelude: list[Operation] = []
    work: list[Operation] = []
    for op in block.ops:
        if _is_terminator(op):
            continue
        (prelude if isinstance(op, _PRELUDE) else work).append(op)
    return prelude, work


def _is_terminator(op: Operation) -> bool:
    from xdsl.traits import IsTerminator

    block = op.parent_block()
    return block is not None and op is block.last_op and op.has_trait(IsTerminator)


def _expand(unit: SSAValue, at: Operation) -> list[SSAValue]:
    """The `get_unit` values a unit operand ranges over."""
    owner = unit.owner
    if isinstance(owner, GetUnitOp):
        return [unit]
    if isinstance(owner, QueryMapOp) and isinstance(owner.map.owner, DefImmutableMappingOp):
        return list(owner.map.owner.values)
    raise error(at, UNRESOLVED_EXECUTE_ON)


def discover_unit_types(work: list[Operation]) -> Components:
    components: Components = {}
    seen: dict[str, set[SSAValue]] = {}

    def record(kind: str, value: SSAValue) -> None:
        known = seen.setdefault(kind, set())
        if value not in known:
            known.add(value)
            components.setdefault(kind, []).append(value)

    for root in work:
        for op in post_order(root):
            if isinstance(op, ExecuteOnOp):
                for unit in op.units:
                    kind = kind_of(unit)
                    if kind is None:
                        raise error(op, UNRESOLVED_EXECUTE_ON)
                    for value in _expand(unit, op):
                        record(kind, value)
            elif isinstance(op, ProgramUnitOp):
                for unit in op.units:
                    get_unit = get_unit_of(unit)
                    if get_unit is None or not isinstance(get_unit.unit_type, StringAttr):
                        raise error(op, "ktdflowering-to-dfir: could not resolve component type for unit operand "
                                        "of dataflow.program_unit")
                    record(get_unit.unit_type.data.upper(), unit)
    return components


# ---------------------------------------------------------------------------
# Building the program units
# ---------------------------------------------------------------------------


def _any_operand_of_kind(units, kind: str, at: Operation) -> bool:
    for unit in units:
        found = kind_of(unit)
        if found is None:
            raise error(at, "ktdflowering-to-dfir: could not resolve component type for unit operand")
        if found == kind:
            return True
    return False


def _filter_for_kind(pu: ProgramUnitOp, kind: str) -> None:
    """Keep only the work of `kind`: unwrap its execute_ons, drop the rest and foreign signals."""
    applicable: list[ExecuteOnOp] = []
    others: list[ExecuteOnOp] = []
    for op in post_order(pu):
        if isinstance(op, ExecuteOnOp):
            (applicable if _any_operand_of_kind(op.units, kind, op) else others).append(op)
    for exec_op in applicable:
        block = exec_op.body.block
        parent = exec_op.parent_block()
        assert parent is not None
        for inner in list(block.ops):
            inner.detach()
            parent.insert_op_before(inner, exec_op)
        Rewriter.erase_op(exec_op, safe_erase=False)
    for exec_op in others:
        Rewriter.erase_op(exec_op, safe_erase=False)
    foreign = [op for op in post_order(pu)
               if isinstance(op, SignalOp) and not _any_operand_of_kind(op.units, kind, op)]
    for signal in foreign:
        Rewriter.erase_op(signal, safe_erase=False)


def _replace_tile_id_with_core_query(pu: ProgramUnitOp, core_consts: dict[int, SSAValue],
                                     const_builder: Builder, outside: list[GetComputeTileIdOp]) -> None:
    """A compute tile id used inside `pu` becomes `query_map([unit -> its core id])` keyed by the
    program unit's iter_arg (upstream `replaceComputeTileIdWithCoreQuery`).

    `outside`: the function's tile ids outside every program unit, in walk order; with those of
    `pu`'s own body they are every tile id a use inside `pu` can read (no need to walk the
    function's thousands of per-core ops once per program unit)."""
    region = pu.body
    tile_ids: list[GetComputeTileIdOp] = []
    for op in (*outside, *pu.walk(region_first=True)):
        if isinstance(op, GetComputeTileIdOp) and len(op.results) == 1:
            if any(region.is_ancestor(use.operation) for use in op.results[0].uses):
                tile_ids.append(op)
    if not tile_ids:
        return
    keys: list[SSAValue] = []
    values: list[SSAValue] = []
    for unit_value, core in unit_cores(pu, pu, "program_unit operand must be defined by dataflow.get_unit",
                                       "dataflow.get_unit must have 'core' attribute"):
        if core not in core_consts:
            core_consts[core] = const_builder.constant(core)
        keys.append(unit_value)
        values.append(core_consts[core])
    body = region.block
    core_id = uniform_map_query(Builder(InsertPoint.at_start(body), None, pu.location), keys, values, body.args[0])
    for tile_id in tile_ids:
        for use in list(tile_id.results[0].uses):
            if region.is_ancestor(use.operation):
                use.operation.operands[use.index] = core_id


def _first_location_of_kind(work: list[Operation], kind: str, func: FuncOp):
    """Where a program unit comes from: the first execute_on (or program unit) of its kind."""
    for root in work:
        for op in post_order(root):
            if isinstance(op, ExecuteOnOp) and any(kind_of(u) == kind for u in op.units):
                return op.location
            if isinstance(op, ProgramUnitOp):
                return op.location
    return func.location


def build_program_units(func: FuncOp, work: list[Operation], components: Components) -> None:
    if not components:
        return
    block = entry_block(func)
    assert block is not None
    terminator = block.last_op
    assert terminator is not None
    builder = Builder.before(terminator)
    # The core ids every core query needs, created once before the program units.
    core_consts: dict[int, SSAValue] = {}
    outside = [op for op in func.walk(region_first=True) if isinstance(op, GetComputeTileIdOp)]
    for units in components.values():
        for value in units:
            unit = get_unit_of(value)
            if unit is not None and unit.core is not None and unit.core not in core_consts:
                core_consts[unit.core] = builder.value(index_constant(unit.core))
    for kind, units in components.items():
        body = Block(arg_types=[INDEX])
        mapping: dict[SSAValue, SSAValue] = {}
        for op in work:
            body.add_op(op.clone(value_mapper=mapping))
        body.add_op(ReturnOp())
        pu = builder.insert(ProgramUnitOp(list(units), Region(body)))
        assert isinstance(pu, ProgramUnitOp)
        pu.location = _first_location_of_kind(work, kind, func)
        _filter_for_kind(pu, kind)
        _replace_tile_id_with_core_query(pu, core_consts, builder, outside)
    for op in list(func.walk()):
        if isinstance(op, GetComputeTileIdOp) and all(not r.uses for r in op.results):
            Rewriter.erase_op(op)
    for op in reversed(work):
        Rewriter.erase_op(op, safe_erase=False)
