"""Address-list transfers (`docs/passes.md#ktdflowering-to-dfir`): a memref → memref
`ktdf.data_transfer` whose source (gather) or destination (scatter) is a `ktdf.indirect_view`
becomes one `agen.composite_indirect_load_and_store`.

The transfer is walked exactly as a direct one (`dfir_transfers`); the indirect side gets:

* `indirect_src:%addresses[...]` (or `indirect_dst`): the address list, subscripted by the view's
  `list_map` composed with the transfer's subscript; `load_indirect_time_addr_map` (or
  `store_...`) is `list_map` composed with the time offsets;
* `direct_src:%rows[...]` (or `direct_dst`): a `dataflow.get_logical_memory_view` of the source's
  memory at `offset * element bytes` with the view's strides as layout.

Semantics (the simulator's): the element at a point is at byte `list entry + direct address`,
the list entries being the absolute byte addresses the address program wrote; when the view's
start is a run-time value (a kernel argument), the list holds offsets from it and the direct
side starts at the view's start. The unit running
the transfer must declare `ktdf_arch.feature.address_list`, else a located error naming it.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, MemRefType
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from dfsched.diagnostics import error
from dfsched.dialects.constants import constant_int
from dfsched.dialects.agen_peripheral import CompositeIndirectLoadAndStoreOp
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp
from dfsched.dialects.ktdf import DataTransferOp
from dfsched.dialects.ktdf_indirect import IndirectViewOp
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_utils import enclosing_program_unit, linear_layout, program_unit_kind, unit_type_tag


def indirect_view_of(value: SSAValue) -> IndirectViewOp | None:
    owner = value.owner
    return owner if isinstance(owner, IndirectViewOp) else None


def build_indirect_composite(builder: Builder, op: DataTransferOp, model, load_indices: list[SSAValue],
                             store_indices: list[SSAValue], props: dict, region: Region) -> Operation:
    """The `agen.composite_indirect_load_and_store` of `op`, given the direct lowering's
    properties (`props`: maps, sets and time maps of a `composite_load_and_store`)."""
    gather, scatter = indirect_view_of(op.source), indirect_view_of(op.destination)
    if gather is not None and scatter is not None:
        raise error(op, "a transfer from one indirect view to another is not supported")
    _check_unit(op, model)
    view = gather if gather is not None else scatter
    assert view is not None
    side = "src" if gather is not None else "dst"
    direct_map: AffineMap = props[f"{side}_map"].data
    time_map: AffineMap = props["load_time_addr_map" if gather is not None else "store_time_addr_map"].data
    list_map = view.list_map.data
    rows = _direct_rows(builder, view, op)
    indices = load_indices if gather is not None else store_indices
    operands = {
        "indirect_src": [view.addresses] if gather is not None else [],
        "direct_src": rows if gather is not None else op.source,
        "indirect_dst": [view.addresses] if scatter is not None else [],
        "direct_dst": rows if scatter is not None else op.destination,
    }
    properties = {
        f"indirect_{side}_map": AffineMapAttr(list_map.compose(direct_map)),
        "direct_src_map": props["src_map"],
        "direct_dst_map": props["dst_map"],
        "load_set": props["load_set"],
        "load_order": props["load_order"],
        "store_set": props["store_set"],
        "store_order": props["store_order"],
        "time_set": props["time_set"],
        "time_order": props["time_order"],
        "load_direct_time_addr_map": props["load_time_addr_map"],
        "store_direct_time_addr_map": props["store_time_addr_map"],
        ("load" if gather is not None else "store") + "_indirect_time_addr_map":
            AffineMapAttr(list_map.compose(time_map)),
    }
    return CompositeIndirectLoadAndStoreOp.build(
        operands=[operands["indirect_src"], operands["direct_src"], operands["indirect_dst"], operands["direct_dst"],
                  indices if gather is not None else [], load_indices, indices if scatter is not None else [],
                  store_indices, [], []],
        properties=properties,
        regions=[region],
    )


def _direct_rows(builder: Builder, view: IndirectViewOp, at: Operation) -> SSAValue:
    """The source's memory at `offset` elements, laid out by the view's strides."""
    source = view.source.owner
    if not isinstance(source, GetLogicalMemoryViewOp):
        raise error(at, "the source of an indirect view must be lowered to a logical memory view")
    result = view.result.type
    assert isinstance(result, MemRefType)
    element_bytes = max(1, (getattr(result.element_type, "bitwidth", 8) + 7) // 8)
    start = builder.value(arith.MuliOp(view.offset, builder.constant(element_bytes)))
    if constant_int(source.start_address) is None:  # a run-time base: the list holds offsets from it
        start = builder.value(arith.AddiOp(source.start_address, start))
    layout = AffineMapAttr(linear_layout([int(s) for s in result.get_strides()]))
    return builder.value(GetLogicalMemoryViewOp(source.from_unit, start, layout,
                                                MemRefType(result.element_type, result.get_shape())))


def _check_unit(op: Operation, model) -> None:
    pu = enclosing_program_unit(op)
    tag = program_unit_kind(pu) if pu is not None else None
    unit = next((u for u in model.units.values() if unit_type_tag(u.kind) == tag), None)
    if unit is not None and unit.features.address_list_memory is None:
        raise error(op, f"exec_unit '{unit.kind}' moves the rows of an indirect access but has no "
                        "'ktdf_arch.feature.address_list'")
