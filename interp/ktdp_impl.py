"""The `ktdp` ops: tile ids, memory views, access tiles, load and store.

* `get_compute_tile_id` gives the executing tile's coordinates in the kernel's grid (one
  result per grid dimension).
* `construct_memory_view` builds a `StridedView` on the global memory or on a
  scratchpad (`ct_local`: the executing tile's; `ct_local, ct_id = N`: tile N's). The
  coordinate set's symbols bind, left to right, to the dynamic `sizes` operands.
* `construct_access_tile`: the anchor is `base_map(indices)`; the tile is every point of
  `access_tile_set` (symbols bound to `symbol_operands`) added to the anchor, laid out in
  the dimension order of `access_tile_order` (a permutation; its last result is the
  innermost dimension). A set that is not a box gives a masked tile when the result type
  has the box's shape, else its points packed in that order into the result shape.
* `construct_indirect_access_tile`: per point of the variables space, a direct subscript
  is the coordinate, an indirect one is read from its index view.
* `load`/`store` gather from / scatter to the tile's view (or read a tensor base).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, ShapedType

from dfsched.dialects.ktdp import tile_id_covers_grid
from dfsched.interp.base import DYNAMIC, functions_for, operand_values, per_op, static_or_dynamic
from dfsched.interp.sets import compiled_map
from dfsched.interp.dtypes import element_type
from dfsched.interp.memory import AccessTile, DistributedView, MemoryAccessError, StridedView
from dfsched.interp.sets import box, permutation, points


def _prop(op, name: str):
    value = op.properties.get(name)
    if value is None:
        value = op.attributes.get(name)
    return value


def _set(op, name: str):
    value = _prop(op, name)
    if not isinstance(value, AffineSetAttr):
        raise ValueError(f"'{op.name}' needs an integer set '{name}'")
    return value.data


def _map(op, name: str):
    value = _prop(op, name)
    if not isinstance(value, AffineMapAttr):
        raise ValueError(f"'{op.name}' needs an affine map '{name}'")
    return value.data


# ---------------------------------------------------------------------------------------
# tile ids and views
# ---------------------------------------------------------------------------------------


def _run_tile_id(self, interpreter, op, args):
    st = interpreter.state
    if not tile_id_covers_grid(len(op.results), st.grid):
        raise ValueError(
            f"get_compute_tile_id has {len(op.results)} result(s) but the kernel's grid "
            f"{list(st.grid)} has {len(st.grid)} dimension(s) (only trailing unit dimensions may be left out)"
        )
    return tuple(int(c) for c in st.tile_coords[: len(op.results)])


def lower_corner(cset, symbols: list[int], rank: int) -> tuple[int, ...]:
    if cset is None:
        return (0,) * rank
    bounds = box(cset, symbols)
    return tuple(lo if lo is not None else 0 for lo, _ in bounds)


def _run_memory_view(self, interpreter, op, args):
    st = interpreter.state
    vals = operand_values(op, args)
    offset = int(vals[op.offset])
    dyn_sizes = [int(vals[v]) for v in op.sizes]
    sizes = static_or_dynamic(op.static_sizes.get_values(), dyn_sizes)
    strides = static_or_dynamic(op.static_strides.get_values(), [vals[v] for v in op.strides])
    if len(sizes) != len(strides):
        raise ValueError("sizes and strides have different lengths")
    if any(s < 0 for s in sizes):
        raise ValueError(f"negative view size in {sizes}")
    space = _prop(op, "memory_space")
    kind = getattr(getattr(space, "kind", None), "data", "global")
    ct_id = getattr(getattr(space, "ct_id", None), "data", -1)
    cset_attr = _prop(op, "coordinate_set")
    cset = cset_attr.data if isinstance(cset_attr, AffineSetAttr) else None
    symbols: list[int] = []
    if cset is not None:
        if cset.num_symbols > len(dyn_sizes):
            raise ValueError(
                f"coordinate_set has {cset.num_symbols} symbol(s) but the view has only "
                f"{len(dyn_sizes)} dynamic size(s) to bind them to"
            )
        symbols = dyn_sizes[: cset.num_symbols]
        if cset.num_dims != len(sizes):
            raise ValueError(f"coordinate_set has {cset.num_dims} dims but the view has rank {len(sizes)}")
    et = element_type(op.result.type)
    owner = None
    if kind == "global":
        memory = st.global_memory
    else:
        owner = ct_id if ct_id >= 0 else st.tile_index
        if owner >= st.num_tiles:
            raise ValueError(f"ct_id = {owner} names no compute tile of the grid {list(st.grid)}")
        memory = st.scratchpad(owner)
    view = StridedView(
        memory, kind, offset, tuple(sizes), tuple(strides), et, cset, tuple(symbols),
        lower_corner(cset, symbols, len(sizes)), owner,
    )
    if st.probe:
        st.views.append((op, view))
    return (view,)


def _run_distributed_view(self, interpreter, op, args):
    parts = list(args)
    for p in parts:
        if not isinstance(p, StridedView):
            raise ValueError("construct_distributed_memory_view takes views built by construct_memory_view")
    rank = len(op.result.type.get_shape())
    return (DistributedView(parts, element_type(op.result.type), rank),)


# ---------------------------------------------------------------------------------------
# access tiles
# ---------------------------------------------------------------------------------------


def enumerate_space(s, order, symbols: list[int], result_type, what: str) -> tuple[np.ndarray, np.ndarray | None]:
    """Points of integer set `s` laid out by `order`: (coords: shape + (dims,), mask or None)."""
    perm = permutation(order)
    if perm is None:
        raise ValueError(f"{what} order {order} is not a permutation of the dimensions")
    n = s.num_dims
    type_shape = list(result_type.get_shape()) if isinstance(result_type, ShapedType) else []
    bounds = box(s, symbols)
    resolved = []
    for d, (lo, hi) in enumerate(bounds):
        if lo is None or hi is None:
            # fall back on the result type: tile dim k holds set dim perm[k]
            k = perm.index(d)
            size = type_shape[k] if k < len(type_shape) else DYNAMIC
            if size == DYNAMIC:
                raise ValueError(f"cannot bound dimension d{d} of the {what} set")
            lo = 0 if lo is None else lo
            hi = lo + size - 1 if hi is None else hi
        resolved.append((lo, hi))
    pts, inside = points(s, symbols, resolved)
    pts = np.transpose(pts, perm + [n])
    inside = np.transpose(inside, perm)
    if inside.all():
        return pts, None
    static = all(d != DYNAMIC for d in type_shape) and len(type_shape) == n
    if static and tuple(type_shape) == inside.shape:
        return pts, inside
    count = int(inside.sum())
    if static and int(np.prod(type_shape, dtype=np.int64)) == count:
        return pts[inside].reshape(tuple(type_shape) + (n,)), None
    raise ValueError(
        f"the {what} set has {count} points in a {list(inside.shape)} box, which fits neither "
        f"a masked nor a packed tile of type shape {type_shape}"
    )


def _check_shape(result_type, shape: tuple[int, ...], what: str) -> None:
    type_shape = list(result_type.get_shape())
    if len(type_shape) != len(shape) or any(t != DYNAMIC and t != s for t, s in zip(type_shape, shape)):
        raise ValueError(f"the {what} has shape {list(shape)} but its type says {type_shape}")


def _tile_points(interpreter, op, syms: list[int]):
    """(points relative to the anchor, mask, box start relative to the anchor or None) of an
    access tile: they depend on the op and its symbols only, so each is computed once."""
    cache = interpreter.op_cache.setdefault(("access tile points", id(op)), {}) \
        if hasattr(interpreter, "op_cache") else {}
    key = tuple(syms)
    found = cache.get(key)
    if found is None:
        order = _map(op, "access_tile_order")
        pts, mask = enumerate_space(_set(op, "access_tile_set"), order, syms, op.result.type, "access tile")
        pts.setflags(write=False)
        start = None
        if mask is None and pts.size and permutation(order) == list(range(pts.shape[-1])):
            first, last = pts[(0,) * (pts.ndim - 1)], pts[(-1,) * (pts.ndim - 1)]
            if tuple(int(x) for x in last - first + 1) == pts.shape[:-1]:
                start = tuple(int(x) for x in first)  # a whole box in row-major order
        found = cache[key] = (pts, mask, start)
    return found


class _AccessTileOp:
    """What an access tile op's attributes say, read once per op (`base.per_op`)."""

    def __init__(self, op):
        operands = list(op.operands)
        self.base = operands.index(op.base)
        self.indices = [operands.index(v) for v in op.indices]
        self.symbols = [operands.index(v) for v in op.symbol_operands]
        base_map = op.base_map.data
        self.num_dims = base_map.num_dims
        self.anchor = compiled_map(base_map)
        self.shape = list(op.result.type.get_shape())


def _run_access_tile(self, interpreter, op, args):
    info = per_op(interpreter, op, _AccessTileOp)
    base = args[info.base]
    indices = [int(args[i]) for i in info.indices]
    syms = [int(args[i]) for i in info.symbols]
    anchor = info.anchor(indices[: info.num_dims], indices[info.num_dims :])
    pts, mask, start = _tile_points(interpreter, op, syms)
    coords = pts + np.asarray(anchor, dtype=np.int64)
    shape = coords.shape[:-1]
    if len(info.shape) != len(shape) or any(t != DYNAMIC and t != n for t, n in zip(info.shape, shape)):
        _check_shape(op.result.type, shape, "access tile")
    if start is not None:
        start = tuple(int(a) + b for a, b in zip(anchor, start))
    return (AccessTile(base, coords, mask, start),)


def _run_indirect_access_tile(self, interpreter, op, args):
    st = interpreter.state
    vals = operand_values(op, args)
    base = vals[op.base]
    index_views = [vals[v] for v in op.indirect_memrefs]
    captured = [int(vals[v]) for v in op.captured_variables]
    syms = [int(vals[v]) for v in op.symbol_operands]
    vset = _set(op, "variables_space_set")
    order = _map(op, "variables_space_order")
    pts, mask = enumerate_space(vset, order, syms, op.result.type, "variables space")
    shape = pts.shape[:-1]
    valid = np.ones(shape, dtype=bool) if mask is None else mask
    flat = pts.reshape(-1, pts.shape[-1]) if mask is None else pts[valid]  # (N, num_vars)
    dims: list[Any] = [np.full(len(flat), c, dtype=np.int64) for c in captured]
    dims += [flat[:, k] for k in range(flat.shape[1])]
    kinds = [bool(k.value.data) for k in op.per_dim_subscript_kinds.data]
    maps = [m.data for m in op.per_dim_subscript_maps.data]
    columns = []
    next_index = 0
    for indirect, amap in zip(kinds, maps):
        results = [np.broadcast_to(np.asarray(v, dtype=np.int64), (len(flat),))
                   for v in compiled_map(amap, checked=False)(dims, [])]
        if not indirect:
            columns.append(results[0])
            continue
        view = index_views[next_index]
        next_index += 1
        where = np.stack(results, axis=-1) if results else np.zeros((len(flat), 0), np.int64)
        if isinstance(view, np.ndarray):
            loaded = view[tuple(where[:, k] for k in range(where.shape[1]))]
        else:
            loaded = view.read(where, st.tile_index)
        columns.append(np.asarray(loaded).astype(np.int64))
    del pts, flat, dims  # the variables' points are no longer needed: the coordinates are as big
    coords = np.zeros(shape + (len(columns),), dtype=np.int64)
    for k, column in enumerate(columns):  # one column at a time: no stacked copy
        if mask is None:
            coords[..., k] = column.reshape(shape)
        elif column.size:
            coords[..., k][valid] = column
    _check_shape(op.result.type, shape, "indirect access tile")
    return (AccessTile(base, coords, mask),)


# ---------------------------------------------------------------------------------------
# load / store
# ---------------------------------------------------------------------------------------


def _in_bounds(base, coords: np.ndarray) -> np.ndarray:
    if isinstance(base, np.ndarray):
        shape = np.asarray(base.shape, dtype=np.int64)
        return np.all((coords >= 0) & (coords < shape), axis=-1)
    if isinstance(base, StridedView):
        local = coords - np.asarray(base.lower or (0,) * base.rank, dtype=np.int64)
        ok = np.all((local >= 0) & (local < np.asarray(base.sizes, dtype=np.int64)), axis=-1)
        return ok & base.contains(coords)
    if isinstance(base, DistributedView):
        ok = np.zeros(coords.shape[:-1], dtype=bool)
        for part in base.parts:
            ok |= _in_bounds(part, coords)
        return ok
    raise ValueError(f"cannot access a {type(base).__name__}")


def _selection(interpreter, tile: AccessTile) -> np.ndarray:
    """Which points of the tile are accessed (mask, and bounds in "mask" mode)."""
    valid = np.ones(tile.shape, dtype=bool) if tile.mask is None else tile.mask.copy()
    if interpreter.state.options.out_of_bounds == "mask":
        valid &= _in_bounds(tile.base, tile.coords)
    return valid


def _result_facts(op):
    return element_type(op.result.type), list(op.result.type.get_shape())


def _box_addresses(tile: AccessTile):
    """The addresses of a whole-box tile inside one strided view (no per-point checks
    needed), else None (the general path checks and masks point by point)."""
    if tile.box_start is None or not isinstance(tile.base, StridedView):
        return None
    return tile.base.box_addresses(tile.box_start, tile.shape)


def _run_load(self, interpreter, op, args):
    (tile,) = args
    st = interpreter.state
    et, shape = per_op(interpreter, op, _result_facts)
    if tuple(shape) != tile.shape:
        _check_shape(op.result.type, tile.shape, "loaded tile")
    addresses = _box_addresses(tile)
    if addresses is not None:
        view = tile.base
        return (et.cast(view.memory.read(addresses, view.et, st.tile_index)),)
    valid = _selection(interpreter, tile)
    out = et.zeros(tile.shape)
    coords = _selected(tile.coords, valid)
    if isinstance(tile.base, np.ndarray):
        if not np.all(_in_bounds(tile.base, coords)):
            raise MemoryAccessError(f"access tile reaches outside the tensor of shape {list(tile.base.shape)}")
        values = tile.base[tuple(coords[:, k] for k in range(coords.shape[1]))]
    else:
        values = tile.base.read(coords, st.tile_index)
    out[valid] = et.cast(values)
    return (out,)


def _run_store(self, interpreter, op, args):
    data, tile = args
    st = interpreter.state
    data = np.asarray(data)
    if data.shape != tile.shape:
        raise ValueError(f"storing a tensor of shape {list(data.shape)} through an access tile of shape {list(tile.shape)}")
    if isinstance(tile.base, np.ndarray):
        raise ValueError("ktdp.store through an access tile built on a tensor (tensors are values, not memory)")
    addresses = _box_addresses(tile)
    if addresses is not None:
        tile.base.memory.write(addresses, data, tile.base.et, st.tile_index)
        return ()
    valid = _selection(interpreter, tile)
    coords, data = _selected(tile.coords, valid), _selected(data, valid)
    tile.base.write(coords, data, st.tile_index)
    return ()


def _selected(array: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """`array[valid]` (points first), without a copy when every point is selected."""
    if valid.all():
        return array.reshape((-1, *array.shape[valid.ndim:]))
    return array[valid]


def _run_runtime_arg_extract(self, interpreter, op, args):
    kind = op.kind.value.data
    if kind == 0:
        return (args[0],)
    t = op.input.type
    field = t.granularity if kind == 1 else t.upperbound
    value = getattr(field, "data", None)
    if value is None:
        raise ValueError("the runtime argument has no " + ("granularity" if kind == 1 else "upperbound"))
    return (int(value),)


TABLE: dict[str, Any] = {
    "ktdp.get_compute_tile_id": _run_tile_id,
    "ktdp.construct_memory_view": _run_memory_view,
    "ktdp.construct_distributed_memory_view": _run_distributed_view,
    "ktdp.construct_access_tile": _run_access_tile,
    "ktdp.construct_indirect_access_tile": _run_indirect_access_tile,
    "ktdp.load": _run_load,
    "ktdp.store": _run_store,
    "ktdp.runtime_arg_extract": _run_runtime_arg_extract,
}


def ktdp_functions(classes):
    return [functions_for("KtdpFunctions", TABLE, classes)()]
