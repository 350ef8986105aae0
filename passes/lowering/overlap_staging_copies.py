"""`overlap-staging-copies`: a staging copy runs block by block as the first stage of its first reader
(README Decision 110; run by `ktdf-to-ktdflowering` first, a pass of its own for tests).

In a program of several compute ops, `construct-three-stage-pipeline` copies a load that several
compute ops read into the scratchpad once, by a pipeline of one transfer stage (Decision 47), and
consecutive pipelines run one after the other: the first reader (a softmax's max reduction) waits
for the whole tile. When that reader runs its steps in a loop whose iteration i reads only a slab
of the buffer (rows [k*i, k*i + k) of a softmax tile's 128 rows, one block of 64 lanes), the copy
can move there: each iteration first copies its own slab on the copy's unit, and the reader's load
stage waits for it through a token. The copy of slab i+1 then runs while slab i is read, and only
the first slab's copy is exposed. The later pipelines still follow the reader's last stages, by
which time every slab is in place.

The rewrite is made only when that is certain:
* the copy is a pipeline of one stage holding one `ktdf.data_transfer` from a memref into a
  buffer, the whole buffer at its origin (the form Decision 47 builds);
* the reader is the next pipeline of the block, past other such copies and region-free ops that
  do not use the buffer: one stage (no tokens) whose body holds one `scf.for` from 0 by 1 over
  n > 1 iterations, whose body holds one token-linked pipeline (no `modulo`);
* in that loop, the buffer is only read, only by transfers of one stage of the inner pipeline
  that waits for no token, and every such transfer reads, along one dimension d, the positions
  `k * iv + c` with `0 <= c` and `c + size <= k`, the same k for all, with `k * n` the buffer's
  extent along d.
The slab of iteration i is then rows [k*i, k*i + k) along d and the whole buffer along the others;
the slabs cover the buffer once. Each iteration adds a signal exchange between the copy's unit and
the reader's (a `sync_send` on each side), so the rewrite is made only when one slab's copy takes
more cycles than that exchange (`TileCostModel.transfer`, the simulator's timing): a copy of a
few short rows gains less than it adds. `iteration_slab` is the shared test: `ktdf-to-ktdflowering` uses
it to see that such a stage and its reader need no write-after-read signal across iterations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.arch.model import DeviceModel
from dfsched.dialects import ktdf
from dfsched.dialects.constants import constant_int
from dfsched.dialects.ktdp_inter_tile import linear_form
from dfsched.passes.aliasing import memref_aliases, memref_root, reads_from, writes_to
from dfsched.passes.scheduling.privates import extend_private
from dfsched.passes.scheduling.tile_cost_model import SYNC_CYCLES, TileCostModel

SIGNAL_EXCHANGE_CYCLES = 2 * SYNC_CYCLES  # a sync_send from each side of the copy-to-reader token


@dataclass(frozen=True)
class OverlapStagingCopies(ModulePass):
    """Move every staging copy into its first reader's loop, one slab per iteration."""

    name = "overlap-staging-copies"

    device: str | None = None
    """Architecture file (or shipped short name) used when the module declares no device."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import required_device_model

        model = required_device_model(op, self.device)
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            overlap_staging_copies(function, model)


def overlap_staging_copies(function: func.FuncOp, model: DeviceModel) -> int:
    """Rewrite every staging copy of `function`'s blocks that the rules allow; the count."""
    count = 0
    for block in [b for region in function.regions for b in region.blocks]:
        for copy in [op for op in block.ops if _copy_transfer(op) is not None]:
            plan = _plan(copy)
            if plan is not None and plan.pays(model):
                plan.apply()
                count += 1
    return count


# ---------------------------------------------------------------------------
# The slab test
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Slab:
    """Along `dim`, a transfer touches positions [k*iv + offset, k*iv + offset + size)."""

    dim: int
    k: int
    offset: int
    size: int

    def within_block(self) -> bool:
        """Whether the positions stay inside block iv of k positions, [k*iv, k*iv + k)."""
        return 0 <= self.offset and self.offset + self.size <= self.k


def iteration_slab(transfer: ktdf.DataTransferOp, side: str, iv: SSAValue) -> dict[int, Slab]:
    """Per dimension of the memref on `side` ("source" or "dest") of `transfer`, the slab its
    subscript there gives in terms of `iv` (`k * iv + constant`, k > 0, a static size); only
    the dimensions of that form appear."""
    amap = transfer.source_map if side == "source" else transfer.dest_map
    indices = transfer.source_indices if side == "source" else transfer.dest_indices
    sizes = transfer.mixed_sizes(side)
    if amap is None or sizes is None:
        return {}
    amap_data: AffineMap = amap.data
    slabs: dict[int, Slab] = {}
    for dim, (expr, size) in enumerate(zip(amap_data.results, sizes)):
        form = linear_form(expr, amap_data.num_dims, 0)
        if form is None or not isinstance(size, int):
            continue
        k, offset = 0, form[-1]
        for coefficient, operand in zip(form[:-1], indices):
            if coefficient == 0:
                continue
            if operand is iv:
                k += coefficient
            elif (value := constant_int(operand)) is not None:
                offset += coefficient * value
            else:
                break
        else:
            if k > 0:
                slabs[dim] = Slab(dim, k, offset, size)
    return slabs


def common_slab_dim(slabs: Sequence[dict[int, Slab]]) -> tuple[int, int] | None:
    """(dim, k) such that every transfer's slab along dim stays within block iv of k positions,
    the same k for all: then iterations touch disjoint blocks. The first such dim, or None."""
    if not slabs:
        return None
    for dim, first in sorted(slabs[0].items()):
        if all(dim in s and s[dim].k == first.k and s[dim].within_block() for s in slabs):
            return dim, first.k
    return None


# ---------------------------------------------------------------------------
# Matching and rewriting
# ---------------------------------------------------------------------------


def _copy_transfer(op: Operation) -> ktdf.DataTransferOp | None:
    """The transfer of a staging copy: a pipeline of one tokenless stage on one unit holding one
    memref-to-memref transfer that fills a whole static buffer from its origin."""
    if not isinstance(op, ktdf.PipelineOp) or op.modulo is not None or len(list(op.body.block.ops)) != 1:
        return None
    stage = op.body.block.first_op
    if not isinstance(stage, ktdf.StageOp) or stage.depends_in or stage.depends_out or len(stage.unit_kinds) != 1:
        return None
    transfer = stage.body.block.first_op
    if not isinstance(transfer, ktdf.DataTransferOp) or transfer.next_op is not None:
        return None
    source, dest = transfer.source.type, transfer.destination.type
    if not isinstance(source, MemRefType) or not isinstance(dest, MemRefType) or transfer.dest_map is None:
        return None
    shape = list(dest.get_shape())
    at_origin = all(isinstance(e, AffineConstantExpr) and e.value == 0 for e in transfer.dest_map.data.results)
    if not at_origin or transfer.mixed_sizes("dest") != shape or transfer.mixed_sizes("source") != shape:
        return None
    return transfer


@dataclass
class _Plan:
    copy: ktdf.PipelineOp
    transfer: ktdf.DataTransferOp
    outer: ktdf.StageOp  # the reader's one stage, running the loop
    loop: scf.ForOp
    inner: ktdf.PipelineOp  # the pipeline of one iteration
    load: ktdf.StageOp  # its stage reading the buffer
    dim: int
    k: int

    @property
    def unit(self) -> str:
        return self.copy.body.block.first_op.unit_kinds[0]  # type: ignore[union-attr]

    def pays(self, model: DeviceModel) -> bool:
        """Whether one slab's copy takes longer than the signal exchange each iteration adds."""
        slab = self._slab_copy()
        cycles = TileCostModel(self.copy, model, lambda value, env: None).transfer(slab, self.unit)
        slab.erase()
        return cycles > SIGNAL_EXCHANGE_CYCLES

    def apply(self) -> None:
        unit = self.unit
        private = self.inner.private
        assert private is not None
        _, _, (token,) = extend_private(private, [], token_count=1)
        stage = ktdf.StageOp([], [token], applicable_units=[unit])
        stage.body.block.add_op(self._slab_copy())
        stage.location = self.copy.location
        Rewriter.insert_op(stage, InsertPoint.before(self.inner.stages[0]))
        _replace_stage(self.load, [token])
        units = self.outer.unit_kinds
        if unit not in units:
            self.outer.properties["applicable_units"] = ArrayAttr([StringAttr(u) for u in [unit, *units]])
        Rewriter.erase_op(self.copy)

    def _slab_copy(self) -> ktdf.DataTransferOp:
        """The transfer of iteration iv: the copy restricted to block iv along `dim`."""
        t = self.transfer
        iv = self.loop.body.block.args[0]
        shape = list(t.destination.type.get_shape())  # type: ignore[union-attr]
        sizes = [self.k if d == self.dim else s for d, s in enumerate(shape)]
        source_map = t.source_map.data  # type: ignore[union-attr]
        block = AffineExpr.dimension(source_map.num_dims) * self.k
        source = AffineMap(source_map.num_dims + 1, 0, tuple(
            e + block if d == self.dim else e for d, e in enumerate(source_map.results)))
        dest = AffineMap(1, 0, tuple(AffineExpr.dimension(0) * self.k if d == self.dim else AffineExpr.constant(0)
                                     for d in range(len(shape))))
        new = ktdf.DataTransferOp(t.source, t.destination, source, [*t.source_indices, iv], sizes,
                                  dest, [iv], sizes, t.attributes)
        new.location = t.location
        return new


def _plan(copy: ktdf.PipelineOp) -> _Plan | None:
    transfer = _copy_transfer(copy)
    assert transfer is not None
    buffer = memref_root(transfer.destination)
    aliases = memref_aliases(buffer)
    reader = _next_reader(copy, aliases)
    if reader is None:
        return None
    shape = _one_loop_reader(reader)
    if shape is None:
        return None
    outer, loop, inner = shape
    trips = _trips_from_zero(loop)
    if trips is None or trips < 2:
        return None
    readers: list[ktdf.DataTransferOp] = []
    for op in reader.walk():
        if writes_to(op, aliases):
            return None
        if any(memref_root(v) is buffer for v in reads_from(op)):
            if not isinstance(op, ktdf.DataTransferOp) or memref_root(op.source) is not buffer:
                return None
            readers.append(op)
    stages = {_stage_of(t, inner) for t in readers}
    if len(stages) != 1:
        return None
    (load,) = stages
    if load is None or load.depends_in:
        return None
    found = common_slab_dim([iteration_slab(t, "source", loop.body.block.args[0]) for t in readers])
    if found is None or found[1] * trips != buffer.type.get_shape()[found[0]]:  # type: ignore[union-attr]
        return None
    return _Plan(copy, transfer, outer, loop, inner, load, *found)


def _next_reader(copy: ktdf.PipelineOp, aliases: list[SSAValue]) -> ktdf.PipelineOp | None:
    """The first pipeline after `copy` that is not another staging copy, if only other staging
    copies and region-free ops that do not use the buffer come between."""
    op = copy.next_op
    while op is not None:
        uses_buffer = any(operand in aliases for operand in op.operands) or any(
            writes_to(o, aliases) or any(memref_root(v) in aliases for v in reads_from(o)) for o in op.walk())
        if (other := _copy_transfer(op)) is not None and not uses_buffer \
                and memref_root(other.destination) not in aliases:
            op = op.next_op
            continue
        if isinstance(op, ktdf.PipelineOp):
            return op
        if op.regions or uses_buffer:
            return None
        op = op.next_op
    return None


def _one_loop_reader(reader: ktdf.PipelineOp) -> tuple[ktdf.StageOp, scf.ForOp, ktdf.PipelineOp] | None:
    """(stage, loop, inner pipeline) when `reader` is one tokenless stage running one loop whose
    body runs one pipeline, region-free ops around them."""
    if reader.modulo is not None:
        return None
    private = reader.private
    if private is not None and private.res:
        return None
    stages = reader.stages
    if len(stages) != 1 or stages[0].depends_in or stages[0].depends_out:
        return None
    loop = _only_region_op(stages[0].body.block.ops)
    if not isinstance(loop, scf.ForOp):
        return None
    inner = _only_region_op(loop.body.block.ops)
    if not isinstance(inner, ktdf.PipelineOp) or inner.modulo is not None or inner.private is None \
            or not inner.stages:
        return None
    return stages[0], loop, inner


def _only_region_op(ops) -> Operation | None:
    with_regions = [op for op in ops if op.regions]
    return with_regions[0] if len(with_regions) == 1 else None


def _trips_from_zero(loop: scf.ForOp) -> int | None:
    """The trip count of `loop` when it runs from 0 by 1 to a constant (else None)."""
    if constant_int(loop.lb) != 0 or constant_int(loop.step) != 1:
        return None
    return constant_int(loop.ub)


def _stage_of(op: Operation, pipeline: ktdf.PipelineOp) -> ktdf.StageOp | None:
    """The stage of `pipeline` (directly in it) that holds `op`."""
    parent = op.parent_op()
    while parent is not None and not (isinstance(parent, ktdf.StageOp) and parent.parent_op() is pipeline):
        parent = parent.parent_op()
    return parent


def _replace_stage(stage: ktdf.StageOp, depends_in: list[SSAValue]) -> None:
    """Give `stage` new `depends_in` tokens (a new op with the same body and attributes)."""
    body = stage.detach_region(stage.body)
    new = ktdf.StageOp(depends_in, list(stage.depends_out), body, stage.applicable_units, stage.attributes)
    new.location = stage.location
    Rewriter.replace_op(stage, new, [])


__all__ = ["OverlapStagingCopies", "Slab", "common_slab_dim", "iteration_slab", "overlap_staging_copies"]
