"""Structural views of a `ktdf_arch.device` that do not need a graph library.

Each function reads the op graph as upstream's analyses do (`docs/devices.md#the-model-in-one-page`): kinds and
their exemplars, link endpoints, the memory tree, group-local memory and the groups a
pipeline's units can be replicated over. `DeviceModel` caches and exposes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue

from dfsched.dialects.ktdf_arch import (
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    MemoryOp,
    NodeOp,
    ResourceOp,
    YieldOp,
    attribute_text,
)


def kind_name(kind: Attribute | None) -> str | None:
    """A kind as the text passes compare: the string of a string kind, else how it prints."""
    if kind is None:
        return None
    if isinstance(kind, StringAttr):
        return kind.data
    return attribute_text(kind)


def body_ops(device: DeviceOp) -> Iterator[Operation]:
    """Every op of the device body, nested groups included, in textual (pre-)order."""
    if device.block is None:
        return
    stack: list[Iterator[Operation]] = [iter(device.block.ops)]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
            continue
        yield op
        for region in op.regions:
            for block in region.blocks:
                stack.append(iter(block.ops))


def post_order_resources(device: DeviceOp) -> list[ResourceOp]:
    """Resources with nested ones before their group, otherwise in textual order."""
    out: list[ResourceOp] = []

    def visit(block: Block) -> None:
        for op in block.ops:
            if isinstance(op, GroupOp):
                visit(op.body.block)
            if isinstance(op, ResourceOp):
                out.append(op)

    if device.block is not None:
        visit(device.block)
    return out


def exemplars(device: DeviceOp) -> dict[str | None, ResourceOp]:
    """The first resource of each kind in post-order (the kind's representative)."""
    found: dict[str | None, ResourceOp] = {}
    for op in post_order_resources(device):
        found.setdefault(kind_name(op.kind_attr), op)
    return found


# ---------------------------------------------------------------------------
# Endpoints and links
# ---------------------------------------------------------------------------


def endpoint(value: SSAValue) -> NodeOp | None:
    """The node a value stands for, following group block arguments and results."""
    seen = 0
    while seen < 10_000:
        seen += 1
        if isinstance(value, BlockArgument):
            owner = value.block.parent_op()
            if not isinstance(owner, GroupOp) or value.index >= len(owner.operands):
                return None
            value = owner.operands[value.index]
            continue
        if isinstance(value, OpResult):
            op = value.op
            if isinstance(op, NodeOp):
                return op
            if isinstance(op, GroupOp):
                terminator = op.yield_op
                if not isinstance(terminator, YieldOp) or value.index >= len(terminator.operands):
                    return None
                value = terminator.operands[value.index]
                continue
        return None
    return None


class Direction(Enum):
    INCOMING = "incoming"
    OUTGOING = "outgoing"
    BIDIRECTIONAL = "bidirectional"


def op_order(device: DeviceOp) -> dict[Operation, int]:
    """Textual position of every op in the device, for deterministic use ordering."""
    return {op: i for i, op in enumerate(body_ops(device))}


def node_links(node: NodeOp, order: dict[Operation, int]) -> list[tuple[Direction, DatapathOp]]:
    """The links attached to `node`, seen through groups that share or export it."""
    found: list[tuple[Direction, DatapathOp]] = []
    seen: set[int] = set()

    def visit(value: SSAValue) -> None:
        uses = sorted(value.uses, key=lambda u: (order.get(u.operation, 1 << 30), u.index))
        for use in uses:
            user = use.operation
            if isinstance(user, GroupOp):
                visit(user.body.block.args[use.index])
            elif isinstance(user, YieldOp):
                group = user.parent_op()
                if isinstance(group, GroupOp) and use.index < len(group.results):
                    visit(group.results[use.index])
            elif isinstance(user, DatapathOp) and id(user) not in seen:
                seen.add(id(user))
                is_src, is_dst = user.src is value, user.dst is value
                direction = (
                    Direction.BIDIRECTIONAL
                    if is_src and is_dst
                    else Direction.OUTGOING
                    if is_src
                    else Direction.INCOMING
                )
                found.append((direction, user))

    for result in node.results:
        visit(result)
    return found


# ---------------------------------------------------------------------------
# Memory tree
# ---------------------------------------------------------------------------


@dataclass
class MemoryNode:
    """One `memory` op placed in the memory hierarchy."""

    op: MemoryOp
    kind: str | None
    parent: MemoryNode | None
    size: int | None

    @property
    def depth(self) -> int:
        depth, node = 0, self.parent
        while node is not None:
            depth, node = depth + 1, node.parent
        return depth


def memory_tree(device: DeviceOp) -> list[MemoryNode]:
    """Memory nodes in textual order; a group's memories hang below its first shared memory.

    Upstream resolves the first shared value only when it is a `memory` result; we follow
    block arguments to the memory they stand for, so re-shared memories keep their depth.
    """
    nodes: list[MemoryNode] = []
    by_op: dict[MemoryOp, MemoryNode] = {}

    def visit(block: Block, parent: MemoryNode | None) -> None:
        for op in block.ops:
            if isinstance(op, MemoryOp):
                node = MemoryNode(op, kind_name(op.kind_attr), parent, op.size_bytes)
                nodes.append(node)
                by_op[op] = node
            elif isinstance(op, GroupOp):
                inner = parent
                if op.operands:
                    shared = endpoint(op.operands[0])
                    inner = by_op.get(shared) if isinstance(shared, MemoryOp) else None
                visit(op.body.block, inner)

    if device.block is not None:
        visit(device.block, None)
    return nodes


# ---------------------------------------------------------------------------
# Group-local memory
# ---------------------------------------------------------------------------


def group_local_memory(device: DeviceOp) -> dict[str, str | None]:
    """exec kind → the one memory kind present in every group directly holding it (else None)."""
    candidates: dict[str, set[str] | None] = {}
    for op in body_ops(device):
        if not isinstance(op, GroupOp):
            continue
        execs = [kind_name(c.kind_attr) for c in op.body.block.ops if isinstance(c, ExecUnitOp)]
        mems = {kind_name(c.kind_attr) for c in op.body.block.ops if isinstance(c, MemoryOp)}
        mems.discard(None)
        for exec_kind in execs:
            if exec_kind is None:
                continue
            current = candidates.get(exec_kind)
            candidates[exec_kind] = set(mems) if current is None else current & mems  # type: ignore[arg-type]
    result: dict[str, str | None] = {}
    for exec_kind, mems in candidates.items():
        result[exec_kind] = next(iter(mems)) if mems is not None and len(mems) == 1 else None
    return result


# ---------------------------------------------------------------------------
# Replicated groups: cores and corelets
# ---------------------------------------------------------------------------


def enclosing_group(op: Operation) -> GroupOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, GroupOp):
        if isinstance(parent, DeviceOp):
            return None
        parent = parent.parent_op()
    return parent


def _is_alias_group(resource: ResourceOp, group: GroupOp) -> bool:
    """A group that only re-exports `resource` (like `SFU_Block`) is not a real scope."""
    if not resource.results:
        return False
    return any(endpoint(r) is resource for r in group.results)


def common_group(resources: Iterable[ResourceOp]) -> GroupOp | None:
    """The innermost group enclosing all `resources`, stepping over re-export groups."""
    result: GroupOp | None = None
    any_resource = False
    for resource in resources:
        any_resource = True
        group = enclosing_group(resource)
        if group is None:
            return None
        if _is_alias_group(resource, group):
            group = enclosing_group(group)
            if group is None:
                return None
        if result is None or group.is_ancestor(result):
            result = group
            continue
        while not result.is_ancestor(group):
            result = enclosing_group(result)
            if result is None:
                return None
    return result if any_resource else None


def equivalent_groups(group: GroupOp) -> list[GroupOp]:
    """`group` and its sibling groups of the same kind, in textual order."""
    block = group.parent_block()
    if block is None:
        return [group]
    return [g for g in block.ops if isinstance(g, GroupOp) and g.kind_attr == group.kind_attr]


def outermost_group(op: Operation) -> GroupOp | None:
    outer, group = None, enclosing_group(op)
    while group is not None:
        outer, group = group, enclosing_group(group)
    return outer
