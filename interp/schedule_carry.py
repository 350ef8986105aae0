"""What a batched loop (`schedule_batch`) carries from one iteration to the next.

A K loop or a chunked reduction does not only move rows: its iterations take from and feed
FIFOs allocated outside the loop (`ktdf.pipeline`'s private), fold each step into an
accumulator buffer allocated outside it (`linalg.generic ... outs(%acc)` on memrefs), and
hand the result on at the last step (`scf.if %iv == last { write_to_fifo %acc }`). This
module lets such a body run batched too, with what the sequential run does exactly:

* **FIFOs from outside the loop.** FIFOs are queues: iteration i's pops take the elements
  after those of iterations 0..i-1, and its pushes append after theirs. So a loop's pops of
  one slot are one pop of n * k elements (taken when the batch commits), and its pushes one
  push of the rows in iteration order (several push ops: the rows side by side). A slot both
  pushed and popped in one loop, or popped by two ops, runs sequentially.
* **Accumulators.** A linalg op on buffers whose output is a buffer from outside the loop
  is a scan: the op runs once per iteration, in order, through the interpreter's own linalg
  engine (`schedule_memref.run_structured_on_values`) on that iteration's inputs, so every
  rounding is the sequential run's. Only that op may write the buffer in the loop, and no
  op before it may read it; later reads of it see each iteration's state after the op. Its
  final state is written when the batch commits, and its bytes must not meet any other
  read or write of the loop.
* **Branches.** `scf.if` (without results) on a per-iteration condition runs each branch
  for the iterations that take it, as a smaller batch (`BatchRun.rows`); values from the
  body it uses are cut to those iterations. A FIFO or buffer allocated in the body and used
  in a branch runs sequentially.

Anything else aborts the batch (`schedule_batch.Abort`): the loop then runs sequentially.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dfsched.interp import schedule_batch as sb
from dfsched.interp.batch_accesses import joined, runs, runs_meet
from dfsched.interp.memory import overlaps


class Carry:
    """The state one `BatchRun` carries across iterations: outside FIFOs and accumulators."""

    def __init__(self, run):
        self.run = run
        self.pushes: dict[int, tuple[Any, list[tuple[Any, np.ndarray]]]] = {}  # id(slot) -> (slot, [(rows, data)])
        self.pops: dict[int, tuple[Any, int]] = {}  # id(slot) -> (slot, elements taken)
        # id(view) -> (view, addresses, rows of the scan, state after each of those rows, state before)
        self.accumulators: dict[int, tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self.read_views: set[int] = set()

    # -- FIFOs ------------------------------------------------------------------------------
    def pop(self, slot, k: int) -> np.ndarray:
        from dfsched.interp.schedule_state import FifoSlot

        if not isinstance(slot, FifoSlot) or self.run.flat:
            raise sb.Abort("not a FIFO slot, or one used in a nested loop")
        key = id(slot)
        if key in self.pops or key in self.pushes:
            raise sb.Abort("a FIFO popped twice, or pushed and popped, in one loop")
        need = k * self.run.n
        if need > slot.count:
            raise sb.Abort("a FIFO read before its write: the sequential run says where")
        self.pops[key] = (slot, need)
        if need == 0:
            return np.zeros((self.run.n, 0))
        parts, have = [], 0
        for chunk in slot.chunks:  # a look, not a pop: the batch may still abort
            parts.append(chunk[: need - have])
            have += parts[-1].size
            if have == need:
                break
        return np.concatenate(parts).reshape(self.run.n, k)

    def push(self, slot, data: np.ndarray) -> None:
        from dfsched.interp.schedule_state import FifoSlot

        if not isinstance(slot, FifoSlot) or self.run.flat:
            raise sb.Abort("not a FIFO slot, or one used in a nested loop")
        if id(slot) in self.pops:
            raise sb.Abort("a FIFO pushed and popped in one loop")
        self.pushes.setdefault(id(slot), (slot, []))[1].append((self.run.rows, data.reshape(self.run.n, -1)))

    # -- accumulators -------------------------------------------------------------------------
    def carries(self, view) -> bool:
        return id(view) in self.accumulators

    def note_read(self, view) -> None:
        self.read_views.add(id(view))

    def states(self, view) -> np.ndarray:
        """(n, *shape): `view`'s value in each current iteration, after its scan op."""
        _, _, rows, after, before = self.accumulators[id(view)]
        wanted = np.arange(self.run.n_all) if self.run.rows is None else self.run.rows
        last = np.searchsorted(rows, wanted, side="right") - 1  # the latest scan step at or before
        out = after[np.maximum(last, 0)]
        if (last < 0).any():
            out = np.where((last < 0).reshape((-1,) + (1,) * before.ndim), before[None], out)
        return out

    def read(self, view, anchor, sizes, op) -> np.ndarray:
        """(n, count): the box `anchor + [0, sizes)` of an accumulator, per iteration."""
        from dfsched.interp.schedule_state import _addresses, box_points

        if any(isinstance(a, np.ndarray) and a.ndim for a in anchor) or len(anchor) != len(view.sizes):
            raise sb.Abort("a batched read of an accumulator")
        anchor = [int(a) for a in anchor]
        if any(a < 0 or a + s > e for a, s, e in zip(anchor, sizes, view.sizes)):
            raise sb.Abort("a read past an accumulator")
        coords = (box_points(tuple(sizes)) + np.asarray(anchor, dtype=np.int64)).reshape(-1, len(sizes))
        run = self.run
        run._log(view, False, np.broadcast_to(_addresses(view, coords, True), (run.n, len(coords))), op)  # noqa: SLF001
        states = self.states(view)
        return states[(slice(None), *coords.T)].reshape(run.n, -1)

    def scan(self, view, op, states_from) -> None:
        """`states_from(start)`: `view`'s state after each current iteration, (n, *shape), from
        its value before the loop; remember them (reads after this op see them)."""
        from dfsched.interp.schedule_state import _tile_of, _whole_addresses

        run = self.run
        if run.flat or id(view) in self.accumulators or id(view) in self.read_views:
            raise sb.Abort("an accumulator read before its op, or updated by two ops")
        addresses = _whole_addresses(view)
        if addresses is None:
            raise sb.Abort("an accumulator view that is not a plain box")
        addresses = addresses.reshape(-1)
        start = view.memory.read(addresses, view.et, _tile_of(run.state, view)).reshape(view.sizes)
        run._log(view, False, np.broadcast_to(addresses.reshape(1, -1), (run.n, addresses.size)), op)  # noqa: SLF001
        run._log(view, True, np.broadcast_to(addresses.reshape(1, -1), (run.n, addresses.size)), op)  # noqa: SLF001
        rows = np.arange(run.n) if run.rows is None else run.rows
        self.accumulators[id(view)] = (view, addresses, rows, states_from(start), start)

    # -- committing ---------------------------------------------------------------------------
    def check(self, writes_by_memory: dict[int, list]) -> None:
        """Abort unless an accumulator's bytes meet no other access of the loop, the pushes of
        one slot come from the same iterations, and no write would race."""
        for slot, entries in self.pushes.values():
            if len({d.shape[1] for _, d in entries}) > 1 and any(r is not None for r, _ in entries):
                raise sb.Abort("pushes of different sizes to one FIFO in branches")
        run = self.run
        for view, addresses, *_ in self.accumulators.values():
            memory = view.memory
            width = memory.element_step(view.et)
            others = [runs(w[1], memory.element_step(w[0].et)) for w in writes_by_memory.get(id(memory), [])]
            others += run.reads.get(id(memory), (None, []))[1]
            if others and runs_meet(runs(addresses, width), joined(others)):
                raise sb.Abort("an accumulator's bytes are accessed through another view")
            tile = _tile(run, view)
            if memory.track_races and tile is not None and sb._would_race(memory, sb._slots(addresses, width), tile):  # noqa: SLF001
                raise sb.Abort("a race: the sequential run reports it")
        for a in self.accumulators.values():
            for b in self.accumulators.values():
                if a is not b and a[0].memory is b[0].memory and overlaps(a[1], b[1]):
                    raise sb.Abort("two accumulators share bytes")

    def commit(self) -> None:
        run = self.run
        for view, addresses, _, after, _ in self.accumulators.values():
            view.memory.write(addresses, view.et.cast(after[-1]).reshape(-1), view.et, _tile(run, view))
        for slot, taken in self.pops.values():
            slot.pop(taken)
        for slot, entries in self.pushes.values():
            slot.push(_in_iteration_order(entries, run.n_all))


def _in_iteration_order(entries: list[tuple[Any, np.ndarray]], n: int) -> np.ndarray:
    """The elements pushes `entries` ((rows or None for all, data (rows, k)), in op order) make
    in the sequential run: iteration by iteration, each iteration's pushes in op order."""
    if all(rows is None for rows, _ in entries):
        return (np.concatenate([d for _, d in entries], axis=1) if len(entries) > 1 else entries[0][1]).reshape(-1)
    rows = np.concatenate([np.arange(n) if r is None else r for r, _ in entries])
    data = np.concatenate([d for _, d in entries], axis=0)
    return data[np.argsort(rows, kind="stable")].reshape(-1)  # stable: op order within an iteration


def _tile(run, view):
    from dfsched.interp.schedule_state import _tile_of

    return _tile_of(run.state, view)


# ---------------------------------------------------------------------------------------
# linalg on buffers
# ---------------------------------------------------------------------------------------


def _operand_rows(run, value, op) -> Any:
    """A linalg operand as the scan step sees it: (n, *shape) per iteration, or one value."""
    from dfsched.interp.memory import StridedView

    if isinstance(value, sb.BatchView):
        big = value.view
        return run.read(value, [0] * (len(big.sizes) - 1), list(big.sizes[1:]), True, op).reshape(
            (run.n, *big.sizes[1:]))
    if isinstance(value, StridedView):
        return run.read(value, [0] * len(value.sizes), list(value.sizes), True, op).reshape(
            (run.n, *value.sizes))
    if isinstance(value, sb.Batch):
        return value.array
    return None


def linalg_on_buffers(run, op, inputs: list[Any]) -> list[Any]:
    """A linalg op with buffer operands in a batched body: a scan when its outputs are buffers
    from outside the loop (accumulators); anything else aborts."""
    from dfsched.interp import linalg_impl
    from dfsched.interp.dtypes import element_type
    from dfsched.interp.memory import StridedView
    from dfsched.interp.schedule_memref import run_structured_on_values

    interpreter = run.interpreter
    n_inputs = linalg_impl.structured(interpreter, op, linalg_impl.structured_op).n_inputs
    outs = inputs[n_inputs:]
    if op.results or len(outs) != 1 or not isinstance(outs[0], StridedView):
        raise sb.Abort("a linalg op whose output is not one buffer from outside the loop")
    (view,) = outs
    if run.renamings:
        sb.schedule_phases.check_direct(run, view)
    if view.et is None:
        raise sb.Abort("an output of unknown element type")
    rows = [_operand_rows(run, v, op) for v in inputs[:n_inputs]]
    out_types = [element_type(v.type) for v in op.operands[n_inputs:]]
    before = run.state.ops_run

    def one_by_one(start: np.ndarray) -> np.ndarray:
        states, state = [], start
        for i in range(run.n):
            ins = [v if r is None else r[i] for v, r in zip(inputs[:n_inputs], rows)]
            (result,) = run_structured_on_values(interpreter, op, ins, [state], out_types)
            state = view.et.cast(result)
            states.append(state)
        return np.stack(states)

    def states_from(start: np.ndarray) -> np.ndarray:
        s = linalg_impl.structured(interpreter, op, linalg_impl.structured_op)
        found = _folded(run, op, s, inputs[:n_inputs], rows, start, out_types[0])
        return one_by_one(start) if found is None else found

    run.carry.scan(view, op, states_from)
    run.ops += run.state.ops_run - before  # the body's ops, once per iteration and point it ran for
    return []


_FOLDS = {"arith.addf": (np.add, -0.0), "arith.mulf": (np.multiply, 1.0)}  # x + -0 and x * 1 are x, bit for bit


def _fold_plan(s, et):
    """How `_combined` folds op `s` (its combiner's ufunc and identity, the reduction axes), or
    None: a float output indexed by the parallel loops in order, a body `acc <op> f(inputs)`
    with op addf or mulf and no `linalg.index`."""
    from dfsched.interp import linalg_impl

    names = linalg_impl.combiners(s)
    if (names is None or len(names) != 1 or names[0] not in _FOLDS or s.exx2 or et.kind != "float"
            or list(s.positions[s.n_inputs]) != list(s.parallel)
            or any(o.name == "linalg.index" for o in s.body.walk())):
        return None
    return _FOLDS[names[0]]


def _every_point(s, batched: tuple[bool, ...]):
    """`s` with every loop parallel, a leading loop over the iterations (which the `batched`
    inputs index first), and an output holding every point."""
    from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

    from dfsched.interp import linalg_impl

    dims = s.maps[0].num_dims
    shift = [AffineExpr.dimension(i + 1) for i in range(dims)]
    maps = []
    for amap, per_iteration in zip(s.maps[: s.n_inputs], batched):
        results = tuple(r.replace_dims_and_symbols(shift, []) for r in amap.results)
        maps.append(AffineMap(dims + 1, 0, ((AffineDimExpr(0),) if per_iteration else ()) + results))
    maps.append(AffineMap(dims + 1, 0, tuple(AffineDimExpr(i) for i in range(dims + 1))))
    return linalg_impl.Structured(s.op, maps, ["parallel"] * (dims + 1), s.n_inputs, False, s.body)


def _combined(run, op, inputs, rows, start: np.ndarray, et):
    """The states of a scan whose step is a fold (`_fold_plan`), without stepping: f(inputs) at
    every point of every iteration in one body run (the accumulator set to the fold's identity),
    then the fold along iterations and reduction points in the sequential order, each step
    rounded to `et` (`ufunc.accumulate`, as the body's own op rounds). None: not such an op, or
    a NaN (whose payload could depend on the operand order), or a body that needs scalars."""
    from dfsched.interp import linalg_impl

    interpreter = run.interpreter
    s = linalg_impl.structured(interpreter, op, linalg_impl.structured_op)
    key = ("fold plan", id(op), et)
    if key not in interpreter.op_cache:
        interpreter.op_cache[key] = _fold_plan(s, et)
    plan = interpreter.op_cache[key]
    if plan is None or np.isnan(start).any():
        return None
    ufunc, identity = plan
    ins = [v if r is None else r for v, r in zip(inputs, rows)]
    for i, target in linalg_impl.input_casts(s, [et]):
        ins[i] = target.cast(ins[i])
    first = [v if r is None else v[0] for v, r in zip(ins, rows)]
    ranges = linalg_impl._loop_ranges(s.maps, first + [start])  # noqa: SLF001
    n = run.n
    # every loop parallel, the iterations a leading one; the output: every point
    if not all(ranges):
        return None
    pattern = tuple(r is not None for r in rows)
    key = ("fold", id(op), pattern)
    whole = interpreter.op_cache.get(key)
    if whole is None:
        whole = interpreter.op_cache[key] = _every_point(s, pattern)
    out = np.full((n, *ranges), identity, dtype=et.dtype)
    before = run.state.ops_run
    try:
        (values,) = linalg_impl._run_vectorised(  # noqa: SLF001
            interpreter, whole, ins, [out], [et], [n, *ranges], whole.parallel, [], False)
    except linalg_impl.NeedsScalar:
        run.state.ops_run = before
        return None
    per_point = run.state.ops_run - before  # one body run stands for one per point of each iteration
    run.state.ops_run = before + per_point * n * int(np.prod([ranges[d] for d in s.reduction], dtype=np.int64))
    if np.isnan(values).any():
        run.state.ops_run = before
        return None
    p_axes = [1 + d for d in s.parallel]
    r_axes = [1 + d for d in s.reduction]
    p_shape = tuple(ranges[d] for d in s.parallel)
    steps = np.transpose(values, p_axes + [0] + r_axes).reshape(p_shape + (-1,))  # (p..., n * R)
    with np.errstate(all="ignore"):
        folded = ufunc.accumulate(np.concatenate([start.reshape(p_shape + (1,)), steps], axis=-1), axis=-1,
                                  dtype=et.dtype)
    per_iteration = steps.shape[-1] // max(n, 1)
    after = folded[..., per_iteration::per_iteration] if per_iteration else np.broadcast_to(
        start.reshape(p_shape + (1,)), p_shape + (n,))
    return et.cast(np.moveaxis(after, -1, 0)).reshape((n, *start.shape))


# ---------------------------------------------------------------------------------------
# scf.for iter_args
# ---------------------------------------------------------------------------------------


class CarriedValue:
    """An `iter_args` block argument of a batched `scf.for`: usable only as the output of one
    linalg op (a scan, `linalg_on_carried`) whose result the loop yields back."""

    __slots__ = ("init", "result", "states")

    def __init__(self, init):
        self.init = init
        self.result = None  # the Batch of the scan's states, once it ran
        self.states = None


def linalg_on_carried(run, op, inputs: list[Any]) -> list[Any]:
    """A linalg op on tensors whose output is a loop-carried value: the op once per iteration,
    in order, through the tensor engine (`linalg_impl.run_structured`), from the initial value."""
    from dfsched.interp import linalg_impl

    interpreter = run.interpreter
    s = linalg_impl.structured(interpreter, op, linalg_impl.structured_op)
    ins, outs = inputs[: s.n_inputs], inputs[s.n_inputs:]
    if (len(outs) != 1 or type(outs[0]) is not CarriedValue or outs[0].result is not None or run.rows is not None
            or run.flat or any(type(v) is CarriedValue for v in ins)):
        raise sb.Abort("a loop-carried value this scan does not cover")
    (marker,) = outs
    before = run.state.ops_run
    start = np.asarray(marker.init)
    rows = [v.array if isinstance(v, sb.Batch) else None for v in ins]
    folded = _folded(run, op, s, ins, rows, start, linalg_impl.element_type(op.operands[s.n_inputs].type))
    if folded is None:
        states, state = [], start
        for i in range(run.n):
            args = tuple(v.array[i] if isinstance(v, sb.Batch) else v for v in ins) + (state,)
            (state,) = linalg_impl.run_structured(interpreter, s, args)
            states.append(state)
        folded = np.stack(states)
    run.ops += run.state.ops_run - before
    marker.states = folded
    marker.result = sb.Batch(marker.states)
    return [marker.result]


def _folded(run, op, s, values: list[Any], rows: list[Any], start: np.ndarray, et):
    """The states of a scan whose step is a fold, without stepping (None: step); an input is
    `rows[i]` (one per iteration) or, where that is None, `values[i]`. Without reduction loops
    the engine is the vectorised one (the body sees the accumulator: `_combined`). With them,
    on tensors and buffers alike (Decision 94), `linalg_impl._run_reduction` runs the body on
    every point with the accumulator at the fold's identity, in the accumulation type, and
    folds the points into the output's value in that type, rounded to the output type once
    per call: so one body run on every point of every iteration, then the fold per iteration,
    is the same when each call folds one point, or folds sequentially in its own type (f16)."""
    from dfsched.interp import linalg_impl

    interpreter = run.interpreter
    if not s.reduction:
        return _combined(run, op, values, rows, start, et)
    key = ("fold plan", id(op), et)
    if key not in interpreter.op_cache:
        interpreter.op_cache[key] = _fold_plan(s, et)
    if interpreter.op_cache[key] is None or np.isnan(start).any() or linalg_impl.input_casts(s, [et]):
        return None
    ufunc = _FOLDS[linalg_impl.combiners(s)[0]][0]
    dt = linalg_impl._accumulator(interpreter, et)  # noqa: SLF001
    wide = linalg_impl._et_of(dt) if dt.itemsize > et.dtype.itemsize else None  # noqa: SLF001
    ins = values
    first = [r[0] if r is not None else v for v, r in zip(ins, rows)]
    ranges = linalg_impl._loop_ranges(s.maps, first + [start])  # noqa: SLF001
    points = int(np.prod([ranges[d] for d in s.reduction], dtype=np.int64))
    if not all(ranges) or (points != 1 and (wide is not None or dt != np.float16)):
        return None
    subscripts = linalg_impl.contraction(s)
    if dt != np.float16 and subscripts is not None:  # the engine's einsum in `dt`, then one rounding
        if points != 1:
            return None  # (an einsum's sum over several points might not add in the same order)
        terms, result = subscripts.split("->")
        batched = ",".join(("z" + t) if r is not None else t for t, r in zip(terms.split(","), rows))
        with np.errstate(all="ignore"):
            product = np.einsum(f"{batched}->z{result}", *(np.asarray(r if r is not None else v).astype(dt)
                                                           for v, r in zip(ins, rows)))
        return _widened_steps(start, product, np.add, dt, et).reshape((run.n, *start.shape))
    pattern = tuple(r is not None for r in rows)
    cache_key = ("fold", id(op), pattern)
    whole = interpreter.op_cache.get(cache_key)
    if whole is None:
        whole = interpreter.op_cache[cache_key] = _every_point(s, pattern)
    n = run.n
    identity = dt.type(linalg_impl._COMBINERS[linalg_impl.combiners(s)[0]][1])  # noqa: SLF001
    out = np.full((n, *ranges), identity, dtype=dt)
    state = run.state
    before, previous = state.ops_run, state.widen
    state.widen = wide
    try:
        (values,) = linalg_impl._run_vectorised(  # noqa: SLF001
            interpreter, whole, [r if r is not None else v for v, r in zip(ins, rows)], [out],
            [wide or et], [n, *ranges], whole.parallel, [], False)
    except linalg_impl.NeedsScalar:
        state.ops_run = before
        return None
    finally:
        state.widen = previous
    if np.isnan(values).any():
        state.ops_run = before
        return None
    state.ops_run = before + (state.ops_run - before) * n  # the engine runs the body once a call, on every point
    p_shape = tuple(ranges[d] for d in s.parallel)
    steps = np.transpose(values, [1 + d for d in s.parallel] + [0] + [1 + d for d in s.reduction])
    steps = steps.reshape(p_shape + (n * points,)).astype(dt)
    name = linalg_impl.combiners(s)[0]
    lanes = linalg_impl.lane_order(interpreter, s, [name], [dt], ranges) if wide is None else None
    if lanes and points % lanes == 0:  # the schedule's lanes, carried across the iterations (Decision 112)
        return _lane_states(name, start.astype(dt).reshape(p_shape), steps, n, points // lanes, lanes,
                            dt, et).reshape((n, *start.shape))
    with np.errstate(all="ignore"):
        if wide is None:
            folded = ufunc.accumulate(np.concatenate([start.astype(dt).reshape(p_shape + (1,)), steps], axis=-1),
                                      axis=-1, dtype=dt)[..., points::points]
            after = et.cast(np.moveaxis(folded, -1, 0))
        else:  # one point per call: the output's value widened, the point folded in, rounded back
            after = _widened_steps(start.reshape(p_shape), np.moveaxis(steps, -1, 0), ufunc, dt, et)
    return after.reshape((n, *start.shape))


def _lane_states(name, start, steps, n: int, per_iteration: int, lanes: int, dt, et) -> np.ndarray:
    """(n, ...): the states of a lane-wide scan (`linalg_impl.lane_order`): `steps` (..., n *
    per_iteration * lanes) folded into lanes that start at the combiner's identity, each
    iteration's value `start` combined with its lanes folded by halving, rounded to `et`."""
    from dfsched.interp import linalg_impl

    identity = dt.type(linalg_impl._COMBINERS[name][1])  # noqa: SLF001
    rows = steps.reshape(start.shape + (n * per_iteration, lanes))
    with np.errstate(all="ignore"):
        running = linalg_impl._COMBINERS[name][0].accumulate(  # noqa: SLF001
            np.concatenate([np.full(start.shape + (1, lanes), identity, dtype=dt), rows], axis=-2), axis=-2, dtype=dt)
    states = running[..., per_iteration::per_iteration, :]  # (..., n, lanes)
    totals = linalg_impl.lane_fold(name, start[..., None], states, dt)  # (..., n)
    return et.cast(np.moveaxis(totals, -1, 0))


def _widened_steps(start: np.ndarray, steps: np.ndarray, ufunc, dt, et) -> np.ndarray:
    """(n, ...): each state the value before folded with `steps[i]` in `dt`, rounded to `et`."""
    after, value = [], start
    with np.errstate(all="ignore"):
        for step in steps:
            value = et.cast(ufunc(value.astype(dt), step).astype(dt))
            after.append(value)
    return np.stack(after)


def loop_results(markers: list[CarriedValue], yielded: list[Any]) -> list[Any]:
    """The results of a batched `scf.for` whose body yielded `yielded`: each carried value's
    last state (or its initial value, yielded unchanged)."""
    if len(yielded) != len(markers):
        raise sb.Abort("a loop yielding other than its carried values")
    out = []
    for marker, value in zip(markers, yielded):
        if value is marker:
            out.append(marker.init)
        elif marker.result is not None and value is marker.result:
            out.append(marker.states[-1].copy())
        else:
            raise sb.Abort("a loop yielding other than its scan's result")
    return out


# ---------------------------------------------------------------------------------------
# scf.if
# ---------------------------------------------------------------------------------------


def run_if(run, op, inputs):
    """`scf.if` without results: each branch for the iterations whose condition takes it."""
    cond = inputs[0]
    branches = [r.blocks.first for r in op.regions]
    if not isinstance(cond, sb.Batch):
        block = branches[0] if bool(cond) else (branches[1] if len(branches) > 1 else None)
        if block is not None:
            run.run_block(block, [])
        return []
    taken = np.asarray(cond.array).astype(bool).reshape(run.n)
    for block, mask in zip(branches, (taken, ~taken)):
        if block is None or not mask.any():
            continue
        if mask.all():
            run.run_block(block, [])
        else:
            _run_rows(run, op, block, np.flatnonzero(mask))
    return []


def _run_rows(run, op, block, picked: np.ndarray) -> None:
    """`block` for the iterations `picked` (positions among the current ones) only."""
    outside = sb.outside_operands(run, op)
    table = run.interpreter._values  # noqa: SLF001
    saved = {}
    for v in outside:
        value = table.get(id(v))
        if isinstance(value, (sb.BatchFifo, sb.BatchView)):
            raise sb.Abort("a FIFO or buffer of the body used in a branch")
        if isinstance(value, sb.Batch):
            saved[id(v)] = value
            table[id(v)] = sb.Batch(value.array[picked])
    n, rows = run.n, run.rows
    run.n, run.rows = int(picked.size), (picked if rows is None else rows[picked])
    try:
        run.run_block(block, [])
    finally:
        run.n, run.rows = n, rows
        table.update(saved)
