"""The compute ops of the DataflowIR simulator: `vectorchain`, intrinsic and matrix-unit
`linalg.generic`s, `tensor.empty`.

Each computes its result with numpy (intrinsics through the KTIR reference's semantics) and
costs one issue per `lanes` elements of the unit (`SimState.op_cycles`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import BlockArgument, Operation
from xdsl.ir.affine import AffineMap

from dfsched.arch.intrinsics import MATRIX_TILE
from dfsched.interp.dataflow_engine import Busy
from dfsched.interp.dataflow_state import SimError, SimState, shape_of, vector_type_info
from dfsched.interp.dtypes import ElementType

if TYPE_CHECKING:
    from dfsched.interp.dataflow_ops import Gen, Runner

# -- vectorchain --------------------------------------------------------------------------


def _abs_pick(a: np.ndarray, b: np.ndarray, larger: bool) -> np.ndarray:
    aa, bb = np.abs(a), np.abs(b)
    take_a = aa >= bb if larger else aa <= bb
    return np.where(take_a, a, b)


def _float_or_int(fn_float, fn_int=None):
    def run(a, b, et):
        if et.is_float:
            return fn_float(a, b)
        return (fn_int or fn_float)(a, b)

    return run


def _bitwise(fn):
    def run(a, b, et):
        if et.is_float:
            ua = np.ascontiguousarray(a).view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])
            ub = np.ascontiguousarray(b).view(ua.dtype)
            return fn(ua, ub).view(a.dtype)
        return fn(a, b)

    return run


def _max(a, b):
    from dfsched.interp.std_impl import _maximumf

    return _maximumf(a, b)


def _min(a, b):
    from dfsched.interp.std_impl import _minimumf

    return _minimumf(a, b)


_IDENTITY_1D = AffineMap.identity(1)

BINARY: dict[str, Callable] = {
    "add": _float_or_int(np.add),
    "sub": _float_or_int(np.subtract),
    "mul": _float_or_int(np.multiply),
    "mul_div2": _float_or_int(lambda a, b: np.multiply(a, b) / a.dtype.type(2), lambda a, b: np.multiply(a, b) >> 1),
    "max": lambda a, b, et: _max(a, b) if et.is_float else np.maximum(a, b),
    "min": lambda a, b, et: _min(a, b) if et.is_float else np.minimum(a, b),
    "abs_max": lambda a, b, et: _abs_pick(a, b, True),
    "abs_min": lambda a, b, et: _abs_pick(a, b, False),
    "and0": _bitwise(np.bitwise_and),
    "or0": _bitwise(np.bitwise_or),
    "xnor": _bitwise(lambda a, b: np.invert(np.bitwise_xor(a, b))),
    "and_not": _bitwise(lambda a, b: np.bitwise_and(a, np.invert(b))),
}


def compute_work(r: Runner, op: Operation, result: np.ndarray, et: ElementType) -> Busy:
    """A compute op's statistics, and the work to yield."""
    unit = r.require_unit(op)
    count = int(np.asarray(result).size)
    work = r.sim.op_work(op, unit, et, count)
    r.stats.vector_ops += 1
    r.stats.compute_cycles += work.cycles
    return work


def _compute(r: Runner, op: Operation, result: np.ndarray, et: ElementType) -> Gen:
    yield compute_work(r, op, result, et)


def _no_mask(op: Operation) -> None:
    mask = getattr(op, "mask", None)
    if mask is not None:
        raise SimError("masked vectorchain ops are not supported by the simulator")


def binary_now(r: Runner, op, args) -> tuple[np.ndarray, Busy]:
    """A `vectorchain.binary`'s value and the work to yield."""
    found = r.sim.decoded.get(id(op))
    if found is None or found[0] is not op:  # decoded once per op
        _no_mask(op)
        amap = op.op_specific_map.data
        if amap != _IDENTITY_1D:
            raise SimError(f"op_specific_map {amap} is not supported (only the identity)")
        fn = BINARY.get(str(op.binary_op.data.value))
        if fn is None:
            raise SimError(f"binary operator {op.binary_op.data} is not supported")
        shape, et = vector_type_info(op.results[0].type)
        found = r.sim.decoded[id(op)] = (op, (fn, shape, et, math.prod(shape)))
    fn, shape, et, count = found[1]
    a, b = np.asarray(args[0]), np.asarray(args[1])
    if a.size != b.size or a.size != count:
        raise SimError(f"operands of {a.size} and {b.size} elements for a result of {count}")
    # (no `np.errstate` here: a simulation runs under one that ignores every floating-point error)
    out = et.cast(fn(a.reshape(-1).astype(et.dtype, copy=False), b.reshape(-1).astype(et.dtype, copy=False),
                     et)).reshape(shape)
    return out, compute_work(r, op, out, et)


def _binary(r: Runner, op, args) -> Gen:
    out, work = binary_now(r, op, args)
    yield work
    return (out,)


def _shuffle(r: Runner, op, args) -> Gen:
    env = r.env
    found = r.sim.decoded.get(id(op))
    if found is None or found[0] is not op:  # decoded once per op
        _no_mask(op)
        found = r.sim.decoded[id(op)] = (op, (op.input, tuple(op.variable) + tuple(op.pad),
                                              vector_type_info(op.results[0].type),
                                              [int(i.value.data) for i in op.indices.data],
                                              int(op.repetition.value.data)))
    source, extra, (shape, et), indices, reps = found[1]
    x = np.asarray(env[source]).reshape(-1)
    scalars = [env[v] for v in extra]
    row = []
    for i in indices:
        row.append(x[i] if i >= 0 else et.cast(np.asarray(scalars[-i - 1])))
    out = et.cast(np.asarray(np.tile(np.asarray(row, dtype=et.dtype), reps))).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _unary(fn):
    def run(r: Runner, op, args) -> Gen:
        _no_mask(op)
        shape, et = vector_type_info(op.results[0].type)
        x = np.asarray(args[0])
        with np.errstate(all="ignore"):
            out = et.cast(fn(x.astype(np.float64) if et.is_float else x)).reshape(shape)
        yield from _compute(r, op, out, et)
        return (out,)

    return run


def _cast(r: Runner, op, args) -> Gen:
    _no_mask(op)
    shape, et = vector_type_info(op.results[0].type)
    x = np.asarray(args[0])
    out = et.cast(x).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


_COMPARE = {
    "compare_eq": np.equal, "compare_neq": np.not_equal, "compare_lt": np.less,
    "compare_le": np.less_equal, "compare_gt": np.greater, "compare_ge": np.greater_equal,
}


def _compare(r: Runner, op, args) -> Gen:
    _no_mask(op)
    shape, et = vector_type_info(op.results[0].type)
    fn = _COMPARE[str(op.compare_op.data.value)]
    out = et.cast(fn(np.asarray(args[0]), np.asarray(args[1]))).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _selection(r: Runner, op, args) -> Gen:
    _no_mask(op)
    shape, et = vector_type_info(op.results[0].type)
    cond = np.asarray(args[0]).astype(bool)
    out = et.cast(np.where(cond, np.asarray(args[1]), np.asarray(args[2]))).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _rotate(r: Runner, op, args) -> Gen:
    shape, et = vector_type_info(op.results[0].type)
    x = np.asarray(args[0]).reshape(-1)
    pos = int(args[1])
    right = bool(op.right_shift.value.data)
    out = np.roll(x, pos if right else -pos).reshape(shape)
    yield from _compute(r, op, out, et)
    return (out,)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# -- spyreop intrinsics (no vectorchain op carries one: ktdflowering-to-dfir keeps each in a
# one-op element-wise linalg.generic over the vector, see dfir_compute.island) -----------

_NOT_ELEMENTWISE = frozenset({"spyreop.exx2", "spyreop.exx2_fused", "spyreop.exx2_zeromean_fused",
                              "spyreop.slice_reduction", "spyreop.constant"})


def _intrinsic_of(sim: SimState, op: Operation) -> Operation | None:
    """The intrinsic of an all-parallel, identity-indexed `linalg.generic` whose body is one
    element-wise `spyreop` op and the yield of its result; None for any other generic."""
    found = sim.intrinsic_generics.get(op, False)
    if found is not False:
        return found
    found = None
    block = op.regions[0].blocks.first if op.regions else None
    body = list(block.ops) if block is not None else []
    if (len(body) == 2 and body[0].name.startswith("spyreop.") and body[0].name not in _NOT_ELEMENTWISE
            and len(body[0].results) == 1 and body[1].name == "linalg.yield"
            and list(body[1].operands) == [body[0].results[0]] and len(op.results) == 1):
        maps = [m.data for m in op.indexing_maps.data]
        rank = len(shape_of(op.results[0].type))
        iterators = [getattr(t.data, "value", str(t.data)) for t in op.iterator_types.data]
        if (all(m == AffineMap.identity(rank) for m in maps) and all(t == "parallel" for t in iterators)
                and all(shape_of(v.type) == shape_of(op.results[0].type) for v in op.operands)):
            found = body[0]
    sim.intrinsic_generics[op] = found
    return found


def _linalg_generic(r: Runner, op, args) -> Gen:
    """An intrinsic generic runs as one vector op, the intrinsic applied to whole arrays with
    the numpy semantics of `intrinsics.py` (through `spyreop_impl`); any other generic is
    the KTIR interpreter's."""
    if MATRIX_TILE in op.attributes:
        return (yield from _matrix_step(r, op, args))
    intrinsic = _intrinsic_of(r.sim, op)
    if intrinsic is None:
        return (yield from r._fallback(op, args))  # noqa: SLF001
    from dfsched.interp.spyreop_impl import TABLE

    impl = TABLE.get(intrinsic.name)
    if impl is None:
        raise SimError(f"no semantics for '{intrinsic.name}'")
    block = op.regions[0].blocks.first
    inputs = args[: len(op.inputs)]
    operands = [np.asarray(inputs[v.index]) if isinstance(v, BlockArgument) and v.owner is block else r.env[v]
                for v in intrinsic.operands]
    shape, et = vector_type_info(op.results[0].type)
    (value,) = impl(None, r.sim.ktir, intrinsic, operands)
    out = np.broadcast_to(et.cast(np.asarray(value)), shape).copy()
    yield from _compute(r, op, out, et)
    return (out,)


def _matrix_step(r: Runner, op, args) -> Gen:
    """A contraction step on the matrix unit (`dfir_compute._matrix_step`): the KTIR
    reference's contraction semantics, timed as one `cycles_per_tile` per tile of the unit
    the step's M x N x K covers."""
    unit = r.require_unit(op)
    ktir = r.sim.ktir
    captured = r.sim.captures(op)
    ktir.reset_values([(v, r.env[v]) for v in captured if v in r.env])
    results = ktir.interpret_op(op, tuple(args)).values
    matrix = r.sim.device.units[unit.kind].matrix if r.sim.device is not None else None
    if matrix is None:
        raise SimError(f"'{unit.kind}' runs a matrix-unit step but declares no ktdf_arch.feature.matrix")
    steps = math.prod(-(-size // per) for size, per in zip(op.attributes[MATRIX_TILE].get_values(), matrix.tile))
    cycles = steps * matrix.cycles_per_tile
    r.stats.vector_ops += 1
    r.stats.compute_cycles += cycles
    yield Busy(cycles, "matrix step", 1)
    return results


COMPUTE: dict[str, Callable] = {
    "vectorchain.binary": _binary,
    "vectorchain.shuffle": _shuffle,
    "vectorchain.cast": _cast,
    "vectorchain.neg": _unary(np.negative),
    "vectorchain.floor": _unary(np.floor),
    "vectorchain.fast_exp": _unary(np.exp),
    "vectorchain.exp_estimate": _unary(np.exp),
    "vectorchain.rec_estimate": _unary(lambda x: 1.0 / x),
    "vectorchain.ln_estimate": _unary(np.log),
    "vectorchain.rsqrt_estimate": _unary(lambda x: 1.0 / np.sqrt(x)),
    "vectorchain.sigmoid_estimate": _unary(_sigmoid),
    "vectorchain.tanh_estimate": _unary(np.tanh),
    "vectorchain.element_wise_compare": _compare,
    "vectorchain.element_wise_selection": _selection,
    "vectorchain.rotate": _rotate,
    "linalg.generic": _linalg_generic,
}
