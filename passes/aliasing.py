"""Which memrefs an op reads and writes, through the casts and views that alias them
(upstream's write-set scan, used to order stages that share a buffer)."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, OpResult, SSAValue

from dfsched.dialects import ktdf
from dfsched.passes.walk import each_once

ALIASING_OPS = frozenset({"memref.cast", "memref.view", "memref.subview", "memref.reinterpret_cast",
                          "memref.memory_space_cast"})


def memref_aliases(memref: SSAValue) -> list[SSAValue]:
    """`memref` and every value derived from it through memref casts and views."""
    found: list[SSAValue] = []
    for value, worklist in each_once(memref):
        found.append(value)
        for use in value.uses:
            if use.operation.name in ALIASING_OPS:
                worklist.extend(use.operation.results)
    return found


def writes_to(op: Operation, aliases: Iterable[SSAValue]) -> bool:
    """True when `op` writes through one of `aliases` (data transfers, memref.store, linalg inits)."""
    targets = set(aliases)
    if isinstance(op, ktdf.DataTransferOp):
        return op.destination in targets and not isinstance(op.destination.type, ktdf.FifoSlotType)
    if op.name == "memref.store":
        return len(op.operands) >= 2 and op.operands[1] in targets
    if op.name.startswith("linalg.") and hasattr(op, "outputs"):
        return any(v in targets for v in op.outputs)
    return False


def memref_root(memref: SSAValue) -> SSAValue:
    """The value `memref` is derived from through memref casts and views (itself if none)."""
    while isinstance(memref, OpResult) and memref.op.name in ALIASING_OPS and memref.op.operands:
        memref = memref.op.operands[0]
    return memref


def reads_from(op: Operation) -> list[SSAValue]:
    """The memrefs `op` reads (non-FIFO transfer sources, memref.load/copy, linalg inputs, memref
    data written to a FIFO)."""
    if isinstance(op, ktdf.DataTransferOp):
        return [] if isinstance(op.source.type, ktdf.FifoSlotType) else [op.source]
    if op.name in ("memref.load", "memref.copy", "ktdf.write_to_fifo"):
        candidates = list(op.operands[:1])
    elif op.name.startswith("linalg.") and hasattr(op, "inputs"):
        candidates = list(op.inputs)
    else:
        return []
    return [v for v in candidates if isinstance(v.type, MemRefType)]


def region_writes_to(region_holder: Operation, memref: SSAValue) -> bool:
    """True when an op inside `region_holder` writes through `memref` or an alias of it."""
    aliases = memref_aliases(memref)
    return any(writes_to(op, aliases) for op in region_holder.walk() if op is not region_holder)
