"""A unit's loop body compiled to one Python generator (`SimOptions.compile_loops`).

`Runner.run_block` interprets a block op by op: an environment keyed by SSA values, a
dispatch per op, a generator per timed op. A loop body runs thousands of times with the same
ops, so once a unit has run it to its end (its plan then lacks the ops that run once per
program instance), `scf.for` runs its later iterations in a function made from the body's
plan: SSA values are Python locals, an inner `scf.for` (not a DMA nest) is a nested `for` of
the same function (taken once the unit has run its body to the end too), and the hot ops run
their non-generator forms
(`send_now`, `receive_now`, `load_now`, `store_begin`/`store_end`, `binary_now`, `index`
add/sub/mul on Python ints), falling back to the op's own implementation whenever their
common case does not apply (a full FIFO, a vector that comes in pieces); a receive whose
data is not there yet yields the op's own waiting commands (parked on an empty FIFO, then
idle until the head chunk is visible) before taking it. Every other op calls its
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
    """The function running iterations of `block` (an `scf.for` body a unit already ran to its
    end): `loop(runner, ivs, carried) -> carried` (a generator), made once per block."""
    found = sim.compiled_loops.get(id(block))
    if found is None or found[0] is not block:
        found = sim.compiled_loops[id(block)] = (block, _compile(sim, block))
    return found[1]


def _compile(sim, block: Block):
    emitter = _Emitter(sim)
    emitter.survey(block)
    body = emitter.block(block, "iv", " " * 12, emitter.entry)
    lines = ["def loop(r, ivs, carried):",
             "    env = r.env",
             "    engine = r.sim.engine",
             *["    " + line for line in emitter.entry],
             *[f"    {p} = {q} = None" for p, q in emitter.fifo_slots],
             "    at = -1",
             "    try:",
             "        for iv in ivs:",
             *body,
             "    except DiagnosticError:",
             "        raise",
             "    except CAUGHT as exc:",
             "        raise error(OPS[at], f\"'{OPS[at].name}' op {exc}\") from exc",
             "    return carried"]
    namespace = dict(emitter.consts, OPS=emitter.ops, np=np, I64_MIN=I64_MIN, I64_MAX=I64_MAX,
                     DiagnosticError=DiagnosticError, error=error, CAUGHT=_caught(), mapping=_mapping, **_helpers())
    exec(compile("\n".join(lines), f"<compiled loop body of {block.parent_op().name}>", "exec"), namespace)  # noqa: S102
    return namespace["loop"]


class _Emitter:
    """Writes the Python text of a loop body; an inner `scf.for` (not a DMA nest) is written
    inline as a nested `for`, taken once the unit has run its body to the end (before that, and
    for the other ops, the op's implementation runs)."""

    def __init__(self, sim):
        self.sim = sim
        self.names: dict[SSAValue, str] = {}
        self.consts: dict[str, Any] = {}
        self.ops: list[Operation] = []
        self.entry: list[str] = []  # reads of values defined outside the outermost body
        self.fifo_slots: list[tuple[str, str]] = []
        self.inline_ops: set[Operation] = set()
        self.nested: set[Operation] = set()  # inner loops written inline
        self.captured: set[SSAValue] = set()  # values an inline inner body takes from outside it
        self.loads: list[tuple[Block, list[str]]] = []  # blocks being written, with their reads on entry

    def plan(self, block: Block) -> list:
        return [entry for entry in self.sim.block_plan(block) if entry[4] != "once"]

    def survey(self, block: Block) -> None:
        """Which ops go inline and which values an inline inner body needs in the environment
        (its first run goes through `run_block`, which reads them there)."""
        for entry in self.plan(block):
            op = entry[0]
            if _inline(entry) or entry[4] == "term":  # (a body's first run, by `run_block`, makes its own values)
                self.inline_ops.add(op)
            elif self._nestable(entry):
                self.nested.add(op)
                inner = op.regions[0].blocks.first
                self.survey(inner)
                for inner_op in inner.walk():
                    for value in inner_op.operands:
                        if not inner.is_ancestor(value.owner):
                            self.captured.add(value)

    def _nestable(self, entry) -> bool:
        op, name, operands, _, kind, _ = entry
        if name != "scf.for" or kind != "timed" or not op.regions or len(operands) < 3:
            return False
        from dfsched.interp.dataflow_batch import dma_nest

        return not (self.sim.options.batch_loops and dma_nest(self.sim, op) is not None)

    def const(self, value: Any, hint: str) -> str:
        name = f"{hint}{len(self.consts)}"
        self.consts[name] = value
        return name

    def ref(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:  # defined outside (or by a once-per-instance op): read where its block starts
            name = self.names[value] = f"o{len(self.names)}"
            target = self.entry
            for block, loads in self.loads:
                if block.is_ancestor(value.owner):
                    target = loads
            target.append(f"{name} = env[{self.const(value, 'K')}]")
        return name

    def bind(self, value: SSAValue, name: str, out: list[str], ind: str) -> None:
        self.names[value] = name
        if value in self.captured or any(use.operation not in self.inline_ops and use.operation not in self.nested
                                         for use in value.uses):
            out.append(f"{ind}env[{self.const(value, 'K')}] = {name}")

    def block(self, block: Block, iv: str, ind: str, loads: list[str]) -> list[str]:
        """The lines of one iteration of `block` (its iv in `iv`, its other arguments in
        `carried`), leaving its yielded values in `carried`."""
        self.loads.append((block, loads))
        body: list[str] = []
        args = list(block.args)
        self.bind(args[0], iv, body, ind)
        carried = [f"{iv}_{i}" for i in range(1, len(args))]
        if carried:
            body.insert(0, f"{ind}{', '.join(carried)}{',' if len(carried) == 1 else ''} = carried")
            for value, name in zip(args[1:], carried):
                self.bind(value, name, body, ind)
        finish = "carried = []"
        for entry in self.plan(block):
            op, name, operands, results, kind, fn = entry
            if kind == "term":
                finish = f"carried = [{', '.join(self.ref(v) for v in operands)}]"
                break
            self.ops.append(op)
            body.append(f"{ind}at = {len(self.ops) - 1}")
            a = [self.ref(v) for v in operands]
            k = len(self.ops) - 1
            outs = [f"v{k}_{j}" for j in range(len(results))]
            if op in self.nested:
                self._nested_loop(op, fn, a, outs, body, ind)
            else:
                self._op(entry, a, outs, body, ind)
            for value, x in zip(results, outs):
                self.bind(value, x, body, ind)
        body.append(ind + finish)
        self.loads.pop()
        return body

    def _nested_loop(self, op: Operation, fn, a: list[str], outs: list[str], body: list[str], ind: str) -> None:
        inner = op.regions[0].blocks.first
        o, b = self.const(op, "O"), self.const(inner, "B")
        iv = f"i{len(self.ops) - 1}"
        loads: list[str] = []
        inner_body = self.block(inner, iv, ind + " " * 8, loads)
        trimmed = f"r._trimmed.get({self.const(id(inner), 'I')})"
        body += [f"{ind}lb, ub, st = int({a[0]}), int({a[1]}), int({a[2]})",
                 f"{ind}done = {trimmed}",
                 f"{ind}if st > 0 and done is not None and done[0] is {b}:",
                 *[f"{ind}    {line}" for line in loads],
                 f"{ind}    carried = [{', '.join(a[3:])}]",
                 f"{ind}    for {iv} in range(lb, ub, st):",
                 *inner_body,
                 f"{ind}    res = carried",
                 f"{ind}else:",
                 f"{ind}    res = yield from {self.const(fn, 'F')}(r, {o}, [{', '.join(a)}])"]
        if outs:
            body.append(f"{ind}{', '.join(outs)}{',' if len(outs) == 1 else ''} = res")

    def _op(self, entry, a: list[str], outs: list[str], body: list[str], ind: str) -> None:
        from dfsched.interp import dataflow_ops as ops

        op, name, operands, results, kind, fn = entry
        k = len(self.ops) - 1
        o = self.const(op, "O")
        if name in INLINE_ARITH and kind == "pure":
            x = outs[0]
            body += [f"{ind}{x} = {a[0]} {INLINE_ARITH[name]} {a[1]}",
                     f"{ind}if type({x}) is not int or not (I64_MIN <= {x} <= I64_MAX) or type({a[0]}) is not int "
                     f"or type({a[1]}) is not int:",
                     f"{ind}    {x} = {self.const(fn, 'F')}(r, {o}, [{a[0]}, {a[1]}])[0]"]
        elif name == "dataflow.receive":
            t, shape, et, need = ops.receive_info(_Decoder(self.sim), op)
            p, f = f"P{k}", f"Q{k}"
            self.fifo_slots.append((p, f))
            prelude_fifo(body, ind, p, f, a[0], f"receive_fifo(r, {o}, {a[0]})")
            x = outs[0]
            rc = self.sim.options.receive_cycles
            take = f"receive_now(r, {f}, {need}, {self.const(et.dtype, 'D')}, {self.const(shape, 'S')})"
            # No data yet, or data on its way (the head chunk not yet visible): wait for it here
            # with the commands the op's waiting path yields, then take it; anything else
            # (a vector in pieces, a FIFO still empty) goes on in the op's own implementation.
            body += [f"{ind}{x} = {take}",
                     f"{ind}if {x} is None:",
                     f"{ind}    chunks = {f}.chunks",
                     f"{ind}    if not chunks:",
                     f"{ind}        yield receive_blocked({o}, {f}, {a[0]}, {self.const(t, 'T')}, 0, {need})",
                     f"{ind}    if chunks and chunks[0][0] > engine.now:",
                     f"{ind}        yield WaitUntil(chunks[0][0])",
                     f"{ind}    {x} = {take}",
                     f"{ind}if {x} is None:",
                     f"{ind}    {x} = (yield from RECEIVE(r, {o}, [{a[0]}]))[0]",
                     f"{ind}elif {rc} > 0:" if rc > 0 else f"{ind}else:",
                     f"{ind}    yield Busy({rc}, {f}.receive_what)" if rc > 0 else f"{ind}    engine.events += 1"]
        elif name == "dataflow.send":
            p, f = f"P{k}", f"Q{k}"
            self.fifo_slots.append((p, f))
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
                line = f"res = mapping(r, {o}, {self.const(fn, 'F')}, {call})"
            elif kind == "pure":
                line = f"res = {self.const(fn, 'F')}(r, {o}, {call})"
            elif kind == "timed":
                line = f"res = yield from {self.const(fn, 'F')}(r, {o}, {call})"
            else:
                line = f"res = yield from r._fallback({o}, {call})"
            body.append(ind + line)
            if outs:
                body.append(f"{ind}{', '.join(outs)}{',' if len(outs) == 1 else ''} = res")


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
    from dfsched.interp.dataflow_ops import OP_FAULTS

    return OP_FAULTS


def _helpers() -> dict[str, Any]:
    from dfsched.interp import dataflow_ops as ops
    from dfsched.interp.dataflow_compute import binary_now
    from dfsched.interp.dataflow_engine import Busy, WaitUntil
    from dfsched.interp.dataflow_transfers import load_now, store_begin, store_end

    return {"Busy": Busy, "WaitUntil": WaitUntil, "receive_now": ops.receive_now, "receive_blocked": ops.receive_blocked,
            "send_now": ops.send_now, "receive_fifo": ops.receive_fifo,
            "send_fifo": ops.send_fifo, "RECEIVE": ops.TIMED["dataflow.receive"], "SEND": ops.TIMED["dataflow.send"],
            "load_now": load_now, "store_begin": store_begin, "store_end": store_end, "binary_now": binary_now}


__all__ = ["compiled_loop"]
