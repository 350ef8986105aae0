"""Walking the IR in MLIR's orders, shared by the passes of every stage.

`post_order` is MLIR's default walk (nested ops before the op holding them, `root` last);
`nearest_ancestor` climbs to the closest holder of a kind.
"""

from __future__ import annotations

from typing import TypeVar

from xdsl.ir import Operation

from dfsched.dialects import ktdf

OpT = TypeVar("OpT", bound=Operation)


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


def nearest_ancestor(op: Operation, kind: type[OpT]) -> OpT | None:
    """The closest op of class `kind` holding `op` (not `op` itself)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, kind):
        parent = parent.parent_op()
    return parent
