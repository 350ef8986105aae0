"""Indirect access tiles (gathers and scatters), split once more by `construct-three-stage-pipeline`.

See `docs/passes.md#construct-three-stage-pipeline`. A `ktdp.load`/`ktdp.store` through
`ktdp.construct_indirect_access_tile %X[...]` becomes two pieces in the same program:

1. the **address program**: a pipeline of its own, built from KTIR by the same code as any
   program's (`ProgramPipeline`): load each index view's tile, compute
   `spyreop.idx32toaddr` (base + stride x index, chained when several subscripts are indirect)
   on the compute unit, store the addresses into the **indirect-address buffer**, a
   `memref.alloc` in the memory the device's address-list unit reads its lists from
   (`ktdf_arch.feature.address_list = {memory = ...}`). Address assignment places it like any
   buffer; path expansion stages the indices to the compute unit and the addresses back to that
   memory through the units that can reach it;
2. the **gather/scatter**: the access tile becomes `ktdf.indirect_view %X_in_memory[%addresses]`,
   a memref of the tile's shape, and the program's pipeline is built around it as around any
   view: its transfers are the address-list transfers the lowering gives to that unit.

One address per point of the *list variables* (the intermediate variables the indirect
subscripts use): `X_base + sum over indirect dims of stride_d * bytes * index_d`. Direct
subscripts stay affine in the transfer (`offset` + per-variable strides of the view's type).
What this split does not cover is a located error on the tile: a variables space that is not a
box from 0 in identity order, a subscript that is not linear, an index view subscript that is
not one variable plus captured values, an innermost variable that selects the list entry (a
row would not be contiguous), index views that are not i32, a base address that is not a
constant (bind it with `--bind`), and a device whose address-list units cannot reach the view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, memref, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.model import DeviceModel
from dfsched.diagnostics import error
from dfsched.dialects import ktdf, ktdp, spyreop
from dfsched.dialects.constants import constant_int
from dfsched.passes.builder import Builder
from dfsched.passes.frontend.utils import box_set

I32 = IntegerType(32)
I64 = IntegerType(64)
CAPABILITY = "ktdf_arch.feature.address_list"


@dataclass
class IndirectDim:
    """One `ind(%IDX[...])` subscript: the index view and, per index dim, the list variable it
    follows (None: captured values only) and the captured part as an affine expression."""

    dim: int
    index_view: SSAValue
    variables: list[int | None]
    anchors: list[AffineExpr]


@dataclass
class IndirectPlan:
    """What the split needs to know about one indirect access tile (checked on construction)."""

    tile: ktdp.ConstructIndirectAccessTileOp
    view: ktdp.ConstructMemoryViewOp
    extents: list[int]
    element_bytes: int
    base_bytes: int
    indirect: list[IndirectDim] = field(default_factory=list)
    strides: list[int] = field(default_factory=list)  # per variable, elements (direct subscripts)
    offset: list[int] = field(default_factory=list)  # per captured variable, elements; last: constant
    list_variables: list[int] = field(default_factory=list)
    view_strides: list[int] = field(default_factory=list)  # the memory view's, elements

    @property
    def list_shape(self) -> list[int]:
        return [self.extents[v] for v in self.list_variables] or [1]


def plan_indirect_tile(tile: ktdp.ConstructIndirectAccessTileOp, model: DeviceModel,
                       is_load: bool) -> IndirectPlan:
    """Check that the split covers `tile` and the device can run it; raise a located error if not."""
    view = tile.base.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        raise error(tile, "the base of an indirect access tile must come from ktdp.construct_memory_view")
    view_type = view.result.type
    assert isinstance(view_type, MemRefType)
    strides = view.constant_strides()
    if any(s is None or s < 0 for s in strides):
        raise error(tile, "the memory view of an indirect access tile needs constant strides")
    base = constant_int(view.operands[0])
    if base is None:
        base = 0  # a run-time base: the list holds offsets, the transfer adds the view's start
    _refuse_paged_terms(tile, is_load)
    extents = _box_extents(tile)
    element_bytes = max(1, (getattr(view_type.element_type, "bitwidth", 8) + 7) // 8)
    captured = len(tile.captured_variables)
    n_vars = len(extents)
    plan = IndirectPlan(tile, view, extents, element_bytes, base,
                        strides=[0] * n_vars, offset=[0] * (captured + 1), view_strides=strides)
    index_views = iter(tile.indirect_memrefs)
    for dim, (indirect, amap_attr) in enumerate(zip(tile.subscript_kinds(), tile.per_dim_subscript_maps.data)):
        amap = amap_attr.data  # type: ignore[union-attr]
        if indirect:
            plan.indirect.append(_indirect_dim(tile, dim, next(index_views), amap, captured))
            continue
        row = ktdp.linear_form(amap.results[0], amap.num_dims, 0)
        if row is None:
            raise error(tile, f"direct subscript {dim} of an indirect access tile is not linear; the gather "
                              "needs it as a stride per variable")
        for c in range(captured):
            plan.offset[c] += strides[dim] * row[c]
        plan.offset[-1] += strides[dim] * row[-1]
        for v in range(n_vars):
            plan.strides[v] += strides[dim] * row[captured + v]
    plan.list_variables = sorted({v for d in plan.indirect for v in d.variables if v is not None})
    if n_vars - 1 in plan.list_variables and extents[-1] > 1:
        raise error(tile, "the innermost variable of an indirect access tile selects the address: every "
                          "element would be its own row; only whole rows are gathered or scattered")
    _check_units(tile, model, view, is_load)
    return plan


def paged_terms(tile: ktdp.ConstructIndirectAccessTileOp, page_numbers_only: bool = False) -> set[tuple[int, int]]:
    """Every (variable, K) such that a subscript of `tile` uses `v floordiv K` or `v mod K`
    (a variable split into pages of K); with `page_numbers_only`, only `v floordiv K` in an
    index subscript (`ind(%table[v floordiv K])`: the variable picks the page)."""
    kinds = (AffineBinaryOpKind.FloorDiv,) if page_numbers_only else (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod)
    captured = len(tile.captured_variables)
    found: set[tuple[int, int]] = set()

    def visit(expr: AffineExpr) -> None:
        if isinstance(expr, AffineBinaryOpExpr):
            if expr.kind in kinds and isinstance(expr.lhs, AffineDimExpr) and isinstance(expr.rhs, AffineConstantExpr) and \
                    expr.lhs.position >= captured:
                found.add((expr.lhs.position - captured, expr.rhs.value))
            visit(expr.lhs)
            visit(expr.rhs)

    for indirect, amap in zip(tile.subscript_kinds(), tile.per_dim_subscript_maps.data):
        if indirect or not page_numbers_only:
            for expr in amap.data.results:  # type: ignore[union-attr]
                visit(expr)
    return found


def _refuse_paged_terms(tile: ktdp.ConstructIndirectAccessTileOp, is_load: bool) -> None:
    """A variable split into pages selects a page and a row in it: one list entry per page
    would need rows that are not one stride apart. Copies are split page by page before this
    (Decision 57), gathers feeding compute get the page as a dimension where they can (Decision
    89); what reaches here is refused, naming the split."""
    found = paged_terms(tile, page_numbers_only=True)
    if not found:
        return
    variable, size = min(found)
    what = "gather feeding compute" if is_load else "scatter of computed values"
    raise error(tile, f"variable {variable} of this indirect access tile is split into pages of {size} "
                      f"(`floordiv {size}`, `mod {size}`): a paged tile is gathered or scattered by a copy, one "
                      f"page at a time, or gathered for compute that can carry the page as a dimension of its own "
                      f"(not stored as it is); for this {what}, give the page and the position in the page a "
                      f"variable each (a tile of one more dimension, as examples/paged_attention_decode.mlir does)")


def _box_extents(tile: ktdp.ConstructIndirectAccessTileOp) -> list[int]:
    """The variables space's extents: it must be a box from 0 in identity order."""
    order = tile.variables_space_order.data  # type: ignore[union-attr]
    if order != AffineMap.identity(order.num_dims):
        raise error(tile, "the variables_space_order of an indirect access tile must be the identity")
    return box_extents(tile.variables_space_set.data, tile, "variables_space_set")  # type: ignore[union-attr]


def box_extents(the_set: AffineSet, tile: Operation, what: str) -> list[int]:
    """The extents of `the_set` (the `what` of `tile`), which must be a box starting at 0."""
    upper: dict[int, int] = {}
    lower: dict[int, int] = {}
    for constraint in the_set.constraints:
        row = ktdp.linear_form(constraint.lhs - constraint.rhs, the_set.num_dims, the_set.num_symbols)
        dims = [k for k in range(the_set.num_dims) if row is not None and row[k]]
        if row is None or len(dims) != 1 or any(row[the_set.num_dims:-1]):
            raise error(tile, f"the {what} of {_a(tile)} must be a box")
        k, coefficient, constant = dims[0], row[dims[0]], row[-1]
        kinds = [constraint.kind] if constraint.kind != AffineConstraintKind.eq else \
            [AffineConstraintKind.ge, AffineConstraintKind.le]
        for kind in kinds:
            if abs(coefficient) != 1:
                raise error(tile, f"the {what} of {_a(tile)} must be a box")
            # coefficient * d + constant >= 0 (or <= 0)
            bound = -constant * coefficient
            if (kind == AffineConstraintKind.ge) == (coefficient > 0):
                lower[k] = max(lower.get(k, bound), bound)
            else:
                upper[k] = min(upper.get(k, bound), bound)
    extents = []
    for k in range(the_set.num_dims):
        if lower.get(k) != 0 or k not in upper or upper[k] < 0:
            raise error(tile, f"the {what} of {_a(tile)} must be a box starting at 0 (dimension {k} is not)")
        extents.append(upper[k] + 1)
    return extents


def _a(tile: Operation) -> str:
    return "an indirect access tile" if isinstance(tile, ktdp.ConstructIndirectAccessTileOp) else "an access tile"


def _indirect_dim(tile: Operation, dim: int, index_view: SSAValue, amap: AffineMap, captured: int) -> IndirectDim:
    element = getattr(index_view.type, "element_type", None)
    if element not in (I32, I64):
        raise error(tile, f"index view of subscript {dim} holds {element}; spyreop.idx32toaddr takes i32 indices "
                          "(i64 ones are read by their low words)")
    if not isinstance(index_view.owner, ktdp.ConstructMemoryViewOp):
        raise error(tile, f"index view of subscript {dim} must come from ktdp.construct_memory_view")
    variables: list[int | None] = []
    anchors: list[AffineExpr] = []
    for expr in amap.results:
        row = ktdp.linear_form(expr, amap.num_dims, 0)
        used = [v for v in range(amap.num_dims - captured) if row is not None and row[captured + v]]
        if row is None or len(used) > 1 or (used and row[captured + used[0]] != 1):
            raise error(tile, f"the index subscript of subscript {dim} must be one intermediate variable plus "
                              "captured values in each dimension")
        if used and used[0] in variables:
            raise error(tile, f"the index subscript of subscript {dim} uses variable {used[0]} twice")
        variables.append(used[0] if used else None)
        anchor: AffineExpr = AffineExpr.constant(row[-1])
        for c in range(captured):
            if row[c]:
                anchor = anchor + AffineExpr.dimension(c) * row[c]
        anchors.append(anchor)
    return IndirectDim(dim, index_view, variables, anchors)


def _check_units(tile: Operation, model: DeviceModel, view: ktdp.ConstructMemoryViewOp, is_load: bool) -> None:
    """A unit with the address-list capability must move between the view's memory and the
    memory it reads its lists from, which must be where `ct_local` buffers live."""
    units = model.address_list_units()
    if not units:
        raise error(tile, f"device '{model.name}' has no exec_unit with '{CAPABILITY}': no unit can issue the "
                          f"address-list transfers of this {'gather' if is_load else 'scatter'}")
    memory = model.memory_for_space(view.memory_space, at=tile).kind  # type: ignore[arg-type]
    reach = model.read_kinds if is_load else model.write_kinds
    able = [u for u in units if memory in reach(u.kind)]
    if not able:
        names = ", ".join(u.kind for u in units)
        raise error(tile, f"no exec_unit with '{CAPABILITY}' {'reads' if is_load else 'writes'} memory "
                          f"'{memory}' (units with it: {names})")
    scratchpad = model.memory_for_space(ktdp.MemorySpaceAttr("ct_local"), at=tile).kind
    if able[0].features.address_list_memory != scratchpad:
        raise error(tile, f"exec_unit '{able[0].kind}' reads its address lists from "
                          f"'{able[0].features.address_list_memory}', not from the scratchpad '{scratchpad}' where "
                          "the address program can write them")


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


def build_indirect_view(plan: IndirectPlan, anchor: Operation, in_memory: Operation, list_space: StringAttr,
                        build_pipeline: Callable[[func.FuncOp], None]) -> SSAValue:
    """Insert the address program and the indirect view before `anchor`; return the view.

    `in_memory` casts the tile's view into its device memory (inserted here), `list_space` is
    the scratchpad's kind (the memory the address-list unit reads, checked by
    `plan_indirect_tile`)."""
    tile = plan.tile
    addresses = memref.AllocOp([], [], MemRefType(I32, plan.list_shape, memory_space=list_space))
    addresses.location = tile.location
    Rewriter.insert_op(addresses, InsertPoint.before(anchor))
    _insert_address_program(plan, addresses.memref, anchor, build_pipeline)
    builder = Builder(InsertPoint.before(anchor), None, tile.location)
    source = builder.value(in_memory)
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    offset = builder.constant(plan.offset[-1])
    for value, coefficient in zip(tile.captured_variables, plan.offset):
        if coefficient:
            term = builder.value(arith.MuliOp(value, builder.constant(coefficient)))
            offset = builder.value(arith.AddiOp(offset, term))
    list_map = AffineMap(len(plan.extents), 0, tuple(
        AffineExpr.dimension(v) for v in plan.list_variables) or (AffineExpr.constant(0),))
    result_type = MemRefType(source_type.element_type, plan.extents, StridedLayoutAttr(plan.strides, None),
                             source_type.memory_space)
    return builder.value(ktdf.IndirectViewOp(source, addresses.memref, offset, AffineMapAttr(list_map), result_type))


def _insert_address_program(plan: IndirectPlan, addresses: SSAValue, anchor: Operation,
                            build_pipeline: Callable[[func.FuncOp], None]) -> None:
    """Write the address program as KTIR in a scratch function, let the pipeline builder make
    its pipeline, then move it in front of `anchor`, storing into `addresses`."""
    tile = plan.tile
    scratch = func.FuncOp("indirect_addresses", FunctionType.from_lists([], []))
    block = scratch.body.blocks[0]
    builder = Builder(InsertPoint.at_end(block), None, tile.location)
    captured = list(tile.captured_variables)
    indices: list[SSAValue] = []
    maps: list[AffineMap] = []
    list_rank = len(plan.list_shape)
    for dim in plan.indirect:
        shape = [plan.extents[v] if v is not None else 1 for v in dim.variables]
        access = builder.value(ktdp.ConstructAccessTileOp(
            ktdp.AccessTileType(shape), _as_i32(builder, dim.index_view), AffineMap(len(captured), 0, tuple(dim.anchors)), captured,
            box_set(shape), AffineMap.identity(len(shape))))
        indices.append(builder.value(ktdp.LoadOp(access, TensorType(I32, shape))))
        maps.append(AffineMap(list_rank, 0, tuple(
            AffineExpr.dimension(plan.list_variables.index(v)) if v is not None else AffineExpr.constant(0)
            for v in dim.variables)))
    zero = builder.constant(0)
    list_type = MemRefType(I32, plan.list_shape)
    placeholder = builder.value(ktdp.ConstructMemoryViewOp(
        zero, plan.list_shape, _row_major(plan.list_shape), list_type, ktdp.MemorySpaceAttr("ct_local"),
        box_set(plan.list_shape)))
    empty = builder.value(tensor.EmptyOp([], TensorType(I32, plan.list_shape)))
    generic = builder.insert(GenericOp(
        indices, [empty], Region(_address_body(plan)),
        [AffineMapAttr(m) for m in maps] + [AffineMapAttr(AffineMap.identity(list_rank))],
        [IteratorTypeAttr.parallel()] * list_rank, [TensorType(I32, plan.list_shape)]))
    store_tile = builder.value(ktdp.ConstructAccessTileOp(
        ktdp.AccessTileType(plan.list_shape), placeholder, AffineMap(0, 0, (AffineExpr.constant(0),) * list_rank),
        [], box_set(plan.list_shape), AffineMap.identity(list_rank)))
    builder.insert(ktdp.StoreOp(generic.results[0], store_tile))
    builder.insert(func.ReturnOp())
    for op in block.ops:
        op.location = tile.location
    build_pipeline(scratch)
    _store_into(placeholder, addresses)
    for op in list(block.ops):
        if isinstance(op, func.ReturnOp):
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(anchor))


def _as_i32(builder: Builder, index_view: SSAValue) -> SSAValue:
    """An i64 index view read as its i32 low words (little-endian: the same address, strides
    doubled); indices past 2**31 address no view anyway. i32 views are returned as they are."""
    view = index_view.owner
    assert isinstance(view, ktdp.ConstructMemoryViewOp)
    view_type = view.result.type
    assert isinstance(view_type, MemRefType)
    if view_type.element_type == I32:
        return index_view
    strides = view.constant_strides()
    sizes = view.constant_sizes()
    if any(s is None for s in strides + sizes):
        raise error(view, "an i64 index view needs constant sizes and strides (read by its i32 low words)")
    words = [2 * s for s in strides]
    return builder.value(ktdp.ConstructMemoryViewOp(
        view.offset, sizes, words, MemRefType(I32, view_type.get_shape(), StridedLayoutAttr(words, None)),
        view.memory_space, view.coordinate_set))


def _store_into(placeholder: SSAValue, addresses: SSAValue) -> None:
    """The pipeline stores into the placeholder view through a space cast and a reinterpret
    cast at offset 0 (the whole list): make it store into the address buffer itself."""
    for cast_use in list(placeholder.uses):
        cast = cast_use.operation
        for use in list(cast.results[0].uses):
            if isinstance(use.operation, memref.ReinterpretCastOp):
                use.operation.results[0].replace_all_uses_with(addresses)
                Rewriter.erase_op(use.operation)
        cast.results[0].replace_all_uses_with(addresses)
        Rewriter.erase_op(cast)
    Rewriter.erase_op(placeholder.owner)  # type: ignore[arg-type]


def _address_body(plan: IndirectPlan) -> Block:
    """`base + stride_d * bytes * index_d` for every indirect subscript, as an idx32toaddr chain."""
    body = Block(arg_types=[I32] * (len(plan.indirect) + 1))
    base = arith.ConstantOp(IntegerAttr(plan.base_bytes, I32))
    body.add_op(base)
    current: SSAValue = base.result
    view_strides = plan.view_strides
    for k, dim in enumerate(plan.indirect):
        stride = arith.ConstantOp(IntegerAttr(view_strides[dim.dim] * plan.element_bytes, I32))
        body.add_op(stride)
        step = spyreop.Idx32ToAddrOp.build(operands=[body.args[k], current, stride.result], result_types=[I32])
        body.add_op(step)
        current = step.results[0]
    body.add_op(YieldOp(current))
    return body


def _row_major(shape: Sequence[int]) -> list[int]:
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return list(reversed(strides))
