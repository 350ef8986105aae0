"""`address-assignment`: every buffer gets an address in its memory.

See `docs/passes.md#address-assignment`.

**Address unit (Decision 8): the byte.** An address is the offset, in bytes, of the buffer's
first byte from the start of its memory; a buffer of `memref<1x64xf16, "L1">` takes 128
bytes, and the next buffer in L1 starts 128 further. Capacities are the device's memory
`size`s, also in bytes. This is the unit of the whole backend and of dfsched's examples
(`interp/memory.py`); a pass that needs another unit (elements, or a unit's words)
converts explicitly where it needs it.

**Where numbering restarts.** A memory that every core shares (depth 0 of the memory tree,
such as DDR) has one numbering for the whole module: buffers of different programs never
overlap there, which is how one program hands a result to the next. Every other memory (a
core's scratchpad such as L1, or registers below it) is private to the program running on
the core, so each program (the `func.func` holding the allocation) numbers it from 0
again. All cores of a program share its numbering (each core's L1 holds the same layout).

Algorithm:
1. collect the `memref.alloc`s whose type has a memory space, in textual order;
2. find the device ("MemoryTrackerAnalysis: No ktdf_arch::DeviceOp found in module...");
3. plan every allocation before changing anything: its memory (the space is resolved
   through the device's `mem_space_mapping`, so `#ktdp.memory_space<ct_local>` and the
   kind it maps to share one numbering), its size (`elements × ceil(bitwidth / 8)`, a
   dynamic dimension bounded by a constant upper bound of its size operand) and the next
   free address of its numbering (bump pointer from 0, alignment 1). A failure is a
   located error on the allocation ("Failed to allocate <space> memory: ..."), with a note
   counting the failed allocations, and the module is left as it was;
4. materialise each address at its allocation: `%a = arith.constant <addr> : index`,
   `%m = builtin.unrealized_conversion_cast %a : index to <memref type>`; the allocation's
   uses take `%m`, its `memref.dealloc`s and the allocation itself are erased.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    ComplexType,
    IndexType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult
from xdsl.rewriter import Rewriter

from dfsched.dialects.constants import constant_int, index_constant
from dfsched.arch.model import GLOBAL, DeviceModel, Memory
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.dialects.ktdp import DYNAMIC, ConstructMemoryViewOp
from dfsched.passes.builder import Inserter
from dfsched.arch.loading import required_device_model
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.walk import nearest_ancestor
from dfsched.passes.value_bounds import upper_bound

NO_DEVICE = ("MemoryTrackerAnalysis: No ktdf_arch::DeviceOp found in module. This could happen if the device "
             "spec file is empty or contains multiple devices")
ALIGNMENT = 1


@dataclass(frozen=True)
class AddressAssignment(DevicePass):
    """Replace every memory-space `memref.alloc` by a byte address in its memory."""

    name = "address-assignment"


    def apply(self, ctx: Context, op: ModuleOp) -> None:
        allocations = collect_allocations(op)
        model = required_device_model(op, self.device, NO_DEVICE)
        tracker = MemoryTracker(model)
        reserve_resident_arguments(op, tracker)
        reserve_constant_views(op, tracker)
        reserve_exchange_slots(op, tracker)
        plan = plan_addresses(op, allocations, tracker)
        for alloc, address in plan:
            materialize_address(alloc, address)


def collect_allocations(module: ModuleOp) -> list[memref.AllocOp]:
    """`memref.alloc`s with a memory space, in textual order (step 1)."""
    out = []
    for op in module.walk():
        if isinstance(op, memref.AllocOp):
            memory_space = op.memref.type.memory_space
            if memory_space is not None and not isinstance(memory_space, NoneAttr):
                out.append(op)
    return out


# ---------------------------------------------------------------------------
# The memory tracker (`docs/passes.md#address-assignment`)
# ---------------------------------------------------------------------------


class AllocationError(Exception):
    """Why one allocation cannot get an address (the text after "Failed to allocate ...: ")."""


@dataclass
class MemoryTracker:
    """Bump pointers per memory: one per shared (global) memory, one per program otherwise."""

    model: DeviceModel
    next_address: dict[tuple[object, str], int] = field(default_factory=dict)
    ceiling: dict[str, int] = field(default_factory=dict)  # memory kind -> first byte kept for exchanges
    # memory kind -> byte ranges [lo, hi) the kernel's own constant-address views hold (every program)
    reserved: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def memory(self, space: Attribute, at: Operation) -> Memory:
        try:
            memory = self.model.memory_for_space(space, at)
        except DiagnosticError:
            memory = None
        if memory is None or memory.size is None:
            raise AllocationError(f"Memory resource {attribute_text(space)} does not have capacity information")
        return memory

    def allocate(self, space: Attribute, size: int, program: Operation | None, at: Operation) -> int:
        memory = self.memory(space, at)
        key = (None if memory.level == GLOBAL else program, memory.kind)
        current = self.next_address.get(key, 0)
        address = -(-current // ALIGNMENT) * ALIGNMENT
        for lo, hi in sorted(self.reserved.get(memory.kind, ())):
            if address < hi and lo < address + size:  # ranges are sorted: skipping one only meets later ones
                address = -(-hi // ALIGNMENT) * ALIGNMENT
        capacity = memory.size
        assert capacity is not None
        capacity = min(capacity, self.ceiling.get(memory.kind, capacity))
        if address + size > capacity:
            raise AllocationError(
                f"Allocation of {size} bytes (aligned to {ALIGNMENT}) exceeds {attribute_text(memory.kind_attr)} "
                f"capacity ({capacity} bytes available, {current} bytes already allocated)")
        self.next_address[key] = address + size
        return address


def plan_addresses(module: ModuleOp, allocations: list[memref.AllocOp],
                   tracker: MemoryTracker) -> list[tuple[memref.AllocOp, int]]:
    """The address of every allocation, or a located error before anything is rewritten (step 3)."""
    plan: list[tuple[memref.AllocOp, int]] = []
    failures: list[tuple[memref.AllocOp, str]] = []
    for alloc in allocations:
        space = alloc.memref.type.memory_space
        try:
            size = allocation_size(alloc)
            address = tracker.allocate(space, size, program_of(alloc), alloc)
        except AllocationError as exc:
            failures.append((alloc, f"Failed to allocate {attribute_text(space)} memory: {exc}"))
            continue
        plan.append((alloc, address))
    if failures:
        alloc, message = failures[0]
        raise error(alloc, message, [(module, f"AddressAssignment: failed to assign addresses for "
                                              f"{len(failures)} allocation(s)")])
    return plan


# ---------------------------------------------------------------------------
# Scratchpad-resident arguments (Decision: resident arguments come first)
# ---------------------------------------------------------------------------

RESIDENT_ALIGNMENT = 64  # as the reference interpreter places argument buffers (`interp/ktir.py` ALIGN)


def reserve_resident_arguments(module: ModuleOp, tracker: MemoryTracker) -> None:
    """Keep allocations off the scratchpad data a kernel argument names.

    A `ct_local` view on a function argument reads data an earlier kernel left in the core's
    scratchpad. The convention the reference interpreter and the DataflowIR simulator share:
    such arguments lie from address 0 of the scratchpad, in argument order, each at a multiple
    of 64 bytes and as long as its views reach; this pass starts the program's numbering
    after them. An argument also viewed in global memory is a global buffer, not resident.
    """
    for function in module.walk():
        if not isinstance(function, func.FuncOp) or not function.body.blocks:
            continue
        reach: dict[int, tuple[int, str]] = {}  # argument index -> (bytes reached, memory kind)
        global_args: set[int] = set()
        for view in function.walk():
            if not isinstance(view, ConstructMemoryViewOp):
                continue
            found = _argument_offset(view.offset, function)
            if found is None:
                continue
            index, offset = found
            try:
                memory = tracker.memory(view.memory_space, view) if view.memory_space is not None else None
            except AllocationError:
                memory = None
            if memory is None or memory.level == GLOBAL:
                global_args.add(index)
                continue
            end = offset + _view_span(view)
            reach[index] = (max(end, reach.get(index, (0, ""))[0]), memory.kind)
        for index in sorted(set(reach) - global_args):
            end, kind = reach[index]
            key = (function, kind)
            start = -(-tracker.next_address.get(key, 0) // RESIDENT_ALIGNMENT) * RESIDENT_ALIGNMENT
            tracker.next_address[key] = start + end


def reserve_constant_views(module: ModuleOp, tracker: MemoryTracker) -> None:
    """Keep allocations off the bytes a scratchpad view at a constant address holds.

    Such a view (`#ktdp.memory_space<ct_local>` at `arith.constant 12288`, with or without
    `ct_id`: the RFC's distributed views) names data an earlier kernel left at that address of
    the scratchpad, as the reference interpreter and the DataflowIR simulator place it (input
    `ct_local@<address>`); buffers of every program are allocated around it."""
    for view in module.walk():
        if not isinstance(view, ConstructMemoryViewOp) or view.memory_space is None:
            continue
        start = constant_int(view.offset)
        if start is None:
            continue
        try:
            memory = tracker.memory(view.memory_space, view)
        except AllocationError:
            continue
        if memory.level != GLOBAL:
            tracker.reserved.setdefault(memory.kind, []).append((start, start + _view_span(view)))


def _argument_offset(value, function: func.FuncOp) -> tuple[int, int] | None:
    """(argument index, constant byte offset) when `value` is an argument of `function`, or
    one plus a bounded amount (its upper bound counts), else None."""
    block = function.body.blocks.first
    if isinstance(value, BlockArgument) and value.owner is block:
        return value.index, 0
    op = value.owner if isinstance(value, OpResult) else None
    if isinstance(op, arith.AddiOp):
        for base, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            if isinstance(base, BlockArgument) and base.owner is block:
                bound = upper_bound(other)
                if bound is None:
                    raise error(op, "cannot reserve the scratchpad data of a resident argument: the view's offset "
                                    "from the argument has no constant upper bound")
                return base.index, max(0, bound)
    return None


def _view_span(view: ConstructMemoryViewOp) -> int:
    """Bytes from a view's offset to the end of its last element (sizes and strides bounded)."""
    dynamic_sizes, dynamic_strides = iter(view.sizes), iter(view.strides)

    def static(values, dynamic) -> list[int]:
        out = []
        for v in values:
            if v == DYNAMIC:
                bound = upper_bound(next(dynamic))
                if bound is None:
                    raise error(view, "cannot reserve the scratchpad data of this view: a size or stride "
                                      "of it has no constant upper bound")
                v = bound
            out.append(v)
        return out

    sizes = static(view.static_sizes.get_values(), dynamic_sizes)
    strides = static(view.static_strides.get_values(), dynamic_strides)
    if any(n <= 0 for n in sizes):
        return 0
    last = sum((n - 1) * abs(s) for n, s in zip(sizes, strides))
    itemsize = element_bytes(view.result.type.element_type) if isinstance(view.result.type, MemRefType) else 1
    return (last + 1) * itemsize


def reserve_exchange_slots(module: ModuleOp, tracker: MemoryTracker) -> None:
    """Keep allocations below the partial and result slots of the inter-tile reductions
    (`ktdf.tile_reduce`, at the top of the scratchpad `ct_local` maps to: Decision 63), which
    live across programs."""
    from dfsched.dialects.ktdf_exchange import TileReduceOp
    from dfsched.dialects.ktdp import MemorySpaceAttr

    for op in module.walk():
        if isinstance(op, TileReduceOp):
            memory = tracker.memory(MemorySpaceAttr("ct_local"), op)
            low = min(op.partial_address.value.data, op.result_address.value.data)
            tracker.ceiling[memory.kind] = min(low, tracker.ceiling.get(memory.kind, low))


def program_of(alloc: Operation) -> Operation | None:
    """The program an allocation belongs to: its function (None outside any function)."""
    return nearest_ancestor(alloc, func.FuncOp)


def allocation_size(alloc: memref.AllocOp) -> int:
    """Bytes of the allocation: elements × ceil(bitwidth / 8)."""
    memref_type = alloc.memref.type
    assert isinstance(memref_type, MemRefType)
    elements = 1
    dynamic = iter(alloc.dynamic_sizes)
    for dim, extent in enumerate(memref_type.get_shape()):
        if extent < 0:
            bound = upper_bound(next(dynamic))
            if bound is None or bound < 0:
                raise AllocationError(f"the size of dynamic dimension {dim} has no constant upper bound")
            extent = bound
        elements *= extent
    return elements * element_bytes(memref_type.element_type)


def element_bytes(element_type: Attribute) -> int:
    """Bytes of one element: ceil(bitwidth / 8); index is 64-bit; vectors and complex numbers
    hold several scalars."""
    if isinstance(element_type, IndexType):
        return 8
    if isinstance(element_type, VectorType):
        lanes = 1
        for extent in element_type.get_shape():
            lanes *= extent
        return lanes * element_bytes(element_type.element_type)
    if isinstance(element_type, ComplexType):
        return 2 * element_bytes(element_type.element_type)
    bits = getattr(element_type, "bitwidth", None)
    if not isinstance(bits, int):
        raise AllocationError(f"element type {attribute_text(element_type)} has no bit width")
    return (bits + 7) // 8


# ---------------------------------------------------------------------------
# Rewriting (step 4)
# ---------------------------------------------------------------------------


def materialize_address(alloc: memref.AllocOp, address: int) -> None:
    at = Inserter.before(alloc)
    constant = at.add(index_constant(address))
    cast = at.add(UnrealizedConversionCastOp.get([constant.result], [alloc.memref.type]))
    deallocs = [use.operation for use in alloc.memref.uses if isinstance(use.operation, memref.DeallocOp)]
    for dealloc in deallocs:
        Rewriter.erase_op(dealloc)
    alloc.memref.replace_all_uses_with(cast.results[0])
    Rewriter.erase_op(alloc)


__all__ = ["AddressAssignment", "MemoryTracker", "allocation_size"]
