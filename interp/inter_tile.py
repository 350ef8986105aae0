"""The inter-tile ops in the KTIR reference interpreter: `ktdp.inter_tile_produce`,
`inter_tile_reduce` and `inter_tile_consume`.

The interpreter runs the tiles of a grid one at a time, so a tile that reaches a delivery op
cannot compute on partials that tiles after it have not produced yet. `run_tiles` runs each
tile in its own thread, one thread at a time, in tile order: a tile that meets a delivery
whose partials are not all known records its own partial and gives way to the next tile
(`Exchange.wait`); it resumes, where it stopped, once a sweep over the waiting tiles has
produced something new. A sweep that produces nothing is a deadlock: a located error on the
delivery naming the tiles it waits for. (The former design re-ran the grid from the inputs,
one delivery further each round: quadratic in the deliveries, minutes for a kernel with an
all-reduce per row.)

Semantics (ktir-mlir-frontend's `KTDP.td`, as ktir-cpu runs them):
* tiles are numbered row-major over the grid; the producer region runs with `%gid`, the group
  whose `producer_tiles_per_group(g)` holds the tile, and its `yield_partial` values are the
  tile's partials (a tile in no group produces nothing);
* `inter_tile_reduce` folds the group's partials in tile order with the combiner region,
  starting from the identity; `inter_tile_consume` delivers the partial of the one producer
  `producer_dependency_per_consumer` names (or of the group's only producer). Tiles outside
  `consumer_tiles_per_group` get the identity (reduce) or zeros (consume);
* the n-th delivery a tile meets on its path pairs with the n-th of every other tile of its group.
During the layout dry run every delivery returns its identity (or zeros) at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.interpreter import ReturnedValues

from dfsched.dialects.ktdp_inter_tile import set_contains, group_values, tiles_of
from dfsched.interp.base import functions_for
from dfsched.interp.dtypes import element_type


class WaitForTiles(BaseException):  # not an Exception: no error handler may turn it into an error
    """A tile reached a delivery whose partials other tiles have not produced yet."""


class Exchange:
    """What the tiles of one run have produced."""

    def __init__(self):
        self.partials: dict[tuple[int, int, int], dict[int, tuple]] = {}  # (op, occurrence, group) -> tile -> values
        self.produced = 0  # partials recorded so far: a sweep that adds none is a deadlock
        self.seen: dict[tuple[int, int], int] = {}  # (tile, op) -> deliveries met
        self.current: _TileThread | None = None  # the running tile's thread (run_tiles)

    def wait(self, op, missing: list[int]) -> None:
        """The running tile needs the partials of tiles `missing` at `op`: let the others run."""
        tile = self.current
        if tile is None:  # a single tile (call_function): nobody else can produce them
            raise WaitForTiles()
        tile.waiting_at = (op, missing)
        tile.pause()


def has_inter_tile_ops(root) -> bool:
    return any(op.name.startswith("ktdp.inter_tile_") or op.name == "ktdf.tile_reduce" for op in root.walk())


def _exchange(state) -> Exchange:
    exchange = getattr(state, "inter_tile", None)
    if exchange is None:  # a run that does not go in rounds (call_function): one round only
        exchange = state.inter_tile = Exchange()
    return exchange


class Future:
    """The value of `inter_tile_produce` on one tile: its group and partials."""

    def __init__(self, op, group: int | None, partials: tuple | None):
        self.op = op
        self.group = group
        self.partials = partials


def _sets(op, name: str):
    return op.properties[name].data


def _run_produce(self, interpreter, op, args):
    state = interpreter.state
    future_type = op.results[0].type
    tile = state.tile_index
    groups = group_values(future_type.groups.data)
    if groups is None:
        raise ValueError("the groups of the tile_future are not bounded")
    producers = _sets(op, "producer_tiles_per_group")
    mine = [g for g in groups if tile in (tiles_of(producers, g) or set())]
    if len(mine) > 1:
        raise ValueError(f"compute tile {tile} produces for groups {mine}: the producer sets overlap")
    if not mine:
        return (Future(op, None, None),)
    values = interpreter.run_ssacfg_region(op.body, (mine[0],), "inter_tile_produce")
    return (Future(op, mine[0], tuple(values)),)


def _empty_like(t) -> np.ndarray:
    return element_type(t).zeros(tuple(t.get_shape()))


def _delivery(interpreter, op, future: Future, fold) -> tuple:
    """The values a delivery op gives this tile (see the module docstring)."""
    state = interpreter.state
    identity = fold(None)
    if state.probe:
        return identity
    exchange = _exchange(state)
    tile = state.tile_index
    occurrence = exchange.seen.get((tile, id(op)), 0)
    exchange.seen[(tile, id(op))] = occurrence + 1
    produce = future.op
    producers = _sets(produce, "producer_tiles_per_group")
    group = future.group
    if group is None:  # not a producer: find the group it consumes in
        groups = group_values(produce.results[0].type.groups.data) or []
        consumers = _sets(op, "consumer_tiles_per_group")
        group = next((g for g in groups if tile in (tiles_of(consumers, g) or set())), None)
        if group is None:
            return identity
    key = (id(op), occurrence, group)
    received = exchange.partials.setdefault(key, {})
    if future.partials is not None and tile not in received:
        received[tile] = future.partials
        exchange.produced += 1
    expected = tiles_of(producers, group) or set()
    while not expected <= set(received):
        exchange.wait(op, sorted(expected - set(received)))
    consumers = _sets(op, "consumer_tiles_per_group")
    if tile not in (tiles_of(consumers, group) or set()):
        return identity
    return fold([received[t] for t in sorted(expected)], sorted(expected), group)


def _run_reduce(self, interpreter, op, args):
    future, *identity = args
    n = len(op.results)

    def fold(partials, producers=None, group=None):
        acc = tuple(np.asarray(v).copy() for v in identity)
        if partials is None:
            return acc
        for values in partials:
            acc = tuple(interpreter.run_ssacfg_region(op.combiner, (*acc, *values[:n]), "inter_tile_reduce"))
        return acc

    return _delivery(interpreter, op, future, fold)


def _run_consume(self, interpreter, op, args):
    (future,) = args
    dependency = op.properties.get("producer_dependency_per_consumer")

    def fold(partials, producers=None, group=None):
        if partials is None:
            return tuple(_empty_like(t) for t in op.result_types)
        if dependency is None:
            if len(partials) != 1:
                raise ValueError(f"group {group} has {len(partials)} producers: say which one each consumer "
                                 "receives from (producer_dependency_per_consumer)")
            return partials[0]
        tile = interpreter.state.tile_index
        dep = dependency.data
        symbols = [tile] if dep.num_symbols == 1 else [tile, group]
        sources = [values for p, values in zip(producers, partials) if set_contains(dep, [p], symbols)]
        if len(sources) != 1:
            raise ValueError(f"compute tile {tile} depends on {len(sources)} producers; a consume delivers one")
        return sources[0]

    return _delivery(interpreter, op, future, fold)


def run_tile_reduce(self, interpreter, op, args):
    """`ktdf.tile_reduce` (ScheduleIR's all-reduce through the scratchpads, `dialects/ktdf_exchange.py`):
    this tile's partial from its scratchpad joins the exchange; the group's partials folded in tile
    order from the identity go to its result slot (a tile in no group gets the identity)."""
    from dfsched.dialects.ktdf_exchange import COMBINERS

    state = interpreter.state
    if state.probe:
        return ()
    slot = op.slot_type
    et = element_type(slot)
    shape = tuple(slot.get_shape())
    count = int(np.prod(shape, dtype=np.int64))
    tile = state.tile_index
    pad = state.scratchpad(tile)
    exchange = _exchange(state)
    occurrence = exchange.seen.get((tile, id(op)), 0)
    exchange.seen[(tile, id(op))] = occurrence + 1
    producers = op.producers.data
    groups = group_values(op.groups.data) or []
    group = next((g for g in groups if tile in (tiles_of(producers, g) or set())), None)
    result = np.full(shape, op.identity.value.data, dtype=et.dtype)
    if group is not None:
        received = exchange.partials.setdefault((id(op), occurrence, group), {})
        if tile not in received:
            partial = pad.read(pad.contiguous(op.partial_address.value.data, count, et), et, tile)
            received[tile] = np.asarray(partial).reshape(shape).copy()
            exchange.produced += 1
        expected = tiles_of(producers, group) or set()
        while not expected <= set(received):
            exchange.wait(op, sorted(expected - set(received)))
        combine = getattr(np, COMBINERS[op.combiner.data][0])
        for t in sorted(expected):
            result = combine(result, received[t]).astype(et.dtype)
    pad.write(pad.contiguous(op.result_address.value.data, count, et), result, et, tile)
    return ()


def _run_yield(self, interpreter, op, args):
    return ReturnedValues(tuple(args)), ()


TABLE: dict[str, Any] = {
    "ktdp.inter_tile_produce": _run_produce,
    "ktdp.inter_tile_reduce": _run_reduce,
    "ktdp.inter_tile_consume": _run_consume,
    "ktdp.yield_partial": _run_yield,
    "ktdp.yield_reduced": _run_yield,
}


def inter_tile_functions(classes):
    return [functions_for("InterTileFunctions", TABLE, classes)()]


class _Abort(BaseException):  # not an Exception: unwinds a paused tile through every handler
    """Another tile failed: this one stops where it paused."""


class _TileThread:
    """One tile's run in a thread that runs only while the scheduler waits for it."""

    def __init__(self, index: int, coords: tuple[int, ...], body: Callable[[], Any]):
        self.index, self.coords = index, coords
        self.body = body
        self.status = "new"  # new | paused | done | failed
        self.result: Any = None
        self.error: BaseException | None = None
        self.abort = False
        self.waiting_at: tuple[Any, list[int]] | None = None
        self._go = threading.Semaphore(0)
        self._back = threading.Semaphore(0)
        self._thread = threading.Thread(target=self._main, name=f"tile {index}", daemon=True)

    def _main(self) -> None:
        self._go.acquire()
        try:
            if self.abort:
                raise _Abort
            with np.errstate(all="ignore"):  # errstate is per thread
                self.result = self.body()
            self.status = "done"
        except _Abort:
            self.status = "done"
        except BaseException as exc:  # handed to the scheduler's thread, which raises it
            self.error, self.status = exc, "failed"
        self._back.release()

    def resume(self) -> None:
        """Run the tile until it finishes, fails or pauses (called by the scheduler)."""
        self.waiting_at = None
        if self.status == "new":
            self._thread.start()
        self._go.release()
        self._back.acquire()

    def pause(self) -> None:
        """Give way to the scheduler (called on the tile's thread)."""
        self.status = "paused"
        self._back.release()
        self._go.acquire()
        if self.abort:
            raise _Abort
        self.status = "running"

    def stop(self) -> None:
        if self.status in ("new", "paused"):
            self.abort = True
            self.resume()


STACK_BYTES = 256 << 20  # the interpreter recurses through nested regions as the main thread does


def run_tiles(exchange: Exchange, tiles: list[tuple[int, tuple[int, ...]]], run_tile: Callable[[int, tuple[int, ...]], Any],
              enter: Callable[[int, tuple[int, ...]], None]) -> dict[tuple[int, ...], Any]:
    """Run `run_tile(index, coords)` for every tile, paused tiles giving way (module docstring);
    `enter(index, coords)` makes a tile the current one before it (re)starts. Returns each
    tile's result by coordinates."""
    previous = threading.stack_size()
    threading.stack_size(STACK_BYTES)
    try:
        threads = [_TileThread(i, c, lambda i=i, c=c: run_tile(i, c)) for i, c in tiles]
    finally:
        threading.stack_size(previous)
    ready = list(threads)
    paused: list[_TileThread] = []
    results: dict[tuple[int, ...], Any] = {}
    swept_at = -1
    try:
        while ready or paused:
            if not ready:
                if exchange.produced == swept_at:
                    raise _deadlock(paused)
                swept_at = exchange.produced
                ready, paused = paused, []
            tile = ready.pop(0)
            enter(tile.index, tile.coords)
            exchange.current = tile
            tile.resume()
            exchange.current = None
            if tile.status == "failed":
                assert tile.error is not None
                raise tile.error
            if tile.status == "paused":
                paused.append(tile)
            else:
                results[tile.coords] = tile.result
    finally:
        exchange.current = None
        for tile in threads:
            tile.stop()
    return results


def _deadlock(paused: list[_TileThread]):
    from dfsched.diagnostics import error

    first = paused[0]
    op, missing = first.waiting_at or (None, [])
    others = "; ".join(f"tile {t.index} waits for tile(s) {', '.join(map(str, t.waiting_at[1]))}"
                       for t in paused[1:] if t.waiting_at)
    return error(op, f"compute tile {first.index} waits for the partials of compute tile(s) "
                     f"{', '.join(map(str, missing))} at this delivery, which they never produce"
                     + (f" ({others})" if others else ""))
