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
from dfsched.passes.lowering.address_assignment import element_bytes

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
        for view in [o for o in op.walk() if o.name == MEMORY_VIEW]:
            size = element_size(view)
            if size != 1:
                view.operands[0] = OffsetScaler(view, size).scaled(view.operands[0])


def element_size(view: Operation) -> int:
    t = view.results[0].type
    if not isinstance(t, MemRefType):
        raise error(view, f"a memory view of type {t} has no element size to convert its address with")
    return element_bytes(t.element_type)


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
