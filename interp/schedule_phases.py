"""Batched loops over double buffers: `ktdf.buffer_phase`, `ktdf.select_memref` and a
`ktdf.parallel` inside a batched body (`schedule_batch`).

After `double-buffering`, a scheduled kernel's outer loop runs one small pipeline per
iteration, each on the buffers its phase selects (`select_memref phase[%a0, %a1]`): stage 1
fills the selected buffer, a `ktdf.parallel` reads it and fills another, the last stage
stores that one. Batched, every iteration gets its own copy of the buffer it selects
(`RenamedView`, one part per iteration), which is what the sequential run sees as long as
each iteration reads only what it wrote itself; when the batch commits, each candidate
buffer is left holding what the last iteration that selected it wrote there.

The copies keep, per element, who wrote it last (`Renaming.writer`), so that a batch that
would not equal the sequential run aborts instead:
* an element read before its own iteration wrote it (the sequential run would read what an
  earlier iteration, or the code before the loop, left there);
* an element read or written again inside the nested loop that wrote it, when that loop runs
  its trips as more iterations of the batch (`_run_flat`, a `ktdf.parallel` here): those trips
  run op by op for all of them at once, not trip after trip;
* a candidate buffer used directly (not through its `select_memref`) in the loop.

A `ktdf.parallel` inside the batched body runs its points as more iterations of the batch
(point p of iteration i is row i * P + p, the sequential order). Its instances' accesses go
to an `AccessLog` under one instance number per execution and instance
(`iteration * num_instances + instance`), so the log's race check (`AccessLog.check`) sees
each execution's instances race as the sequential run's per-execution logs do; a race it
finds between two executions (never one of the sequential run's, as they run in turn) only
aborts the batch, whose sequential run then decides.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from dfsched.interp import schedule_batch as sb
from dfsched.interp.memory import StridedView, unique_sorted

UNWRITTEN = -2  # Renaming.writer: no access of this batch wrote the element
TOP = -1  # written by an op the batch ran once for all of its rows (not inside a flattened loop)


class Renaming:
    """The per-iteration copies of the candidates of one `select_memref` in one batch."""

    def __init__(self, big, candidates: list[StridedView], phases: np.ndarray, depth: int):
        self.big = big  # a fresh buffer (parts, *sizes): part i is iteration i's copy
        self.candidates = candidates
        self.phases = phases  # per part, which candidate it stands for
        self.depth = depth  # how many flattened loops enclosed the select_memref (`BatchRun.contexts`)
        count = int(np.prod(big.sizes, dtype=np.int64))
        self.writer = np.full(count, UNWRITTEN, dtype=np.int64)  # per element of `big`: TOP, a context, or UNWRITTEN
        self.step = big.memory.element_step(big.et)

    def context(self, run) -> int:
        """The outermost flattened loop (below the select_memref) the current op runs in, or TOP."""
        return run.contexts[self.depth] if len(run.contexts) > self.depth else TOP

    def elements(self, addresses: np.ndarray) -> np.ndarray:
        return ((np.asarray(addresses, dtype=np.int64) - self.big.offset) // self.step).reshape(-1)

    def commit(self) -> None:
        """Leave in each candidate what the last iteration that selected it wrote there."""
        parts = self.big.sizes[0]
        written = (self.writer != UNWRITTEN).reshape(parts, -1)
        values = self.big.memory.read(self.big.offset + np.arange(written.size, dtype=np.int64) * self.step,
                                      self.big.et, None).reshape(parts, -1)
        for c, view in enumerate(self.candidates):
            rows = np.flatnonzero(self.phases == c)
            if rows.size == 0:
                continue
            mask = written[rows]
            columns = np.flatnonzero(mask.any(axis=0))
            if columns.size == 0:
                continue
            last = rows[rows.size - 1 - np.argmax(mask[::-1, columns], axis=0)]
            view.memory.write(view.offset + columns * self.step, values[last, columns], view.et, None)


class RenamedView(sb.BatchView):
    """A `select_memref` result in a batched body: `renaming.big`, part `parts[row]` per row."""

    __slots__ = ("renaming",)

    def __init__(self, renaming: Renaming, parts: np.ndarray):
        super().__init__(renaming.big, parts)
        self.renaming = renaming

    def repeated(self, m: int) -> RenamedView:
        """The view for a loop nested m trips deep run as more rows (`_run_flat`)."""
        return RenamedView(self.renaming, np.repeat(self.parts, m))


def read(run, view: RenamedView, anchor, sizes, op) -> np.ndarray:
    addresses = _addresses(run, view, anchor, sizes)
    renaming = view.renaming
    writers = renaming.writer[renaming.elements(addresses)]
    if (writers == UNWRITTEN).any():
        raise sb.Abort("a double buffer read before its iteration wrote it")
    context = renaming.context(run)
    if context != TOP and (writers == context).any():
        raise sb.Abort("a double buffer read in the flattened loop that wrote it")
    run._log(view.view, False, addresses, op)  # noqa: SLF001
    return view.view.memory.read(addresses, view.view.et, None)


def write(run, view: RenamedView, anchor, sizes, values: np.ndarray, op) -> None:
    addresses = _addresses(run, view, anchor, sizes)
    renaming = view.renaming
    elements = renaming.elements(addresses)
    context = renaming.context(run)
    if context != TOP and ((renaming.writer[elements] == context).any()
                           or unique_sorted(elements).size != elements.size):
        raise sb.Abort("a double buffer written twice in one flattened loop")
    renaming.writer[elements] = context
    run._log(view.view, True, addresses, op)  # noqa: SLF001
    view.view.memory.write(addresses, values.reshape(addresses.shape), view.view.et, None)


def _addresses(run, view: RenamedView, anchor, sizes) -> np.ndarray:
    if run.rows is not None:
        raise sb.Abort("a double buffer in a branch")
    return run._private_box(view, anchor, sizes)  # noqa: SLF001


def check_direct(run, view: StridedView) -> None:
    """Abort when `view` overlaps a candidate renamed in this batch (its copies hold the data)."""
    for renaming in run.renamings:
        for c in renaming.candidates:
            if c.memory is view.memory and _extent(c)[0] < _extent(view)[1] and _extent(view)[0] < _extent(c)[1]:
                raise sb.Abort("a double buffer used directly")


def _extent(view: StridedView) -> tuple[int, int]:
    step = view.memory.element_step(view.et)
    last = sum((s - 1) * abs(t) for s, t in zip(view.sizes, view.strides)) if all(view.sizes) else -1
    return view.offset, view.offset + (last + 1) * step


# ---------------------------------------------------------------------------------------
# handlers
# ---------------------------------------------------------------------------------------


def run_buffer_phase(run, op, inputs):
    """`schedule_ops._run_buffer_phase` with batched induction variables."""
    from dfsched.interp.schedule_ops import _int_prop, _iv_range

    phases = _int_prop(op, "num_phases")
    linear: Any = 0
    for value, iv in zip(inputs, op.ivs):
        rng = _iv_range(run.interpreter, iv)
        if rng is None:
            continue
        lb, ub, step = rng
        trip = max(0, -(-(ub - lb) // step))
        value = value.array.astype(np.int64) if isinstance(value, sb.Batch) else int(value)
        linear = linear * trip + (value - lb) // step
    if isinstance(linear, np.ndarray):
        return [run.wrap(linear % phases)]
    return [int(linear % phases)]


def run_select_memref(run, op, inputs):
    """One copy per iteration of the candidates a batched phase selects (`RenamedView`)."""
    from dfsched.interp.schedule_state import BufferView, Label, new_buffer, row_major

    phase, *candidates = inputs
    if not isinstance(phase, sb.Batch):
        phase = int(phase)
        if not 0 <= phase < len(candidates):
            raise sb.Abort("a phase out of range: the sequential run reports it")
        return [candidates[phase]]
    phases = phase.array.astype(np.int64)
    first = candidates[0] if candidates else None
    if (run.rows is not None or not isinstance(first, BufferView) or first.et is None
            or (phases < 0).any() or (phases >= len(candidates)).any()):
        raise sb.Abort("a select_memref batching does not reproduce")
    state = run.state
    for c in candidates:
        if (not isinstance(c, BufferView) or c.memory is not state.arena or c.sizes != first.sizes
                or c.et != first.et or tuple(c.strides) != row_major(c.sizes) or c.offset != c.base
                or run.carry.carries(c)):
            raise sb.Abort("select_memref candidates that are not alike buffers")
        for other in run.renamings:
            if any(c is o or (c.offset, c.memory) == (o.offset, o.memory) for o in other.candidates):
                raise sb.Abort("a buffer selected twice in one batch")
    big = new_buffer(state, (run.n, *first.sizes), first.et, Label(lambda: f"the copies of {first.label}"))
    state.allocations -= 1  # (the sequential run allocates nothing here)
    renaming = Renaming(big, list(candidates), phases, len(run.contexts))
    run.renamings.append(renaming)
    return [RenamedView(renaming, np.arange(run.n, dtype=np.int64))]


def run_parallel(run, op, inputs):
    """A `ktdf.parallel` inside a batched body: its points as more iterations of the batch."""
    from dfsched.interp.schedule_ops import _parallel_info
    from dfsched.interp.schedule_state import AccessLog, op_info

    k, num_instances, body = op_info(run.interpreter, op, _parallel_info)
    state = run.state
    if (any(isinstance(v, sb.Batch) for v in inputs) or run.rows is not None or run.instances is not None
            or state.instance is not None or state.access_log is not None or num_instances < 1):
        raise sb.Abort("a ktdf.parallel batching does not reproduce")
    bounds = [int(v) for v in inputs]
    steps = bounds[2 * k: 3 * k]
    if any(s <= 0 for s in steps):
        raise sb.Abort("a non-positive step: the sequential run reports it")
    points = np.asarray(list(itertools.product(*(range(lb, ub, s) for lb, ub, s in
                                                 zip(bounds[:k], bounds[k: 2 * k], steps)))), dtype=np.int64)
    m = len(points)
    if m == 0:
        return []
    chunk = -(-m // num_instances)
    instance = np.arange(m, dtype=np.int64) // chunk
    log = AccessLog() if state.schedule.instance_races else None
    n = run.n
    args = [sb.Batch(np.tile(points[:, d], n)) for d in range(k)] + [sb.Batch(np.tile(instance, n))]
    per_execution = np.repeat(np.arange(n, dtype=np.int64), m) * num_instances + np.tile(instance, n)
    state.access_log = log
    try:
        with flattened(run, op, m, per_execution if log is not None else None):
            run.run_block(body.blocks.first, args)
    finally:
        state.access_log = None
    if log is not None:
        log.check(op)  # raises on a race: the batch aborts and the sequential run reports it
    return []


class flattened:
    """`run` with a nested loop of `m` trips as more rows: batched values and double buffers
    from outside the loop repeated (row i * m + j), a new flattened context; restored after."""

    def __init__(self, run, op, m: int, instances: np.ndarray | None = None):
        self.run, self.op, self.m, self.instances = run, op, m, instances

    def __enter__(self):
        run, m = self.run, self.m
        table = run.interpreter._values  # noqa: SLF001
        self.saved, repeated = {}, {}
        for v in sb.outside_operands(run, self.op):
            value = table.get(id(v))
            if isinstance(value, RenamedView):
                repeated[id(v)] = value.repeated(m)
            elif isinstance(value, (sb.BatchFifo, sb.BatchView)):
                raise sb.Abort("a FIFO or buffer of the body in a nested loop")
            elif isinstance(value, sb.Batch):
                repeated[id(v)] = sb.Batch(np.repeat(value.array, m, axis=0))
            else:
                continue
            self.saved[id(v)] = value
        table.update(repeated)
        self.before = (run.n, run.instances)
        run.n = run.n * m
        run.flat += 1
        if self.instances is not None:
            run.instances = self.instances
        elif run.instances is not None:
            run.instances = np.repeat(run.instances, m)
        run.next_context += 1
        run.contexts.append(run.next_context)
        return self

    def __exit__(self, *exc):
        run = self.run
        run.n, run.instances = self.before
        run.flat -= 1
        run.contexts.pop()
        run.interpreter._values.update(self.saved)  # noqa: SLF001
        return False


__all__ = ["RenamedView", "Renaming", "flattened", "run_buffer_phase", "run_parallel", "run_select_memref"]
