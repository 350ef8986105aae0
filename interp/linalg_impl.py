"""linalg on tensors: one engine for `linalg.generic`, every named op, `reduce` and `broadcast`.

Every structured op (a body region, indexing maps, iterator types) runs the same way:

1. The loop ranges come from the operand shapes (xDSL's shapes-to-loops map).
2. The parallel loops are *vectorised*: each operand is gathered over the whole parallel
   iteration space through its indexing map, and the body is interpreted once with numpy
   arrays as block arguments, so `arith.addf` becomes one numpy add over the tile.
3. Reductions (`reduction` iterators) whose body combines the accumulator with one
   associative op (`addf`, `mulf`, `max*f`, `min*f`, `addi`, `muli`, `max/min*i`, `andi`,
   `ori`, `xori`: `linalg.reduce { arith.addf }`, `matmul`, a generic whose yield is
   `acc <op> f(inputs)`) run on the *whole* iteration space at once: the body computes
   f(inputs) for every point with the accumulator set to the op's identity, then a numpy
   reduction combines the points. Float bodies compute in the accumulation type
   (`Options.accumulate`, what the device's compute unit declares; f32 by default) and
   the result is rounded to the output type once: hardware accumulates in a wide register.
   numpy's f32/f64 sums are pairwise; an f16 accumulation is sequential, each step rounded,
   unless the schedule chose another order for it: an f16 sum or product marked
   `dfsched.lane_wide = L` (or at a location `Options.reduction_lanes` names) folds each row
   in L lanes, then the lanes by halving, then into the init, as the vector unit does
   (`lane_order`, Decision 112).
   Other reduction bodies are walked one reduction point at a time in lexicographic order,
   feeding the body the current accumulator (the sequential accumulation MLIR specifies).
4. A body that cannot run on arrays (an `scf.if` on a per-element condition, ...) is
   rerun element by element over the whole iteration space, in loop order.

An output that comes from `tensor.empty()` holds no defined value; a reduction into one
starts from zero (what Triton-generated KTIR expects) and the interpreter warns, naming the op.

Named ops (`linalg.add`, `matmul`, `fill`, ...) cast their inputs to the output element
type first, as MLIR's OpDSL definitions do; `linalg.generic` bodies run as written.

A reduction `linalg.generic` whose body yields an `exx2`-family intrinsic (the hardware
mean / mean-of-squares reduction, whose body ignores the accumulator) produces the mean of
the yielded values over the reduced points.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import Interpreter, ReturnedValues
from xdsl.ir.affine import AffineDimExpr, AffineMap

from dfsched.compat import LinalgStructuredOperation
from dfsched.diagnostics import location_of
from dfsched.dialects.linalg_ext import is_contraction_body, lane_width
from dfsched.interp.base import NeedsScalar, functions_for, per_op
from dfsched.interp.sets import compiled_map
from dfsched.interp.dtypes import element_type

EXX2_OPS = ("spyreop.exx2", "spyreop.exx2_fused", "spyreop.exx2_zeromean_fused")


class Structured:
    """What the engine needs to know about one op (and, once computed, what follows from it:
    an interpreter keeps one per op, see `structured`)."""

    def __init__(self, op, maps: list[AffineMap], iterators: list[str], n_inputs: int, cast_inputs: bool, body):
        self.op = op
        self.maps = maps
        self.iterators = iterators
        self.n_inputs = n_inputs
        self.cast_inputs = cast_inputs
        self.body = body
        self.parallel = [d for d, it in enumerate(iterators) if it == "parallel"]
        self.reduction = [d for d, it in enumerate(iterators) if it != "parallel"]
        self._exx2: bool | None = None
        self.out_types: list | None = None  # element types of the outputs, once known
        self.casts: list | None = None  # (input index, target type) for each input to cast, once known
        # per map: its results compiled, and the loop each result is (None: not a plain dim)
        self.evaluators = [compiled_map(m, checked=False) for m in maps]
        self.positions = [tuple(r.position if isinstance(r, AffineDimExpr) else None for r in m.results) for m in maps]
        self.injective: bool | None = None  # every output map names every parallel loop (once known)

    @property
    def exx2(self) -> bool:
        if self._exx2 is None:
            self._exx2 = bool(self.reduction) and any(o.name in EXX2_OPS for o in self.body.walk())
        return self._exx2


def structured(interpreter, op, build) -> Structured:
    """`build(op)`, once per interpreter and op (`base.per_op`)."""
    return per_op(interpreter, op, build)


def input_casts(s: Structured, out_types) -> list:
    """(input index, target element type) of the inputs a named op casts to its output type."""
    if s.casts is None:
        casts = []
        if s.cast_inputs and out_types:
            target = out_types[0]
            for i, v in enumerate(s.op.operands[: s.n_inputs]):
                et = element_type(v.type)
                if et != target and et.kind != "bool" and et.dtype != target.dtype:
                    casts.append((i, target))
        s.casts = casts
    return s.casts


@functools.lru_cache(maxsize=256)
def _grids(shape: tuple[int, ...]) -> np.ndarray:
    grids = np.indices(shape, dtype=np.int64)
    grids.setflags(write=False)
    return grids


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
    if s.out_types is None:
        for v in op.operands:
            if isinstance(v.type, MemRefType):
                raise ValueError(f"'{op.name}' on memrefs is not supported by the KTIR interpreter (tensors only)")
    ins = list(args[: s.n_inputs])
    outs = [np.array(a, copy=True) for a in args[s.n_inputs :]]
    if s.out_types is None:
        s.out_types = [element_type(v.type) for v in op.operands[s.n_inputs :]]
    out_types = s.out_types
    for i, target in input_casts(s, out_types):
        ins[i] = target.cast(ins[i])
    arrays = ins + outs
    ranges = _loop_ranges(s.maps, arrays)
    parallel, reduction = s.parallel, s.reduction
    exx2 = s.exx2

    if s.injective is None:
        out_maps = s.maps[s.n_inputs :]
        s.injective = all(
            {r.position for r in m.results if isinstance(r, AffineDimExpr)} >= set(parallel) for m in out_maps
        )
    if reduction:
        _warn_empty_init(interpreter, s)
    if s.injective and reduction and not exx2 and combiners(s) is not None and all(et.kind != "bool" for et in out_types):
        try:
            return _run_reduction(interpreter, s, ins, outs, out_types, ranges, args[s.n_inputs :])
        except NeedsScalar:
            outs = [np.array(a, copy=True) for a in args[s.n_inputs :]]
    if s.injective:
        try:
            return _run_vectorised(interpreter, s, ins, outs, out_types, ranges, parallel, reduction, exx2)
        except NeedsScalar:
            outs = [np.array(a, copy=True) for a in args[s.n_inputs :]]
    return _run_pointwise(interpreter, s, ins, outs, out_types, ranges, exx2, bool(reduction))


# ---------------------------------------------------------------------------------------
# reductions on the whole iteration space
# ---------------------------------------------------------------------------------------

# combiner op -> (numpy ufunc, float identity, integer identity given the width or None)
_COMBINERS: dict[str, tuple[Any, float, Any]] = {
    "arith.addf": (np.add, 0.0, None),
    "arith.mulf": (np.multiply, 1.0, None),
    "arith.maximumf": (np.maximum, -np.inf, None),
    "arith.minimumf": (np.minimum, np.inf, None),
    "arith.maxnumf": (np.fmax, -np.inf, None),
    "arith.minnumf": (np.fmin, np.inf, None),
    "arith.addi": (np.add, 0, lambda w: 0),
    "arith.muli": (np.multiply, 1, lambda w: 1),
    "arith.maxsi": (np.maximum, 0, lambda w: -(1 << (w - 1))),
    "arith.minsi": (np.minimum, 0, lambda w: (1 << (w - 1)) - 1),
    "arith.andi": (np.bitwise_and, 0, lambda w: -1),
    "arith.ori": (np.bitwise_or, 0, lambda w: 0),
    "arith.xori": (np.bitwise_xor, 0, lambda w: 0),
}

_ACCUMULATORS = {"f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}


def combiners(s: Structured) -> list[str] | None:
    """The combiner op name of each output when every output's yielded value is
    `acc <combiner> x` with the accumulator used nowhere else (so x does not depend on it)
    and the output indexed by parallel loops only; else None (sequential engine)."""
    if getattr(s, "_combiners", False) is not False:
        return s._combiners
    found: list[str] | None = []
    block = s.body.blocks.first
    terminator = block.last_op if block is not None else None
    reduction = set(s.reduction)
    for j, out_map in enumerate(s.maps[s.n_inputs :]):
        if terminator is None or j >= len(terminator.operands) or any(
            p is None or p in reduction for p in s.positions[s.n_inputs + j]
        ):
            found = None
            break
        acc = block.args[s.n_inputs + j]
        value = terminator.operands[j]
        op = value.owner
        uses = [u.operation for u in acc.uses]
        if (
            getattr(op, "name", None) not in _COMBINERS
            or op.parent_block() is not block
            or len(op.operands) != 2
            or acc not in op.operands
            or uses != [op]
            or [u.operation for u in value.uses] != [terminator]
        ):
            found = None
            break
        found.append(op.name)
    s._combiners = found
    return found


def _accumulator(interpreter, et) -> Any:
    """The numpy dtype a float reduction into `et` accumulates in: Options.accumulate, or
    `et` itself when that is wider (an accumulator never narrows the output type)."""
    name = interpreter.state.options.accumulate if hasattr(interpreter, "state") else "f32"
    if name is None or et.kind != "float" or _ACCUMULATORS[name].itemsize <= et.dtype.itemsize:
        return et.dtype
    return _ACCUMULATORS[name]


def _warn_empty_init(interpreter, s: Structured) -> None:
    state = getattr(interpreter, "state", None)
    if state is None or not hasattr(state, "warn"):
        return
    for operand in s.op.operands[s.n_inputs :]:
        owner = getattr(operand, "owner", None)
        if getattr(owner, "name", None) == "tensor.empty":
            state.warn(s.op, f"'{s.op.name}' reduces into tensor.empty(), whose contents are undefined: it starts from zero")


def contraction(s: Structured) -> str | None:
    """`np.einsum` subscripts when the op is a float contraction of two inputs: the body is
    `acc + a * b` (each of a, b an input, possibly `arith.extf`-ed), every map a list of
    distinct loops; the output's subscripts are the parallel loops in loop order. Else None."""
    if getattr(s, "_contraction", False) is not False:
        return s._contraction
    s._contraction = None
    if s.n_inputs != 2 or len(s.maps) != 3 or not is_contraction_body(s.body.blocks.first):
        return None
    letters = "abcdefghijklmnopqrstuvwxyz"
    if len(s.iterators) > len(letters):
        return None
    terms = []
    for positions in s.positions[:2]:
        if None in positions or len(set(positions)) != len(positions):
            return None
        terms.append("".join(letters[p] for p in positions))
    if any(p not in s.parallel for p in s.positions[2]) or len(set(s.positions[2])) != len(s.parallel):
        return None
    out = "".join(letters[p] for p in s.parallel)
    s._contraction = f"{terms[0]},{terms[1]}->{out}"
    return s._contraction


_FULL_SPACE_LIMIT = 1 << 24  # elements of the iteration space evaluated at once


def _run_reduction(interpreter, s: Structured, ins, outs, out_types, ranges, given=()):
    """Steps 3 of the module docstring: body on the whole space, numpy reductions, one rounding.
    `given`: the outputs as passed (a lane-wide step continues the lanes of its own last result)."""
    n = s.n_inputs
    names = combiners(s)
    parallel, reduction = s.parallel, s.reduction
    p_shape = tuple(ranges[d] for d in parallel)
    state = interpreter.state  # ScheduleIR and KTIR interpreters both carry a base.State
    acc_dtypes = [_accumulator(interpreter, et) for et in out_types]
    widen = None
    for et, dt in zip(out_types, acc_dtypes):
        if et.kind == "float" and dt.itemsize > et.dtype.itemsize:
            widen = _et_of(dt)
    identities = []
    for name, et, dt in zip(names, out_types, acc_dtypes):
        ufunc, fident, iident = _COMBINERS[name]
        identities.append(dt.type(fident) if iident is None else int(iident(et.bits)))
    # cut the outermost reduction loop into chunks so the evaluated space stays bounded
    per_step = int(np.prod(ranges, dtype=np.int64)) // max(1, ranges[reduction[0]])
    step = max(1, _FULL_SPACE_LIMIT // max(1, per_step))
    grids = _grids(p_shape) if parallel else np.zeros((0,), dtype=np.int64)
    out_dims: list[Any] = [np.int64(0)] * len(ranges)
    for k, d in enumerate(parallel):
        out_dims[d] = grids[k]
    out_args = [(s.maps[n + j], s.evaluators[n + j], s.positions[n + j]) for j in range(len(outs))]
    # the accumulators start from the outputs' values (MLIR: the init comes first)
    partials = [np.broadcast_to(np.asarray(_gather(o, m, out_dims, f, p, ranges)), p_shape).astype(dt)
                for o, (m, f, p), dt in zip(outs, out_args, acc_dtypes)]
    r0 = reduction[0]
    remaining = ranges[r0]
    lanes = lane_order(interpreter, s, names, acc_dtypes, ranges)
    if lanes:
        step = max(lanes, step - step % lanes)  # whole lane rows in every chunk
        runs = interpreter.__dict__.setdefault("lane_runs", {})  # op -> (its results, their starts, lanes)
        last = runs.get(id(s.op))
        if last is not None and len(given) == len(last[0]) and all(a is b for a, b in zip(given, last[0])):
            starts, partials = last[1], [p.copy() for p in last[2]]  # a step of a loop carrying this op's result
        else:
            starts = [p for p in partials]
            partials = [np.full(p_shape + (lanes,), identity, dtype=dt) for identity, dt in zip(identities, acc_dtypes)]
    subscripts = contraction(s)
    if subscripts is not None and acc_dtypes[0].kind == "f" and acc_dtypes[0] != np.float16:
        # a contraction: exact products and BLAS sums in the accumulation type
        with np.errstate(all="ignore"):
            product = np.einsum(subscripts, *(np.asarray(a).astype(acc_dtypes[0]) for a in ins))
            partials[0] = (partials[0] + product).astype(acc_dtypes[0])
        remaining = 0
    sparse = np.indices(tuple(ranges), sparse=True)
    for start in range(0, remaining, step):
        stop = min(ranges[r0], start + step)
        dims: list[Any] = list(sparse)
        dims[r0] = sparse[r0][(slice(None),) * r0 + (slice(start, stop),)]
        shape = list(ranges)
        shape[r0] = stop - start
        block_args = [_gather(a, m, dims, f, p, ranges) for a, m, f, p in
                      zip(ins, s.maps[:n], s.evaluators[:n], s.positions[:n])]
        block_args += identities
        previous, state.widen = state.widen, widen
        try:
            results = _call_body(interpreter, s.body, block_args, dims)
        finally:
            state.widen = previous
        for j, (name, r, dt) in enumerate(zip(names, results, acc_dtypes)):
            x = np.broadcast_to(np.asarray(r).astype(dt, copy=False), tuple(shape))
            x = np.moveaxis(x, reduction, range(len(parallel), len(ranges))).reshape(p_shape + (-1,))
            if lanes:
                partials[j] = _lane_steps(name, partials[j], x.reshape(p_shape + (-1, lanes)), dt)
            else:
                partials[j] = _reduce(name, partials[j], x, dt)
    if lanes:
        lane_partials, partials = partials, [lane_fold(name, start, p, dt)
                                             for name, start, p, dt in zip(names, starts, partials, acc_dtypes)]
    for j, et in enumerate(out_types):
        m, f, _ = out_args[j]
        _scatter(outs[j], m, out_dims, partials[j], p_shape, et, f)
    if lanes:
        runs[id(s.op)] = (tuple(outs), starts, lane_partials)
    return tuple(outs)


def _et_of(dtype):
    from dfsched.interp.dtypes import _F16, _F32, _F64  # noqa: PLC2701

    return {np.dtype(np.float16): _F16, np.dtype(np.float32): _F32, np.dtype(np.float64): _F64}[np.dtype(dtype)]


def lane_order(interpreter, s: Structured, names, acc_dtypes, ranges) -> int | None:
    """The L an f16 sum or product of one reduction loop folds its rows in (Decision 112):
    the op's `dfsched.lane_wide` mark, or the L `Options.reduction_lanes` gives its location;
    None: sequential (no mark, not an f16 add/mul, or L does not divide the row)."""
    if len(s.reduction) != 1 or any(dt != np.float16 for dt in acc_dtypes) or any(
            n not in ("arith.addf", "arith.mulf") for n in names):
        return None
    lanes = lane_width(s.op)
    if lanes is None:
        hints = interpreter.state.options.reduction_lanes if hasattr(interpreter, "state") else None
        lanes = hints.get(location_of(s.op)) if hints else None
    if not lanes or lanes < 2 or ranges[s.reduction[0]] % lanes:
        return None
    return lanes


def _lane_steps(name: str, lanes: np.ndarray, x: np.ndarray, dtype) -> np.ndarray:
    """The lanes (..., L) after folding in x (..., steps, L) step by step, each rounded."""
    ufunc = _COMBINERS[name][0]
    with np.errstate(all="ignore"):
        return ufunc.accumulate(np.concatenate([lanes[..., None, :], x], axis=-2), axis=-2, dtype=dtype)[..., -1, :]


def lane_fold(name: str, start: np.ndarray, lanes: np.ndarray, dtype) -> np.ndarray:
    """`start` combined with the lanes (..., L) folded by halving: lane l with lane l + L/2, ...
    (the rounds of lane rotations `ktdflowering-to-dfir` emits), in `dtype`."""
    ufunc = _COMBINERS[name][0]
    with np.errstate(all="ignore"):
        while lanes.shape[-1] > 1:
            half = lanes.shape[-1] // 2
            lanes = ufunc(lanes[..., :half], lanes[..., half:2 * half], dtype=dtype)
        return ufunc(start, lanes[..., 0], dtype=dtype)


def _reduce(name: str, acc: np.ndarray, x: np.ndarray, dtype) -> np.ndarray:
    """`acc` combined with every element of `x` along its last axis, in `dtype`: pairwise
    (numpy) in f32/f64, one rounded step after another in f16 (numpy would sum f16 pairwise
    in f32, which an f16 accumulator does not)."""
    ufunc = _COMBINERS[name][0]
    with np.errstate(all="ignore"):
        if dtype == np.float16 and ufunc in (np.add, np.multiply):
            return ufunc.accumulate(np.concatenate([acc[..., None], x], axis=-1), axis=-1, dtype=dtype)[..., -1]
        if dtype.kind in "iu" and ufunc in (np.add, np.multiply):
            return ufunc(acc, ufunc.reduce(x.astype(np.int64), axis=-1)).astype(dtype)
        return ufunc(acc, ufunc.reduce(x, axis=-1, dtype=dtype)).astype(dtype)


def _gather(arr: Any, amap: AffineMap, dims: list[Any], evaluate=None, positions=None, ranges=None) -> Any:
    """`arr` at `amap(dims)`. `evaluate`/`positions`: the map compiled and its plain-dim results
    (`Structured`); with `ranges`, a plain-dim result whose loop fits the dimension skips the
    bounds check (its indices are 0 .. range - 1)."""
    if not isinstance(arr, np.ndarray) or arr.ndim == 0:
        return arr if not isinstance(arr, np.ndarray) else arr[()]
    if evaluate is None:
        idx = tuple(np.asarray(v, dtype=np.int64) for v in compiled_map(amap, checked=False)(dims, []))
    else:
        idx = tuple(np.asarray(v, dtype=np.int64) for v in evaluate(dims, []))
    for k, (i, n) in enumerate(zip(idx, arr.shape)):
        if ranges is not None:
            p = positions[k]
            if p is not None and 0 < ranges[p] <= n:
                continue
        if np.any((i < 0) | (i >= n)):
            raise IndexError(f"indexing map {amap} reaches outside dimension {k} (size {n}) of an operand")
    return arr[idx]


def _scatter(arr: np.ndarray, amap: AffineMap, dims: list[Any], value: Any, shape: tuple[int, ...], et,
             evaluate=None) -> None:
    value = et.cast(value)
    if value.shape != shape:
        value = np.broadcast_to(value, shape)
    if arr.ndim == 0:
        arr[()] = value.reshape(-1)[-1] if value.size else arr[()]
        return
    values = (evaluate or compiled_map(amap, checked=False))(dims, [])
    idx = []
    for v in values:
        i = np.asarray(v, dtype=np.int64)
        idx.append(i if i.shape == shape else np.broadcast_to(i, shape))
    arr[tuple(idx)] = value


def _call_body(interpreter: Interpreter, body, block_args: list[Any], dims: list[Any]) -> tuple[Any, ...]:
    state = interpreter.state  # type: ignore[attr-defined]
    state.index_stack.append(dims)
    try:
        return interpreter.run_ssacfg_region(body, tuple(block_args), "linalg body")
    finally:
        state.index_stack.pop()


def _run_vectorised(interpreter, s: Structured, ins, outs, out_types, ranges, parallel, reduction, exx2):
    p_shape = tuple(ranges[d] for d in parallel)
    grids = _grids(p_shape) if parallel else np.zeros((0,), dtype=np.int64)
    dims: list[Any] = [None] * len(ranges)
    for k, d in enumerate(parallel):
        dims[d] = grids[k]
    r_points = itertools.product(*(range(ranges[d]) for d in reduction))
    n = s.n_inputs
    in_maps, out_maps = s.maps[:n], s.maps[n:]
    in_fns, out_fns = s.evaluators[:n], s.evaluators[n:]
    in_pos, out_pos = s.positions[:n], s.positions[n:]
    sums = None
    count = 0
    for point in r_points:
        for d, v in zip(reduction, point):
            dims[d] = np.int64(v)
        block_args = [_gather(a, m, dims, f, p, ranges) for a, m, f, p in zip(ins, in_maps, in_fns, in_pos)]
        block_args += [_gather(a, m, dims, f, p, ranges) for a, m, f, p in zip(outs, out_maps, out_fns, out_pos)]
        results = _call_body(interpreter, s.body, block_args, dims)
        if exx2:
            vals = [np.broadcast_to(np.asarray(r).astype(np.complex128 if np.iscomplexobj(r) else np.float64), p_shape) for r in results]
            sums = vals if sums is None else [a + b for a, b in zip(sums, vals)]
            count += 1
            continue
        for arr, m, r, et, f in zip(outs, out_maps, results, out_types, out_fns):
            _scatter(arr, m, dims, r, p_shape, et, f)
    if exx2 and count:
        for d in reduction:
            dims[d] = np.int64(0)
        for arr, m, total, et, f in zip(outs, out_maps, sums, out_types, out_fns):
            _scatter(arr, m, dims, total / count, p_shape, et, f)
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
                key = (j,) + tuple(int(v) for v in compiled_map(m, checked=False)(dims, []))
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


def structured_op(op) -> Structured:
    """The engine's view of a structured op (named, generic, `reduce`, `broadcast`)."""
    if op.name == "linalg.reduce":
        rank = len(op.operands[0].type.get_shape())
        dims = sorted(int(d) for d in op.dimensions.get_values())
        kept = [d for d in range(rank) if d not in dims]
        maps = [AffineMap.identity(rank), AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))]
        iters = ["reduction" if d in dims else "parallel" for d in range(rank)]
        return Structured(op, maps, iters, 1, False, op.regions[0])
    if op.name == "linalg.broadcast":
        rank = len(op.operands[1].type.get_shape())
        added = {int(d) for d in op.dimensions.get_values()}
        kept = [d for d in range(rank) if d not in added]
        maps = [AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept)), AffineMap.identity(rank)]
        return Structured(op, maps, ["parallel"] * rank, 1, False, op.regions[0])
    maps = [m.data for m in op.get_indexing_maps().data]
    cast = not _is_generic(op) and op.name not in ("linalg.select", "linalg.transpose")
    return Structured(op, maps, _iterator_names(op), len(op.inputs), cast, op.body)


def _run_linalg_structured(self, interpreter, op: LinalgStructuredOperation, args):
    outs = run_structured(interpreter, structured(interpreter, op, structured_op), args)
    return outs if op.results else ()


_run_reduce = _run_linalg_structured
_run_broadcast = _run_linalg_structured


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

