"""Which values a memory view's start address is computed from, for every tool that asks.

KTIR computes a `ktdp.construct_memory_view`'s offset from constants, tile ids and kernel
arguments by additions (and casts, selects, a runtime argument's value). The kernel arguments
it reaches that way are *address arguments*: the base address of a buffer that the runtime
(or `--bind`) hands over. The reference interpreter places buffers for them, the front door
(`bind-kernel-arguments`, `address-units-to-bytes`) tells them from sizes and strides.

* `address_sources(op)`: the operands an address passes through `op` from (none if `op` is
  not additive);
* `walk_addresses(roots, argument)`: visit the values the addresses `roots` come from;
* `address_arguments(function)`: the indices of a function's address arguments;
* `can_hold_address(type)`: argument types that can carry an address.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue

ADDITIVE = ("arith.addi", "arith.subi", "arith.index_cast", "arith.index_castui", "arith.select",
            "spyreop.addi64toi64", "ktdp.runtime_arg_extract")

MEMORY_VIEW = "ktdp.construct_memory_view"


def can_hold_address(t) -> bool:
    """Argument types a placeholder base (2**40 and up) passes through unchanged."""
    if getattr(t, "name", "") == "ktdp.runtime_arg":
        t = t.underlying_type
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data == 64)


def address_arguments(f: func.FuncOp) -> set[int]:
    """Arguments that reach a memory view's offset through additions (and casts)."""
    args = list(f.body.blocks.first.args)
    found: set[int] = set()

    def argument(v: BlockArgument) -> list[SSAValue]:
        if v.owner is f.body.blocks.first and can_hold_address(v.type):
            found.add(args.index(v))
        return []

    walk_addresses([op.operands[0] for op in f.walk() if op.name == MEMORY_VIEW], argument)
    return found


def walk_addresses(roots: list[SSAValue], argument: Any) -> None:
    """Visit, once each, the values an address reaches `roots` from through `address_sources`:
    a block argument reached is handed to `argument`, which returns the values it comes from
    (if any) to continue with."""
    work, seen = list(roots), set()
    while work:
        if id(v := work.pop()) not in seen:
            seen.add(id(v))
            work.extend(argument(v) if isinstance(v, BlockArgument) else address_sources(v.owner))


def address_sources(owner: Any) -> list[SSAValue]:
    """The operands an address passes through `owner` from (an addition, a cast, a select's
    values, a runtime argument's value); none for other ops."""
    if not isinstance(owner, Operation) or owner.name not in ADDITIVE:
        return []
    operands = list(owner.operands)
    if owner.name == "arith.select":
        operands = operands[1:]
    if owner.name == "ktdp.runtime_arg_extract" and owner.kind.value.data != 0:
        return []  # granularity / upperbound: not the argument's value
    return operands
