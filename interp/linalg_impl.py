"""linalg on tensors: one engine for `linalg.generic`, every named op, `reduce` and `broadcast`.

Every structured op (a body region, indexing maps, iterator types) runs the same way:

1. The loop ranges come from the operand shapes (xDSL's shapes-to-loops map).
2. The parallel loops are *vectorised*: each operand is gathered over the whole parallel
   iteration space through its indexing map, and the body is interpreted once with numpy
   arrays as block arguments, so `arith.addf` becomes one numpy add over the tile.
3. Reduction loops are walked one point at a time in lexicographic order, feeding the
   body the current accumulator: the result is the sequential accumulation MLIR
   specifies, f16 rounding after every step included (no pairwise summation).
4. A body that cannot run on arrays (an `scf.if` on a per-element condition, ...) is
   rerun element by element over the whole iteration space, in loop order.

Named ops (`linalg.add`, `matmul`, `fill`, ...) cast their inputs to the output element
type first, as MLIR's OpDSL definitions do; `linalg.generic` bodies run as written.

A reduction `linalg.generic` whose body yields an `exx2`-family intrinsic (the hardware
mean / mean-of-squares reduction, whose body ignores the accumulator) produces the mean of
the yielded values over the reduced points.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import Interpreter, ReturnedValues
from xdsl.ir.affine import AffineDimExpr, AffineMap

from dfsched.compat import LinalgStructuredOperation
from dfsched.interp.base import NeedsScalar, functions_for
from dfsched.interp.dtypes import element_type

EXX2_OPS = ("spyreop.exx2", "spyreop.exx2_fused", "spyreop.exx2_zeromean_fused")


class Structured:
    """What the engine needs to know about one op."""

    def __init__(self, op, maps: list[AffineMap], iterators: list[str], n_inputs: int, cast_inputs: bool, body):
        self.op = op
        self.maps = maps
        self.iterators = iterators
        self.n_inputs = n_inputs
        self.cast_inputs = cast_inputs
        self.body = body


def _iterator_names(op) -> list[str]:
    out = []
    for it in op.get_iterator_types().data:
        value = getattr(it, "data", it)
        out.append(str(getattr(value, "value", value)))
    return out


def _loop_ranges(maps: list[AffineMap], arrays: list[Any]) -> list[int]:
    """Range of each loop: the size of an operand dimension indexed by that loop alone."""
    n = maps[0].num_dims if maps else 0
    ranges: list[int | None] = [None] * n
    for amap, arr in zip(maps, arrays):
        shape = np.shape(arr)
        for res, size in zip(amap.results, shape):
            if isinstance(res, AffineDimExpr) and ranges[res.position] is None:
                ranges[res.position] = int(size)
    if any(r is None for r in ranges):
        missing = [i for i, r in enumerate(ranges) if r is None]
        raise ValueError(f"cannot infer the range of loop(s) {missing} from the operand shapes")
    return [int(r) for r in ranges]  # type: ignore[arg-type]


def run_structured(interpreter: Interpreter, s: Structured, args: tuple[Any, ...]) -> tuple[Any, ...]:
    op = s.op
    for v in op.operands:
        if isinstance(v.type, MemRefType):
            raise ValueError(f"'{op.name}' on memrefs is not supported by the KTIR interpreter (tensors only)")
    ins = list(args[: s.n_inputs])
    outs = [np.array(a, copy=True) for a in args[s.n_inputs :]]
    out_types = [element_type(v.type) for v in op.operands[s.n_inputs :]]
    if s.cast_inputs and out_types:
        target = out_types[0]
        for i, v in enumerate(op.operands[: s.n_inputs]):
            et = element_type(v.type)
            if et != target and et.kind != "bool" and et.dtype != target.dtype:
                ins[i] = target.cast(ins[i])
    arrays = ins + outs
    ranges = _loop_ranges(s.maps, arrays)
    parallel = [d for d, it in enumerate(s.iterators) if it == "parallel"]
    reduction = [d for d, it in enumerate(s.iterators) if it != "parallel"]
    exx2 = bool(reduction) and any(o.name in EXX2_OPS for o in s.body.walk())

    out_maps = s.maps[s.n_inputs :]
    injective = all(
        {r.position for r in m.results if isinstance(r, AffineDimExpr)} >= set(parallel) for m in out_maps
    )
    if injective:
        try:
            return _run_vectorised(interpreter, s, ins, outs, out_types, ranges, parallel, reduction, exx2)
        except NeedsScalar:
            outs = [np.array(a, copy=True) for a in args[s.n_inputs :]]
    return _run_pointwise(interpreter, s, ins, outs, out_types, ranges, exx2, bool(reduction))


def _gather(arr: Any, amap: AffineMap, dims: list[Any]) -> Any:
    if not isinstance(arr, np.ndarray) or arr.ndim == 0:
        return arr if not isinstance(arr, np.ndarray) else arr[()]
    idx = tuple(np.asarray(r.eval(dims, []), dtype=np.int64) for r in amap.results)
    for k, (i, n) in enumerate(zip(idx, arr.shape)):
        if np.any((i < 0) | (i >= n)):
            raise IndexError(f"indexing map {amap} reaches outside dimension {k} (size {n}) of an operand")
    return arr[idx]


def _scatter(arr: np.ndarray, amap: AffineMap, dims: list[Any], value: Any, shape: tuple[int, ...], et) -> None:
    value = np.broadcast_to(et.cast(value), shape)
    if arr.ndim == 0:
        arr[()] = value.reshape(-1)[-1] if value.size else arr[()]
        return
    idx = tuple(np.broadcast_to(np.asarray(r.eval(dims, []), dtype=np.int64), shape) for r in amap.results)
    arr[idx] = value


def _call_body(interpreter: Interpreter, body, block_args: list[Any], dims: list[Any]) -> tuple[Any, ...]:
    state = interpreter.state  # type: ignore[attr-defined]
    state.index_stack.append(dims)
    try:
        return interpreter.run_ssacfg_region(body, tuple(block_args), "linalg body")
    finally:
        state.index_stack.pop()


def _run_vectorised(interpreter, s: Structured, ins, outs, out_types, ranges, parallel, reduction, exx2):
    p_shape = tuple(ranges[d] for d in parallel)
    grids = np.indices(p_shape, dtype=np.int64) if parallel else np.zeros((0,), dtype=np.int64)
    dims: list[Any] = [None] * len(ranges)
    for k, d in enumerate(parallel):
        dims[d] = grids[k]
    r_points = itertools.product(*(range(ranges[d]) for d in reduction))
    in_maps, out_maps = s.maps[: s.n_inputs], s.maps[s.n_inputs :]
    sums = None
    count = 0
    for point in r_points:
        for d, v in zip(reduction, point):
            dims[d] = np.int64(v)
        block_args = [_gather(a, m, dims) for a, m in zip(ins, in_maps)]
        block_args += [_gather(a, m, dims) for a, m in zip(outs, out_maps)]
        results = _call_body(interpreter, s.body, block_args, dims)
        if exx2:
            vals = [np.broadcast_to(np.asarray(r).astype(np.complex128 if np.iscomplexobj(r) else np.float64), p_shape) for r in results]
            sums = vals if sums is None else [a + b for a, b in zip(sums, vals)]
            count += 1
            continue
        for arr, m, r, et in zip(outs, out_maps, results, out_types):
            _scatter(arr, m, dims, r, p_shape, et)
    if exx2 and count:
        for d in reduction:
            dims[d] = np.int64(0)
        for arr, m, total, et in zip(outs, out_maps, sums, out_types):
            _scatter(arr, m, dims, total / count, p_shape, et)
    return tuple(outs)


def _run_pointwise(interpreter, s: Structured, ins, outs, out_types, ranges, exx2, has_reduction):
    in_maps, out_maps = s.maps[: s.n_inputs], s.maps[s.n_inputs :]
    sums: dict[tuple[int, ...], list[Any]] = {}
    for point in itertools.product(*(range(r) for r in ranges)):
        dims = [np.int64(v) for v in point]
        block_args = [_scalar(_gather(a, m, dims)) for a, m in zip(ins, in_maps)]
        block_args += [_scalar(_gather(a, m, dims)) for a, m in zip(outs, out_maps)]
        results = _call_body(interpreter, s.body, block_args, dims)
        if exx2:
            for j, (m, r) in enumerate(zip(out_maps, results)):
                key = (j,) + tuple(int(e.eval(dims, [])) for e in m.results)
                acc = sums.setdefault(key, [0.0, 0])
                acc[0] = acc[0] + complex(r) if np.iscomplexobj(r) else acc[0] + float(r)
                acc[1] += 1
            continue
        for arr, m, r, et in zip(outs, out_maps, results, out_types):
            _scatter(arr, m, dims, r, (), et)
    if exx2:
        for (j, *idx), (total, n) in sums.items():
            outs[j][tuple(idx)] = out_types[j].cast(total / n)
    return tuple(outs)


def _scalar(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.dtype.type(v[()]) if v.ndim == 0 else v
    return v


# ---------------------------------------------------------------------------------------
# op adapters
# ---------------------------------------------------------------------------------------


def _is_generic(op) -> bool:
    return op.name == "linalg.generic"


def _run_linalg_structured(self, interpreter, op: LinalgStructuredOperation, args):
    maps = [m.data for m in op.get_indexing_maps().data]
    s = Structured(op, maps, _iterator_names(op), len(op.inputs), not _is_generic(op) and op.name not in ("linalg.select", "linalg.transpose"), op.body)
    outs = run_structured(interpreter, s, args)
    return outs if op.results else ()


def _run_reduce(self, interpreter, op, args):
    inp = op.operands[0]
    rank = len(inp.type.get_shape())
    dims = sorted(int(d) for d in op.dimensions.get_values())
    kept = [d for d in range(rank) if d not in dims]
    maps = [AffineMap.identity(rank), AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))]
    iters = ["reduction" if d in dims else "parallel" for d in range(rank)]
    region = op.regions[0]
    s = Structured(op, maps, iters, 1, False, region)
    outs = run_structured(interpreter, s, args)
    return outs if op.results else ()


def _run_broadcast(self, interpreter, op, args):
    init = op.operands[1]
    rank = len(init.type.get_shape())
    added = {int(d) for d in op.dimensions.get_values()}
    kept = [d for d in range(rank) if d not in added]
    maps = [AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept)), AffineMap.identity(rank)]
    s = Structured(op, maps, ["parallel"] * rank, 1, False, op.regions[0])
    outs = run_structured(interpreter, s, args)
    return outs if op.results else ()


def _run_index(self, interpreter, op, args):
    stack = interpreter.state.index_stack
    if not stack:
        raise ValueError("linalg.index outside a linalg body")
    return (stack[-1][op.dim.value.data],)


def _run_yield(self, interpreter, op, args):
    return ReturnedValues(tuple(args)), ()


def linalg_functions(classes):
    table: dict[str, Any] = {}
    for cls in classes:
        name = cls.name
        if not name.startswith("linalg."):
            continue
        if isinstance(cls, type) and issubclass(cls, LinalgStructuredOperation):
            table[name] = _run_linalg_structured
    table["linalg.reduce"] = _run_reduce
    table["linalg.broadcast"] = _run_broadcast
    table["linalg.index"] = _run_index
    table["linalg.yield"] = _run_yield
    return [functions_for("LinalgFunctions", table, classes)()]

