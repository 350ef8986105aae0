"""Walking the IR in MLIR's orders, shared by the passes of every stage.

`post_order` is MLIR's default walk (nested ops before the op holding them, `root` last);
`ancestors` climbs from an op, `nearest_ancestor` to the closest holder of a kind (whether an op holds another:
xDSL's `Operation.is_ancestor`), `ancestor_in` to the op of a given block holding an op, `defined_inside` whether a value is
defined in an op; `values_feeding` walks back from a value to the values it is
computed from, `depends_on` asks whether those include another; `each_once` is the worklist
the other walks-back share (depth first, each item once, the loop body adds what follows).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Hashable, TypeVar

from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from dfsched.dialects import ktdf

OpT = TypeVar("OpT", bound=Operation)
T = TypeVar("T", bound=Hashable)


def post_order(root: Operation, kind: type[OpT] = Operation) -> list[OpT]:
    """Every op of class `kind` under `root` (`root` included), nested ops before the ops
    holding them."""
    return [op for op in root.walk(region_first=True) if isinstance(op, kind)]


def stages_post_order(root: Operation) -> list[ktdf.StageOp]:
    """Every stage under `root`; a stage holding pipelines comes after their stages."""
    return post_order(root, ktdf.StageOp)


def pipelines_post_order(root: Operation) -> list[ktdf.PipelineOp]:
    """Every `ktdf.pipeline` under `root`, inner pipelines before the ones holding them."""
    return post_order(root, ktdf.PipelineOp)


def ancestors(op: Operation) -> Iterator[Operation]:
    """The ops holding `op`, innermost first (not `op` itself)."""
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def nearest_ancestor(op: Operation, kind: type[OpT]) -> OpT | None:
    """The closest op of class `kind` holding `op` (not `op` itself)."""
    return next((parent for parent in ancestors(op) if isinstance(parent, kind)), None)


def ancestor_in(op: Operation, block) -> Operation | None:
    """The op of `block` that is `op` or holds it, None when `op` is not under `block`."""
    while op is not None and op.parent is not block:
        op = op.parent_op()
    return op


# The attribute of a pipeline copying a tile that compute reads or writes reshaped (Decision 108).
RESHAPED_COPY = "dataflow_scheduler.reshaped_copy"


def defined_inside(value: SSAValue, container: Operation) -> bool:
    """Whether `value` is a result of `container` or of an op nested in it, or an argument of one
    of their blocks."""
    if isinstance(value, OpResult):
        return container.is_ancestor(value.owner)
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        return owner is not None and container.is_ancestor(owner)
    return False


def runs_compute_ops_in_sequence(op: Operation) -> bool:
    """Whether the function holding `op` runs several computing pipelines one after the other
    in its entry block, directly or inside loops: a program of several compute ops (README
    Decision 47). A pipeline that only copies (no FIFO read: a hoisted load) does not count, except
    a copy of a tile reshaped between memory and compute (Decision 108), which runs before or after
    the compute op it feeds or drains."""
    from xdsl.dialects.func import FuncOp

    function = op if isinstance(op, FuncOp) else nearest_ancestor(op, FuncOp)
    if function is None or not function.body.blocks:
        return False
    computing = [top for top in function.body.blocks[0].ops
                 if any(isinstance(inner, ktdf.PipelineOp) for inner in top.walk())
                 and any(isinstance(inner, ktdf.ReadFromFifoOp) for inner in top.walk())]
    reshaped = any(isinstance(inner, ktdf.PipelineOp) and RESHAPED_COPY in inner.attributes
                   for inner in function.walk())
    return len(computing) > 1 or bool(computing) and reshaped


def values_feeding(value: SSAValue) -> Iterator[SSAValue]:
    """`value` and every value it is computed from (through defining ops' operands), each once."""
    seen, work = {value}, [value]
    while work:
        current = work.pop()
        yield current
        if isinstance(current, OpResult):
            fresh = [v for v in current.owner.operands if v not in seen]
            seen.update(fresh)
            work.extend(fresh)


def each_once(*start: T) -> Iterator[tuple[T, list[T]]]:
    """(item, worklist) for `start` and whatever the loop body appends to the worklist, last
    appended first, each item once: `for op, work in each_once(store): work.extend(...)`."""
    work, seen = list(start), set()
    while work:
        item = work.pop()
        if item not in seen:
            seen.add(item)
            yield item, work


def depends_on(value: SSAValue, target: SSAValue) -> bool:
    """True when `value` is `target` or is computed from it (through defining ops' operands)."""
    return any(v is target for v in values_feeding(value))
