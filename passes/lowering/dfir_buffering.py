"""Buffer-phase (double-buffering) lowering (`docs/passes.md#ktdflowering-to-dfir`).

`ktdf.select_memref %phase[%view0, %view1]` with `%phase = ktdf.buffer_phase(%ivs...)` picks one
of two equal views that differ only in their start address. It becomes one view whose start
address is carried through the loop nest of the phase's induction variables as an extra
`iter_arg`: it starts at one buffer and flips to the other each iteration (`sum - current`,
with `sum` the two start addresses added before the outermost loop).

The device says where the flip happens: a unit kind marked `double_buffer_last` (BufferLast)
computes the flipped address at the top of the innermost loop body and reads through it, starting
from buffer 1; otherwise (BufferFirst) it reads through the carried address and flips at the
yield, starting from buffer 0. Both read buffer 0 in the first iteration.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.diagnostics import error
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp
from dfsched.dialects.ktdf import BufferPhaseOp, SelectMemrefOp
from dfsched.passes.builder import Builder
from dfsched.passes.lowering.dfir_utils import INDEX, enclosing_program_unit, program_unit_kind


def _with_extra_iter_arg(loop: scf.ForOp, init: SSAValue) -> scf.ForOp:
    """`loop` rebuilt with one more `index` iter_arg (initialised to `init`), body moved over.

    The new iter_arg is yielded unchanged; the caller sets what the yield passes on.
    """
    body = loop.body.block
    new_arg = body.insert_arg(INDEX, len(body.args))
    terminator = body.last_op
    assert isinstance(terminator, scf.YieldOp)
    new_yield = scf.YieldOp(*terminator.operands, new_arg)
    Rewriter.replace_op(terminator, new_yield)
    region = loop.detach_region(loop.body)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, init], region)
    new_loop.attributes.update(loop.attributes)
    new_loop.location = loop.location
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    for old, new in zip(loop.results, new_loop.results):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(loop)
    return new_loop


def _loop_of(iv: SSAValue, at: Operation) -> scf.ForOp:
    owner = iv.owner
    loop = owner.parent_op() if isinstance(owner, Block) else None
    if not isinstance(loop, scf.ForOp) or loop.body.block.args[0] is not iv:
        raise error(at, "buffer_phase operands must be induction variables of enclosing scf.for loops")
    return loop


def _lower_one(phase: BufferPhaseOp, model) -> None:
    if phase.num_phases.value.data != 2:
        raise error(phase, "buffer_phase must have num_phases = 2 for double buffering")
    users = [use.operation for use in phase.result.uses]
    select = users[0] if users else None
    if not isinstance(select, SelectMemrefOp):
        raise error(phase, "buffer_phase's sole user must be a select_memref operation")
    candidates = list(select.candidates)
    if len(candidates) != 2:
        raise error(select, "select_memref must have exactly 2 candidate memrefs")
    view0, view1 = (c.owner for c in candidates)
    if not isinstance(view0, GetLogicalMemoryViewOp) or not isinstance(view1, GetLogicalMemoryViewOp):
        raise error(select, "select_memref operands must be get_logical_memory_view operations")
    if (view0.data.type != view1.data.type or view0.layout_map != view1.layout_map
            or view0.from_unit is not view1.from_unit):
        raise error(select, "get_logical_memory_view operations must match except for offset")
    pu = enclosing_program_unit(phase)
    kind = program_unit_kind(pu) if pu is not None else None
    unit = model.units.get(kind) if kind is not None else None
    if unit is None:
        raise error(phase, "lowerDoubleBuffering: could not resolve component type from enclosing program_unit")
    buffer_last = unit.double_buffer_last
    if not phase.ivs:
        raise error(phase, "buffer_phase must have at least one IV")
    loops = [_loop_of(iv, phase) for iv in phase.ivs]
    offset0, offset1 = view0.start_address, view1.start_address
    total = Builder.before(loops[0]).value(arith.AddiOp(offset0, offset1))

    # Innermost first: each loop gains an index iter_arg; the innermost flips it, outer loops
    # pass the inner loop's final value on and feed their own iter_arg into the inner loop.
    rebuilt: list[scf.ForOp] = [None] * len(loops)  # type: ignore[list-item]
    current = list(loops)
    flipped_at_top: SSAValue | None = None
    for i in range(len(current) - 1, -1, -1):
        loop = current[i]
        new_loop = _with_extra_iter_arg(loop, total)
        rebuilt[i] = new_loop
        body = new_loop.body.block
        carried = body.args[-1]
        terminator = body.last_op
        assert terminator is not None
        if i == len(current) - 1:
            if buffer_last:
                first = body.first_op
                assert first is not None
                flipped = Builder.before(first).value(arith.SubiOp(total, carried))
                flipped_at_top = flipped
            else:
                flipped = Builder.before(terminator).value(arith.SubiOp(total, carried))
            yielded = flipped
        else:
            inner = rebuilt[i + 1]
            yielded = inner.results[-1]
            operands = list(inner.operands)
            operands[-1] = carried
            inner.operands = operands
        operands = list(terminator.operands)
        operands[-1] = yielded
        terminator.operands = operands
    outermost = rebuilt[0]
    operands = list(outermost.operands)
    operands[-1] = offset1 if buffer_last else offset0
    outermost.operands = operands

    innermost = rebuilt[-1]
    start = flipped_at_top if buffer_last else innermost.body.block.args[-1]
    view = Builder.before(select).value(
        GetLogicalMemoryViewOp(view0.from_unit, start, view0.layout_map, view0.data.type))
    select.result.replace_all_uses_with(view)
    Rewriter.erase_op(select)
    if not phase.result.uses:
        Rewriter.erase_op(phase)
    for old in (view0, view1):
        if not old.data.uses:
            Rewriter.erase_op(old)


def lower_double_buffering(func: Operation, model) -> None:
    while True:
        phase = next((op for op in func.walk() if isinstance(op, BufferPhaseOp)), None)
        if phase is None:
            return
        _lower_one(phase, model)


__all__ = ["lower_double_buffering"]
