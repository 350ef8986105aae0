"""ktdf op implementations of the ScheduleIR interpreter (see `schedule.py` for the model).

Everything the KTIR interpreter runs (arith, math, scf, tensor, linalg on tensors, ktdp,
spyreop) is inherited; this module adds:

* `ktdf`: pipelines (private resources, then the stages in token order), stages, FIFO
  slots (queues of elements), data transfers in every mode, tiling placeholders,
  double-buffer phases, `ktdf.parallel` instances;
* `scf.for`, batched (`schedule_batch`) when its body allows.

`schedule_memref.py` adds memref, affine, linalg on memrefs and `func.call` of programs;
`schedule_state.py` holds the run state, the values and the memory access they share.

Values: a memref is a `BufferView` (a `memory.StridedView` that remembers the address of
its allocation, the base `memref.reinterpret_cast` offsets count from); a FIFO slot is a
`FifoSlot`; a token is a `Token`.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, StringAttr
from xdsl.interpreter import ReturnedValues
from xdsl.ir import BlockArgument, Operation, SSAValue

from dfsched.diagnostics import error
from dfsched.interp import schedule_batch
from dfsched.interp.base import DYNAMIC, NeedsScalar, functions_for
from dfsched.interp.inter_tile import run_tile_reduce
from dfsched.interp.dtypes import ElementType, UnsupportedType, element_type
from dfsched.dialects.constants import constant_int
from dfsched.interp.indirect import IndirectView, box, make_indirect_view
from dfsched.interp.memory import StridedView
from dfsched.interp.schedule_memref import AFFINE_TABLE, MEMREF_TABLE, linalg_table, run_call
from dfsched.interp.schedule_state import (
    AccessLog,
    FifoSlot,
    Label,
    ScheduleState,
    Token,
    _tile_of,
    new_buffer,
    op_info,
    read_box,
    read_region,
    unsupported,
    whole,
    write_box,
)
from dfsched.interp.sets import compiled_map


# ---------------------------------------------------------------------------------------
# helpers to run nested ops
# ---------------------------------------------------------------------------------------


def run_nested(interpreter, op: Operation) -> tuple:
    """Run one op of the current block and bind its results (what run_ssacfg_region does)."""
    inputs = interpreter.get_values(op.operands)
    result = interpreter.interpret_op(op, inputs)
    interpreter.set_values(zip(op.results, result.values))
    return result.values


# ---------------------------------------------------------------------------------------
# ktdf: pipelines and stages
# ---------------------------------------------------------------------------------------


def _stage_label(stage: Operation, index: int) -> str:
    units = stage.properties.get("applicable_units") or stage.attributes.get("applicable_units")
    names = [getattr(u, "data", str(u)) for u in getattr(units, "data", ())]
    return f"stage #{index}" + (f" {{{', '.join(names)}}}" if names else "")


def stage_order(interpreter, pipeline: Operation) -> list[Operation]:
    """The pipeline's stages in token order (Kahn's algorithm; among the stages ready to run,
    the first in sibling order, or the last with `stage_order="reverse"`)."""
    stages = [op for op in pipeline.body.block.ops if op.name == "ktdf.stage"]
    ins = [list(interpreter.get_values(s.depends_in)) for s in stages]
    outs = [list(interpreter.get_values(s.depends_out)) for s in stages]
    producers: dict[int, list[int]] = {}
    for i, toks in enumerate(outs):
        for t in toks:
            producers.setdefault(id(t), []).append(i)
    preds: list[set[int]] = []
    for j, toks in enumerate(ins):
        p: set[int] = set()
        for k, t in enumerate(toks):
            who = producers.get(id(t))
            if not who:
                raise error(
                    stages[j],
                    f"'ktdf.stage' op ({_stage_label(stages[j], j)}) waits for token #{k} of its depends_in, which "
                    f"no stage of this pipeline lists in depends_out: the stage would never run",
                )
            p.update(w for w in who if w != j)
            if j in who:
                raise error(stages[j], f"'ktdf.stage' op ({_stage_label(stages[j], j)}) waits for a token it signals itself")
        preds.append(p)
    done: list[int] = []
    remaining = set(range(len(stages)))
    while remaining:
        ready = [i for i in sorted(remaining) if preds[i] <= set(done)]
        if not ready:
            stuck = sorted(remaining)
            raise error(
                stages[stuck[0]],
                "'ktdf.pipeline' op: stages " + ", ".join(_stage_label(stages[i], i) for i in stuck)
                + " wait on each other (a token cycle): none of them can start",
            )
        pick = ready[-1] if interpreter.state.schedule.stage_order == "reverse" else ready[0]
        done.append(pick)
        remaining.discard(pick)
    return [stages[i] for i in done]


def _pipeline_info(op):
    """(its privates, the SSA tokens its stages wait for and signal, stage orders by the
    pattern of those tokens' identities)."""
    children = list(op.body.block.ops)
    stages = [c for c in children if c.name == "ktdf.stage"]
    tokens = [v for stage in stages for v in (*stage.depends_in, *stage.depends_out)]
    return [c for c in children if c.name == "ktdf.private"], tokens, {}


def _cached_stage_order(interpreter, op, info) -> list[Operation]:
    """`stage_order`, computed once per pattern of token identities (which stages share a
    token is all the order depends on)."""
    _, tokens, orders = info
    seen: dict[int, int] = {}
    pattern = tuple([seen.setdefault(id(t), len(seen)) for t in interpreter.get_values(tokens)])
    order = orders.get(pattern)
    if order is None:
        order = orders[pattern] = stage_order(interpreter, op)
    return order


def _run_pipeline(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    st.pipelines_run += 1
    info = op_info(interpreter, op, _pipeline_info)
    interpreter.push_scope("ktdf.pipeline")
    try:
        fifos: list[FifoSlot] = []
        for child in info[0]:
            values = run_nested(interpreter, child)
            fifos.extend(v for v in values if isinstance(v, FifoSlot))
        for stage in _cached_stage_order(interpreter, op, info):
            st.stages_run += 1
            run_nested(interpreter, stage)
        if st.schedule.drain_fifos:
            for slot in dict.fromkeys(fifos):
                if slot.count:
                    raise error(
                        slot.op,
                        f"'ktdf.fifo.allocate' op: when its pipeline finished, {slot.describe()} still held "
                        f"{slot.count} of the {slot.pushed} element(s) written to it: no stage read them "
                        f"(was the consumer removed?)",
                    )
    finally:
        interpreter.pop_scope()
    return ()


def _run_stage(self, interpreter, op, args):
    interpreter.run_ssacfg_region(op.regions[0], (), "ktdf.stage")
    return ()


def _run_private(self, interpreter, op, args):
    values = interpreter.run_ssacfg_region(op.regions[0], (), "ktdf.private")
    if len(values) != len(op.results):
        raise ValueError(f"yields {len(values)} value(s) for {len(op.results)} result(s)")
    return tuple(values)


def _run_yield(self, interpreter, op, args):
    return ReturnedValues(tuple(args)), ()


def _run_create_token(self, interpreter, op, args):
    return (Token(op),)


def _fifo_slot_types(op):
    return [(res.type, res.type.num_elements.data) for res in op.results]


def _run_fifo_allocate(self, interpreter, op, args):
    dynamic = iter(int(a) for a in args)
    out = []
    for i, (t, count) in enumerate(op_info(interpreter, op, _fifo_slot_types)):
        capacity = next(dynamic) if count == DYNAMIC else int(count)
        out.append(FifoSlot(op, i, t, capacity))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# ktdf: FIFO access and data transfers
# ---------------------------------------------------------------------------------------


def _fifo_data(op, slot: FifoSlot, n: int, et: ElementType) -> np.ndarray:
    data = slot.pop(n)
    return et.cast(data)


def _fifo_read_info(op):
    """(result type, its shape, whether it is dynamic, element type or None if unsupported)."""
    t = op.result.type
    shape = tuple(t.get_shape())
    try:
        et = element_type(t)
    except UnsupportedType:
        et = None  # raised when the op runs, after the checks before it
    return t, shape, any(d < 0 for d in shape), et


def _run_read_from_fifo(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    (slot,) = args
    if not isinstance(slot, FifoSlot):
        raise ValueError("reads from a value that is not a FIFO slot")
    t, shape, dynamic, et = op_info(interpreter, op, _fifo_read_info)
    if dynamic:
        if slot.capacity is None or sum(1 for d in shape if d < 0) != 1:
            raise ValueError(f"cannot size a dynamic result {t}")
        known = int(np.prod([d for d in shape if d >= 0], dtype=np.int64))
        shape = tuple(slot.capacity // max(known, 1) if d < 0 else d for d in shape)
    if et is None:
        et = element_type(t)
    n = math.prod(shape)
    data = _fifo_data(op, slot, n, et).reshape(shape)
    st.fifo_elements += n
    if isinstance(t, MemRefType):
        return (new_buffer(st, shape, et, Label(lambda: f"the buffer of a FIFO read ({slot.describe()})"),
                           data=data),)
    return (data,)


def _run_write_to_fifo(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    data, slot = args
    if not isinstance(slot, FifoSlot):
        raise ValueError("writes to a value that is not a FIFO slot")
    if isinstance(data, StridedView):
        data = whole(st, data, op)
    slot.push(np.asarray(data))
    return ()


class _TransferSide:
    """The static part of one side of a `ktdf.data_transfer` (operand positions, sizes, map)."""

    __slots__ = ("name", "value", "sizes", "dynamic", "indices", "evaluate")

    def __init__(self, op, side: str):
        operands = list(op.operands)
        n_si, n_ss, n_di = len(op.source_indices), len(op.source_sizes), len(op.dest_indices)
        if side == "source":
            self.value, first, sizes_at = 0, 1, 1 + n_si
        else:
            self.value, first, sizes_at = 1 + n_si + n_ss, 2 + n_si + n_ss, 2 + n_si + n_ss + n_di
        self.name = side
        n_idx = n_si if side == "source" else n_di
        self.indices = tuple(range(first, first + n_idx))
        mixed = op.mixed_sizes(side)
        self.sizes: list | None = None
        self.dynamic: tuple = ()
        if mixed is not None:
            dynamic, pos = [], sizes_at
            self.sizes = []
            for k, s in enumerate(mixed):
                if isinstance(s, SSAValue):
                    assert operands[pos] is s
                    dynamic.append((k, pos))
                    pos += 1
                    self.sizes.append(0)
                else:
                    self.sizes.append(int(s))
            self.dynamic = tuple(dynamic)
        amap_attr = op.source_map if side == "source" else op.dest_map
        self.evaluate = compiled_map(amap_attr.data) if isinstance(amap_attr, AffineMapAttr) else None


def _side(info: _TransferSide, args):
    """(value, (anchor, sizes) or None, element count or None) of one side of a data_transfer."""
    value = args[info.value]
    sizes = info.sizes
    if sizes is not None:
        sizes = list(sizes)
        for k, pos in info.dynamic:
            sizes[k] = int(args[pos])
    if isinstance(value, FifoSlot):
        count = None if sizes is None else math.prod(sizes)
        return value, None, count
    if not isinstance(value, (StridedView, IndirectView)):
        raise ValueError(f"the {info.name} is neither a memref nor a FIFO slot (the interpreter holds a "
                         f"{type(value).__name__} for it)")
    indices = [int(args[p]) for p in info.indices]
    if sizes is None:
        sizes = list(value.sizes)
    anchor = info.evaluate(indices, []) if info.evaluate is not None else [0] * len(sizes)
    if len(anchor) != len(sizes):
        raise ValueError(f"subscript has {len(anchor)} result(s) but the size list has {len(sizes)}")
    if any(s < 0 for s in sizes):
        raise ValueError(f"negative transfer size in {sizes}")
    return value, (anchor, sizes), math.prod(sizes)


def _transfer_info(op):
    mode_attr = op.attributes.get("transfer_mode")
    mode = mode_attr.data if isinstance(mode_attr, StringAttr) else None
    return _TransferSide(op, "source"), _TransferSide(op, "dest"), mode


def _fit(op, data: np.ndarray, target: int | None, mode: str | None) -> np.ndarray:
    """Source elements made `target` long as the transfer mode says (splat repeats, pad zero-fills)."""
    data = np.asarray(data).reshape(-1)
    if target is None or target == data.size:
        return data
    if mode == "splat":  # each element broadcast along its row: [a, b] -> [a, a, ..., b, b, ...]
        if data.size == 0 or target % data.size:
            raise ValueError(f"splat transfer of {data.size} element(s) cannot fill {target}")
        return np.repeat(data, target // data.size)
    if mode == "pad":
        if data.size > target:
            raise ValueError(f"pad transfer of {data.size} element(s) does not fit in {target}")
        out = np.zeros(target, dtype=data.dtype)
        out[: data.size] = data
        return out
    raise ValueError(
        f"moves {data.size} element(s) out of its source but its destination takes {target} "
        f"(source and destination sizes disagree)"
    )


def _run_data_transfer(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    st.transfers += 1
    source, dest, mode = op_info(interpreter, op, _transfer_info)
    src, src_box, src_count = _side(source, args)
    dst, dst_box, dst_count = _side(dest, args)
    if isinstance(src, FifoSlot) and isinstance(dst, FifoSlot):
        raise ValueError("moves data from a FIFO slot to a FIFO slot (not allowed)")
    # what leaves the source
    if isinstance(src, FifoSlot):
        n = src_count if src_count is not None else dst_count
        et = dst.et
        data = _fifo_data(op, src, n, et)
        st.fifo_elements += n
    elif isinstance(src, IndirectView):
        et = src.et
        addresses = src.byte_addresses(lambda v, c: read_region(st, v, c, True, op), box(*src_box), st.tile_index)
        data = src.memory.read(addresses, et, _tile_of(st, src.source))
    else:
        et = src.et
        data = read_box(st, src, src_box[0], src_box[1], st.schedule.strict_bounds, op)
    # what arrives at the destination
    if isinstance(dst, FifoSlot):
        target = dst_count
        if mode is not None and dst.capacity is not None:
            target = max(target or 0, dst.capacity) if mode == "splat" else (target or dst.capacity)
        dst.push(_fit(op, data, target, mode))
    elif isinstance(dst, IndirectView):
        addresses = dst.byte_addresses(lambda v, c: read_region(st, v, c, True, op), box(*dst_box), st.tile_index)
        dst.memory.write(addresses, dst.et.cast(_fit(op, data, dst_count, mode)), dst.et, _tile_of(st, dst.source))
    else:
        payload = _fit(op, data, dst_count, mode)
        write_box(st, dst, dst_box[0], dst_box[1], dst.et.cast(payload), op)
    return ()


# ---------------------------------------------------------------------------------------
# ktdf: tiling, double buffering, parallel
# ---------------------------------------------------------------------------------------


def _int_prop(op, name: str) -> int:
    value = op.properties.get(name) or op.attributes.get(name)
    if value is None:
        raise ValueError(f"has no '{name}' attribute")
    return int(value.value.data)


def auto_tile_size(op) -> int:
    """What `tile-size-selection` picks for a `reserve_size` (or the smallest legal size)."""
    min_value = _int_prop(op, "min_value")
    divisibility = _int_prop(op, "divisibility")
    totals: list[int] = []
    for use in op.result.uses:
        user = use.operation
        if user.name == "arith.ceildivui" and use.index == 1:
            lhs = user.operands[0].owner
            if isinstance(lhs, Operation) and lhs.name == "arith.constant":
                totals.append(int(lhs.value.value.data))
    for c in range(max(2, min_value), min_value - 1, -1):
        if c <= 0 or (divisibility > 1 and c % divisibility):
            continue
        if all(t % c == 0 for t in totals):
            return c
    size = max(min_value, 1)
    if divisibility > 1:
        size = -(-size // divisibility) * divisibility
    return size


def _run_reserve_size(self, interpreter, op, args):
    choice = interpreter.state.schedule.reserve_size
    if choice is None:
        raise unsupported(
            op,
            "'ktdf.tiling.reserve_size' op: a tile size placeholder has no concrete value yet "
            "(run tile-size-selection, or give the interpreter a reserve_size)",
        )
    if choice == "auto":
        return (auto_tile_size(op),)
    if callable(choice):
        return (int(choice(op)),)
    value = int(choice)
    if value <= 0:
        raise ValueError(f"reserve_size must be positive, got {value}")
    return (value,)


def _iv_count(op) -> int:
    return len(op.ivs)


def _run_derive_size(self, interpreter, op, args):
    n = op_info(interpreter, op, _iv_count)
    ivs = [int(a) for a in args[:n]]
    sizes = [int(a) for a in args[n : 2 * n]]
    remaining = int(args[2 * n])
    for iv, ts in zip(ivs, sizes):
        if ts <= 0:
            raise ValueError(f"tile size {ts} is not positive")
        remaining = max(0, min(ts, remaining - iv * ts))
    return (remaining,)


def _run_linearize_index(self, interpreter, op, args):
    n = op_info(interpreter, op, _iv_count)
    return (sum(int(i) * int(s) for i, s in zip(args[:n], args[n:])),)


def _iv_range(interpreter, iv: SSAValue) -> tuple[int, int, int] | None:
    """(lb, ub, step) of the loop `iv` is the induction variable of, or None."""
    if not isinstance(iv, BlockArgument):
        return None
    owner = iv.block.parent_op()
    if owner is None:
        return None
    if owner.name == "scf.for" and iv.index == 0:
        lb, ub, step = interpreter.get_values((owner.lb, owner.ub, owner.step))
        return int(lb), int(ub), int(step)
    if owner.name == "ktdf.parallel" and iv.index < len(owner.lower_bounds):
        k = iv.index
        lb, ub, step = interpreter.get_values((owner.lower_bounds[k], owner.upper_bounds[k], owner.steps[k]))
        return int(lb), int(ub), int(step)
    return None


def _run_buffer_phase(self, interpreter, op, args):
    phases = _int_prop(op, "num_phases")
    linear = 0
    for value, iv in zip(args, op.ivs):
        rng = _iv_range(interpreter, iv)
        if rng is None:  # not a loop IV (a constant: the folder drops those): no effect
            continue
        lb, ub, step = rng
        trip = max(0, -(-(ub - lb) // step))
        linear = linear * trip + (int(value) - lb) // step
    return (linear % phases,)


def _run_select_memref(self, interpreter, op, args):
    phase, *candidates = args
    phase = int(phase)
    if not 0 <= phase < len(candidates):
        raise ValueError(f"phase {phase} selects none of its {len(candidates)} candidates")
    return (candidates[phase],)


def _parallel_info(op):
    return len(op.lower_bounds), int(op.num_instances.value.data), op.body


def _run_parallel(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    k, num_instances, body = op_info(interpreter, op, _parallel_info)
    lbs = [int(a) for a in args[:k]]
    ubs = [int(a) for a in args[k : 2 * k]]
    steps = [int(a) for a in args[2 * k : 3 * k]]
    if any(s <= 0 for s in steps):
        raise ValueError(f"steps must be positive, got {steps}")
    n = num_instances
    if n < 1:
        raise ValueError(f"num_instances must be at least 1, got {n}")
    ranges = [range(lb, ub, s) for lb, ub, s in zip(lbs, ubs, steps)]
    points = list(itertools.product(*ranges))
    chunk = -(-len(points) // n) if points else 0
    outer = st.instance
    log = AccessLog() if outer is None and st.schedule.instance_races else None
    saved = st.access_log
    if log is not None:
        st.access_log = log
    if points and _run_parallel_batched(interpreter, op, points, chunk, outer, log):
        st.access_log = saved
        return ()
    try:
        for inst in range(n):
            st.instance = inst if outer is None else outer
            for point in points[inst * chunk : (inst + 1) * chunk]:
                interpreter.run_ssacfg_region(body, (*point, inst), "ktdf.parallel")
    finally:
        st.instance = outer
        st.access_log = saved
    if log is not None:
        log.check(op)
    return ()


def _run_parallel_batched(interpreter, op, points, chunk: int, outer, log) -> bool:
    """Every point of a `ktdf.parallel` in one batch (`schedule_batch`); False: run it point by point."""
    st: ScheduleState = interpreter.state
    columns = np.asarray(points, dtype=np.int64).reshape(len(points), -1)
    ivs = [columns[:, k] for k in range(columns.shape[1])]
    instances = np.arange(len(points), dtype=np.int64) // chunk  # the instance block argument
    try:
        return schedule_batch.run_loop(interpreter, op, ivs, instances if outer is None else None,
                                       [schedule_batch.Batch(instances)],
                                       finish=(lambda: log.check(op)) if log is not None else None)
    finally:
        st.instance = outer


def _run_for(self, interpreter, op, args):
    """`scf.for`: batched (`schedule_batch`) when its body allows, else iteration by iteration."""
    if any(isinstance(a, np.ndarray) and a.ndim > 0 for a in args[:3]):
        raise NeedsScalar()
    lb, ub, step = (int(a) for a in args[:3])
    if step <= 0:
        raise ValueError(f"scf.for step must be positive, got {step}")
    loop_args = tuple(args[3:])
    if ub - lb >= schedule_batch.MIN_TRIPS * step:
        carried = list(loop_args) if loop_args else None
        if schedule_batch.run_loop(interpreter, op, [np.arange(lb, ub, step, dtype=np.int64)], carried=carried):
            return tuple(carried or ())
    for i in range(lb, ub, step):
        loop_args = interpreter.run_ssacfg_region(op.body, (i, *loop_args), "for_loop")
    return tuple(loop_args)


def _run_indirect_view(self, interpreter, op, args):
    """A gather/scatter view over the source's memory (`interp/indirect.py`)."""
    source, addresses, offset = args
    if not isinstance(source, StridedView) or not isinstance(addresses, StridedView):
        raise ValueError("the source and the address list of an indirect view must be memrefs")
    view = op.source.owner
    while view is not None and getattr(view, "name", "") == "memref.memory_space_cast":
        view = view.operands[0].owner
    relative = getattr(view, "name", "") == "ktdp.construct_memory_view" and constant_int(view.operands[0]) is None
    return (make_indirect_view(source, addresses, int(offset), op.result.type, op.list_map.data,
                               element_type(op.result.type),
                               relative),)


def _run_opaque(self, interpreter, op, args):
    raise unsupported(op, "'ktdf.opaque' op has no meaning the interpreter knows")


KTDF_TABLE: dict[str, Any] = {
    "ktdf.pipeline": _run_pipeline,
    "ktdf.stage": _run_stage,
    "ktdf.private": _run_private,
    "ktdf.private_yield": _run_yield,
    "ktdf.create_token": _run_create_token,
    "ktdf.fifo.allocate": _run_fifo_allocate,
    "ktdf.read_from_fifo": _run_read_from_fifo,
    "ktdf.write_to_fifo": _run_write_to_fifo,
    "ktdf.data_transfer": _run_data_transfer,
    "ktdf.tiling.reserve_size": _run_reserve_size,
    "ktdf.tiling.derive_size": _run_derive_size,
    "ktdf.tiling.linearize_index": _run_linearize_index,
    "ktdf.buffer_phase": _run_buffer_phase,
    "ktdf.select_memref": _run_select_memref,
    "ktdf.parallel": _run_parallel,
    "ktdf.parallel_yield": _run_yield,
    "ktdf.opaque": _run_opaque,
    "ktdf.indirect_view": _run_indirect_view,
    "ktdf.tile_reduce": run_tile_reduce,
}


def schedule_functions(classes) -> list[Any]:
    table = {**KTDF_TABLE, **MEMREF_TABLE, **AFFINE_TABLE, "func.call": run_call, "scf.for": _run_for,
             **linalg_table(classes)}
    return [functions_for("ScheduleFunctions", table, classes)()]
