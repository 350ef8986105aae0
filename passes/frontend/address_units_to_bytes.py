"""`address-units-to-bytes`: read a kernel written in element addresses as byte addresses.

dfsched addresses memory in bytes end to end (Decision 8); some KTIR producers (ktir-cpu's
examples, `ring_reduce.mlir` says so) count a `ktdp.construct_memory_view`'s offset in elements
of the view's type. `--unit element` on `dfsched-opt`, `dfsched` and `dfsched-run` sets
`address-unit=element` and this pass, at the front of the pipeline, converts once: every view's
offset is rebuilt with each term of its sum scaled by the element size,

    offset = %base + %tile * 128 (elements of f16)   ->   %base + (%tile * 128) * 2

where the terms are what the offset adds up (`dfsched.dialects.ktdp_addresses`: additions,
subtractions, casts, selects). A kernel argument reached that way (a buffer's base address, not
bound with `--bind`) stays as it is: the runtime hands over byte addresses. Constants are
folded. The old offset ops stay for their other users (canonicalisation removes dead ones).

One buffer, one element size. An element address names a slot of one memory space; scaling
each view by its own type alone would put an f16 view of elements [30M, 685M) over an i32
view at element 20M (the RFC's paged tensors). So the views of a memory space whose element
ranges are known (constant offsets, or bounded ones) are grouped into buffers (views whose
ranges overlap); a buffer's views must share an element size (else a located error naming
two of them), and a buffer starting at element r of a space whose widest element is U bytes
starts at byte r * U: its views' offsets get `r * (U - e)` added. A space with one element
size is scaled as before (U = e). A view of a mixed space whose range is not known and that
no kernel argument anchors is a located error: nothing tells where its buffer starts.
With `address-unit=byte` (the default) the pass changes nothing. Reads no architecture facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from dfsched.diagnostics import error
from dfsched.dialects.ktdp_addresses import MEMORY_VIEW, address_sources
from dfsched.dialects.constants import constant_int
from dfsched.dialects.ktdp_types import DYNAMIC
from dfsched.passes.lowering.address_assignment import element_bytes
from dfsched.passes.value_bounds import known_bounds

UNITS = ("byte", "element")


@dataclass(frozen=True)
class AddressUnitsToBytes(ModulePass):
    """Scale element-unit memory view offsets to bytes."""

    name = "address-units-to-bytes"

    address_unit: str = "byte"

    def __post_init__(self):
        if self.address_unit not in UNITS:
            raise ValueError(f"address-unit must be 'byte' or 'element', got '{self.address_unit}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.address_unit == "byte":
            return
        views = [o for o in op.walk() if o.name == MEMORY_VIEW]
        shifts = buffer_shifts(views)
        for view in views:
            size = element_size(view)
            if size != 1:
                view.operands[0] = OffsetScaler(view, size).scaled(view.operands[0])
            if shifts.get(view):
                unshifted = view.operands[0]
                view.operands[0] = OffsetScaler(view, 1).shifted(unshifted, shifts[view])
                if isinstance(unshifted.owner, arith.ConstantOp) and not unshifted.uses:
                    unshifted.owner.detach()


def element_size(view: Operation) -> int:
    t = view.results[0].type
    if not isinstance(t, MemRefType):
        raise error(view, f"a memory view of type {t} has no element size to convert its address with")
    return element_bytes(t.element_type)


def buffer_shifts(views: list[Operation]) -> dict[Operation, int]:
    """The bytes each view's scaled offset moves by so that every buffer of a memory space
    starts at its first element times the space's widest element size (see the docstring)."""
    spaces: dict = {}
    for view in views:
        spaces.setdefault(view.properties.get("memory_space"), []).append(view)
    shifts: dict[Operation, int] = {}
    for members in spaces.values():
        sizes = {element_size(v) for v in members}
        if len(sizes) < 2:
            continue
        widest = max(sizes)
        placed = []
        for view in members:
            if _anchored_by_argument(view):
                continue  # the runtime places that buffer, in bytes
            span = element_range(view)
            if span is None:
                other = next(v for v in members if element_size(v) != element_size(view))
                raise error(view, f"cannot convert this view's element addresses to bytes: its memory space also "
                                  f"holds {element_size(other)}-byte elements, so each buffer needs a known first "
                                  f"element, and this view's offset, sizes or strides are not bounded (bind them "
                                  f"with --bind, or give its buffer a kernel argument as base address)",
                            [(other, f"a view of {element_size(other)}-byte elements in the same memory space")])
            placed.append((span, view))
        placed.sort(key=lambda p: p[0])
        group: list = []
        for span, view in placed + [((None, None), None)]:
            if group and (view is None or span[0] > max(s[1] for s, _ in group)):
                first = group[0][0][0]
                for _, member in group:
                    shifts[member] = first * (widest - element_size(member))
                group = []
            if view is None:
                break
            for (o_first, o_last), other in group:
                if element_size(other) != element_size(view) and o_last >= span[0]:
                    raise error(view, f"this view of {element_size(view)}-byte elements, element addresses "
                                      f"[{span[0]}, {span[1]}], overlaps a view of {element_size(other)}-byte "
                                      f"elements, [{o_first}, {o_last}]: one buffer has one element size",
                                [(other, f"the other view, element addresses [{o_first}, {o_last}]")])
            group.append((span, view))
    return shifts


def element_range(view: Operation) -> tuple[int, int] | None:
    """First and last element address `view` can reach, if bounded."""
    offset = known_bounds(view.operands[0])
    sizes, strides = _dims(view, view.get_static_sizes(), view.sizes), _dims(view, view.get_static_strides(), view.strides)
    if offset is None or sizes is None or strides is None:
        return None
    reach = sum((size - 1) * abs(stride) for size, stride in zip(sizes, strides) if size > 0)
    return offset[0], offset[1] + reach


def _dims(view: Operation, static: tuple[int, ...], dynamic) -> list[int] | None:
    values, dynamic = [], list(dynamic)
    for s in static:
        if s != DYNAMIC:
            values.append(s)
            continue
        bounds = known_bounds(dynamic.pop(0))
        if bounds is None:
            return None
        values.append(max(abs(bounds[0]), abs(bounds[1])))
    return values


def _anchored_by_argument(view: Operation) -> bool:
    """Whether the view's offset adds a kernel argument or a runtime argument's value: a base
    address the runtime hands over in bytes."""
    work, seen = [view.operands[0]], set()
    while work:
        v = work.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if _is_function_argument(v):
            return True
        sources = address_sources(v.owner)
        if getattr(v.owner, "name", "") == "ktdp.runtime_arg_extract" and sources:
            return True
        work.extend(sources)
    return False


class OffsetScaler:
    """Rebuilds one view's offset, ahead of the view, with every term scaled."""

    def __init__(self, view: Operation, factor: int):
        self.view = view
        self.factor = factor
        self.done: dict[int, SSAValue] = {}

    def _insert(self, op: Operation) -> SSAValue:
        op.location = self.view.location
        self.view.parent_block().insert_op_before(op, self.view)
        return op.results[0]

    def scaled(self, value: SSAValue) -> SSAValue:
        if id(value) not in self.done:
            self.done[id(value)] = self._scale(value)
        return self.done[id(value)]

    def shifted(self, value: SSAValue, shift: int) -> SSAValue:
        """`value + shift`, folded when `value` is a constant."""
        constant = constant_int(value)
        if constant is not None:
            return self._insert(arith.ConstantOp(IntegerAttr(constant + shift, value.type)))
        amount = self._insert(arith.ConstantOp(IntegerAttr(shift, value.type)))
        return self._insert(arith.AddiOp(value, amount))

    def _scale(self, value: SSAValue) -> SSAValue:
        if _is_function_argument(value):
            return value  # a buffer's base address, handed over in bytes
        owner = value.owner
        if isinstance(owner, Operation) and owner.name == "ktdp.runtime_arg_extract" and not address_sources(owner):
            return self._term(value)  # granularity / upper bound: a number, not an address
        sources = address_sources(owner)
        if not sources:
            return self._term(value)
        if owner.name == "ktdp.runtime_arg_extract":
            return value  # the runtime argument's value: an address handed over
        clone = owner.clone()
        for i, operand in enumerate(owner.operands):
            if any(operand is s for s in sources):
                clone.operands[i] = self.scaled(operand)
        return self._insert(clone)

    def _term(self, value: SSAValue) -> SSAValue:
        constant = constant_int(value)
        if constant is not None:
            return self._insert(arith.ConstantOp(IntegerAttr(constant * self.factor, value.type)))
        factor = self._insert(arith.ConstantOp(IntegerAttr(self.factor, value.type)))
        return self._insert(arith.MuliOp(value, factor))


def _is_function_argument(value: SSAValue) -> bool:
    return (isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), func.FuncOp)
            and value.block is value.block.parent_op().body.blocks.first)
