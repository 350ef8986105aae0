"""A tensor a loop carries around an inter-tile exchange lives in a scratchpad slot (README
Decision 83; planned by `lower-inter-tile-ops`, which the legality check runs).

A loop that all-reduces each iteration and accumulates the result (`acc = acc + all_reduce(x)`,
corpus `ring_reduce_inner_loop`) cannot be folded into one reduction (Decision 44): the exchange
is host code between two programs, so the running value must outlive both. It is kept in a slot
of the tile's scratchpad, next to the exchange's slots:

    %acc0 = fill(identity)                    // peeled first iteration, at the loop's lower bound:
    %r = scf.for %k = %lb to %ub              //   ... exchange ...; store %v -> C
        iter_args(%acc = %acc0) {             // scf.for %k = %lb + %step to %ub {
      ... exchange ...                        //   ... exchange ...
      %s = combine %acc, %v                   //   %acc = load C; %s = combine %acc, %v
      scf.yield %s                            //   store %s -> C
    }                                         // }
                                              // %r = load C

The first iteration is peeled so that nothing stores a constant (a program computes from
loads): it combines the identity with `%v`, which is `%v`. Each carried value must therefore
start at the identity of its combiner (a splat constant), be read only by that combiner (one
element-wise add, mul, max or min), and its combination be read only by the loop's yield; the
bounds must be constants with at least one iteration. Anything else is a located error on the
loop naming the carried value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from dfsched.compat import InsertPoint, Rewriter, op_name
from dfsched.diagnostics import error
from dfsched.dialects import ktdp
from dfsched.dialects.constants import constant_int, index_constant
from dfsched.passes.builder import Inserter
from dfsched.passes.frontend.elementwise_chunk_loops import is_identity

IDENTITIES = {"add": 0.0, "mul": 1.0, "max": -math.inf, "min": math.inf}


@dataclass
class Carried:
    """One carried tensor: its combiner op in the body, its slot."""

    index: int
    combine: Operation
    slot_type: TensorType
    address: int = 0


def loops_around_exchanges(root: Operation) -> list[scf.ForOp]:
    """Loops with carried values whose body holds an inter-tile exchange, innermost first."""
    loops = [op for op in root.walk() if isinstance(op, scf.ForOp) and op.iter_args and around_exchange(op)]
    return loops[::-1]


def around_exchange(loop: Operation) -> bool:
    """Whether `loop`'s body holds an inter-tile exchange (before or after its lowering)."""
    return any(op_name(inner).startswith(("ktdp.inter_tile_", "ktdf.tile_reduce")) for inner in loop.walk()
               if inner is not loop)


def plan_carried(loop: scf.ForOp, combiners: dict[str, str]) -> list[Carried]:
    """The carried values of `loop` and how each is combined; raises, located, when one cannot
    be kept in a slot. `combiners` names each element-wise combiner op (add, mul, max, min)."""
    bounds = [constant_int(v) for v in (loop.lb, loop.ub, loop.step)]
    if None in bounds or bounds[2] <= 0 or bounds[0] >= bounds[1]:
        raise error(loop, "a loop carrying values around an inter-tile exchange needs constant bounds and at least "
                          "one iteration (its first iteration starts the carried values in their scratchpad slots)")
    body = loop.body.block
    yielded = list(body.last_op.operands)
    plans = []
    for index, (arg, init) in enumerate(zip(body.args[1:], loop.iter_args)):
        name = f"carried value #{index} ({init.type})"
        if not isinstance(arg.type, TensorType) or not arg.type.has_static_shape() \
                or "f" not in str(arg.type.element_type)[:2]:
            raise error(loop, f"{name}: a value carried around an inter-tile exchange must be a float tensor of "
                              "static shape")
        users = [use.operation for use in arg.uses]
        combine = users[0] if len(users) == 1 else None
        kind = combiners.get(op_name(combine)) if combine is not None else None
        operands = _inputs(combine) if kind else []
        result = combine.results[0] if kind else None
        if not kind or len(operands) != 2 or arg not in operands or yielded[index] is not result \
                or len(list(result.uses)) != 1 or combine.parent_block() is not body:
            raise error(loop, f"{name}: a value carried around an inter-tile exchange must be read only by one "
                              "element-wise add, mul, max or min whose result the loop yields")
        if not is_identity(init, IDENTITIES[kind]):
            raise error(loop, f"{name}: a value carried around an inter-tile exchange must start at the identity "
                              f"of its combiner ({kind}: {IDENTITIES[kind]}), a splat constant")
        plans.append(Carried(index, combine, arg.type))
    return plans


def carry_through_slots(loop: scf.ForOp, plans: list[Carried], slot_tile) -> None:
    """Rewrite `loop` as the module docstring shows; `slot_tile(inserter, address, type)` builds
    the access tile of a scratchpad slot."""
    body = loop.body.block
    lb, _, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    before = Inserter.before(loop)
    mapping: dict[SSAValue, SSAValue] = {body.args[0]: before.add(index_constant(lb)).results[0]}
    combines = {plan.combine for plan in plans}
    for op in list(body.ops)[:-1]:  # the first iteration, the combines left out
        if op not in combines:
            before.add(op.clone(value_mapper=mapping))
    for plan in plans:
        acc = body.args[1 + plan.index]
        other = next(v for v in _inputs(plan.combine) if v is not acc)
        value = mapping.get(other, other)
        before.add(ktdp.StoreOp(value, slot_tile(before, plan.address, plan.slot_type)))
    loop.operands[0] = before.add(index_constant(lb + step)).results[0]
    for plan in plans:
        at = Inserter.before(plan.combine)
        current = at.add(ktdp.LoadOp(slot_tile(at, plan.address, plan.slot_type), plan.slot_type))
        body.args[1 + plan.index].replace_all_uses_with(current.results[0])
        after = Inserter.after(plan.combine)
        after.add(ktdp.StoreOp(plan.combine.results[0], slot_tile(after, plan.address, plan.slot_type)))
    Rewriter.replace_op(body.last_op, scf.YieldOp())
    for arg in list(body.args[1:]):
        body.erase_arg(arg)
    rewritten = scf.ForOp(loop.lb, loop.ub, loop.step, [], loop.detach_region(loop.body))
    rewritten.location = loop.location
    Rewriter.insert_op(rewritten, InsertPoint.before(loop))
    after = Inserter.after(rewritten, loop)
    for plan in plans:
        final = after.add(ktdp.LoadOp(slot_tile(after, plan.address, plan.slot_type), plan.slot_type))
        loop.results[plan.index].replace_all_uses_with(final.results[0])
    Rewriter.erase_op(loop)


def _inputs(combine: Operation) -> list[SSAValue]:
    return list(combine.inputs) if op_name(combine).startswith("linalg.") else list(combine.operands)
