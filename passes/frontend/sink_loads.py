"""Loads used inside a nested loop are repeated there, so a compute group stays in one block
(README Decision 51; run by `compute-group-extraction` before it groups).

A kernel may load a tile once and use it in an inner loop (`rope_fwd_4x2`: the cos and sin
tiles of a sequence block, loaded in the block loop and read for every head in the head loop).
Groups never span control flow, and the inner loop becomes a host loop calling a program, so
the program must load the tile itself: the load is cloned right before its first user in each
block that uses it (the access tile it reads is defined outside and dominates), and the
original goes when nothing else reads it.

Only when no `ktdp.store` of the function may write what the load reads, since the load now
runs later (and once per iteration): a store may alias it when it writes through the same view
or a view at the same base value, or at constant bases whose byte ranges overlap. Views at two
different kernel arguments are distinct buffers (as the reference runs them), and so are a
scratchpad (`ct_local`) view and a view of another memory space. Otherwise the
load stays and `compute-group-extraction` reports the store that reads it across blocks.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from dfsched.compat import InsertPoint, Rewriter
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int


def sink_loads_into_nested_blocks(root: Operation) -> None:
    for kernel in [o for o in root.walk() if isinstance(o, func.FuncOp)]:
        stores = [o for o in kernel.walk() if isinstance(o, ktdp.StoreOp)]
        for load in [o for o in kernel.walk() if isinstance(o, ktdp.LoadOp)]:
            _sink(load, stores)


def _sink(load: ktdp.LoadOp, stores: list[ktdp.StoreOp]) -> None:
    home = load.parent_block()
    elsewhere = [use for use in load.result.uses if use.operation.parent_block() is not home]
    if not elsewhere or any(may_alias(view_of(load.access_tile), view_of(s.access_tile)) for s in stores):
        return
    first_user: dict[Block, Operation] = {}
    for use in elsewhere:
        block = use.operation.parent_block()
        current = first_user.get(block)
        if current is None or block.get_operation_index(use.operation) < block.get_operation_index(current):
            first_user[block] = use.operation
    for block, user in first_user.items():
        clone = load.clone()
        Rewriter.insert_op(clone, InsertPoint.before(user))
        for use in [u for u in load.result.uses if u.operation.parent_block() is block]:
            use.operation.operands[use.index] = clone.result
    if not load.result.uses:
        Rewriter.erase_op(load)


def view_of(access_tile: SSAValue) -> Operation | None:
    owner = access_tile.owner
    if not isinstance(owner, ktdp.ConstructAccessTileOp):
        return None
    view = owner.base.owner
    return view if isinstance(view, ktdp.ConstructMemoryViewOp) else None


def may_alias(a: Operation | None, b: Operation | None) -> bool:
    if a is None or b is None:
        return True
    if a is b:
        return True
    if a.memory_space != b.memory_space and "ct_local" in (_kind(a), _kind(b)):
        return False  # a scratchpad and global memory (or another scratchpad): two memories
    if a.offset is b.offset:
        return True
    if isinstance(a.offset, BlockArgument) and isinstance(b.offset, BlockArgument):
        return False  # two kernel arguments: two buffers
    ranges = [_byte_range(v) for v in (a, b)]
    if ranges[0] is None or ranges[1] is None:
        return True
    (a_low, a_high), (b_low, b_high) = ranges
    return a_low < b_high and b_low < a_high


def _kind(view: Operation) -> str | None:
    kind = getattr(view.memory_space, "kind", None)
    return getattr(kind, "data", None)


def _byte_range(view: Operation) -> tuple[int, int] | None:
    base = constant_int(view.offset)
    view_type = view.results[0].type
    if base is None or view.sizes or view.strides or not isinstance(view_type, MemRefType):
        return None
    sizes, strides = view.static_sizes.get_values(), view.static_strides.get_values()
    width = getattr(view_type.element_type, "bitwidth", None)
    if width is None or any(s <= 0 for s in sizes) or any(s < 0 for s in strides):
        return None
    last = sum((size - 1) * stride for size, stride in zip(sizes, strides))
    return base, base + (last + 1) * max(1, width // 8)


__all__ = ["sink_loads_into_nested_blocks"]
