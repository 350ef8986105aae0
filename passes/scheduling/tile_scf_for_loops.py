"""`tile-scf-for-loops`: split perfect nests of parallel loops into tile and point loops
(`docs/passes.md#tile-scf-for-loops`).

Modes:

* **dynamic** (the pipeline; no `tile-sizes`): the loop-tiling analysis
  (`tiling_utils.LoopTilingAnalysis`) finds perfect sub-nests of depth > 1; for each one whose
  loops are all still untouched tiling candidates, one `ktdf.tiling.reserve_size
  {divisibility, min_value}` per loop is emitted before the outermost loop (loop order), the
  nest is tiled with them and its loops are invalidated. `tile-size-selection` later turns
  each placeholder into a size. A single loop is a strip-mining candidate and is left alone,
  as upstream does, unless `tile-single-loops` is set (dfsched's step past upstream, used by
  `-ktir-to-dfir`): then a single *parallel* loop with no enclosing `scf.for` (a depth-1
  nest whose loop is a strip-mining candidate) is tiled exactly like a depth-1 tiling nest
  (reserve_size, `ceildivui` tile loop, `derive_size` point loop, `linearize_index`), so a
  kernel whose per-tile rows exceed the scratchpad still gets a tile loop to size.
  Only a loop whose whole extent may not fit is tiled (`tile_size_selection.whole_loop_fits`:
  with the device's scratchpad capacities, every scratchpad buffer of the program, those
  inside the loop times its trip count). A loop that fits whole is left alone, because the
  passes between tiling and `tile-size-selection` would commit to a tile loop whose size is
  not known yet (double buffering over it, `ktdf.parallel` over its point loop) and folding
  the tile loop away afterwards would not undo that. Without a device, or with a trip count
  or buffer size that is not static, the loop is tiled.
* **static** (`tile-sizes=a,b,...`, for tests): every outermost loop's perfect nest is tiled
  with the given sizes, emitted as `arith.constant`s before it. The number of sizes must equal
  the depth of every such nest and every size must be positive.

Tiling itself, per nest:

1. unless `fallback-scf-tiling` is set, the custom normalized scheme (when every loop runs
   from the constant 0 by the constant 1 and there is one size per loop of the perfect nest):
   - tile loops `0 .. ceildivui(ub, ts)` (attributes copied), nested, outermost first; when a
     loop's bound is a `ktdf.tiling.derive_size`, its pairs are the dimension's *ancestry* and
     its `total_size` the dimension's total (so tiling a point loop again composes);
   - in the innermost tile loop one `ktdf.tiling.derive_size [ancestry..., tile_iv : ts],
     total_size` per dimension, then the point loops `0 .. derive_size` (attributes copied)
     holding the original innermost body;
   - every `ktdf.tiling.linearize_index` that used an original induction variable gets the pair
     replaced by `[tile_iv : ts], [point_iv : old stride]`; other uses of an original
     induction variable read a new `linearize_index [ancestry..., tile_iv : ts, point_iv : 1]`
     made at the start of the innermost body (dimensions handled outermost first, each new one
     placed first, so the innermost dimension's comes first);
2. otherwise MLIR's `tilePerfectlyNested` (`tiling_utils.tile_perfectly_nested`): tile loops
   step by `step * ts`, point loops run `iv .. minsi(ub, iv + step*ts)` and inherit
   `loop_type`; with `normalize-loops` (default) the original and the point loops are then
   normalized as `normalize-scf-for-loops` does.

Loops that carry `iter_args` or count over integers rather than `index` are never tiled:
dynamic mode skips their nests, static mode reports them. Diagnostics (static mode, on the outermost loop of the nest): "Number of tile
sizes (n) does not match nest depth (d)", "Tile size at index k is non-positive: v".
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.scheduling.tile_size_selection import whole_loop_fits
from dfsched.passes.scheduling.pipeline_tree import is_parallel_loop
from dfsched.passes.scheduling.tiling_utils import (
    LoopNest,
    LoopTilingAnalysis,
    Strategy,
    body_ops,
    constant_index_value,
    index_constant_before,
    insert_before,
    move_ops_before,
    new_loop,
    normalize_loops,
    outermost_loops,
    perfectly_nested_loops,
    propagate_loop_type,
    reserve_size_before,
    tile_perfectly_nested,
    untileable_reason,
)

PASS = "tile-scf-for-loops"


@dataclass(frozen=True)
class TileSCFForLoops(DevicePass):
    """Tile perfect nests of parallel loops into tile and point loops with size placeholders."""

    name = "tile-scf-for-loops"

    tile_sizes: tuple[int, ...] = ()
    """Static sizes, one per loop of every nest (testing); empty: dynamic mode."""
    normalize_loops: bool = True
    """Normalize the loops the fallback SCF tiling produces."""
    fallback_scf_tiling: bool = False
    """Use MLIR's tilePerfectlyNested instead of the custom normalized scheme."""
    tile_single_loops: bool = False
    """Dynamic mode: also tile a single parallel loop that is a strip-mining candidate (a depth-1
    nest with no enclosing `scf.for`) whose whole extent may not fit the scratchpad, as a
    depth-1 tiling nest. dfsched's own step past upstream, used by `-ktir-to-dfir`; off by
    default, as upstream. The only mode that reads the device (`device`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.tile_sizes:
            self.run_static(op)
        else:
            self.run_dynamic(op)

    # -- modes -------------------------------------------------------------
    def run_static(self, root: Operation) -> None:
        nests = [(loop, perfectly_nested_loops(loop)) for loop in outermost_loops(root)]
        for loop, loops in nests:  # every nest is checked before any is rewritten
            check_static_sizes(loop, loops, self.tile_sizes)
        for loop, loops in nests:
            sizes = [index_constant_before(size, loop) for size in self.tile_sizes]
            self.apply_tiling(loop, loops, sizes)

    def run_dynamic(self, root: Operation) -> None:
        analysis = LoopTilingAnalysis.of(root)
        for nest in analysis.nests:
            if not all(analysis.is_candidate(loop, Strategy.TILING) for loop in nest.loops) \
                    and not (self.tile_single_loops and self.single_loop_needs_tiling(nest, analysis)):
                continue
            if untileable_reason(perfectly_nested_loops(nest.outermost)):
                continue
            self.tile_nest_dynamic(nest, analysis)
            analysis.invalidate(nest.loops)

    def single_loop_needs_tiling(self, nest: LoopNest, analysis: LoopTilingAnalysis) -> bool:
        """A lone parallel strip-mining candidate that may not fit the scratchpad whole."""
        return is_single_parallel_loop(nest, analysis) and not whole_loop_fits(nest.outermost, self.device)

    def tile_nest_dynamic(self, nest: LoopNest, analysis: LoopTilingAnalysis) -> None:
        root = nest.outermost
        sizes = [reserve_size_before(root, analysis.metadata[loop]) for loop in nest.loops]
        self.apply_tiling(root, perfectly_nested_loops(root), sizes)

    # -- tiling ------------------------------------------------------------
    def apply_tiling(self, root: scf.ForOp, loops: list[scf.ForOp], sizes: list[SSAValue]) -> None:
        """The custom normalized scheme, else MLIR's tilePerfectlyNested (+ normalization)."""
        if not self.fallback_scf_tiling and custom_tile_normalized(root, sizes):
            return
        point_loops = tile_perfectly_nested(root, sizes)
        propagate_loop_type(loops, point_loops)
        if self.normalize_loops and point_loops:
            normalize_loops([*loops, *point_loops])


def is_single_parallel_loop(nest: LoopNest, analysis: LoopTilingAnalysis) -> bool:
    """A depth-1 nest of one untouched parallel loop with no enclosing `scf.for` (a
    strip-mining candidate), which `tile-single-loops` tiles like a depth-1 tiling nest."""
    return (len(nest.loops) == 1 and is_parallel_loop(nest.outermost)
            and analysis.is_candidate(nest.outermost, Strategy.STRIP_MINING))


def check_static_sizes(root: scf.ForOp, loops: list[scf.ForOp], sizes: tuple[int, ...]) -> None:
    if len(sizes) != len(loops):
        raise error(root, f"Number of tile sizes ({len(sizes)}) does not match nest depth ({len(loops)})")
    for index, size in enumerate(sizes):
        if size <= 0:
            raise error(root, f"Tile size at index {index} is non-positive: {size}")
    reason = untileable_reason(loops)
    if reason:
        raise error(root, f"{PASS}: {reason} cannot be tiled")


# ---------------------------------------------------------------------------
# The custom normalized tiling (upstream's customTileNormalizedPerfectlyNested)
# ---------------------------------------------------------------------------


def custom_tile_normalized(root: scf.ForOp, sizes: list[SSAValue]) -> bool:
    """Tile `root`'s perfect nest with derive_size/linearize_index; False (IR untouched) when
    the nest is not normalized or the sizes do not match it."""
    loops = perfectly_nested_loops(root)
    if len(sizes) != len(loops):
        return False
    if any(constant_index_value(l.lb) != 0 or constant_index_value(l.step) != 1 for l in loops):
        return False

    zero = index_constant_before(0, root)
    one = index_constant_before(1, root)

    # Tile loops, each dimension's total and ancestry.
    totals: list[SSAValue] = []
    ancestry: list[list[tuple[SSAValue, SSAValue]]] = []
    tile_loops: list[scf.ForOp] = []
    anchor: Operation = root
    for loop, size in zip(loops, sizes):
        ub = loop.ub
        pairs: list[tuple[SSAValue, SSAValue]] = []
        total = ub
        if isinstance(ub.owner, ktdf.TilingDeriveSizeOp):
            pairs = list(zip(ub.owner.ivs, ub.owner.tile_sizes))
            total = ub.owner.total_size
        totals.append(total)
        ancestry.append(pairs)
        trips = insert_before(arith.CeilDivUIOp(ub, size), anchor, root).results[0]
        tile_loop = insert_before(new_loop(zero, trips, one), anchor, root)
        tile_loop.attributes.update(loop.attributes)
        tile_loops.append(tile_loop)
        anchor = tile_loop.body.block.last_op

    # Point sizes and point loops inside the innermost tile loop.
    point_sizes: list[SSAValue] = []
    for dim, size in enumerate(sizes):
        ivs = [iv for iv, _ in ancestry[dim]] + [tile_loops[dim].body.block.args[0]]
        tss = [ts for _, ts in ancestry[dim]] + [size]
        derive = insert_before(ktdf.TilingDeriveSizeOp(ivs, tss, totals[dim]), anchor, root)
        point_sizes.append(derive.results[0])
    point_loops: list[scf.ForOp] = []
    for loop, point_size in zip(loops, point_sizes):
        point_loop = insert_before(new_loop(zero, point_size, one), anchor, root)
        point_loop.attributes.update(loop.attributes)
        point_loops.append(point_loop)
        anchor = point_loop.body.block.last_op

    # The original body moves into the innermost point loop.
    innermost = point_loops[-1].body.block
    move_ops_before(body_ops(loops[-1]), anchor)

    for dim, loop in enumerate(loops):
        old_iv = loop.body.block.args[0]
        tile_iv = tile_loops[dim].body.block.args[0]
        point_iv = point_loops[dim].body.block.args[0]
        rewrite_linearize_uses(innermost, old_iv, tile_iv, point_iv, sizes[dim])
        if not old_iv.uses:
            continue
        ivs = [iv for iv, _ in ancestry[dim]] + [tile_iv, point_iv]
        strides = [ts for _, ts in ancestry[dim]] + [sizes[dim], one]
        linear = ktdf.TilingLinearizeIndexOp(ivs, strides)
        linear.location = root.location
        Rewriter.insert_op(linear, InsertPoint.at_start(innermost))
        old_iv.replace_all_uses_with(linear.results[0])

    Rewriter.erase_op(root)
    return True


def rewrite_linearize_uses(body, old_iv: SSAValue, tile_iv: SSAValue, point_iv: SSAValue,
                           tile_size: SSAValue) -> None:
    """Fix-up (A): a `linearize_index` pair `[old_iv : s]` becomes `[tile_iv : ts], [point_iv : s]`."""
    for op in [op for op in body.walk() if isinstance(op, ktdf.TilingLinearizeIndexOp)]:
        ivs, strides = list(op.ivs), list(op.strides)
        if old_iv not in ivs:
            continue
        k = ivs.index(old_iv)
        old_stride = strides[k]
        ivs[k : k + 1] = [tile_iv, point_iv]
        strides[k : k + 1] = [tile_size, old_stride]
        new = ktdf.TilingLinearizeIndexOp(ivs, strides, dict(op.attributes))
        new.location = op.location
        Rewriter.replace_op(op, new)
