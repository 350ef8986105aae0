"""memref, affine, linalg-on-memref and `func.call` implementations of the ScheduleIR
interpreter (see `schedule.py` for the model; `schedule_ops.py` has the ktdf ops).

* `memref`: `alloc` (a fresh scratchpad buffer), `dealloc`, `memory_space_cast`, `cast`,
  `reinterpret_cast`, `subview`, `copy`, `load`, `store`, `dim`;
* `affine.apply`/`min`/`max`;
* linalg ops with memref operands (buffer semantics: outs are written in place);
* `func.call` of a program: a call in the orchestrator names a `func.func` that lives in a
  program module (`module @local_schedule_N`), not the private declaration next to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Operation

from dfsched.diagnostics import DiagnosticError
from dfsched.interp import linalg_impl
from dfsched.interp.base import static_or_dynamic, to_python
from dfsched.interp.dtypes import UnsupportedType, element_type
from dfsched.interp.memory import Memory, StridedView
from dfsched.interp.sets import compiled_map
from dfsched.interp.schedule_state import (
    BufferView,
    Label,
    ScheduleState,
    _value_name,
    base_of,
    new_buffer,
    op_info,
    read_region,
    row_major,
    space_name,
    whole,
    write_whole,
    write_region,
)


# ---------------------------------------------------------------------------------------
# memref
# ---------------------------------------------------------------------------------------


def _as_view(value, what: str = "operand") -> StridedView:
    if not isinstance(value, StridedView):
        raise ValueError(f"its {what} is not a memref the interpreter knows ({type(value).__name__})")
    return value


def _alloc_info(op):
    """(result type, its static shape, the number of dynamic sizes, element type or None if
    unsupported)."""
    t = op.results[0].type
    try:
        et = element_type(t)
    except UnsupportedType:
        et = None  # raised when the op runs, after the checks before it
    return t, tuple(t.get_shape()), len(op.dynamic_sizes), et


def _run_alloc(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    t, static, n_dynamic, et = op_info(interpreter, op, _alloc_info)
    dynamic = [int(a) for a in args[:n_dynamic]]
    shape = static_or_dynamic(static, dynamic)
    if any(s < 0 for s in shape):
        raise ValueError(f"negative size in {shape}")
    layout = t.layout
    if not isinstance(layout, NoneAttr):
        strides = [getattr(s, "data", s) for s in getattr(getattr(layout, "strides", None), "data", ())]
        identity = getattr(getattr(layout, "data", None), "is_identity", None)
        if not (strides and tuple(strides) == row_major(shape)) and not (identity is not None and identity()):
            raise ValueError(f"allocation with the layout {layout} is not supported (row-major only)")
    label = Label(lambda: f"buffer {_value_name(op.results[0])} ({t})")
    return (new_buffer(st, shape, element_type(t) if et is None else et, label),)


def _run_dealloc(self, interpreter, op, args):
    return ()


def _run_same_view(self, interpreter, op, args):
    return (_as_view(args[0]),)


def _offsets_sizes_strides(op, args) -> tuple[list[int], list[int], list[int]]:
    """The mixed static/dynamic offsets, sizes and strides of a view op (operand 0: the source)."""
    n_off, n_size = len(op.offsets), len(op.sizes)
    rest = [int(a) for a in args[1:]]
    return (
        static_or_dynamic(op.static_offsets.get_values(), rest[:n_off]),
        static_or_dynamic(op.static_sizes.get_values(), rest[n_off : n_off + n_size]),
        static_or_dynamic(op.static_strides.get_values(), rest[n_off + n_size :]),
    )


def _run_reinterpret_cast(self, interpreter, op, args):
    src = _as_view(args[0], "source")
    offsets, sizes, strides = _offsets_sizes_strides(op, args)
    base = base_of(src)
    step = src.memory.element_step(src.et)
    offset = base + (offsets[0] if offsets else 0) * step
    return (
        BufferView(src.memory, src.space, offset, tuple(sizes), tuple(strides), src.et, None, (), (0,) * len(sizes),
                   src.tile_owner, base=base, label=getattr(src, "label", "")),
    )


def _run_subview(self, interpreter, op, args):
    src = _as_view(args[0], "source")
    offsets, sizes, steps = _offsets_sizes_strides(op, args)
    if src.coordinate_set is not None:
        raise ValueError("subview of a view with a coordinate set is not supported")
    elem = src.memory.element_step(src.et)
    offset = src.offset + int(sum(o * s for o, s in zip(offsets, src.strides))) * elem
    strides = [s * k for s, k in zip(src.strides, steps)]
    rank = len(op.result.type.get_shape())
    dims = list(range(len(sizes)))
    while len(dims) > rank:  # a rank-reducing subview drops unit dimensions
        unit = [d for d in dims if sizes[d] == 1]
        if not unit:
            raise ValueError("cannot tell which dimensions a rank-reducing subview drops")
        dims.remove(unit[0])
    return (
        BufferView(src.memory, src.space, offset, tuple(sizes[d] for d in dims), tuple(strides[d] for d in dims),
                   src.et, None, (), (0,) * len(dims), src.tile_owner, base=base_of(src),
                   label=getattr(src, "label", "")),
    )


def _run_copy(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    src, dst = _as_view(args[0], "source"), _as_view(args[1], "target")
    if tuple(src.sizes) != tuple(dst.sizes):
        raise ValueError(f"copies a {list(src.sizes)} memref into a {list(dst.sizes)} one")
    write_whole(st, dst, dst.et.cast(whole(st, src, op)), op)
    return ()


def _run_memref_load(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    view = _as_view(args[0])
    coords = np.asarray([[int(a) for a in args[1:]]], dtype=np.int64) + np.asarray(view.lower or (0,) * view.rank)
    value = read_region(st, view, coords, True, op)[0]
    return (to_python(value, op.results[0].type),)


def _run_memref_store(self, interpreter, op, args):
    st: ScheduleState = interpreter.state
    value, view = args[0], _as_view(args[1])
    coords = np.asarray([[int(a) for a in args[2:]]], dtype=np.int64) + np.asarray(view.lower or (0,) * view.rank)
    write_region(st, view, coords, np.asarray([value]), op)
    return ()


def _run_memref_dim(self, interpreter, op, args):
    view, index = _as_view(args[0]), int(args[1])
    return (int(view.sizes[index]),)


def _space_memory(state: ScheduleState, op: Operation, t: MemRefType) -> tuple[Memory, str]:
    """The memory an address-assigned memref of type `t` lives in, and its sharing level.

    Global-level spaces are the global memory; a per-core scratchpad ("L1") is one memory
    per compute tile; a memory below it ("SFU_REG") one per tile and `ktdf.parallel`
    instance (each corelet has its own). The device in the module says which is which;
    without one, every named space is a per-tile scratchpad.
    """
    name = space_name(t)
    level = state.space_levels.get(name)
    if level is None:
        level, size = _space_level(op, t)
        state.space_levels[name] = level
        state.space_sizes[name] = size
    if level == "global":
        return state.global_memory, "global"
    key = (name, state.tile_index, state.instance if level == "below" else None)
    memory = state.spaces.get(key)
    if memory is None:
        who = f"compute tile {state.tile_index}" + (f", instance {state.instance}" if key[2] is not None else "")
        memory = Memory(f"the {name} memory of {who}", state.options.unit, state.space_sizes.get(name))
        state.spaces[key] = memory
    return memory, "buffer"


def _space_level(op: Operation, t: MemRefType) -> tuple[str, int | None]:
    try:
        from dfsched.arch.loading import devices_in, resolve_device
        from dfsched.arch.model import DeviceModel

        root = op
        while root.parent_op() is not None:
            root = root.parent_op()
        decls = devices_in(root)
        if len(decls) != 1:
            return "scratchpad", None
        model = DeviceModel(resolve_device(decls[0]))
        memory = model.memory_for_space(t.memory_space)
    except DiagnosticError:
        return "scratchpad", None
    level = "global" if memory.depth == 0 else "scratchpad" if memory.depth == 1 else "below"
    return level, memory.size


def _run_unrealized_cast(self, interpreter, op, args):
    """`index -> memref`: address-assignment's buffer at a byte address of its memory space."""
    st: ScheduleState = interpreter.state
    if len(op.results) != 1 or not isinstance(op.results[0].type, MemRefType) or len(args) != 1 \
            or not isinstance(args[0], (int, np.integer)):
        return tuple(args)
    t = op.results[0].type
    et = element_type(t)
    memory, level = _space_memory(st, op, t)
    address = int(args[0])
    if st.options.unit == "element":
        if address % et.itemsize:
            raise ValueError(f"byte address {address} is not a multiple of the {et.itemsize}-byte element")
        address //= et.itemsize
    shape = list(t.get_shape())
    if any(d < 0 for d in shape):
        raise ValueError(f"cannot place a dynamically shaped {t} at an address")
    label = Label(lambda: f"{space_name(t)} buffer at address {int(args[0])} ({t})")
    return (BufferView(memory, level, address, tuple(shape), row_major(shape), et, None, (), (0,) * len(shape),
                       None, base=address, label=label),)


MEMREF_TABLE: dict[str, Any] = {
    "builtin.unrealized_conversion_cast": _run_unrealized_cast,
    "memref.alloc": _run_alloc,
    "memref.alloca": _run_alloc,
    "memref.dealloc": _run_dealloc,
    "memref.memory_space_cast": _run_same_view,
    "memref.cast": _run_same_view,
    "memref.reinterpret_cast": _run_reinterpret_cast,
    "memref.subview": _run_subview,
    "memref.copy": _run_copy,
    "memref.load": _run_memref_load,
    "memref.store": _run_memref_store,
    "memref.dim": _run_memref_dim,
}


# ---------------------------------------------------------------------------------------
# affine
# ---------------------------------------------------------------------------------------


def _affine_results(op, args) -> list[int]:
    amap = op.map.data if hasattr(op, "map") and op.map is not None else op.properties["map"].data
    values = [int(a) for a in args]
    return [int(r) for r in compiled_map(amap)(values[: amap.num_dims], values[amap.num_dims :])]


def _run_affine_apply(self, interpreter, op, args):
    (value,) = _affine_results(op, args)
    return (value,)


def _run_affine_min(self, interpreter, op, args):
    return (min(_affine_results(op, args)),)


def _run_affine_max(self, interpreter, op, args):
    return (max(_affine_results(op, args)),)


AFFINE_TABLE: dict[str, Any] = {
    "affine.apply": _run_affine_apply,
    "affine.min": _run_affine_min,
    "affine.max": _run_affine_max,
}


# ---------------------------------------------------------------------------------------
# linalg with memref operands (buffer semantics)
# ---------------------------------------------------------------------------------------


def run_structured_on_values(interpreter, op, ins: list[Any], outs: list[np.ndarray], out_types) -> tuple:
    """linalg_impl's engine without its tensors-only check (operands already arrays): a
    reduction into a buffer accumulates as one into a tensor (Decision 22: in the accumulation
    type, rounded to the buffer's type once)."""
    s = linalg_impl.structured(interpreter, op, linalg_impl.structured_op)
    n_inputs = s.n_inputs
    ins = list(ins)
    outs = [np.array(a, copy=True) for a in outs]
    for i, target in linalg_impl.input_casts(s, out_types):
        ins[i] = target.cast(ins[i])
    ranges = linalg_impl._loop_ranges(s.maps, ins + outs)  # noqa: SLF001
    parallel, reduction = s.parallel, s.reduction
    exx2 = s.exx2
    out_maps = s.maps[n_inputs:]
    injective = all(
        {r.position for r in m.results if hasattr(r, "position")} >= set(parallel) for m in out_maps
    )
    if injective and reduction and not exx2 and linalg_impl.combiners(s) is not None \
            and all(et.kind != "bool" for et in out_types):  # Decision 22, as on tensors
        try:
            return linalg_impl._run_reduction(interpreter, s, ins, outs, out_types, ranges)  # noqa: SLF001
        except linalg_impl.NeedsScalar:
            outs = [np.array(a, copy=True) for a in outs]
    if injective:
        try:
            return linalg_impl._run_vectorised(  # noqa: SLF001
                interpreter, s, ins, outs, out_types, ranges, parallel, reduction, exx2)
        except linalg_impl.NeedsScalar:
            outs = [np.array(a, copy=True) for a in outs]
    return linalg_impl._run_pointwise(  # noqa: SLF001
        interpreter, s, ins, outs, out_types, ranges, exx2, bool(reduction))


def _linalg_any(original):
    def run(self, interpreter, op, args):
        if not any(isinstance(a, StridedView) for a in args):
            return original(self, interpreter, op, args)
        st: ScheduleState = interpreter.state
        n_inputs = linalg_impl.structured(interpreter, op, linalg_impl.structured_op).n_inputs
        values = [whole(st, a, op) if isinstance(a, StridedView) else a for a in args]
        out_types = [element_type(v.type) for v in op.operands[n_inputs:]]
        results = run_structured_on_values(interpreter, op, values[:n_inputs], values[n_inputs:], out_types)
        tensor_results = []
        for arg, res in zip(args[n_inputs:], results):
            if isinstance(arg, StridedView):
                write_whole(st, arg, arg.et.cast(res), op)
            else:
                tensor_results.append(res)
        return tuple(tensor_results) if op.results else ()

    return run


def linalg_table(classes) -> dict[str, Any]:
    from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation

    table: dict[str, Any] = {}
    for cls in classes:
        if cls.name.startswith("linalg.") and isinstance(cls, type) and issubclass(cls, LinalgStructuredOperation):
            table[cls.name] = _linalg_any(linalg_impl._run_linalg_structured)  # noqa: SLF001
    table["linalg.reduce"] = _linalg_any(linalg_impl._run_reduce)  # noqa: SLF001
    table["linalg.broadcast"] = _linalg_any(linalg_impl._run_broadcast)  # noqa: SLF001
    return table


# ---------------------------------------------------------------------------------------
# func.call of programs
# ---------------------------------------------------------------------------------------


def find_callee(call: Operation, name: str):
    """The `func.func @name` with a body that `call` runs (a program module's, if needed)."""
    # the nearest enclosing module first, then every module of the whole IR
    scope = call.parent_op()
    while scope is not None and scope.name != "builtin.module":
        scope = scope.parent_op()
    root = scope
    while root is not None and root.parent_op() is not None:
        root = root.parent_op()
    candidates = []
    for where in (scope, root):
        if where is None:
            continue
        for f in where.walk():
            if f.name == "func.func" and f.sym_name.data == name and f.body.blocks and f.body.blocks.first.ops:
                candidates.append(f)
        if candidates:
            break
    if not candidates:
        raise ValueError(f"calls @{name}, but no function of that name has a body anywhere in the IR")
    same_module = [f for f in candidates if f.parent_op() is scope]
    if same_module:
        return same_module[0]
    named = [f for f in candidates if getattr(f.parent_op(), "sym_name", None) is not None
             and f.parent_op().sym_name.data == name]
    if named:
        return named[0]
    if len(candidates) > 1:
        raise ValueError(f"calls @{name}, which {len(candidates)} functions with bodies define")
    return candidates[0]


def run_call(self, interpreter, op, args):
    callee = find_callee(op, op.callee.root_reference.data)
    return tuple(interpreter.call_op(callee, tuple(args)))
