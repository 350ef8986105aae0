"""A unit's loop body compiled to one Python generator (`SimOptions.compile_loops`).

`Runner.run_block` interprets a block op by op: an environment keyed by SSA values, a
dispatch per op, a generator per timed op. A loop body runs thousands of times with the same
ops, so once a unit has run it to its end (its plan then lacks the ops that run once per
program instance), `scf.for` runs the remaining iterations in a function made from the
body's plan: SSA values are Python locals, and the hot ops run their non-generator forms
(`send_now`, `receive_now`, `load_now`, `store_begin`/`store_end`, `binary_now`, `index`
add/sub/mul on Python ints), falling back to the op's own implementation whenever their
common case does not apply (a full FIFO, data not yet visible). Every other op calls its
implementation as `run_block` does. A value goes to the environment only when something
other than those inline forms uses it (an op implementation that reads the environment, a
nested region).

Exact: the same implementations run in the same order and yield the same commands, so
values, cycles, the timeline, statistics, FIFO occupancy and race verdicts are those of
`run_block`; errors are located on the op that raised them, with `run_block`'s words. The
one difference: a receive whose `receive_cycles` is 0 counts its engine event without
yielding it (the engine goes straight on after a zero-cycle command).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Block, Operation, SSAValue

from dfsched.diagnostics import DiagnosticError, error

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
INLINE_ARITH = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*"}
INLINE = frozenset({"dataflow.send", "dataflow.receive", "agen.vector_load", "agen.vector_store",
                    "vectorchain.binary", *INLINE_ARITH})


def compiled_loop(sim, block: Block):
    """The function running iterations of `block` (an `scf.for` body) after the first:
    `loop(runner, ivs, carried) -> carried` (a generator), made once per block."""
    found = sim.compiled_loops.get(id(block))
    if found is None or found[0] is not block:
        found = sim.compiled_loops[id(block)] = (block, _compile(sim, block))
    return found[1]


def _compile(sim, block: Block):
    from dfsched.interp import dataflow_ops as ops

    plan = [entry for entry in sim.block_plan(block) if entry[4] != "once"]
    inline_ops = {entry[0] for entry in plan if _inline(entry)}
    names: dict[SSAValue, str] = {}
    consts: dict[str, Any] = {}
    outer: list[tuple[str, str]] = []  # (local, constant naming the SSA value)

    def const(value: Any, hint: str) -> str:
        name = f"{hint}{len(consts)}"
        consts[name] = value
        return name

    def ref(value: SSAValue) -> str:
        name = names.get(value)
        if name is None:  # defined outside the body (or by a once-per-instance op of it): read on entry
            name = names[value] = f"o{len(outer)}"
            outer.append((name, const(value, "K")))
        return name

    def needs_env(value: SSAValue) -> bool:
        return any(use.operation not in inline_ops for use in value.uses)

    def bind(value: SSAValue, name: str, out: list[str], indent: str) -> None:
        names[value] = name
        if needs_env(value):
            out.append(f"{indent}env[{const(value, 'K')}] = {name}")

    body: list[str] = []
    ind = " " * 12
    args = list(block.args)
    iv_name = "iv"
    bind(args[0], iv_name, body, ind)
    carried = [f"b{i}" for i in range(1, len(args))]
    if carried:
        body.insert(0, f"{ind}{', '.join(carried)}{',' if len(carried) == 1 else ''} = carried")
        for value, name in zip(args[1:], carried):
            bind(value, name, body, ind)
    op_list: list[Operation] = []
    finish = "carried = []"
    for k, (op, name, operands, results, kind, fn) in enumerate(plan):
        if kind == "term":
            finish = f"carried = [{', '.join(ref(v) for v in operands)}]"
            break
        op_list.append(op)
        at = len(op_list) - 1
        body.append(f"{ind}at = {at}")
        a = [ref(v) for v in operands]
        outs = [f"v{k}_{j}" for j in range(len(results))]
        o = const(op, "O")
        if name in INLINE_ARITH and kind == "pure":
            x = outs[0]
            body += [f"{ind}{x} = {a[0]} {INLINE_ARITH[name]} {a[1]}",
                     f"{ind}if type({x}) is not int or not (I64_MIN <= {x} <= I64_MAX) or type({a[0]}) is not int "
                     f"or type({a[1]}) is not int:",
                     f"{ind}    {x} = {const(fn, 'F')}(r, {o}, [{a[0]}, {a[1]}])[0]"]
        elif name == "dataflow.receive":
            t, shape, et, need = ops.receive_info(_Decoder(sim), op)
            p, f = f"P{k}", f"Q{k}"
            prelude_fifo(body, ind, p, f, a[0], f"receive_fifo(r, {o}, {a[0]})")
            x = outs[0]
            rc = sim.options.receive_cycles
            body += [f"{ind}{x} = receive_now(r, {f}, {need}, {const(et.dtype, 'D')}, {const(shape, 'S')})",
                     f"{ind}if {x} is None:",
                     f"{ind}    {x} = (yield from RECEIVE(r, {o}, [{a[0]}]))[0]",
                     f"{ind}elif {rc} > 0:" if rc > 0 else f"{ind}else:",
                     f"{ind}    yield Busy({rc}, {f}.receive_what)" if rc > 0 else f"{ind}    engine.events += 1"]
        elif name == "dataflow.send":
            p, f = f"P{k}", f"Q{k}"
            prelude_fifo(body, ind, p, f, a[0], f"send_fifo(r, {o}, {a[0]})")
            body += [f"{ind}flat = np.ascontiguousarray(np.asarray({a[1]}).reshape(-1))",
                     f"{ind}work = send_now(r, {f}, flat) if flat.size else None",
                     f"{ind}if work is None:",
                     f"{ind}    yield from SEND(r, {o}, [{', '.join(a)}])",
                     f"{ind}else:",
                     f"{ind}    yield work"]
        elif name == "agen.vector_load":
            body += [f"{ind}{outs[0]}, work = load_now(r, {o}, [{', '.join(a)}])", f"{ind}yield work"]
        elif name == "agen.vector_store":
            body += [f"{ind}work, pending = store_begin(r, {o}, [{', '.join(a)}])", f"{ind}yield work",
                     f"{ind}store_end(r, pending)"]
        elif name == "vectorchain.binary":
            body += [f"{ind}{outs[0]}, work = binary_now(r, {o}, [{', '.join(a)}])", f"{ind}yield work"]
        else:
            call = f"[{', '.join(a)}]"
            if name == "uniform.def_immutable_mapping":
                line = f"res = mapping(r, {o}, {const(fn, 'F')}, {call})"
            elif kind == "pure":
                line = f"res = {const(fn, 'F')}(r, {o}, {call})"
            elif kind == "timed":
                line = f"res = yield from {const(fn, 'F')}(r, {o}, {call})"
            else:
                line = f"res = yield from r._fallback({o}, {call})"
            body.append(ind + line)
            if outs:
                body.append(f"{ind}{', '.join(outs)}{',' if len(outs) == 1 else ''} = res")
        for value, x in zip(results, outs):
            bind(value, x, body, ind)
    body.append(ind + finish)
    lines = ["def loop(r, ivs, carried):",
             "    env = r.env",
             "    engine = r.sim.engine",
             *[f"    {local} = env[{k}]" for local, k in outer],
             *[f"    P{k} = Q{k} = None" for k, e in enumerate(plan) if e[1] in ("dataflow.send", "dataflow.receive")],
             "    at = -1",
             "    try:",
             f"        for {iv_name} in ivs:",
             *body,
             "    except DiagnosticError:",
             "        raise",
             "    except CAUGHT as exc:",
             "        raise error(OPS[at], f\"'{OPS[at].name}' op {exc}\") from exc",
             "    return carried"]
    namespace = dict(consts, OPS=op_list, np=np, I64_MIN=I64_MIN, I64_MAX=I64_MAX, DiagnosticError=DiagnosticError,
                     error=error, CAUGHT=_caught(), mapping=_mapping, **_helpers())
    exec(compile("\n".join(lines), f"<compiled loop body of {block.parent_op().name}>", "exec"), namespace)  # noqa: S102
    return namespace["loop"]


def prelude_fifo(body: list[str], ind: str, p: str, f: str, peer: str, lookup: str) -> None:
    """The FIFO of a send or receive, looked up again only when its peer operand changes."""
    body += [f"{ind}if {peer} is not {p}:", f"{ind}    {f} = {lookup}", f"{ind}    {p} = {peer}"]


def _inline(entry) -> bool:
    op, name, _, _, kind, _ = entry
    if name in INLINE_ARITH:
        return kind == "pure"
    return name in INLINE and kind == "timed"


class _Decoder:
    """What `receive_info` needs of a runner (decoding is per simulation, not per unit)."""

    def __init__(self, sim):
        self.sim = sim


def _mapping(r, op, fn, args):
    """`uniform.def_immutable_mapping` as `run_block` runs it (a map built from the host's
    values is the one of the launch)."""
    if r.launch_env is not None:
        cached = r.sim.invariant_maps.get(op)
        if cached is not None and cached[0] is r.launch_env:
            return (cached[1],)
    return fn(r, op, args)


def _caught() -> tuple[type[BaseException], ...]:
    from dfsched.interp.dataflow_state import SimError
    from dfsched.interp.dtypes import UnsupportedType
    from dfsched.interp.memory import MemoryAccessError
    from dfsched.interp.races import RaceError

    return (SimError, RaceError, MemoryAccessError, ValueError, IndexError, UnsupportedType, ZeroDivisionError)


def _helpers() -> dict[str, Any]:
    from dfsched.interp import dataflow_ops as ops
    from dfsched.interp.dataflow_compute import binary_now
    from dfsched.interp.dataflow_engine import Busy
    from dfsched.interp.dataflow_transfers import load_now, store_begin, store_end

    return {"Busy": Busy, "receive_now": ops.receive_now, "send_now": ops.send_now, "receive_fifo": ops.receive_fifo,
            "send_fifo": ops.send_fifo, "RECEIVE": ops.TIMED["dataflow.receive"], "SEND": ops.TIMED["dataflow.send"],
            "load_now": load_now, "store_begin": store_begin, "store_end": store_end, "binary_now": binary_now}


__all__ = ["compiled_loop"]
