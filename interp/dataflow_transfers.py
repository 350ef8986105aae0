"""The `agen` ops of the DataflowIR simulator: vector loads and stores, composite transfers.

An access's points come from its set and order (`AccessPlan`, decoded once per op); its
byte addresses are the view's strides (or layout) applied to the subscript plus each point
(`view_addresses`), checked against the view's shape. Race checks (`races.RaceTracker`) and
the access's cycles happen here; the values move through the views' paged memories.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap, AffineSet

from dfsched.interp import sets
from dfsched.interp.dataflow_engine import Busy
from dfsched.interp.dataflow_state import SimError, Unit, vector_type_info
from dfsched.interp.memory import StridedView, overlaps

if TYPE_CHECKING:
    from dfsched.interp.dataflow_ops import Gen, Runner

@dataclass
class AccessPlan:
    """The points of an access set (sorted by its order), relative to the subscript."""

    rel: np.ndarray  # (n, rank)
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    by_layout: dict[Any, np.ndarray] = field(default_factory=dict)
    by_view: dict[Any, tuple[np.ndarray, bool]] = field(default_factory=dict)  # (strides, offset, itemsize) -> bytes
    by_geometry: dict[Any, tuple] = field(default_factory=dict)  # (sizes, strides, offset, itemsize) -> `_geometry`
    by_view_id: dict[int, tuple] = field(default_factory=dict)  # id(view) -> (view, `_run_geometry`)

    @property
    def count(self) -> int:
        return self.rel.shape[0]

    def rel_offsets(self, view: StridedView) -> tuple[np.ndarray, bool]:
        """Element offsets of the points in a strided view, and whether they are consecutive."""
        key = view.strides
        found = self.by_layout.get(key)
        if found is None:
            offsets = self.rel @ np.asarray(key, dtype=np.int64)
            consecutive = bool(offsets.size <= 1 or np.all(np.diff(offsets) == 1))
            found = self.by_layout[key] = (offsets, consecutive)
        return found


def access_plan(r: Runner, op: Operation, side: str, the_set: AffineSet, order: AffineMap, rank: int) -> AccessPlan:
    key = (id(op), side)
    plan = r.sim.plans.get(key)
    if plan is None:
        rel = r.sim.pattern(the_set, order)
        if rel.shape[1] != rank:
            raise SimError(f"the {side} set has {rel.shape[1]} dims for a rank-{rank} memref")
        if rel.shape[0]:
            lo, hi = tuple(int(x) for x in rel.min(axis=0)), tuple(int(x) for x in rel.max(axis=0))
        else:
            lo = hi = (0,) * rank
        plan = r.sim.plans[key] = AccessPlan(rel, lo, hi)
    return plan


def _view(value: Any) -> StridedView:
    if not isinstance(value, StridedView):
        raise SimError(f"the memref operand is {value!r}, not a memory view")
    return value


def view_addresses(view: StridedView, base: tuple[int, ...], plan: AccessPlan, check: bool,
                   steps: np.ndarray | None = None, steps_lo=None, steps_hi=None) -> tuple[np.ndarray, bool]:
    """Byte addresses of `plan`'s points around `base` (and each time step's offset, if any),
    and whether they are known to be consecutive elements.

    Shape (n,), or (T, n) with `steps` (T, rank).
    """
    if steps is None and view.layout is None:  # a vector access: its checks and offsets decoded once per view geometry
        geometry = plan.by_geometry.get((view.sizes, view.strides, view.offset, view.et.itemsize))
        if geometry is None:
            geometry = _geometry(view, plan)
        lows, highs, strides, offsets, consecutive = geometry
        if len(base) == len(lows):  # (plain loops: a generator per access costs more than the sums)
            inside = True
            if check:
                for b, lo, hi in zip(base, lows, highs):
                    if b < lo or b > hi:
                        inside = False
                        break
            if inside:
                at = 0
                for b, c in zip(base, strides):
                    at += b * c
                return offsets + at, consecutive
    rank = len(view.sizes)
    if len(base) != rank:
        raise SimError(f"the subscript has {len(base)} indices for a rank-{rank} memref")
    if check and plan.count:
        for k in range(rank):
            lo = base[k] + plan.lo[k] + (steps_lo[k] if steps is not None else 0)
            hi = base[k] + plan.hi[k] + (steps_hi[k] if steps is not None else 0)
            if lo < 0 or hi >= view.sizes[k]:
                idx = np.asarray(base)[None, :] + plan.rel
                if steps is not None:
                    idx = steps[:, None, :] + idx[None, :, :]
                check_index(view, idx)  # raises, naming the index
    if view.layout is None:
        base_off = 0
        for b, c in zip(base, view.strides):
            base_off += b * c
        if steps is None:  # the points' byte offsets in this view are decoded once
            itemsize = view.et.itemsize
            key = (view.strides, view.offset, itemsize)
            found = plan.by_view.get(key)
            if found is None:
                rel, consecutive = plan.rel_offsets(view)
                found = plan.by_view[key] = (view.offset + rel * itemsize, consecutive)
            return found[0] + base_off * itemsize, found[1]
        coeffs = np.asarray(view.strides, dtype=np.int64)
        rel, consecutive = plan.rel_offsets(view)
        if steps is None:
            off = rel + base_off
        else:
            off = (steps @ coeffs)[:, None] + rel[None, :] + base_off
            consecutive = consecutive and steps.shape[0] <= 1
    else:
        idx = np.asarray(base)[None, :] + plan.rel
        if steps is not None:
            idx = steps[:, None, :] + idx[None, :, :]
        off = view.element_offsets(idx)
        consecutive = False
    return view.offset + off * view.et.itemsize, consecutive


def run_start(view: StridedView, base: tuple[int, ...], plan: AccessPlan, check: bool) -> int | None:
    """The byte address of the first element of a vector access whose elements are consecutive
    and inside the view (the common case, without building its addresses), else None (the
    caller takes `view_addresses`, which also reports an index outside the view)."""
    found = plan.by_view_id.get(id(view))
    if found is None or found[0] is not view:  # remembered per view object (most views serve many accesses)
        if len(plan.by_view_id) >= 64:
            plan.by_view_id.clear()
        found = plan.by_view_id[id(view)] = (view, _run_geometry(view, plan))
    if found[1] is None:
        return None
    lows, highs, strides, at = found[1]
    if len(base) != len(lows):
        return None
    if check:
        for b, lo, hi, c in zip(base, lows, highs, strides):
            if b < lo or b > hi:
                return None
            at += b * c
    else:
        for b, c in zip(base, strides):
            at += b * c
    return at


def _run_geometry(view: StridedView, plan: AccessPlan) -> tuple | None:
    """`_geometry`'s bounds and byte strides of an access of consecutive elements, with its
    first point's byte offset; None for any other access."""
    if view.layout is not None:
        return None
    geometry = plan.by_geometry.get((view.sizes, view.strides, view.offset, view.et.itemsize))
    if geometry is None:
        geometry = _geometry(view, plan)
    lows, highs, strides, offsets, consecutive = geometry
    if not consecutive or not plan.count:
        return None
    return lows, highs, strides, int(offsets[0])


def _geometry(view: StridedView, plan: AccessPlan) -> tuple:
    """(lowest and highest subscript per dimension keeping the points in the view, the strides
    in bytes, the points' byte offsets, whether they are consecutive) of `plan` in `view`."""
    itemsize = view.et.itemsize
    rel, consecutive = plan.rel_offsets(view)
    if plan.count:
        lows = tuple(-lo for lo in plan.lo)
        highs = tuple(size - 1 - hi for size, hi in zip(view.sizes, plan.hi))
    else:  # no points: nothing to check
        lows, highs = (-(1 << 62),) * len(view.sizes), ((1 << 62),) * len(view.sizes)
    found = (lows, highs, tuple(c * itemsize for c in view.strides), view.offset + rel * itemsize, consecutive)
    plan.by_geometry[(view.sizes, view.strides, view.offset, itemsize)] = found
    return found


def check_index(view: StridedView, idx: np.ndarray) -> None:
    """Fail on the first index of `idx` (shape (..., rank)) outside the view's shape."""
    idx = np.asarray(idx, dtype=np.int64)
    if idx.size:
        shape = np.asarray(view.sizes, dtype=np.int64)
        outside = np.any((idx < 0) | (idx >= shape), axis=-1)
        if outside.any():
            i = np.unravel_index(int(np.argmax(outside)), outside.shape)
            raise SimError(f"index {tuple(int(x) for x in idx[i])} is outside memref<{'x'.join(map(str, view.sizes))}>")


def _base(r: Runner, amap: AffineMap, operands: list[Any]) -> tuple[int, ...]:
    return r.sim.subscript_function(amap)(operands)


def _decoded_access(r: Runner, op, side: str, rank: int):
    """(subscript function, subscript operand count, plan, vector shape, element type) of a
    vector load or store, decoded once per op (xDSL attribute access costs more than the access)."""
    found = r.sim.decoded.get(id(op))
    if found is None or found[0] is not op:
        if side == "load":
            plan = access_plan(r, op, side, op.load_set.data, op.load_order.data, rank)
            shape, et = vector_type_info(op.results[0].type)
            _check_count(plan.count, shape, "loads")
        else:
            plan = access_plan(r, op, side, op.store_set.data, op.store_order.data, rank)
            shape, et = vector_type_info(op.operands[0].type)
        found = r.sim.decoded[id(op)] = (op, (r.sim.subscript_function(op.affine_map.data), len(op.map_operands),
                                              plan, shape, et))
    return found[1]


def load_now(r: Runner, op, args) -> tuple[np.ndarray, Busy]:
    """A vector load's effects (race check, read, statistics): its value and the work to yield."""
    unit = r.require_unit(op)
    view = _view(args[0])
    subscript, n_map, plan, shape, et = _decoded_access(r, op, "load", len(view.sizes))
    base = subscript(args[1:1 + n_map])
    first = run_start(view, base, plan, r.sim.options.check_bounds)
    if first is not None:  # consecutive bytes: no address array
        if r.sim.races is not None:
            r.sim.races.read_run(unit.name, view.memory, first, plan.count, et.itemsize)
        values = view.memory.read_run(first, plan.count, et).reshape(shape)
    else:
        addresses, consecutive = view_addresses(view, base, plan, r.sim.options.check_bounds)
        if r.sim.races is not None:
            r.sim.races.read(unit.name, view.memory, addresses, et.itemsize, consecutive)
        values = view.memory.read(addresses, et, consecutive=consecutive).reshape(shape)
    nbytes = values.nbytes
    r.stats.loaded_bytes += nbytes
    return values, r.sim.load_work(view, unit, nbytes)


def _vector_load(r: Runner, op, args) -> Gen:
    values, work = load_now(r, op, args)
    yield work
    return (values,)


def _check_count(n: int, shape: tuple[int, ...], what: str) -> None:
    want = math.prod(shape)
    if n != want:
        raise SimError(f"{what} {n} element(s) but the vector holds {want}")


def store_begin(r: Runner, op, args) -> tuple[Busy, tuple]:
    """A vector store up to its work: the work to yield, then `store_end` of what it returns
    (the bytes change when the store's cycles end)."""
    unit = r.require_unit(op)
    value, view = args[0], _view(args[1])
    subscript, n_map, plan, _, et = _decoded_access(r, op, "store", len(view.sizes))
    base = subscript(args[2:2 + n_map])
    values = np.asarray(value).reshape(-1)
    _check_count(plan.count, (values.size,), "stores")
    first = run_start(view, base, plan, r.sim.options.check_bounds)
    if first is not None:  # consecutive bytes: `store_end` takes the first one's address
        return r.sim.store_work(view, unit, values.nbytes), (view, first, True, values, et)
    addresses, consecutive = view_addresses(view, base, plan, r.sim.options.check_bounds)
    return r.sim.store_work(view, unit, values.nbytes), (view, addresses, consecutive, values, et)


def store_end(r: Runner, pending: tuple) -> None:
    view, addresses, consecutive, values, et = pending
    if type(addresses) is int:  # consecutive bytes from this address (`store_begin`)
        if r.sim.races is not None:
            r.sim.races.write_run(r.unit.name, view.memory, addresses, values.size, et.itemsize, values, et)
        view.memory.write_run(addresses, values, et, values.size)
    else:
        if r.sim.races is not None:
            r.sim.races.write(r.unit.name, view.memory, addresses, et.itemsize, consecutive, values, et)
        view.memory.write(addresses, values, et, consecutive=consecutive)
    r.stats.stored_bytes += values.nbytes


def _vector_store(r: Runner, op, args) -> Gen:
    work, pending = store_begin(r, op, args)
    yield work
    store_end(r, pending)
    return ()


@dataclass
class TimePlan:
    """The time steps of a composite transfer and each step's load/store offsets."""

    steps: int
    load: np.ndarray  # (T, src rank)
    store: np.ndarray  # (T, dst rank)
    load_lo: tuple[int, ...]
    load_hi: tuple[int, ...]
    store_lo: tuple[int, ...]
    store_hi: tuple[int, ...]


def _time_plan(r: Runner, op, symbols: tuple[int, ...]) -> TimePlan:
    key = (id(op), "time", symbols)
    plan = r.sim.plans.get(key)
    if plan is None:
        times = r.sim.pattern(op.time_set.data, op.time_order.data, symbols)
        load = sets.eval_map_rows(op.load_time_addr_map.data, times, list(symbols))
        store = sets.eval_map_rows(op.store_time_addr_map.data, times, list(symbols))

        def bounds(a: np.ndarray):
            if a.shape[0] == 0:
                return (0,) * a.shape[1], (0,) * a.shape[1]
            return tuple(int(x) for x in a.min(axis=0)), tuple(int(x) for x in a.max(axis=0))

        plan = TimePlan(times.shape[0], load, store, *bounds(load), *bounds(store))
        r.sim.plans[key] = plan
    return plan


def _composite(r: Runner, op, args) -> Gen:
    unit = r.require_unit(op)
    env = r.env
    src_mem, dst_mem, src_ops, dst_ops, time_syms, _multicast = r.sim.segments(op)
    src, dst = _view(env[src_mem[0]]), _view(env[dst_mem[0]])
    src_base = _base(r, op.src_map.data, [env[v] for v in src_ops])
    dst_base = _base(r, op.dst_map.data, [env[v] for v in dst_ops])
    symbols = tuple(int(env[v]) for v in time_syms)
    time = _time_plan(r, op, symbols)
    load = access_plan(r, op, "load", op.load_set.data, op.load_order.data, len(src.sizes))
    store = access_plan(r, op, "store", op.store_set.data, op.store_order.data, len(dst.sizes))
    if time.load.shape[1] != len(src.sizes) or time.store.shape[1] != len(dst.sizes):
        raise SimError("a time address map does not give one offset per memref dimension")
    body = op.regions[0].blocks.first
    shape, et = vector_type_info(body.args[0].type)
    _check_count(load.count, shape, "loads")
    steps = time.steps
    check = r.sim.options.check_bounds
    src_addr, src_seq = view_addresses(src, src_base, load, check, time.load, time.load_lo, time.load_hi)  # (T, n)
    dst_addr, dst_seq = view_addresses(dst, dst_base, store, check, time.store, time.store_lo, time.store_hi)
    vector_bytes = math.prod(shape) * et.itemsize
    per_step = r.sim.composite_cycles(src.space, unit.kind, dst.space, vector_bytes)
    trivial = r.sim.trivial_body(op, body)
    what = f"transfer {src.unit_name} -> {dst.unit_name}"
    races = r.sim.races
    if races is not None:
        races.read(unit.name, src.memory, src_addr, et.itemsize, src_seq)
    if trivial and not (src.memory is dst.memory and overlaps(src_addr, dst_addr)):
        _check_count(store.count, shape, "stores")
        values = src.memory.read(src_addr, et, consecutive=src_seq)
        yield Busy(per_step * steps, what, vector_bytes * steps)
        if races is not None:
            races.write(unit.name, dst.memory, dst_addr, et.itemsize, dst_seq, values, et)
        dst.memory.write(dst_addr, values, et, consecutive=dst_seq)
    else:
        for t in range(steps):
            vector = src.memory.read(src_addr[t], et).reshape(shape)
            out = yield from r.run_block(body, [vector])
            stored = np.asarray(out[0] if out else vector).reshape(-1)
            _check_count(store.count, (stored.size,), "stores")
            yield Busy(per_step, what, vector_bytes)
            if races is not None:
                races.write(unit.name, dst.memory, dst_addr[t], et.itemsize, False, stored, et)
            dst.memory.write(dst_addr[t], stored, et)
    moved = steps * vector_bytes
    stats = r.stats
    stats.loaded_bytes += moved
    stats.stored_bytes += moved
    stats.dma_bytes += moved
    stats.dma_cycles += per_step * steps
    for kind in (src.space, dst.space):
        stats.dma_bytes_by_memory[kind] = stats.dma_bytes_by_memory.get(kind, 0) + moved
    return ()


def _composite_indirect(r: Runner, op, args) -> Gen:
    """An address-list transfer (`passes/lowering/dfir_indirect.py`): each time step's vector is
    at the direct side's addresses plus the byte address its list entry holds."""
    unit = r.require_unit(op)
    env = r.env
    ind_src, dir_src, ind_dst, dir_dst, ind_src_ops, dir_src_ops, ind_dst_ops, dir_dst_ops, time_syms, _ = \
        r.sim.segments(op)
    src, dst = _view(env[dir_src[0]]), _view(env[dir_dst[0]])
    symbols = tuple(int(env[v]) for v in time_syms)
    times = r.sim.pattern(op.time_set.data, op.time_order.data, symbols)
    body = op.regions[0].blocks.first
    if not r.sim.trivial_body(op, body):
        raise SimError("an address-list transfer with a body is not supported")
    shape, et = vector_type_info(body.args[0].type)
    check = r.sim.options.check_bounds
    moved = []
    for side, view, indices, lists, list_ops, set_name in (
            ("load", src, dir_src_ops, ind_src, ind_src_ops, "load"),
            ("store", dst, dir_dst_ops, ind_dst, ind_dst_ops, "store")):
        plan = access_plan(r, op, set_name, getattr(op, f"{set_name}_set").data, getattr(op, f"{set_name}_order").data,
                           len(view.sizes))
        steps, lo, hi = _time_steps(r, op, side, times, symbols, len(view.sizes))
        base = _base(r, getattr(op, f"direct_{'src' if side == 'load' else 'dst'}_map").data,
                     [env[v] for v in indices])
        addresses, _ = view_addresses(view, base, plan, check, steps, lo, hi)
        if lists:
            addresses = addresses + _listed(r, unit, op, side, env[lists[0]], [env[v] for v in list_ops], times,
                                            symbols)[:, None]
        moved.append(addresses)
    src_addr, dst_addr = moved
    vector_bytes = math.prod(shape) * et.itemsize
    steps = times.shape[0]
    per_step = r.sim.composite_cycles(src.space, unit.kind, dst.space, vector_bytes)
    if r.sim.races is not None:
        r.sim.races.read(unit.name, src.memory, src_addr, et.itemsize, False)
    values = src.memory.read(src_addr, et)
    yield Busy(per_step * steps, f"address-list transfer {src.unit_name} -> {dst.unit_name}",
               vector_bytes * steps)
    if r.sim.races is not None:
        r.sim.races.write(unit.name, dst.memory, dst_addr, et.itemsize, False, values, et)
    dst.memory.write(dst_addr, values, et)
    moved_bytes = steps * vector_bytes
    r.stats.loaded_bytes += moved_bytes
    r.stats.stored_bytes += moved_bytes
    r.stats.dma_bytes += moved_bytes
    r.stats.dma_cycles += per_step * steps
    return ()


def _time_steps(r: Runner, op, side: str, times: np.ndarray, symbols: tuple[int, ...], rank: int):
    """(each time step's offset of the direct side (T, rank), their lowest and highest): they
    depend on the op and its time symbols only, so they are evaluated once per pair (a paged
    copy runs one op per row thousands of times)."""
    key = (id(op), "time steps", side, symbols)
    found = r.sim.plans.get(key)
    if found is None:
        steps = sets.eval_map_rows(getattr(op, f"{side}_direct_time_addr_map").data, times, list(symbols))
        steps.setflags(write=False)
        lo = tuple(int(x) for x in steps.min(axis=0)) if steps.size else (0,) * rank
        hi = tuple(int(x) for x in steps.max(axis=0)) if steps.size else (0,) * rank
        found = r.sim.plans[key] = (steps, lo, hi)
    return found


def _list_offsets(r: Runner, op, side: str, times: np.ndarray, symbols: tuple[int, ...]) -> np.ndarray:
    """Each time step's offset into the address list, once per op and time symbols."""
    key = (id(op), "list offsets", side, symbols)
    found = r.sim.plans.get(key)
    if found is None:
        found = sets.eval_map_rows(getattr(op, f"{side}_indirect_time_addr_map").data, times, list(symbols))
        found.setflags(write=False)
        r.sim.plans[key] = found
    return found


def _listed(r: Runner, unit: Unit, op, side: str, value: Any, operands: list[Any], times: np.ndarray,
            symbols: tuple[int, ...]) -> np.ndarray:
    """The byte address each time step's list entry holds."""
    view = _view(value)
    base = np.asarray(_base(r, getattr(op, f"indirect_{'src' if side == 'load' else 'dst'}_map").data, operands))
    idx = base[None, :] + _list_offsets(r, op, side, times, symbols)
    if r.sim.options.check_bounds:
        check_index(view, idx)
    addresses = view.offset + view.element_offsets(idx) * view.et.itemsize
    if r.sim.races is not None:
        r.sim.races.read(unit.name, view.memory, addresses, view.et.itemsize, False)
    return view.memory.read(addresses, view.et).astype(np.int64)


TRANSFERS: dict[str, Any] = {
    "agen.vector_load": _vector_load,
    "agen.vector_store": _vector_store,
    "agen.composite_load_and_store": _composite,
    "agen.composite_indirect_load_and_store": _composite_indirect,
}
