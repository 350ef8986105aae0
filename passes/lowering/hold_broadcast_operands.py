"""`hold-broadcast-operands`: a broadcast operand sent once per loop, held by its receiver
(Decision 90; run by `ktdflowering-to-dfir` on what it lowers, a pass of its own for tests).

A load unit that, at every step of a loop, loads the same element of a memory, splats it to a
vector (`vectorchain.shuffle` to more elements than it read) and sends it to a compute unit
(the row maximum of a softmax, broadcast over the row's column steps) moves the same bytes
over the FIFO link at every step. When nothing in that loop can change the element, the
load, the splat and the send move to just before the loop, and the matching `dataflow.receive`
of the receiving program moves to just before its own copy of the loop: the receiver keeps
the vector for the whole loop (a register of the compute unit), the link carries it once.

Which receive matches: both programs run the same loop nests around their transfers (the
lowering gives every stage of a pipeline the pipeline's loops), and one FIFO carries one
sender's vectors to one receiver in order. The loops of the sender holding sends to that
receiver, numbered by nesting level in program order, name the receiver's loop at the same
position among its loops holding receives from the sender; the j-th send of the loop body
is the j-th receive of the other. The rewrite is made only when that correspondence is
certain: equal constant trip counts (at least one iteration) along the path, as many sends as
receives in the two bodies, none of them under another op (a branch, an inner loop), and
the sender's loop body loads, splats, computes indices and sends, nothing else (no store,
receive or signal that could order a change of the loaded element inside the loop).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.passes.cleanup.canonicalize import canonicalizing

from dfsched.dialects.agen import VectorLoadOp
from dfsched.dialects.constants import static_trip_count
from dfsched.dialects.dataflow import ProgramUnitOp, ReceiveOp, SendOp
from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp
from dfsched.dialects.vectorchain import ShuffleOp
from dfsched.passes.lowering.dfir_utils import mapping_of
from dfsched.passes.walk import defined_inside
from dfsched.passes.device_pass import CallPass

# ops a sender's loop body may hold besides the moved chain (none of them writes memory or
# waits on another unit)
_QUIET = (VectorLoadOp, ShuffleOp, SendOp, DefImmutableMappingOp, QueryMapOp, arith.ConstantOp,
          arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.RemUIOp, scf.YieldOp)


def hold_broadcasts(function: Operation) -> int:
    """Hoist every invariant splat-and-send of `function`'s programs with its receive; the count."""
    programs = [op for op in function.walk() if isinstance(op, ProgramUnitOp)]
    moved = 0
    for sender in programs:
        for loop in [op for op in sender.walk() if isinstance(op, scf.ForOp)]:
            for send in [op for op in loop.body.block.ops if isinstance(op, SendOp)]:
                if _hoist(send, loop, sender, programs):
                    moved += 1
    return moved


def _hoist(send: SendOp, loop: scf.ForOp, sender: ProgramUnitOp, programs: list[ProgramUnitOp]) -> bool:
    chain = _broadcast_chain(send, loop)
    if chain is None or not _quiet(loop) or not static_trip_count(loop):
        return False
    receiver = _receiver(send, programs)
    if receiver is None or receiver is sender:
        return False
    path = _loop_path(loop, sender, lambda op: _sends_to(op, receiver))
    twin = _loop_at(receiver, path, lambda op: _receives_from(op, sender))
    if twin is None or not _same_trips(loop, twin):
        return False
    sends = _direct(loop, lambda op: _sends_to(op, receiver))
    receives = _direct(twin, lambda op: _receives_from(op, sender))
    if sends is None or receives is None or len(sends) != len(receives):
        return False
    receive = receives[sends.index(send)]
    if receive.data.type != send.send_data.type:
        return False
    for op in chain:
        _move_before(op, loop)
    _move_before(receive, twin)
    return True


def _broadcast_chain(send: SendOp, loop: scf.ForOp) -> list[Operation] | None:
    """[load, splat, send] when `send` sends a splat of a load whose subscripts `loop` does not
    change, each result read only by the next op; else None."""
    splat = send.send_data.owner
    if not isinstance(splat, ShuffleOp) or splat.parent_op() is not loop or len(splat.operands) != 1:
        return None
    load = splat.input.owner
    if not isinstance(load, VectorLoadOp) or load.parent_op() is not loop:
        return None
    if _count(splat.output.type) <= _count(load.result.type):
        return None  # not a broadcast: the loop may still step through what it loads
    if len(list(load.result.uses)) != 1 or len(list(splat.output.uses)) != 1:
        return None
    if not all(_invariant(v, loop) for v in load.operands) or not _invariant(send.to_unit, loop):
        return None
    return [load, splat, send]


def _invariant(value: SSAValue, loop: scf.ForOp) -> bool:
    """Defined outside `loop`, or by pure unit lookups / index arithmetic of such values."""
    owner = value.owner
    if not isinstance(owner, Operation) or not loop.is_ancestor(owner):
        return value is not loop.body.block.args[0] and not defined_inside(value, loop)
    if not isinstance(owner, (QueryMapOp, DefImmutableMappingOp, arith.ConstantOp, arith.AddiOp,
                              arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.RemUIOp)):
        return False
    return all(_invariant(v, loop) for v in owner.operands)


def _move_before(op: Operation, loop: scf.ForOp) -> None:
    """Move `op` before `loop`, copying out the in-loop pure ops its operands come from."""
    op.detach()
    Rewriter.insert_op(op, InsertPoint.before(loop))
    _copy_operands_out(op, loop)


def _copy_operands_out(op: Operation, loop: scf.ForOp) -> None:
    """Give `op` (now outside `loop`) copies, just before it, of the in-loop ops it reads."""
    for index, value in enumerate(op.operands):
        owner = value.owner
        if isinstance(owner, Operation) and loop.is_ancestor(owner):
            clone = owner.clone()
            Rewriter.insert_op(clone, InsertPoint.before(op))
            _copy_operands_out(clone, loop)
            op.operands[index] = clone.results[value.index]


def _quiet(loop: scf.ForOp) -> bool:
    return all(isinstance(op, _QUIET) for op in loop.body.block.ops)


def _receiver(send: SendOp, programs: list[ProgramUnitOp]) -> ProgramUnitOp | None:
    mapping = mapping_of(send.to_unit)
    if mapping is None or not mapping.values:
        return None
    targets = set(mapping.values)
    found = [p for p in programs if targets <= set(p.units)]
    return found[0] if len(found) == 1 else None


def _peer_program(unit: SSAValue, programs_of: ProgramUnitOp) -> bool:
    mapping = mapping_of(unit)
    return mapping is not None and bool(mapping.values) and set(mapping.values) <= set(programs_of.units)


def _sends_to(op: Operation, receiver: ProgramUnitOp) -> bool:
    return isinstance(op, SendOp) and _peer_program(op.to_unit, receiver)


def _receives_from(op: Operation, sender: ProgramUnitOp) -> bool:
    return isinstance(op, ReceiveOp) and _peer_program(op.from_unit, sender)


def _holds(op: Operation, matches) -> bool:
    return any(matches(inner) for inner in op.walk())


def _loop_path(loop: scf.ForOp, program: ProgramUnitOp, matches) -> list[int]:
    """Per nesting level from the program down to `loop`: the index of the loop among the
    loops of that level (in program order) that hold a matching transfer."""
    path = []
    current: Operation = loop
    while current is not program:
        parent = current.parent_op()
        if isinstance(current, scf.ForOp):
            level = _loops_of(parent, matches)
            path.append(level.index(current))
        current = parent
    return path[::-1]


def _loops_of(scope: Operation, matches) -> list[scf.ForOp]:
    """The loops holding a matching transfer whose nearest enclosing loop (or program) is `scope`."""
    found = []
    for op in scope.walk():
        if op is scope or not isinstance(op, scf.ForOp) or not _holds(op, matches):
            continue
        parent = op.parent_op()
        while parent is not scope and not isinstance(parent, (scf.ForOp, ProgramUnitOp)):
            parent = parent.parent_op()
        if parent is scope:
            found.append(op)
    return found


def _loop_at(program: ProgramUnitOp, path: list[int], matches) -> scf.ForOp | None:
    scope: Operation = program
    for index in path:
        loops = _loops_of(scope, matches)
        if index >= len(loops):
            return None
        scope = loops[index]
    return scope if isinstance(scope, scf.ForOp) else None


def _same_trips(a: scf.ForOp, b: scf.ForOp) -> bool:
    """Equal constant trip counts for `a`, `b` and every pair of enclosing loops."""
    while isinstance(a, scf.ForOp) or isinstance(b, scf.ForOp):
        if not (isinstance(a, scf.ForOp) and isinstance(b, scf.ForOp)) or static_trip_count(a) is None \
                or static_trip_count(a) != static_trip_count(b):
            return False
        a, b = _enclosing_loop(a), _enclosing_loop(b)
    return True


def _enclosing_loop(op: Operation) -> scf.ForOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, (scf.ForOp, ProgramUnitOp)):
        parent = parent.parent_op()
    return parent if isinstance(parent, scf.ForOp) else None


def _direct(loop: scf.ForOp, matches) -> list[Operation] | None:
    """The matching transfers of `loop`'s body, None when one sits under a nested op."""
    direct = [op for op in loop.body.block.ops if matches(op)]
    nested = sum(1 for op in loop.body.block.ops for inner in op.walk() if inner is not op and matches(inner))
    return None if nested else direct


def _count(type_) -> int:
    shape = getattr(type_, "get_shape", lambda: (1,))()
    total = 1
    for d in shape:
        total *= max(1, d)
    return total


class HoldBroadcastOperands(CallPass):
    """Hoist loop-invariant broadcast sends and their receives in every function's programs."""

    name = "hold-broadcast-operands"
    run = staticmethod(canonicalizing(hold_broadcasts))
