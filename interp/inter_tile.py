"""The inter-tile ops in the KTIR reference interpreter: `ktdp.inter_tile_produce`,
`inter_tile_reduce` and `inter_tile_consume`.

The interpreter runs the tiles of a grid one after the other, so a tile that reaches a
delivery op cannot wait for partials that tiles after it have not produced yet. It runs the
grid in *rounds* instead (`run_in_rounds`): in each round every tile starts afresh on the
original inputs and runs until it reaches a delivery whose partials are not all known, where
it records its own partial and stops (`WaitForTiles`). The next round knows every partial the
previous one recorded, so each tile gets one delivery further; the round in which no tile
stops is the run. A kernel with k deliveries on a tile's path takes k + 1 rounds.

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

from typing import Any

import numpy as np
from xdsl.interpreter import ReturnedValues

from dfsched.dialects.ktdp_inter_tile import set_contains, group_values, tiles_of
from dfsched.interp.base import functions_for
from dfsched.interp.dtypes import element_type


class WaitForTiles(BaseException):  # not an Exception: no error handler may turn it into an error
    """A tile reached a delivery whose partials other tiles have not produced yet."""


class Exchange:
    """What the tiles of one run have produced, kept from round to round."""

    def __init__(self):
        self.partials: dict[tuple[int, int, int], dict[int, tuple]] = {}  # (op, occurrence, group) -> tile -> values
        self.waited = False
        self.seen: dict[tuple[int, int], int] = {}  # (tile, op) -> deliveries met this round

    def start_round(self) -> None:
        self.waited = False
        self.seen = {}


def has_inter_tile_ops(root) -> bool:
    return any(op.name.startswith("ktdp.inter_tile_") for op in root.walk())


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
    if future.partials is not None:
        received.setdefault(tile, future.partials)
    expected = tiles_of(producers, group) or set()
    if not expected <= set(received):
        exchange.waited = True
        raise WaitForTiles()
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


def run_in_rounds(run_round) -> Any:
    """Call `run_round(exchange)` (one fresh run of the whole grid, tiles that wait stopped)
    until a round in which no tile waited; return that round's result."""
    exchange = Exchange()
    while True:
        exchange.start_round()
        result = run_round(exchange)
        if not exchange.waited:
            return result
