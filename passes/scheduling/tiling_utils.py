"""Helpers shared by the tiling passes (`docs/passes.md#tile-scf-for-loops`).

* **Loop nests**: `perfectly_nested_loops` (MLIR's `getPerfectlyNestedLoops`: a loop whose
  body holds exactly one `scf.for` and the terminator nests it).
* **LoopTilingAnalysis** (input): from every loop not yet seen (pre-order), its perfectly
  nested chain, cut to 4 loops, split into sub-nests that end *at and including* the first
  non-parallel loop. Every loop gets `divisibility = 1`, `min_value = 1` and a strategy:
  *tiling* in a sub-nest of depth > 1, *strip-mining* for a depth-1 sub-nest with no `scf.for`
  ancestor, none otherwise. Loops are invalidated once a pass has transformed them.
* **MLIR's loop tiling** (`tile`, `tilePerfectlyNested`, `stripmineSink`): the tile loop keeps
  the original loop with its step multiplied by the size; the point loop runs
  `iv .. minsi(ub, iv + step*size)` with the original step and the original body.
* `propagate_loop_type` (the point loops inherit the `loop_type` of the loops they come from)
  and `normalize_loops` (`normalize-scf-for-loops`'s normalization applied to a given list of loops, each followed by
  sinking the `affine.apply` ops it created next to their users).
* `set_transfer_side`: a new map and index list for one side of a `ktdf.data_transfer`.

Everything keeps IR order (Decision 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, IndexType, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects import ktdf
from dfsched.dialects.constants import constant_int, index_constant
from dfsched.passes.builder import Inserter
from dfsched.passes.walk import nearest_ancestor, post_order
from dfsched.passes.scheduling.pipeline_tree import is_parallel_loop

MAX_LOOP_NEST_DEPTH = 4
"""Deeper perfect nests are analysed as their outermost four loops (upstream's kMaxLoopNestDepth)."""


# ---------------------------------------------------------------------------
# Small IR helpers
# ---------------------------------------------------------------------------


def constant_index_value(value: SSAValue) -> int | None:
    """The value of an `arith.constant N : index` (upstream's `getConstantIndexValue`), else None."""
    return constant_int(value) if isinstance(value.type, IndexType) else None


def insert_before(op: Operation, anchor: Operation, location_of: Operation | None = None) -> Operation:
    """Insert `op` before `anchor`; it takes the location of `location_of` (default: `anchor`)."""
    return Inserter.before(anchor, location_of).add(op)


def index_constant_before(value: int, anchor: Operation, location_of: Operation | None = None) -> SSAValue:
    return insert_before(index_constant(value), anchor, location_of).results[0]


def new_loop(lb: SSAValue, ub: SSAValue, step: SSAValue) -> scf.ForOp:
    """An `scf.for lb to ub step step` with an empty body (just the `scf.yield`)."""
    body = Block([scf.YieldOp()], arg_types=[lb.type])
    return scf.ForOp(lb, ub, step, [], Region(body))


def body_ops(loop: scf.ForOp) -> list[Operation]:
    """The ops of a loop body without its terminator."""
    ops = list(loop.body.block.ops)
    return ops[:-1] if ops and isinstance(ops[-1], scf.YieldOp) else ops


def move_ops_before(ops: Sequence[Operation], anchor: Operation) -> None:
    for op in ops:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(anchor))


def has_ancestor_loop(op: Operation) -> bool:
    return nearest_ancestor(op, scf.ForOp) is not None


def loops_pre_order(root: Operation) -> list[scf.ForOp]:
    return [op for op in root.walk() if isinstance(op, scf.ForOp)]


def loops_post_order(root: Operation) -> list[scf.ForOp]:
    """Every `scf.for` under `root` (`root` included), inner loops before the loops holding them."""
    return post_order(root, scf.ForOp)


def outermost_loops(root: Operation) -> list[scf.ForOp]:
    """Every `scf.for` under `root` that has no `scf.for` between it and `root` (pre-order)."""
    found: list[scf.ForOp] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if isinstance(inner, scf.ForOp):
                        found.append(inner)
                    else:
                        visit(inner)

    visit(root)
    return found


# ---------------------------------------------------------------------------
# Perfect nests and the tiling analysis
# ---------------------------------------------------------------------------


def perfectly_nested_loops(root: scf.ForOp, max_loops: int | None = None) -> list[scf.ForOp]:
    """`root` and the loops perfectly nested in it, outermost first (at most `max_loops`)."""
    loops: list[scf.ForOp] = []
    loop: scf.ForOp | None = root
    while loop is not None and (max_loops is None or len(loops) < max_loops):
        loops.append(loop)
        ops = list(loop.body.block.ops)
        if len(ops) != 2 or not isinstance(ops[0], scf.ForOp):
            break
        loop = ops[0]
    return loops


class Strategy(Enum):
    NONE = "none"
    TILING = "tiling"
    STRIP_MINING = "strip-mining"


@dataclass
class LoopMetadata:
    """What the analysis knows about one loop (upstream's LoopTilingMetadata)."""

    divisibility: int = 1
    min_value: int = 1
    strategy: Strategy = Strategy.NONE
    invalidated: bool = False


@dataclass
class LoopNest:
    loops: list[scf.ForOp]

    @property
    def outermost(self) -> scf.ForOp:
        return self.loops[0]


@dataclass
class LoopTilingAnalysis:
    """Perfect sub-nests of parallel loops and what to do with each loop (Input)."""

    nests: list[LoopNest] = field(default_factory=list)
    metadata: dict[scf.ForOp, LoopMetadata] = field(default_factory=dict)

    @classmethod
    def of(cls, root: Operation) -> LoopTilingAnalysis:
        analysis = cls()
        visited: set[scf.ForOp] = set()
        for loop in loops_pre_order(root):
            if loop in visited:
                continue
            chain = perfectly_nested_loops(loop, MAX_LOOP_NEST_DEPTH)
            for sub_nest in split_at_non_parallel(chain):
                analysis._add(LoopNest(sub_nest))
                visited.update(sub_nest)
        return analysis

    def _add(self, nest: LoopNest) -> None:
        depth = len(nest.loops)
        for position, loop in enumerate(nest.loops):
            strategy = Strategy.NONE
            if depth > 1:
                strategy = Strategy.TILING
            elif position == 0 and not has_ancestor_loop(loop):
                strategy = Strategy.STRIP_MINING
            self.metadata[loop] = LoopMetadata(strategy=strategy)
        self.nests.append(nest)

    def is_candidate(self, loop: scf.ForOp, strategy: Strategy) -> bool:
        meta = self.metadata.get(loop)
        return meta is not None and not meta.invalidated and meta.strategy is strategy

    def invalidate(self, loops: Sequence[scf.ForOp]) -> None:
        for loop in loops:
            if loop in self.metadata:
                self.metadata[loop].invalidated = True


def split_at_non_parallel(chain: Sequence[scf.ForOp]) -> list[list[scf.ForOp]]:
    """Sub-nests of a chain, each ending at (and including) its first non-parallel loop.

    QUIRK (upstream): a reduction loop therefore closes the sub-nest it belongs to.
    """
    sub_nests: list[list[scf.ForOp]] = []
    current: list[scf.ForOp] = []
    for index, loop in enumerate(chain):
        current.append(loop)
        if not is_parallel_loop(loop) or index == len(chain) - 1:
            sub_nests.append(current)
            current = []
    return sub_nests


def reserve_size_before(anchor: Operation, meta: LoopMetadata) -> SSAValue:
    """A `ktdf.tiling.reserve_size` with the loop's constraints, right before `anchor`."""
    return insert_before(ktdf.TilingReserveSizeOp(meta.min_value, meta.divisibility), anchor).results[0]


# ---------------------------------------------------------------------------
# MLIR's loop tiling (mlir/Dialect/SCF/Utils: tile, tilePerfectlyNested)
# ---------------------------------------------------------------------------


def strip_mine_sink(loop: scf.ForOp, factor: SSAValue, targets: Sequence[scf.ForOp]) -> list[scf.ForOp]:
    """MLIR's `stripmineSink`: `loop` steps by `step*factor`; each target's body moves into a
    new point loop `iv .. minsi(ub, iv + step*factor)` by the original step, placed in the target."""
    original_step = loop.step
    iv = loop.body.block.args[0]
    new_step = insert_before(arith.MuliOp(original_step, factor), loop).results[0]
    loop.operands[2] = new_step
    inner_loops: list[scf.ForOp] = []
    for target in targets:
        ops = body_ops(target)
        terminator = target.body.block.last_op
        assert terminator is not None
        stepped = insert_before(arith.AddiOp(iv, new_step), terminator, target).results[0]
        upper = insert_before(arith.MinSIOp(loop.ub, stepped), terminator, target).results[0]
        point = insert_before(new_loop(iv, upper, original_step), terminator, target)
        point_yield = point.body.block.last_op
        assert point_yield is not None
        move_ops_before(ops, point_yield)
        point_iv = point.body.block.args[0]
        iv.replace_uses_with_if(point_iv, lambda use, region=point.body: region.is_ancestor(use.operation))
        inner_loops.append(point)
    return inner_loops


def tile(loops: Sequence[scf.ForOp], sizes: Sequence[SSAValue], target: scf.ForOp) -> list[scf.ForOp]:
    """MLIR's `tile(forOps, sizes, target)`: strip-mine each loop in turn, sinking into the
    previous point loop (first `target`); returns the point loops, outermost first."""
    point_loops: list[scf.ForOp] = []
    current = [target]
    for loop, size in zip(loops, sizes):
        current = strip_mine_sink(loop, size, current)
        point_loops.append(current[0])
    return point_loops


def tile_perfectly_nested(root: scf.ForOp, sizes: Sequence[SSAValue]) -> list[scf.ForOp]:
    """MLIR's `tilePerfectlyNested`: tile the first `len(sizes)` perfectly nested loops of `root`."""
    loops = perfectly_nested_loops(root, len(sizes))
    sizes = list(sizes)[: len(loops)]
    return tile(loops, sizes, loops[-1])


def propagate_loop_type(originals: Sequence[scf.ForOp], inner_loops: Sequence[scf.ForOp]) -> None:
    """Point loops inherit `loop_type` from their original loops (only when the counts match)."""
    if len(originals) != len(inner_loops):
        return
    for original, inner in zip(originals, inner_loops):
        loop_type = original.attributes.get("loop_type")
        if isinstance(loop_type, ktdf.LoopTypeAttr):
            inner.attributes["loop_type"] = loop_type


def normalize_loops(loops: Sequence[scf.ForOp]) -> None:
    """Normalize each loop to `0 .. trip count step 1` in the given order (steps 1-3)."""
    from dfsched.passes.scheduling.normalize_scf_for_loops import normalize_loop

    for loop in loops:
        normalize_loop(loop)


def untileable_reason(loops: Sequence[scf.ForOp]) -> str | None:
    """Why these loops cannot be tiled or strip-mined (None when they can): tile sizes are
    `index` values and the new loops carry no values."""
    for loop in loops:
        if loop.iter_args:
            return "loops with iter_args"
        if not isinstance(loop.lb.type, IndexType):
            return f"loops over {loop.lb.type}"
    return None


def set_transfer_side(transfer: ktdf.DataTransferOp, side: str, amap: AffineMap, indices: Sequence[SSAValue]) -> None:
    """Give one side (`"source"` or `"dest"`) of `transfer` a new map and index list (operand
    segments follow)."""
    groups = [
        [transfer.source], list(transfer.source_indices), list(transfer.source_sizes),
        [transfer.destination], list(transfer.dest_indices), list(transfer.dest_sizes),
    ]
    groups[1 if side == "source" else 4] = list(indices)
    transfer.operands = [v for group in groups for v in group]
    transfer.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(g) for g in groups])
    transfer.properties[f"{side}_map"] = AffineMapAttr(amap)
