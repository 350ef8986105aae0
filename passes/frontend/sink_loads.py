"""Loads used inside a nested loop are repeated there, so a compute group stays in one block
(README Decision 51; run by `compute-group-extraction` before it groups).

A kernel may load a tile once and use it in an inner loop (`rope_fwd_4x2`: the cos and sin
tiles of a sequence block, loaded in the block loop and read for every head in the head loop).
Groups never span control flow, and the inner loop becomes a host loop calling a program, so
the program must load the tile itself: the load is cloned right before its first user in each
block that uses it (the access tile it reads is defined outside and dominates), and the
original goes when nothing else reads it.

Only when no `ktdp.store` that may run between the load and its users (one after it in its
block, or inside the op holding a user) may write what the load reads, since the load now
runs later (and once per iteration): a store may alias it when it writes through the same view
or a view at the same base value, or at bases bounded by constants (tile ids within the
grid) whose byte ranges overlap. Views at two
different kernel arguments are distinct buffers (as the reference runs them), and so are a
scratchpad (`ct_local`) view and a view of another memory space. Otherwise the
load stays and `compute-group-extraction` reports the store that reads it across blocks.

Before that, tensor compute on loaded data whose every reader is in one nested block (Triton's
`result = x + reduced` in front of `scf.if %pid == 0 { store result }`) moves into that block,
right before its first reader, last op first, so a chain moves whole and the loads it reads are
then repeated there as above. Only pure `arith`/`math`/`tensor`/`linalg` ops with tensor results
computed from a `ktdp.load` move: such a value read across blocks was refused before, and
fills, empty tensors and address arithmetic stay where they are.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from dfsched.compat import InsertPoint, Rewriter
from dfsched.dialects import ktdp
from dfsched.passes.value_bounds import value_bounds
from dfsched.passes.walk import ancestor_in, values_feeding


def sink_loads_into_nested_blocks(root: Operation) -> None:
    for kernel in [o for o in root.walk() if isinstance(o, func.FuncOp)]:
        for block in [b for o in kernel.walk() for r in o.regions for b in r.blocks]:
            _sink_compute(block)
        stores = [o for o in kernel.walk() if isinstance(o, ktdp.StoreOp)]
        for load in [o for o in kernel.walk() if isinstance(o, ktdp.LoadOp)]:
            _sink(load, stores)


def _sink(load: ktdp.LoadOp, stores: list[ktdp.StoreOp]) -> None:
    home = load.parent_block()
    elsewhere = [use for use in load.result.uses if use.operation.parent_block() is not home]
    if not elsewhere:
        return
    start = home.get_operation_index(load)
    end = max(home.get_operation_index(ancestor_in(use.operation, home)) for use in elsewhere)
    between = [s for s in stores if (a := ancestor_in(s, home)) is not None
               and start < home.get_operation_index(a) <= end]  # may run between the load and its users
    if any(may_alias(view_of(load.access_tile), view_of(s.access_tile)) for s in between):
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


MOVABLE_DIALECTS = ("arith.", "math.", "tensor.", "linalg.")


def _sink_compute(home: Block) -> None:
    for op in reversed(list(home.ops)):
        if not _movable(op):
            continue
        users = [use.operation for result in op.results for use in result.uses]
        blocks = {user.parent_block() for user in users}
        if len(blocks) != 1 or home in blocks:
            continue
        (block,) = blocks
        if ancestor_in(block.parent_op(), home) is None:
            continue
        first = min(users, key=block.get_operation_index)
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(first))


def _movable(op: Operation) -> bool:
    if not op.name.startswith(MOVABLE_DIALECTS) or not op.results or op.name == "arith.constant":
        return False
    if not all(isinstance(r.type, TensorType) for r in op.results):
        return False
    if any(not o.name.startswith(MOVABLE_DIALECTS) for r in op.regions for o in r.walk()):
        return False
    return _reads_a_load(op)


def _reads_a_load(op: Operation) -> bool:
    return any(isinstance(v, OpResult) and isinstance(v.owner, ktdp.LoadOp)
               for operand in op.operands for v in values_feeding(operand))


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
    """The bytes `view` may touch: from the lowest to past the highest its start can take
    (a constant, or a value bounded by constants: `ptr + pid * 256` on a grid of 4)."""
    low, high = value_bounds(view.offset)
    view_type = view.results[0].type
    if low is None or high is None or view.sizes or view.strides or not isinstance(view_type, MemRefType):
        return None
    sizes, strides = view.static_sizes.get_values(), view.static_strides.get_values()
    width = getattr(view_type.element_type, "bitwidth", None)
    if width is None or any(s <= 0 for s in sizes) or any(s < 0 for s in strides):
        return None
    last = sum((size - 1) * stride for size, stride in zip(sizes, strides))
    return low, high + (last + 1) * max(1, width // 8)


__all__ = ["sink_loads_into_nested_blocks"]
