"""`carry-reduction-partials`: a reduction's partial carried in a register of its compute unit
(Decision 102; run by `ktdflowering-to-dfir` after `hold-broadcast-operands`, a pass of its own
for tests).

After lowering, each step of a reduction on a compute unit loads its partial from the unit's
memory (`PE_REG` on spyre, as `map-reduction-partials` placed it), combines the step's vector
into it and stores it back: two of the step's three issues move the same vector. When the loop
body loads a vector from one place, stores a vector to that same place later in the body, and
nothing else in the loop reads that place except branches taken on the loop's last iteration,
the partial travels in the loop's `iter_args` instead: loaded once before the loop, stored once,
at the start of that last-iteration branch (or after the loop when there is none), so the
memory holds the final partial wherever it is read.

The rewrite is made only when that is certain: the place is the same view value, map,
subscripts (defined outside the loop), set and order for the load and the store, no multicast;
every other use of the view inside the loop is a load in an `scf.if` after the store whose
condition is `iv == last` for constant bounds; no other view with the same memory and offset is
used in the loop; and the loop holds no signal (`dataflow.sync_*`), by which another unit could
look at the memory before the loop ends.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.dialects.agen import VectorLoadOp, VectorStoreOp
from dfsched.dialects.constants import constant_int
from dfsched.dialects.dataflow import GetLogicalMemoryViewOp, ProgramUnitOp
from dfsched.passes.cleanup.canonicalize import canonicalizing
from dfsched.passes.device_pass import CallPass


def carry_partials(function: Operation) -> int:
    """Rewrite every carried partial of `function`'s programs; the count."""
    count = 0
    for program in [op for op in function.walk() if isinstance(op, ProgramUnitOp)]:
        for loop in [op for op in program.walk() if isinstance(op, scf.ForOp)]:
            while (found := _partial(loop)) is not None:
                loop = _carry(loop, *found)
                count += 1
    return count


def _partial(loop: scf.ForOp) -> tuple[VectorLoadOp, VectorStoreOp, scf.IfOp | None] | None:
    """(load, store, last-iteration branch) of a partial `loop` may carry, or None."""
    if any(op.name.startswith("dataflow.sync") for op in loop.walk()):
        return None
    body = list(loop.body.block.ops)
    for position, load in enumerate(body):
        if not isinstance(load, VectorLoadOp) or load.multicast_info is not None:
            continue
        if not all(_outside(v, loop) for v in (load.mem_ref, *load.map_operands)):
            continue
        store = next((op for op in body[position + 1:] if isinstance(op, VectorStoreOp) and _same_place(load, op)),
                     None)
        if store is None or store.value_to_store.type != load.result.type:
            continue
        after = body[body.index(store) + 1:]
        branches = [op for op in after if isinstance(op, scf.IfOp) and _reads(op, load.mem_ref)]
        if len(branches) > 1 or not _only_uses(load, store, branches, loop):
            continue
        if branches and not _on_last_iteration(branches[0], loop):
            continue
        if _aliased(load.mem_ref, loop):
            continue
        return load, store, branches[0] if branches else None
    return None


def _carry(loop: scf.ForOp, load: VectorLoadOp, store: VectorStoreOp, branch: scf.IfOp | None) -> scf.ForOp:
    """`loop` rebuilt with the partial as its last iter_arg; the new loop."""
    first = load.clone()
    Rewriter.insert_op(first, InsertPoint.before(loop))
    block = loop.body.block
    carried = block.insert_arg(load.result.type, len(block.args))
    load.result.replace_all_uses_with(carried)
    Rewriter.erase_op(load)
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp)
    terminator.operands = [*terminator.operands, store.value_to_store]
    store.detach()
    region = loop.detach_region(loop.body)
    carrying = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, first.result], region)
    carrying.attributes.update(loop.attributes)
    Rewriter.insert_op(carrying, InsertPoint.before(loop))
    if branch is not None:
        then_block = branch.true_region.block
        Rewriter.insert_op(store, InsertPoint.at_start(then_block))
    else:
        Rewriter.insert_op(store, InsertPoint.after(carrying))
        store.operands = [carrying.results[-1], *store.operands[1:]]
    Rewriter.replace_op(loop, [], list(carrying.results[:-1]))
    return carrying


def _same_place(load: VectorLoadOp, store: VectorStoreOp) -> bool:
    return (store.mem_ref is load.mem_ref and store.affine_map == load.affine_map
            and store.store_set == load.load_set and store.store_order == load.load_order
            and len(store.map_operands) == len(load.map_operands)
            and all(_same_index(a, b) for a, b in zip(store.map_operands, load.map_operands)))


def _same_index(a: SSAValue, b: SSAValue) -> bool:
    return a is b or (constant_int(a) is not None and constant_int(a) == constant_int(b))


def _outside(value: SSAValue, loop: scf.ForOp) -> bool:
    owner = value.owner if isinstance(value, OpResult) else value.owner.parent_op()  # type: ignore[union-attr]
    return owner is not None and not loop.is_ancestor(owner)


def _reads(op: Operation, view: SSAValue) -> bool:
    return any(view in inner.operands for inner in op.walk())


def _only_uses(load: VectorLoadOp, store: VectorStoreOp, branches: list[scf.IfOp], loop: scf.ForOp) -> bool:
    """The view is used in `loop` by `load`, `store` and loads in `branches`, nothing else."""
    for use in load.mem_ref.uses:
        user = use.operation
        if user is load or user is store or not loop.is_ancestor(user):
            continue
        if not isinstance(user, VectorLoadOp) or not any(b.is_ancestor(user) for b in branches):
            return False
    return True


def _on_last_iteration(branch: scf.IfOp, loop: scf.ForOp) -> bool:
    """`branch`'s condition is `iv == last` with `loop`'s constant bounds, and it has no else."""
    condition = branch.cond.owner
    if branch.false_region.blocks and list(branch.false_region.block.ops)[:-1]:
        return False
    if not isinstance(condition, arith.CmpiOp) or condition.predicate.value.data != 0:  # eq
        return False
    iv = loop.body.block.args[0]
    lhs, rhs = condition.lhs, condition.rhs
    other = rhs if lhs is iv else lhs if rhs is iv else None
    bounds = [constant_int(v) for v in (loop.lb, loop.ub, loop.step)]
    if other is None or None in bounds or bounds[2] <= 0 or bounds[1] <= bounds[0]:  # type: ignore[operator]
        return False
    low, high, step = bounds
    last = low + (high - low - 1) // step * step  # type: ignore[operator]
    return constant_int(other) == last


def _aliased(view: SSAValue, loop: scf.ForOp) -> bool:
    """Another view used inside `loop` may overlap `view`: its start or `view`'s is not a
    constant, or their byte ranges meet (views of other memories count too: the safe side)."""
    maker = view.owner
    if not isinstance(maker, GetLogicalMemoryViewOp):
        return True
    span = _byte_span(maker)
    for op in loop.walk():
        for operand in op.operands:
            other = operand.owner
            if not isinstance(other, GetLogicalMemoryViewOp) or other is maker:
                continue
            other_span = _byte_span(other)
            if span is None or other_span is None or (other_span[0] < span[1] and span[0] < other_span[1]):
                return True
    return False


def _byte_span(view: GetLogicalMemoryViewOp) -> tuple[int, int] | None:
    """[start, end) of the view in bytes (its start is a byte address, Decision 8), None when unknown."""
    start = constant_int(view.start_address)
    element = view.data.type.element_type
    width = getattr(element, "bitwidth", None) or getattr(getattr(element, "width", None), "data", None)
    if start is None or not isinstance(width, int) or any(d < 0 for d in view.data.type.get_shape()):
        return None
    count = 1
    for d in view.data.type.get_shape():
        count *= d
    return start, start + count * ((width + 7) // 8)


class CarryReductionPartials(CallPass):
    """Carry load-combine-store partials of every function's program loops in registers."""

    name = "carry-reduction-partials"
    run = staticmethod(canonicalizing(carry_partials))
