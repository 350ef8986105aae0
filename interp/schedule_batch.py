"""Batched loops of the ScheduleIR interpreter: one numpy pass for every iteration at once.

A scheduled kernel spends its time in loops whose iterations each move one row
(`scf.for` over `ktdf.data_transfer`s) or run one small pipeline (`ktdf.parallel` over
FIFOs and an element-wise `linalg.generic`). Interpreting them iteration by iteration costs
tens of microseconds per op; this module runs such a loop body *once*, with every value that
depends on the induction variables holding one entry per iteration (`Batch`, leading axis =
iteration), so a transfer is one gather/scatter and the compute is one numpy call.

It is an optimisation, never a semantics: the result must be what the sequential run gives.

* `batchable(op)` decides statically: no view is built inside the body, nested `scf.for`s
  (run one trip after another) and `scf.if`s have no results, and every op has a batched form
  here or is plain arithmetic. FIFO slots allocated outside the loop, linalg ops on buffers
  (accumulators) and `scf.if` on a per-iteration condition are `schedule_carry`'s.
* Writes to memory are deferred until the body has run for every iteration; reads see
  memory as it was before the loop. That equals the sequential order when no iteration
  writes an element any iteration reads and no two writes hit one element: checked before
  the writes are committed.
* Anything else (a conflict, an error of the IR, a race, an op that refuses arrays) aborts
  the batch: the counters and logs are restored, nothing was written, and the caller runs
  the loop sequentially, which then reports the error exactly as it always did.
* Statistics (`ops_run`, pipelines, stages, transfers, FIFO elements) are counted as the
  sequential run counts them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from dfsched.interp import linalg_impl, schedule_carry
from dfsched.interp.base import defined_inside
from dfsched.interp.batch_accesses import box as _box, box_rows as _box_rows, conflict as _conflict, runs as _runs, slots as _slots
from dfsched.interp.memory import StridedView

MIN_TRIPS = 4  # shorter loops run sequentially (batching costs a few ops' worth of setup)


class Abort(Exception):
    """The batch cannot reproduce the sequential run here: run the loop sequentially."""


class Batch:
    """One value per iteration: `array[i]` is iteration i's."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        self.array = array


class BatchFifo:
    """A FIFO slot allocated inside a batched body: one queue per iteration, all the same length."""

    def __init__(self, op: Operation, index: int, slot_type, capacity: int | None, n: int):
        self.op, self.index, self.type, self.capacity, self.n = op, index, slot_type, capacity, n
        self.chunks: list[np.ndarray] = []  # (n, k) each
        self.count = 0  # per iteration
        self.pushed = 0

    def push(self, data: np.ndarray) -> None:
        data = data.reshape(self.n, -1)
        if data.shape[1]:
            self.chunks.append(data)
            self.count += data.shape[1]
            self.pushed += data.shape[1]

    def pop(self, k: int) -> np.ndarray:
        if k > self.count:
            raise Abort("a FIFO read before its write")
        parts, need = [], k
        while need:
            head = self.chunks[0]
            if head.shape[1] <= need:
                parts.append(self.chunks.pop(0))
                need -= head.shape[1]
            else:
                parts.append(head[:, :need])
                self.chunks[0] = head[:, need:]
                need = 0
        self.count -= k
        return np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]


class BatchView:
    """Buffers allocated inside a batched body, one per iteration: one fresh buffer whose
    leading axis is the iteration. Only its own iteration touches each part, so its reads and
    writes happen at once (no deferral, no conflict to check)."""

    __slots__ = ("view", "parts")

    def __init__(self, view, parts: np.ndarray | None = None):
        self.view = view
        self.parts = parts  # which part each row uses (None: row i uses part i)


# ---------------------------------------------------------------------------------------
# which loops
# ---------------------------------------------------------------------------------------

STRUCTURE = {"ktdf.pipeline", "ktdf.stage", "ktdf.private"}
TERMINATORS = {"scf.yield", "ktdf.private_yield", "ktdf.parallel_yield"}
SPECIAL = {"ktdf.data_transfer", "ktdf.fifo.allocate", "ktdf.read_from_fifo", "ktdf.write_to_fifo",
           "ktdf.create_token", "ktdf.tiling.linearize_index", "ktdf.tiling.derive_size", "tensor.empty",
           "memref.alloc", "memref.dealloc", "ktdf.buffer_phase", "ktdf.select_memref"}


def _linalg_ok(op: Operation, root: Operation) -> bool:
    """A linalg op on tensors, or buffers (`schedule_carry`), whose body uses only its own
    arguments and values from outside `root`."""
    from xdsl.dialects.builtin import TensorType

    if not all(isinstance(v.type, (TensorType, MemRefType)) for v in op.operands):
        return False
    for inner in op.walk():
        if inner is op:
            continue
        if inner.name == "linalg.index" or inner.regions:
            return False
        for v in inner.operands:
            if not defined_inside(v, op) and defined_inside(v, root):
                return False
    return True


def _body_ok(loop: Operation) -> bool:
    from xdsl.dialects.builtin import MemRefType, TensorType

    for op in loop.walk():
        if op is loop:
            continue
        name = op.name
        parent = op.parent_op()
        if parent is not loop and parent.name.startswith("linalg."):
            continue  # checked with its linalg op
        if name in STRUCTURE or name in TERMINATORS:
            continue
        if name in ("scf.for", "ktdf.parallel"):  # a nested loop: its trips in turn or as more rows
            if op.results:
                return False
            continue
        if name == "scf.if":  # each branch runs for the iterations that take it (`schedule_carry`)
            if op.results:
                return False
            continue
        if name.startswith("linalg."):
            if not _linalg_ok(op, loop):
                return False
            continue
        if name in SPECIAL:  # FIFO slots from outside the loop: `schedule_carry`
            continue
        if op.regions or not (name.startswith("arith.") or name.startswith("affine.apply")):
            return False
        if any(isinstance(r.type, (MemRefType, TensorType)) for r in op.results):
            return False
    return True


def batchable(interpreter, loop: Operation) -> bool:
    """`_body_ok(loop)`, once per run (keyed apart from the loop op's own `per_op` entry)."""
    cache = interpreter.op_cache
    key = ("batch", id(loop))
    found = cache.get(key)
    if found is None:
        found = cache[key] = _body_ok(loop)
    return found


# ---------------------------------------------------------------------------------------
# running a batch
# ---------------------------------------------------------------------------------------


class BatchRun:
    """One batched execution of a loop body over `n` iterations."""

    def __init__(self, interpreter, n: int, instances: np.ndarray | None):
        self.interpreter = interpreter
        self.state = interpreter.state
        self.n = n  # iterations the ops being run stand for (fewer inside a batched `scf.if`)
        self.n_all = n
        self.rows: np.ndarray | None = None  # which iterations those are (None: all n)
        self.flat = 0  # inside how many nested loops run as more iterations (`_run_flat`)
        self.carried = False  # whether the loop has `iter_args` (`schedule_carry.CarriedValue`)
        self.instances = instances  # per iteration (a batched ktdf.parallel), or None
        self.writes: list[tuple[Any, np.ndarray, np.ndarray, Any]] = []  # (view, addresses, values, tile)
        self.reads: dict[int, tuple[Any, list]] = {}  # id(memory) -> (memory, [its reads' byte runs])
        self.ops = 0  # ops the sequential run would interpret (each op counts once per iteration it runs for)
        self.carry = schedule_carry.Carry(self)  # FIFOs from outside the loop, accumulators
        self.renamings: list = []  # double buffers copied per iteration (`schedule_phases`)
        self.contexts: list[int] = []  # the nested loops being run as more rows, outermost first
        self.next_context = 0
        self.counters = {"pipelines_run": 0, "stages_run": 0, "transfers": 0, "fifo_elements": 0, "allocations": 0}

    # -- values ---------------------------------------------------------------------------
    @staticmethod
    def raw(value: Any) -> Any:
        return value.array if isinstance(value, Batch) else value

    def wrap(self, value: Any) -> Any:
        if isinstance(value, np.ndarray) and value.ndim and value.shape[0] == self.n:
            return Batch(value)
        raise Abort("a result that is not one value per iteration")

    # -- blocks ---------------------------------------------------------------------------
    def run_block(self, block: Block, args) -> list[Any]:
        interpreter = self.interpreter
        table = interpreter._values  # noqa: SLF001 - the flat value table (compat.InterpreterBase)
        for a, v in zip(block.args, args):
            table[id(a)] = v
        for op in block.ops:
            self.ops += self.n
            inputs = [table[id(v)] for v in op.operands]
            name = op.name
            if name in TERMINATORS:
                return inputs
            if self.carried and not name.startswith("linalg.") and any(
                    type(v) is schedule_carry.CarriedValue for v in inputs):
                raise Abort("a loop-carried value used other than as a linalg op's output")
            handler = HANDLERS.get(name)
            if handler is not None:
                results = handler(self, op, inputs)
            elif name.startswith("linalg."):
                results = self.linalg(op, inputs)
            elif any(isinstance(v, Batch) for v in inputs):
                values = interpreter.interpret_op(op, tuple(self.raw(v) for v in inputs)).values
                results = [self.wrap(v) for v in values]
            else:
                results = interpreter.interpret_op(op, tuple(inputs)).values
            for r, v in zip(op.results, results):
                table[id(r)] = v
        return []

    # -- memory ---------------------------------------------------------------------------
    def _log(self, view, write: bool, addresses: np.ndarray, op) -> None:
        log = self.state.access_log
        if log is None:
            return
        if self.instances is None:
            log.add(view, self.state.instance, write, addresses, op)
            return
        instances = self.instances if self.rows is None else self.instances[self.rows]
        order = np.argsort(instances, kind="stable")  # each instance's rows, in row order
        ordered = instances[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        for first, last in zip(starts.tolist(), np.r_[starts[1:], ordered.size].tolist()):
            log.add(view, int(ordered[first]), write, addresses[order[first:last]], op)

    def _private_box(self, view: BatchView, anchor, sizes) -> np.ndarray:
        """Addresses (n, count) of the box in each iteration's part of `view`; the box must lie
        inside the part (past it, a sequential read would see other storage)."""
        from dfsched.interp.schedule_state import _addresses, box_points

        big = view.view
        rank = len(sizes)
        if len(anchor) != rank or len(big.sizes) != rank + 1:
            raise Abort("a box of another rank")
        parts = np.arange(self.n, dtype=np.int64) if view.parts is None else view.parts
        if parts.shape != (self.n,):
            raise Abort("a buffer of the body used by other rows")
        columns = [np.broadcast_to(np.asarray(a, dtype=np.int64), (self.n,)) for a in anchor]
        for column, size, extent in zip(columns, sizes, big.sizes[1:]):
            if column.size and (int(column.min()) < 0 or int(column.max()) + size > extent):
                raise Abort("a box outside its buffer")
        if big.layout is None and big.coordinate_set is None and not any(big.lower):
            # a fresh buffer: linear addresses, bounds checked above
            strides = np.asarray(big.strides, dtype=np.int64)
            inner = box_points(tuple(sizes)).reshape(-1, rank) @ strides[1:] if rank else np.zeros(1, dtype=np.int64)
            first = parts * strides[0]
            for column, stride in zip(columns, strides[1:].tolist()):
                first = first + column * stride
            return big.offset + (first[:, None] + inner[None, :]) * big.memory.element_step(big.et)
        points = box_points(tuple(sizes)).reshape(1, -1, rank)
        coords = np.concatenate([np.broadcast_to(parts[:, None, None],
                                                 (self.n, points.shape[1], 1)),
                                 points + np.stack(columns, axis=1)[:, None, :]], axis=2)
        return _addresses(big, coords, True)

    def _note_read(self, memory, addresses: np.ndarray, et) -> None:
        """Remember a read as its byte runs (`batch_accesses.runs`: a box row is one run, not
        one int64 per element) for `commit`'s conflict check."""
        self.reads.setdefault(id(memory), (memory, []))[1].append(_runs(addresses, memory.element_step(et)))

    def _indirect_box(self, view, anchor, sizes, op) -> np.ndarray:
        """Addresses (n, count) of the box of a gather/scatter view in each iteration: every
        iteration's points through the address list at once (its reads logged as the
        sequential run logs them)."""
        from dfsched.interp.schedule_state import _addresses, _tile_of, box_points

        if self.instances is not None:
            raise Abort("a gather or scatter in a batched ktdf.parallel")
        rank = len(sizes)
        columns = [np.broadcast_to(np.asarray(a, dtype=np.int64), (self.n,)) for a in anchor]
        coords = box_points(tuple(sizes)).reshape(1, -1, rank) + np.stack(columns, axis=1)[:, None, :]

        def read_list(addresses_view, entries: np.ndarray) -> np.ndarray:
            at = _addresses(addresses_view, entries, True)
            self._log(addresses_view, False, at, op)
            self._note_read(addresses_view.memory, at, addresses_view.et)
            return addresses_view.memory.read(at, addresses_view.et, _tile_of(self.state, addresses_view))

        points = coords.reshape(-1, rank)
        return view.byte_addresses(read_list, points, self.state.tile_index).reshape(self.n, -1)

    def read(self, view, anchor, sizes, strict: bool, op) -> np.ndarray:
        """(n, count) elements of the box `anchor + [0, sizes)` of `view` per iteration."""
        from dfsched.interp.indirect import IndirectView
        from dfsched.interp.schedule_state import _addresses, _tile_of, box_points

        if isinstance(view, BatchView):
            if view.parts is not None:
                return schedule_phases.read(self, view, anchor, sizes, op)
            addresses = self._private_box(view, anchor, sizes)
            return view.view.memory.read(addresses, view.view.et, None)
        if isinstance(view, IndirectView):
            if self.renamings:
                schedule_phases.check_direct(self, view.source)
            addresses = self._indirect_box(view, anchor, sizes, op)
            self._note_read(view.memory, addresses, view.et)
            return view.memory.read(addresses, view.et, _tile_of(self.state, view.source))
        if self.renamings:
            schedule_phases.check_direct(self, view)
        if self.carry.carries(view):
            return self.carry.read(view, anchor, sizes, op)
        self.carry.note_read(view)
        batched = [isinstance(a, np.ndarray) and a.ndim for a in anchor]
        rows = self.n if any(batched) else 1
        found = _box(view, anchor, sizes, rows, strict)
        if found is not None and self.state.access_log is None:
            return np.broadcast_to(self._read_box(view, found), (self.n, found.count))
        addresses = None if found is None else found.rows()
        if addresses is None:
            points = box_points(tuple(sizes))
            if any(batched):
                columns = [np.broadcast_to(np.asarray(a, dtype=np.int64), (self.n,)) for a in anchor]
                coords = points.reshape(1, -1, len(sizes)) + np.stack(columns, axis=1)[:, None, :]
            else:
                coords = (points + np.asarray([int(a) for a in anchor], dtype=np.int64)).reshape(1, -1, len(sizes))
            if coords.size == 0:
                return view.et.zeros((self.n, 0))
            addresses = _addresses(view, coords, strict)
        self._log(view, False, np.broadcast_to(addresses, (self.n, addresses.shape[1])), op)
        memory = view.memory
        self._note_read(memory, addresses, view.et)
        values = memory.read(addresses, view.et, _tile_of(self.state, view))
        return np.broadcast_to(values, (self.n, values.shape[1]))

    def _read_box(self, view, found) -> np.ndarray:
        """The elements (rows, count) of the box `found` of `view`, read a chunk of rows at a
        time so the addresses are never all made at once (`Box.chunks`)."""
        from dfsched.interp.schedule_state import _tile_of

        memory, tile = view.memory, _tile_of(self.state, view)
        chunks = found.chunks()
        out = None
        for lo, hi in chunks:
            addresses = found.rows(lo, hi)
            self._note_read(memory, addresses, view.et)
            values = memory.read(addresses, view.et, tile)
            if len(chunks) == 1:
                return values
            if out is None:
                out = np.empty((found.first.size, found.count), dtype=values.dtype)
            out[lo:hi] = values
        return out

    def write(self, view, anchor, sizes, values: np.ndarray, op) -> None:
        from dfsched.interp.indirect import IndirectView
        from dfsched.interp.schedule_state import _addresses, _tile_of, box_points

        if isinstance(view, BatchView):
            if view.parts is not None:
                schedule_phases.write(self, view, anchor, sizes, values, op)
                return
            addresses = self._private_box(view, anchor, sizes)
            view.view.memory.write(addresses, values.reshape(addresses.shape), view.view.et, None)
            return
        if isinstance(view, IndirectView):
            if self.renamings:
                schedule_phases.check_direct(self, view.source)
            addresses = self._indirect_box(view, anchor, sizes, op)
            self.writes.append((view, addresses, values.reshape(addresses.shape), _tile_of(self.state, view.source)))
            return
        if self.renamings:
            schedule_phases.check_direct(self, view)
        if self.carry.carries(view):
            raise Abort("a write to an accumulator outside its linalg op")
        addresses = _box_rows(view, anchor, sizes, self.n, True)
        if addresses is None:
            points = box_points(tuple(sizes))
            columns = [np.broadcast_to(np.asarray(a, dtype=np.int64), (self.n,)) for a in anchor]
            coords = points.reshape(1, -1, len(sizes)) + np.stack(columns, axis=1)[:, None, :]
            if coords.shape[1] == 0:
                return
            addresses = _addresses(view, coords, True)
        self._log(view, True, addresses, op)
        values = values.reshape(addresses.shape)
        if self.n > 1 and not any(isinstance(a, np.ndarray) and a.ndim for a in anchor) and _same_rows(values):
            addresses, values = addresses[:1], values[:1]  # every iteration stores these bytes here: once is as many
        self.writes.append((view, addresses, values, _tile_of(self.state, view)))

    def commit(self) -> None:
        """Check that deferring the writes changed nothing, then write."""
        by_memory: dict[int, list] = {}
        for view, addresses, values, tile in self.writes:
            by_memory.setdefault(id(view.memory), []).append((view, addresses, values, tile))
        for key, writes in by_memory.items():
            memory = writes[0][0].memory
            reason = _conflict([_runs(w[1], memory.element_step(w[0].et)) for w in writes],
                               self.reads.get(key, (None, []))[1])
            if reason is not None:
                raise Abort(reason)
            if memory.track_races:
                for view, addresses, _, tile in writes:
                    if tile is not None and _would_race(memory, _slots(addresses, memory.element_step(view.et)), tile):
                        raise Abort("a race: the sequential run reports it")
        self.carry.check(by_memory)
        for view, addresses, values, tile in self.writes:
            view.memory.write(addresses, values, view.et, tile)
        for renaming in self.renamings:
            renaming.commit()
        self.carry.commit()

    # -- linalg -----------------------------------------------------------------------------
    def linalg(self, op: Operation, inputs: list[Any]) -> list[Any]:
        if any(isinstance(v, (StridedView, BatchView)) for v in inputs):
            return schedule_carry.linalg_on_buffers(self, op, inputs)
        if any(type(v) is schedule_carry.CarriedValue for v in inputs):
            return schedule_carry.linalg_on_carried(self, op, inputs)
        if not any(isinstance(v, Batch) for v in inputs):
            return list(self.interpreter.interpret_op(op, tuple(inputs)).values)
        base = linalg_impl.structured(self.interpreter, op, linalg_impl.structured_op)
        # outputs are always one per iteration (a shared init is copied for each)
        pattern = tuple(isinstance(v, Batch) or k >= base.n_inputs for k, v in enumerate(inputs))
        cache = self.interpreter.op_cache
        key = ("batched", id(op), pattern)
        s = cache.get(key)
        if s is None:
            s = cache[key] = _batched_structured(base, pattern)
        args = [self.raw(v) for v in inputs]
        for k in range(s.n_inputs, len(args)):
            if not isinstance(inputs[k], Batch):
                a = np.asarray(args[k])
                args[k] = np.broadcast_to(a, (self.n, *a.shape)).copy()
        before = self.state.ops_run
        outs = linalg_impl.run_structured(self.interpreter, s, tuple(args))
        self.ops += self.n * (self.state.ops_run - before)  # the body runs as often as for one iteration
        return [Batch(o) for o in outs] if op.results else []


def _batched_structured(s, pattern: tuple[bool, ...]):
    """`s` with a leading parallel loop over the iterations: batched operands index it first."""
    shift = [AffineExpr.dimension(i + 1) for i in range(s.maps[0].num_dims if s.maps else 0)]
    maps = []
    for amap, batched in zip(s.maps, pattern):
        results = tuple(r.replace_dims_and_symbols(shift, []) for r in amap.results)
        maps.append(AffineMap(amap.num_dims + 1, 0, ((AffineDimExpr(0),) if batched else ()) + results))
    return linalg_impl.Structured(s.op, maps, ["parallel", *s.iterators], s.n_inputs, s.cast_inputs, s.body)


def _same_rows(values: np.ndarray) -> bool:
    """Whether every row of `values` (n, k) holds the bytes of the first."""
    raw = np.ascontiguousarray(values)
    raw = raw.view(np.uint8).reshape(raw.shape[0], -1)
    return bool((raw == raw[:1]).all())


def _would_race(memory, slots: np.ndarray, tile: int) -> bool:
    """Whether `memory.write` by `tile` to `slots` could raise `RaceError` (races.py's rule)."""
    return slots.size > 0 and memory.races.would_race(slots, tile)


# ---------------------------------------------------------------------------------------
# op handlers (batched forms)
# ---------------------------------------------------------------------------------------


def _h_linearize(run: BatchRun, op, inputs):
    from dfsched.interp.schedule_ops import _iv_count
    from dfsched.interp.schedule_state import op_info

    n = op_info(run.interpreter, op, _iv_count)
    if any(isinstance(s, Batch) for s in inputs[n:]):
        raise Abort("a batched stride")
    total: Any = 0
    for i, s in zip(inputs[:n], inputs[n:]):
        total = total + (i.array.astype(np.int64) if isinstance(i, Batch) else int(i)) * int(s)
    return [run.wrap(total) if isinstance(total, np.ndarray) else int(total)]


def _h_affine_apply(run: BatchRun, op, inputs):
    """`affine.apply` on one index per iteration: the map evaluated on int64 columns (the
    compiled map's `//` and `%` floor as Python's do on ints)."""
    from dfsched.interp.sets import compiled_map

    if not any(isinstance(v, Batch) for v in inputs):
        return list(run.interpreter.interpret_op(op, tuple(inputs)).values)
    amap = op.map.data
    values = [v.array.astype(np.int64) if isinstance(v, Batch) else int(v) for v in inputs]
    (result,) = compiled_map(amap)(values[: amap.num_dims], values[amap.num_dims:])
    return [run.wrap(np.broadcast_to(np.asarray(result, dtype=np.int64), (run.n,)).copy())]


def _h_token(run: BatchRun, op, inputs):
    from dfsched.interp.schedule_state import Token

    return [Token(op)]


def _h_empty(run: BatchRun, op, inputs):
    if any(isinstance(v, Batch) for v in inputs):
        raise Abort("a batched tensor size")
    return list(run.interpreter.interpret_op(op, tuple(inputs)).values)


def _h_fifo_allocate(run: BatchRun, op, inputs):
    from dfsched.interp.base import DYNAMIC
    from dfsched.interp.schedule_state import op_info
    from dfsched.interp.schedule_ops import _fifo_slot_types

    dynamic = iter(inputs)
    out = []
    for i, (t, count) in enumerate(op_info(run.interpreter, op, _fifo_slot_types)):
        if count == DYNAMIC:
            value = next(dynamic)
            if isinstance(value, Batch):
                raise Abort("a batched FIFO capacity")
            capacity = int(value)
        else:
            capacity = int(count)
        out.append(BatchFifo(op, i, t, capacity, run.n))
    return out


def _h_read_fifo(run: BatchRun, op, inputs):
    from dfsched.interp.schedule_ops import _fifo_read_info
    from dfsched.interp.schedule_state import op_info

    (slot,) = inputs
    t, shape, dynamic, et = op_info(run.interpreter, op, _fifo_read_info)
    if dynamic or et is None:
        raise Abort("a dynamic FIFO read")
    k = int(np.prod(shape, dtype=np.int64))
    data = et.cast(_pop(run, slot, k)).reshape((run.n, *shape))
    run.counters["fifo_elements"] += k * run.n
    if isinstance(t, MemRefType):
        return [_fresh(run, op, shape, et, lambda: f"the buffer of a FIFO read ({slot.describe()})", data)]
    return [Batch(data)]


def _fresh(run: BatchRun, op, shape, et, describe, data=None) -> BatchView:
    """One fresh buffer of `shape` per iteration (`schedule_ops.new_buffer`, counted once each)."""
    from dfsched.interp.schedule_state import Label, new_buffer

    run.counters["allocations"] += run.n - 1
    return BatchView(new_buffer(run.state, (run.n, *shape), et, Label(describe), data=data))


def _h_alloc(run: BatchRun, op, inputs):
    from xdsl.dialects.builtin import NoneAttr

    from dfsched.interp.schedule_memref import _alloc_info
    from dfsched.interp.base import static_or_dynamic
    from dfsched.interp.schedule_state import _value_name, op_info

    t, static, n_dynamic, et = op_info(run.interpreter, op, _alloc_info)
    if et is None or not isinstance(t.layout, NoneAttr) or any(isinstance(v, Batch) for v in inputs):
        raise Abort("an allocation batching does not reproduce")
    shape = static_or_dynamic(static, [int(v) for v in inputs[:n_dynamic]])
    if any(d < 0 for d in shape):
        raise Abort("a negative size")
    return [_fresh(run, op, shape, et, lambda: f"buffer {_value_name(op.results[0])} ({t})")]


def _h_dealloc(run: BatchRun, op, inputs):
    return []


def _h_derive_size(run: BatchRun, op, inputs):
    """`schedule_ops._run_derive_size` per iteration; one size for all of them, or no batch."""
    from dfsched.interp.schedule_ops import _iv_count
    from dfsched.interp.schedule_state import op_info

    k = op_info(run.interpreter, op, _iv_count)
    if any(isinstance(v, Batch) for v in inputs[k:]):
        raise Abort("a batched tile size")
    remaining: Any = int(inputs[2 * k])
    for iv, ts in zip(inputs[:k], inputs[k: 2 * k]):
        ts = int(ts)
        if ts <= 0:
            raise Abort("a tile size that is not positive")
        iv = iv.array.astype(np.int64) if isinstance(iv, Batch) else int(iv)
        remaining = np.maximum(0, np.minimum(ts, remaining - iv * ts))
    values = np.broadcast_to(np.asarray(remaining, dtype=np.int64), (run.n,))
    if values.size and (values != values[0]).any():
        raise Abort("tile sizes that differ between iterations")
    return [int(values[0])]


def _pop(run: BatchRun, slot, k: int) -> np.ndarray:
    """(n, k): what each iteration takes from `slot` (allocated in the body, or outside it)."""
    if isinstance(slot, BatchFifo):
        if run.rows is not None:
            raise Abort("a FIFO of the body read in a branch")
        return slot.pop(k)
    return run.carry.pop(slot, k)


def _push(run: BatchRun, slot, data: np.ndarray) -> None:
    """Append each iteration's row of `data` (n, k) to `slot` (allocated in the body, or outside it)."""
    if isinstance(slot, BatchFifo):
        if run.rows is not None:
            raise Abort("a FIFO of the body written in a branch")
        slot.push(data)
    else:
        run.carry.push(slot, data)


def _h_write_fifo(run: BatchRun, op, inputs):
    data, slot = inputs
    if isinstance(data, BatchView):
        big = data.view
        anchor = [0] * (len(big.sizes) - 1)
        _push(run, slot, run.read(data, anchor, list(big.sizes[1:]), True, op))
    elif isinstance(data, StridedView):
        _push(run, slot, run.read(data, [0] * len(data.sizes), list(data.sizes), True, op))
    elif isinstance(data, Batch):
        _push(run, slot, np.asarray(data.array).reshape(run.n, -1))
    else:
        flat = np.asarray(data).reshape(1, -1)
        _push(run, slot, np.broadcast_to(flat, (run.n, flat.shape[1])))
    return []


def _fit_rows(data: np.ndarray, target: int | None, mode: str | None) -> np.ndarray:
    """`schedule_ops._fit` applied to each row of `data` (n, k)."""
    k = data.shape[1]
    if target is None or target == k:
        return data
    if mode == "splat" and k and target % k == 0:  # each element along its row, as `_fit`
        return np.repeat(data, target // k, axis=1)
    if mode == "pad" and k <= target:
        out = np.zeros((data.shape[0], target), dtype=data.dtype)
        out[:, :k] = data
        return out
    raise Abort("transfer sizes disagree")


def _side(run: BatchRun, info, inputs):
    """(value, (anchor, sizes) or None, count or None): `schedule_ops._side` with batched indices."""
    from dfsched.interp.indirect import IndirectView
    from dfsched.interp.memory import StridedView
    from dfsched.interp.schedule_state import FifoSlot

    value = inputs[info.value]
    sizes = info.sizes
    if sizes is not None:
        sizes = list(sizes)
        for k, pos in info.dynamic:
            if isinstance(inputs[pos], Batch):
                raise Abort("a batched transfer size")
            sizes[k] = int(inputs[pos])
    if isinstance(value, (BatchFifo, FifoSlot)):
        return value, None, None if sizes is None else int(np.prod(sizes, dtype=np.int64))
    if not isinstance(value, (StridedView, BatchView, IndirectView)):
        raise Abort("not a memref")
    indices = [run.raw(inputs[p]) for p in info.indices]
    indices = [i if isinstance(i, np.ndarray) else int(i) for i in indices]
    if sizes is None:
        sizes = list(value.view.sizes[1:] if isinstance(value, BatchView) else value.sizes)
    anchor = info.evaluate(indices, []) if info.evaluate is not None else [0] * len(sizes)
    if len(anchor) != len(sizes) or any(s < 0 for s in sizes):
        raise Abort("a malformed transfer")
    return value, (anchor, sizes), int(np.prod(sizes, dtype=np.int64))


def _h_transfer(run: BatchRun, op, inputs):
    from dfsched.interp.schedule_ops import _transfer_info
    from dfsched.interp.schedule_state import op_info

    source, dest, mode = op_info(run.interpreter, op, _transfer_info)
    src, src_box, src_count = _side(run, source, inputs)
    dst, dst_box, dst_count = _side(run, dest, inputs)
    if src_box is None and dst_box is None:
        raise Abort("FIFO to FIFO")
    run.counters["transfers"] += run.n
    if run.n > 1 and run.instances is None and _invariant(run, src, src_box) and _invariant(run, dst, dst_box):
        # the same bytes from the same place to the same place in every iteration (a load
        # reduction-loop-exposure leaves inside the loop): once is as many, and is logged once
        n, run.n = run.n, 1
        try:
            data = run.read(src, src_box[0], src_box[1], run.state.schedule.strict_bounds, op)
            run.write(dst, dst_box[0], dst_box[1], _et(dst).cast(_fit_rows(data, dst_count, mode)), op)
        finally:
            run.n = n
        return []
    if src_box is None:
        k = src_count if src_count is not None else dst_count
        data = _et(dst).cast(_pop(run, src, k))
        run.counters["fifo_elements"] += k * run.n
    else:
        data = run.read(src, src_box[0], src_box[1], run.state.schedule.strict_bounds, op)
    if dst_box is None:
        target = dst_count
        if mode is not None and dst.capacity is not None:
            target = max(target or 0, dst.capacity) if mode == "splat" else (target or dst.capacity)
        _push(run, dst, _fit_rows(data, target, mode))
    else:
        payload = _fit_rows(data, dst_count, mode)
        run.write(dst, dst_box[0], dst_box[1], _et(dst).cast(payload), op)
    return []


def _invariant(run: BatchRun, value, box) -> bool:
    """A transfer side that is one box of a buffer from outside the loop, the same in every iteration."""
    return (box is not None and isinstance(value, StridedView) and not run.carry.carries(value)
            and not any(isinstance(a, np.ndarray) and a.ndim for a in box[0]))


def _et(value):
    return value.view.et if isinstance(value, BatchView) else value.et


def _h_pipeline(run: BatchRun, op, inputs):
    from dfsched.interp.schedule_ops import _cached_stage_order, _pipeline_info
    from dfsched.interp.schedule_state import op_info

    interpreter = run.interpreter
    run.counters["pipelines_run"] += run.n
    info = op_info(interpreter, op, _pipeline_info)
    fifos: list[BatchFifo] = []
    for child in info[0]:
        run.ops += run.n
        values = run.run_block(child.regions[0].blocks.first, [])
        interpreter.set_values(zip(child.results, values))
        fifos.extend(v for v in values if isinstance(v, BatchFifo))
    for stage in _cached_stage_order(interpreter, op, info):
        run.counters["stages_run"] += run.n
        run.ops += run.n
        run.run_block(stage.regions[0].blocks.first, [])
    if any(slot.count for slot in fifos) and run.state.schedule.drain_fifos:
        raise Abort("a FIFO left with data")
    return []


def _h_for(run: BatchRun, op, inputs):
    if len(inputs) != 3 or any(isinstance(v, Batch) for v in inputs):
        raise Abort("a nested loop with batched bounds or loop-carried values")
    lb, ub, step = (int(v) for v in inputs)
    if step <= 0:
        raise Abort("a non-positive step")
    block = op.regions[0].blocks.first
    trips = np.arange(lb, ub, step, dtype=np.int64)
    if trips.size > 1 and run.rows is None and _run_flat(run, op, block, trips):
        return []
    for iv in trips.tolist():
        run.run_block(block, [iv])
    return []


def outside_operands(run: BatchRun, op: Operation) -> list:
    """The values `op`'s regions use that are defined outside it (once per run and op)."""
    cache = run.interpreter.op_cache
    key = ("batch-outside", id(op))
    found = cache.get(key)
    if found is None:
        seen: dict[int, Any] = {}
        for inner in op.walk():
            if inner is not op:
                for v in inner.operands:
                    if not defined_inside(v, op):
                        seen.setdefault(id(v), v)
        found = cache[key] = list(seen.values())
    return found


def _run_flat(run: BatchRun, op, block, trips: np.ndarray) -> bool:
    """A nested loop's trips as more iterations of the batch (iteration i's trip j is row
    i * m + j: the sequential order), instead of one batched pass per trip. False (nothing
    run): its body uses a FIFO or buffer of the outer body (other than a double buffer's
    copies, `schedule_phases`)."""
    table = run.interpreter._values  # noqa: SLF001
    outside = outside_operands(run, op)
    if any(_of_the_body(table.get(id(v))) for v in outside):
        return False
    m = int(trips.size)
    with schedule_phases.flattened(run, op, m):
        run.run_block(block, [Batch(np.tile(trips, run.n // m))])
    return True


def _of_the_body(value) -> bool:
    """A FIFO or buffer allocated in the batched body (one per row: not repeatable)."""
    return isinstance(value, BatchFifo) or (isinstance(value, BatchView) and value.parts is None)


HANDLERS = {
    "scf.for": _h_for,
    "scf.if": lambda run, op, inputs: schedule_carry.run_if(run, op, inputs),  # (either module may load first)
    "memref.alloc": _h_alloc,
    "memref.dealloc": _h_dealloc,
    "ktdf.tiling.derive_size": _h_derive_size,
    "ktdf.data_transfer": _h_transfer,
    "ktdf.fifo.allocate": _h_fifo_allocate,
    "ktdf.read_from_fifo": _h_read_fifo,
    "ktdf.write_to_fifo": _h_write_fifo,
    "ktdf.create_token": _h_token,
    "ktdf.tiling.linearize_index": _h_linearize,
    "affine.apply": _h_affine_apply,
    "ktdf.pipeline": _h_pipeline,
    "tensor.empty": _h_empty,
    "ktdf.buffer_phase": lambda run, op, inputs: schedule_phases.run_buffer_phase(run, op, inputs),
    "ktdf.select_memref": lambda run, op, inputs: schedule_phases.run_select_memref(run, op, inputs),
    "ktdf.parallel": lambda run, op, inputs: schedule_phases.run_parallel(run, op, inputs),
}


# ---------------------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------------------


def run_loop(interpreter, loop: Operation, ivs: list[np.ndarray], instances: np.ndarray | None = None,
             extra_args: list[Any] | None = None, finish=None, carried: list[Any] | None = None) -> bool:
    """Run `loop`'s body once for every iteration (`ivs`: the induction variables' values, one
    array per variable; `instances`: each iteration's `ktdf.parallel` instance, if any;
    `extra_args`: more block arguments; `finish()`: called after the body ran, before the
    writes are committed, may raise; `carried`: the initial values of an `scf.for`'s
    `iter_args`, replaced by the loop's results when it returns True, `schedule_carry`).
    False: not batched, nothing changed, run sequentially."""
    n = int(ivs[0].size) if ivs else 0
    if n < MIN_TRIPS or not batchable(interpreter, loop):
        return False
    state = interpreter.state
    max_ops = state.options.max_ops
    saved_ops, saved_allocations = state.ops_run, state.allocations
    log = state.access_log
    log_marks = {k: len(v[1]) for k, v in log.entries.items()} if log is not None else None
    run = BatchRun(interpreter, n, instances)
    markers = [schedule_carry.CarriedValue(v) for v in carried or []]
    run.carried = bool(markers)
    args = [Batch(iv) for iv in ivs] + list(extra_args or []) + markers
    try:
        with np.errstate(all="ignore"):
            yielded = run.run_block(loop.regions[0].blocks.first, args)
            results = schedule_carry.loop_results(markers, yielded)
            if max_ops is not None and saved_ops + run.ops > max_ops:
                raise Abort("max_ops: the sequential run says where")
            if finish is not None:
                finish()
            run.commit()
    except Exception:  # noqa: BLE001 - any failure: the sequential run decides (and reports)
        state.ops_run, state.allocations = saved_ops, saved_allocations  # (the batch's buffers are dropped)
        if log is not None:
            for k in list(log.entries):
                if k not in log_marks:
                    del log.entries[k]
                else:
                    del log.entries[k][1][log_marks[k]:]
        return False
    state.ops_run = saved_ops + run.ops
    for name, value in run.counters.items():
        setattr(state, name, getattr(state, name) + value)
    if carried is not None:
        carried[:] = results
    return True


__all__ = ["Abort", "Batch", "BatchFifo", "MIN_TRIPS", "run_loop"]

from dfsched.interp import schedule_phases  # noqa: E402 - it subclasses BatchView
