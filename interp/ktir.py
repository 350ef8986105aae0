"""The KTIR reference interpreter: runs a kernel over its whole grid, in numpy.

It is the oracle every later pass is checked against: a pass that preserves meaning
leaves `run_kernel`'s outputs unchanged (up to the rounding a reordered f16 computation
brings).

API
---

    from dfsched.interp.ktir import load_module, make_inputs, run_kernel

    module = load_module("examples/add.mlir")     # parse (all dfsched dialects) and verify
    inputs = make_inputs(module, seed=0)          # random inputs for every buffer + scalars
    outputs = run_kernel(module, inputs)          # every buffer after the run

* `make_inputs(module, seed=0, *, kernel=None, scalars=None, low=-1.0, high=1.0, **options)
  -> dict[str, np.ndarray]`: one seeded random array per buffer the kernel's views cover
  (floats uniform in [low, high), integers in [0, 8)), plus one 0-d array per scalar
  kernel argument (`scalars` overrides; default 0, a `!ktdp.runtime_arg`'s upper bound or
  granularity when it has one). A scratchpad-resident (`ct_local`) argument buffer gets one
  row per compute tile: the data an earlier kernel left in each tile's scratchpad.
* `run_kernel(module, inputs, *, kernel=None, **options) -> dict[str, np.ndarray]`: the
  contents of every buffer after all compute tiles ran. Missing buffers start as zeros.
* `run(module, inputs, *, kernel=None, scalars=None, **options) -> KernelResult`: the same,
  plus the layout, the memories (scratchpads included), per-tile return values and
  warnings; `scalars={name: value}` binds scalar arguments (what `--bind` passes).
* `kernel_layout(module, *, kernel=None, scalars=None, **options) -> Layout`: where
  every buffer lives.
* `call_function(module, name, *args, **options) -> tuple`: run one `func.func` on
  Python values (tensor arguments as numpy arrays): for testing op semantics.
* `compare_outputs(expected, actual, *, rtol=0.0, atol=0.0, keys=None) -> list[str]`:
  the differences between two runs' outputs (NaN equals NaN), one line per buffer that
  differs; empty when they agree. For translation validation.

Keys: a buffer whose views are based at a kernel argument is keyed by that argument's
name (`%A` -> "A", unnamed -> "arg<i>"); a buffer at a constant address by
``"@<address>"`` (`"@1024"`), and one at a constant address of the scratchpads (`ct_local`
views, with or without `ct_id`) by ``"ct_local@<address>"``, one row per compute tile.
Scalar arguments are keyed by their names too.

`options` (see `base.Options`): `unit` ("byte" | "element"), `check_races` (True),
`out_of_bounds` ("mask" | "error"), `accumulate` ("f32" | "f16" | "f64" | None),
`slice_width`, `layernorm_eps`, `max_ops`, `max_elements`.

Execution model
---------------
* The kernel is the `func.func` with a `grid` attribute (or the only function, or the one
  named by `kernel=`). Its grid (`grid = [d0, d1, ...]`, default [1]) is walked in
  row-major order; each point is one compute tile, and `ktdp.get_compute_tile_id`
  returns its coordinates (one result per grid dimension). Tiles run one after the other
  on a shared global memory; with `check_races` an access whose result would depend on
  that order (see memory.py; storing the bytes a slot holds is no race) is a located error.
  An access outside a view's coordinate set is masked (loads read 0, stores are dropped)
  unless `out_of_bounds="error"`.
* Memory is byte-addressed by default: a view's offset (a constant, or a kernel argument's
  value) is a byte address and the element at coordinate c starts at byte
  `offset + sum(c * strides) * itemsize` (strides count elements), the unit dfsched's
  examples and lowering passes use; `unit="element"` makes an address name one element
  slot instead (`offset + sum(c * strides)`), as some upstream KTIR assumes. Each tile has
  a scratchpad for `ct_local` views; every memory reads as 0 until written.
* Where buffers go: a dry run of the whole grid on memories that store nothing records
  every view; kernel arguments that reach a view's offset by additions are *address
  arguments* and get placeholder bases 2**40 * (i + 1) during the dry run, which tells
  each view's argument and the extent each argument's buffer needs. Constant-address
  buffers stay where the kernel puts them; argument buffers are placed after the last of
  them, in argument order, 64-unit aligned and never overlapping. A buffer is handed in and
  out with the shape of a dense row-major view that covers it exactly, else flat. The dry run
  stops each tile after its last view op when all of them sit in the kernel's entry block.
  An integer view sharing memory with a float view (indices over data) is a located error
  naming both; buffers holding more than `max_elements` elements in all are refused.
* Values: see base.py. f16 arithmetic is numpy float16 (each operation correctly
  rounded); reductions and contractions accumulate in `accumulate` (the device's compute
  unit's declaration; f32 by default) and round to the output type once (linalg_impl.py);
  `tensor.empty` reads as zeros, so a reduction into it starts at 0, with a warning
  (`KernelResult.warnings`: located `Diagnostic`s).
* Errors in the kernel (an unsupported op, an access outside a view, a race, a division
  by zero, no kernel to run, ...) raise `DiagnosticError` located at the op; misuse of
  the Python API (an unknown input key, a wrongly sized array) raises `ValueError`;
  `parse_module`/`load_module` let xDSL's `ParseError` through
  (`compat.parse_error_diagnostic` turns it into a located diagnostic).
* The inter-tile ops (`inter_tile_produce/consume/reduce`) exchange partials between tiles
  that run one at a time by pausing a tile at a delivery until the others produced it (inter_tile.py).
* Not supported (located error): linalg on memrefs, `scf.parallel`, `tensor.pad`, a few integer math ops (`ctlz`, ...).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.interpreter import OpImplResult
from xdsl.ir import BlockArgument, Operation

from dfsched.compat import InterpreterBase, op_implementations
from dfsched.diagnostics import DiagnosticError, error
from dfsched.dialects import UPSTREAM_DIALECTS
from dfsched.dialects.ktdp_addresses import address_arguments
from dfsched.interp.base import NeedsScalar, Options, State, to_python
from dfsched.interp.dtypes import ElementType, UnsupportedType, element_type
from dfsched.interp.inter_tile import Exchange, WaitForTiles, has_inter_tile_ops, run_tiles
from dfsched.interp.memory import GeneratedInput, Memory, MemoryAccessError, RaceError, TouchedBuffer

__all__ = [
    "Buffer",
    "KernelResult",
    "Layout",
    "Options",
    "call_function",
    "compare_outputs",
    "kernel_layout",
    "load_module",
    "make_inputs",
    "parse_module",
    "run",
    "run_kernel",
]

PROBE_SHIFT = 40  # dry-run base of address argument i: (i + 1) << PROBE_SHIFT
ALIGN = 64  # argument buffers start at multiples of this many address units


# ---------------------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------------------


def parse_module(text: str, name: str = "<text>", verify: bool = True) -> ModuleOp:
    """Parse KTIR text with every dfsched dialect (ops remember their file:line:col)."""
    from dfsched.compat import LocatingParser, verify_module
    from dfsched.dialects import make_context

    module = LocatingParser(make_context(), text, name).parse_module()
    if verify:
        verify_module(module)
    return module


def load_module(path: str | Path, verify: bool = True) -> ModuleOp:
    from dfsched.fileio import read_source

    return parse_module(read_source(str(path)), str(path), verify)


# ---------------------------------------------------------------------------------------
# the interpreter
# ---------------------------------------------------------------------------------------

# dialects whose ops the interpreter implements; the classes come from both xDSL and the
# dfsched registry, so modules parsed with either context run
_DIALECTS = ("builtin", "func", "arith", "math", "scf", "tensor", "linalg", "ktdp", "spyreop")
_XDSL = {name: UPSTREAM_DIALECTS[name] for name in _DIALECTS if name in UPSTREAM_DIALECTS}

_FUNCTION_SETS: list[Any] | None = None


def _op_classes() -> list[type[Operation]]:
    from dfsched.dialects import DIALECTS

    sources = []
    for name in _DIALECTS:
        for entry in (_XDSL.get(name), DIALECTS.get(name)):
            if entry is not None and entry not in sources:
                sources.append(entry)
    return dialect_op_classes(sources)


def dialect_op_classes(sources) -> list[type[Operation]]:
    """Each op class of the dialects named by `(module, attribute)` pairs, once (dialects that
    cannot be imported are left out)."""
    seen: dict[int, type[Operation]] = {}
    for module_name, attr in sources:
        try:
            dialect = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            continue
        for cls in dialect.operations:
            seen.setdefault(id(cls), cls)
    return list(seen.values())


def _function_sets() -> list[Any]:
    global _FUNCTION_SETS
    if _FUNCTION_SETS is None:
        from dfsched.interp.inter_tile import inter_tile_functions
        from dfsched.interp.ktdp_impl import ktdp_functions
        from dfsched.interp.linalg_impl import linalg_functions
        from dfsched.interp.spyreop_impl import spyreop_functions
        from dfsched.interp.std_impl import std_functions

        classes = _op_classes()
        _FUNCTION_SETS = [
            *std_functions(classes),
            *linalg_functions(classes),
            *ktdp_functions(classes),
            *inter_tile_functions(classes),
            *spyreop_functions(classes),
        ]
    return _FUNCTION_SETS


def _op_name(op: Operation) -> str:
    if op.name == "builtin.unregistered":
        return op.op_name.data  # type: ignore[attr-defined]
    return op.name


class KtirInterpreter(InterpreterBase):
    """xDSL's interpreter with our implementations, run state and located errors."""

    def __init__(self, module: ModuleOp, state: State):
        super().__init__(module, index_bitwidth=64)
        self.state = state
        # op class -> (functions, implementation) or None: one MRO walk per class
        self._dispatch: dict[type, Any] = {}
        # id(op) -> what an implementation derived once from the op's static attributes
        self.op_cache: dict[int, Any] = {}
        for functions in _function_sets():
            self.register_implementations(functions, override=True)

    def register_implementations(self, impls, /, override: bool = False) -> None:
        super().register_implementations(impls, override=override)
        self._dispatch = {}

    def implementation(self, op_type: type) -> Any:
        """(functions, implementation, unwrapped) for ops of class `op_type` (its nearest
        registered base class: our dialects subclass xDSL's ops), or None. `unwrapped` is
        `(function, is terminator)` for implementations `base.functions_for` registered: the
        function xDSL's `impl`/`impl_terminator` wrapper calls (None for others)."""
        try:
            return self._dispatch[op_type]
        except KeyError:
            found = _implementation_for(op_implementations(self), op_type)
            entry = None
            if found is not None:
                entry = (found[0], found[1], getattr(found[1], "dfsched_unwrapped", None))
            self._dispatch[op_type] = entry
            return entry

    def unsupported_op(self, op: Operation) -> DiagnosticError:
        """The error for an op no implementation runs (counted as interpreted, as any op)."""
        self._count(op)
        return error(op, f"the KTIR interpreter does not support '{_op_name(op)}'")

    def _count(self, op: Operation) -> None:
        state = self.state
        state.ops_run += 1
        max_ops = state.options.max_ops
        if max_ops is not None and state.ops_run > max_ops:
            raise error(op, f"gave up after interpreting {max_ops} ops (max_ops)")

    def interpret_op(self, op: Operation, inputs: tuple[Any, ...]) -> OpImplResult:
        # xDSL's dispatch table, used directly: its own `run` re-raises with the whole module
        # printed into the exception, which a fallback (NeedsScalar) cannot afford
        try:
            entry = self._dispatch[type(op)]
        except KeyError:
            entry = self.implementation(type(op))
        if entry is None:
            raise self.unsupported_op(op)
        state = self.state
        state.ops_run += 1
        max_ops = state.options.max_ops
        if max_ops is not None and state.ops_run > max_ops:
            raise error(op, f"gave up after interpreting {max_ops} ops (max_ops)")
        try:
            unwrapped = entry[2]
            if unwrapped is None:
                result = entry[1](entry[0], self, op, inputs)
            elif unwrapped[1]:  # a terminator: what impl_terminator's wrapper does
                successor, values = unwrapped[0](entry[0], self, op, inputs)
                result = OpImplResult(values, successor)
            else:  # what impl's wrapper does
                result = OpImplResult(unwrapped[0](entry[0], self, op, inputs), None)
        except DiagnosticError:
            raise
        except NeedsScalar:
            if state.index_stack:
                raise
            raise error(op, f"'{op.name}' op needs scalar operands here") from None
        except (MemoryAccessError, RaceError, ValueError, IndexError, UnsupportedType, ZeroDivisionError) as exc:
            raise error(op, f"'{op.name}' op {exc}") from exc
        except Exception as exc:  # a bug of ours: keep the location, chain the traceback
            raise error(op, f"'{op.name}' op: internal interpreter error: {type(exc).__name__}: {exc}") from exc
        if len(result.values) != len(op.results):
            raise error(op, f"'{op.name}' op: interpreter produced {len(result.values)} results for {len(op.results)}")
        return result


# ---------------------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------------------


@dataclass
class KernelInfo:
    func: func.FuncOp
    name: str
    grid: tuple[int, ...]
    arg_names: list[str]
    address_args: set[int]

    @property
    def args(self) -> tuple[BlockArgument, ...]:
        return tuple(self.func.body.blocks.first.args) if self.func.body.blocks else ()


def _functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.body.block.ops if isinstance(op, func.FuncOp) and op.body.blocks]


def find_kernel(module: ModuleOp, name: str | None = None) -> func.FuncOp:
    return choose_kernel(module, _functions(module), name, "in the module")


def choose_kernel(module: ModuleOp, funcs: list[func.FuncOp], name: str | None, where: str) -> func.FuncOp:
    """The kernel among `funcs`: the one named, else the only one with a `grid`, else the only one."""
    if name is not None:
        for f in funcs:
            if f.sym_name.data == name:
                return f
        raise error(module, f"no function @{name} {where}")
    with_grid = [f for f in funcs if "grid" in f.attributes]
    if len(with_grid) == 1:
        return with_grid[0]
    if len(funcs) == 1:
        return funcs[0]
    names = ", ".join("@" + f.sym_name.data for f in (with_grid or funcs)) or "none"
    raise error(module, f"cannot tell which function is the kernel (candidates: {names}); name it")


def grid_of(f: func.FuncOp) -> tuple[int, ...]:
    attr = f.attributes.get("grid")
    if attr is None:
        return (1,)
    if isinstance(attr, DenseArrayBase):
        dims = [int(v) for v in attr.get_values()]
    elif isinstance(attr, ArrayAttr):
        dims = []
        for a in attr.data:
            if isinstance(a, IntegerAttr):
                dims.append(int(a.value.data))
            elif isinstance(a, IntAttr):
                dims.append(a.data)
            else:
                raise error(f, f"grid size must be an integer attribute, got {a}")
    else:
        raise error(f, f"grid must be an array of integers, got {attr}")
    if not dims:
        raise error(f, "Grid must have at least one dimension")
    for d in dims:
        if d <= 0:
            raise error(f, f"Grid size must be positive (got {d})")
    return tuple(dims)


def _address_args(f: func.FuncOp) -> set[int]:
    return address_arguments(f)


def kernel_info(module: ModuleOp, kernel: str | None = None) -> KernelInfo:
    f = find_kernel(module, kernel)
    block = f.body.blocks.first
    names = [a.name_hint or f"arg{i}" for i, a in enumerate(block.args)] if block else []
    return KernelInfo(f, f.sym_name.data, grid_of(f), names, _address_args(f))


# ---------------------------------------------------------------------------------------
# layout
# ---------------------------------------------------------------------------------------


@dataclass
class Buffer:
    """A region of memory the kernel's views cover (see the module docstring for keys)."""

    key: str
    space: str  # "global" | "ct_local"
    address: int
    length: int  # address units
    shape: tuple[int, ...]
    element: ElementType
    arg_index: int | None = None

    @property
    def end(self) -> int:
        return self.address + self.length


@dataclass
class Layout:
    unit: str
    buffers: list[Buffer] = field(default_factory=list)
    scalars: dict[str, Any] = field(default_factory=dict)
    global_size: int = 0
    cell_bits: int = 64  # widest element type any view uses (an element-unit slot's width)

    def by_key(self) -> dict[str, Buffer]:
        return {b.key: b for b in self.buffers}

    def global_buffers(self) -> list[Buffer]:
        return [b for b in self.buffers if b.space == "global"]

    def local_buffers(self) -> list[Buffer]:
        """Scratchpad-resident argument buffers: data another kernel left in each tile's
        scratchpad (an input and an output array with one row per compute tile)."""
        return [b for b in self.buffers if b.space == "ct_local"]

    def arg_address(self, index: int) -> int | None:
        for b in self.buffers:
            if b.arg_index == index:
                return b.address
        return None


def _default_scalar(t) -> Any:
    if getattr(t, "name", "") == "ktdp.runtime_arg":
        for fieldname in ("upperbound", "granularity"):
            value = getattr(getattr(t, fieldname, None), "data", None)
            if value is not None:
                return int(value)
        t = t.underlying_type
    if isinstance(t, TensorType):
        shape = t.get_shape()
        if any(d < 0 for d in shape):
            raise ValueError(f"a tensor argument of dynamic type {t} needs an input")
        return element_type(t).zeros(shape)
    return to_python(0, t)


def _argument(value: Any, t, name: str) -> Any:
    """A Python value for an argument of type `t` (tensors: numpy arrays of its shape)."""
    if isinstance(t, TensorType):
        arr = np.asarray(value)
        shape = t.get_shape()
        if len(shape) != arr.ndim or any(d >= 0 and d != n for d, n in zip(shape, arr.shape)):
            raise ValueError(f"argument '{name}' has shape {list(arr.shape)} but its type is {t}")
        return element_type(t).cast(arr)
    if isinstance(t, ShapedType):
        raise ValueError(f"argument '{name}' of type {t}: only tensor and scalar arguments can be passed")
    return to_python(np.asarray(value), _scalar_type(t))


def _scalar_type(t):
    return t.underlying_type if getattr(t, "name", "") == "ktdp.runtime_arg" else t


def _scalar_values(info: KernelInfo, given: dict[str, Any] | None) -> dict[str, Any]:
    given = dict(given or {})
    out: dict[str, Any] = {}
    for i, (name, arg) in enumerate(zip(info.arg_names, info.args)):
        if i in info.address_args:
            continue
        t = arg.type
        if name in given:
            out[name] = _argument(given.pop(name), t, name)
        else:
            out[name] = _default_scalar(t)
    return out


def _new_state(info: KernelInfo, options: Options, probe: bool) -> State:
    state = State(options=options, grid=info.grid, probe=probe)
    return state


def _run_grid(module: ModuleOp, info: KernelInfo, state: State, arg_values: list[Any],
              interpreter_class: type[KtirInterpreter] | None = None) -> dict[tuple[int, ...], tuple]:
    """Call the kernel once per compute tile, in row-major order (on `interpreter_class`)."""
    interpreter = (interpreter_class or KtirInterpreter)(module, state)
    exchange = getattr(state, "inter_tile", None)
    if exchange is not None and not state.probe:
        return _run_tiles_exchanging(module, info, state, arg_values, interpreter, exchange)
    returns: dict[tuple[int, ...], tuple] = {}
    with np.errstate(all="ignore"):
        for index, coords in enumerate(np.ndindex(*info.grid)):
            state.tile_index = index
            state.tile_coords = tuple(int(c) for c in coords)
            scope = interpreter._ctx  # noqa: SLF001
            try:
                returns[state.tile_coords] = tuple(interpreter.call_op(info.func, tuple(arg_values)))
            except _StopProbe:
                returns[state.tile_coords] = ()
            except WaitForTiles:  # a lone tile (call_function) waits for partials nobody produces (inter_tile.py)
                interpreter._ctx = scope  # noqa: SLF001
    return returns


def _run_tiles_exchanging(module, info: KernelInfo, state: State, arg_values: list[Any], first, exchange: Exchange):
    """The grid of a kernel whose tiles exchange partials: one interpreter (scope stack) per
    tile, sharing the first's caches, run by `inter_tile.run_tiles`."""

    def run_tile(index: int, coords: tuple[int, ...]) -> tuple:
        interpreter = first if index == 0 else type(first)(module, state)
        interpreter.op_cache, interpreter._dispatch = first.op_cache, first._dispatch  # noqa: SLF001
        return tuple(interpreter.call_op(info.func, tuple(arg_values)))

    def enter(index: int, coords: tuple[int, ...]) -> None:
        state.tile_index = index
        state.tile_coords = tuple(int(c) for c in coords)

    tiles = [(i, tuple(int(c) for c in coords)) for i, coords in enumerate(np.ndindex(*info.grid))]
    return run_tiles(exchange, tiles, run_tile, enter)


_VIEW_OPS = ("ktdp.construct_memory_view", "ktdp.construct_distributed_memory_view")


def _last_view_op(module: ModuleOp, info: KernelInfo) -> Operation | None:
    """The last view op of the kernel's entry block when every view op of the module is
    there: the dry run can stop each tile after it (it only looks for views). Else None."""
    entry = info.func.body.blocks.first
    views = [op for op in module.walk() if _op_name(op) in _VIEW_OPS]
    if not views or any(op.parent_block() is not entry for op in views):
        return None
    return max(views, key=entry.get_operation_index)


class _StopProbe(Exception):
    """The dry run has seen every view of the tile."""


class _ProbeInterpreter(KtirInterpreter):
    """The layout dry run's interpreter: stops a tile after its last view op (`State.stop_after`)."""

    def interpret_op(self, op: Operation, inputs: tuple[Any, ...]) -> OpImplResult:
        result = super().interpret_op(op, inputs)
        if op is self.state.stop_after:
            raise _StopProbe
        return result


def _argument_values(info: KernelInfo, scalars: dict[str, Any], bases: dict[int, int]) -> list[Any]:
    values = []
    for i, name in enumerate(info.arg_names):
        if i in info.address_args:
            values.append(bases.get(i, 0))
        else:
            values.append(scalars[name])
    return values


def _compute_layout(module: ModuleOp, info: KernelInfo, options: Options, scalars: dict[str, Any],
                    dry_run: Any = None) -> Layout:
    """Where each buffer goes, from a dry run of the grid on probe memories: `dry_run(options,
    argument values) -> State` (default: this interpreter's) runs it; the ScheduleIR
    interpreter brings its own."""
    # the dry run only looks for views: accesses outside them are reported by the real run
    probe_options = replace(options, out_of_bounds="mask")
    probe_bases = {i: (i + 1) << PROBE_SHIFT for i in info.address_args}
    arg_values = _argument_values(info, scalars, probe_bases)
    if dry_run is not None:
        state = dry_run(probe_options, arg_values)
    else:
        state = _new_state(info, probe_options, probe=True)
        state.global_memory = Memory("global memory", options.unit, None, probe=True)
        state.stop_after = _last_view_op(module, info)
        _run_grid(module, info, state, arg_values, _ProbeInterpreter)

    def step(et: ElementType) -> int:
        return 1 if options.unit == "element" else et.itemsize

    records = []  # (op, view, arg, first, last)
    for op, view in state.views:
        extent = view.extent()
        if extent is None:
            continue
        first, last = extent
        arg = (view.offset >> PROBE_SHIFT) - 1 if view.offset >= (1 << PROBE_SHIFT) else None
        if arg is not None and arg not in probe_bases:
            raise error(op, f"view offset {view.offset} is out of range")
        records.append((op, view, arg, first, last))

    _check_index_data_overlap(records, options.unit)
    layout = Layout(options.unit, scalars=scalars)
    # constant-address buffers: in global memory, and in the scratchpads (data an earlier
    # kernel left at that address of every tile's scratchpad, one row per tile)
    for space, prefix in (("global", "@"), ("ct_local", "ct_local@")):
        const = [r for r in records if r[2] is None and r[1].space == space]
        per_op: dict[int, list[list[int]]] = {}
        for op, _, _, first, last in const:
            per_op.setdefault(id(op), []).append([first, last])
        intervals: list[list[int]] = []
        for ivs in per_op.values():
            intervals.extend(_union(ivs, touching=True))
        for first, last in _union(intervals, touching=False):
            members = [r for r in const if r[3] >= first and r[4] <= last]
            layout.buffers.append(_make_buffer(f"{prefix}{first}", space, first, last - first + 1, members, first,
                                               step, None))
    # argument buffers
    next_global = _align(max((b.end for b in layout.global_buffers()), default=0))
    next_local = 0
    for i in sorted(info.address_args):
        members = [r for r in records if r[2] == i]
        if not members:
            continue
        base = probe_bases[i]
        lo = min(r[3] for r in members) - base
        if lo < 0:
            op = min(members, key=lambda r: r[3])[0]
            raise error(op, f"view reaches {-lo} address unit(s) before the base address of argument %{info.arg_names[i]}")
        length = max(r[4] for r in members) - base + 1
        space = "global" if any(r[1].space == "global" for r in members) else "ct_local"
        if space == "global":
            address, next_global = next_global, _align(next_global + length)
        else:
            address, next_local = next_local, _align(next_local + length)
        layout.buffers.append(_make_buffer(info.arg_names[i], space, address, length, members, base, step, i))
    layout.global_size = max((b.end for b in layout.global_buffers()), default=0)
    layout.cell_bits = max((r[1].et.bits for r in records), default=64)
    _check_buffer_sizes(layout, records, options)
    return layout


def _check_index_data_overlap(records, unit: str) -> None:
    """Refuse a kernel whose integer view (indices) and float view (data) share memory: each
    would read the other's bits. Views of one kind may overlap (in-place updates, fused
    pairs read through their first half)."""
    seen: dict[tuple, tuple] = {}
    for op, view, arg, first, last in records:
        kind = "integer" if view.et.is_integer else "float"
        seen.setdefault((id(op), view.space, arg, first, last, kind), (op, view, arg, first, last, kind))
    intervals = sorted(seen.values(), key=lambda r: (r[3], r[4]))
    active: list[tuple] = []
    for current in intervals:
        op, view, arg, first, last, kind = current
        active = [a for a in active if a[4] >= first]
        for other in active:
            if other[5] != kind and other[1].space == view.space and other[2] == arg:
                o_op, o_view = other[0], other[1]
                raise error(
                    op,
                    f"this {kind} view of {unit} addresses [{first}, {last}] overlaps the {other[5]} view of "
                    f"[{other[3]}, {other[4]}] ({o_view.et.name} elements) in {view.space} memory: an index "
                    f"buffer and a data buffer cannot share memory",
                    [(o_op, f"the {other[5]} view, addresses [{other[3]}, {other[4]}]")],
                )
        active.append(current)


def _check_buffer_sizes(layout: Layout, records, options: Options) -> None:
    """Refuse, located, a kernel whose buffers hold more elements than `max_elements`: inputs
    and outputs are dense arrays, so memory would grow with the buffers' whole extent."""
    limit = options.max_elements
    sizes = {b.key: int(np.prod(b.shape, dtype=np.int64)) for b in layout.buffers if not generated_on_touch(b, options)}
    total = sum(sizes.values())
    if limit is None or total <= limit:
        return
    key = max(sizes, key=sizes.get)
    buffer = layout.by_key()[key]
    op = next((r[0] for r in records if (r[2] == buffer.arg_index if buffer.arg_index is not None
                                         else r[2] is None and buffer.address <= r[3] < buffer.end)), None)
    raise error(op, f"the kernel's buffers hold {total} elements, more than the {limit} the reference interpreter "
                    f"keeps as dense inputs and outputs (max_elements); the largest, '{key}' "
                    f"{list(buffer.shape)}, starts with this view")


def generated_on_touch(buffer: Buffer, options: Options) -> bool:
    """Whether `buffer` is too large to hold as an array: a global buffer of more than
    `max_elements` elements gets a `GeneratedInput` (pages made on first touch) and a
    `TouchedBuffer` output; the run may touch at most `max_elements` of its elements."""
    limit = options.max_elements
    return (limit is not None and buffer.space == "global"
            and int(np.prod(buffer.shape, dtype=np.int64)) > limit)


def _make_buffer(key, space, address, length, members, start, step, arg_index) -> Buffer:
    """A buffer of `length` units; `start` is its first address as the dry run saw it."""
    et = members[0][1].et
    shape: tuple[int, ...] = ()
    for _, view, _, first, last in members:
        if (
            view.et == et
            and view.offset == start
            and first == start
            and last - first + 1 == length
            and view.is_dense_row_major()
        ):
            shape = view.sizes
            break
    if not shape:
        shape = (max(1, length // step(et)),)
    return Buffer(key, space, address, length, tuple(shape), et, arg_index)


def _union(intervals: list[list[int]], touching: bool) -> list[list[int]]:
    out: list[list[int]] = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1] + (1 if touching else 0):
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def _align(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def _options(opts: dict[str, Any]) -> Options:
    options = Options()
    unknown = set(opts) - set(Options.__dataclass_fields__)
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
    options = replace(options, **opts)
    if options.unit not in ("element", "byte"):
        raise ValueError(f"unit must be 'element' or 'byte', not {options.unit!r}")
    if options.accumulate not in (None, "f16", "f32", "f64"):
        raise ValueError(f"accumulate must be None, 'f16', 'f32' or 'f64', not {options.accumulate!r}")
    if options.out_of_bounds not in ("error", "mask"):
        raise ValueError(f"out_of_bounds must be 'error' or 'mask', not {options.out_of_bounds!r}")
    return options


def kernel_layout(module: ModuleOp, *, kernel: str | None = None, scalars: dict[str, Any] | None = None, **opts) -> Layout:
    """Where each buffer of the kernel lives (from a dry run)."""
    info = kernel_info(module, kernel)
    options = _options(opts)
    return _compute_layout(module, info, options, _scalar_values(info, scalars))


def make_inputs(
    module: ModuleOp,
    seed: int = 0,
    *,
    kernel: str | None = None,
    scalars: dict[str, Any] | None = None,
    low: float = -1.0,
    high: float = 1.0,
    **opts,
) -> dict[str, np.ndarray]:
    """Seeded random contents for every global buffer, plus the scalar arguments."""
    info = kernel_info(module, kernel)
    options = _options(opts)
    scalar_values = _scalar_values(info, scalars)
    layout = _compute_layout(module, info, options, scalar_values)
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray] = {}
    tiles = int(np.prod(info.grid, dtype=np.int64))
    for b in layout.global_buffers() + layout.local_buffers():
        et = b.element
        shape = b.shape if b.space == "global" else (tiles, *b.shape)
        if generated_on_touch(b, options):
            out[b.key] = GeneratedInput(tuple(b.shape), et, seed, b.key, low, high)
            continue
        if et.is_fused:
            data = rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)
        elif et.is_float:
            data = rng.uniform(low, high, shape)
        elif et.kind == "bool":
            data = rng.integers(0, 2, shape)
        else:
            data = rng.integers(0, 8, shape)
        out[b.key] = np.asarray(et.cast(data))
    for name, value in scalar_values.items():
        out[name] = np.asarray(value)
    return out


@dataclass
class KernelResult:
    outputs: dict[str, np.ndarray]
    layout: Layout
    global_memory: Memory
    scratchpads: dict[int, Memory]
    returns: dict[tuple[int, ...], tuple]
    ops_run: int
    warnings: list = field(default_factory=list)  # located Diagnostics (severity "warning")


def run(module: ModuleOp, inputs: dict[str, Any] | None = None, *, kernel: str | None = None,
        scalars: dict[str, Any] | None = None, **opts) -> KernelResult:
    """Run the kernel over its grid on `inputs`; see the module docstring. `scalars` binds
    scalar arguments by name (as `inputs` entries of those names do; `scalars` wins)."""
    info = kernel_info(module, kernel)
    options = _options(opts)
    inputs = {**(inputs or {}), **(scalars or {})}
    scalar_names = {n for i, n in enumerate(info.arg_names) if i not in info.address_args}
    scalar_values = _scalar_values(info, {k: v for k, v in inputs.items() if k in scalar_names})
    layout = _compute_layout(module, info, options, scalar_values)
    check_input_keys(info, layout, inputs, scalar_names)
    bases = {b.arg_index: b.address for b in layout.buffers if b.arg_index is not None}

    def run_grid(exchange: Exchange | None):
        state = _new_state(info, options, probe=False)
        state.inter_tile = exchange
        memory = Memory("global memory", options.unit, layout.global_size, track_races=options.check_races,
                        cell_bits=layout.cell_bits, tiles=state.num_tiles)
        memory.generate_limit = options.max_elements
        state.global_memory = memory
        place_inputs(memory, layout, inputs)
        place_local_inputs(state.scratchpad, state.num_tiles, layout, inputs)
        returns = _run_grid(module, info, state, _argument_values(info, scalar_values, bases))
        return state, memory, returns

    # tiles exchanging partials pause at deliveries until others produced them (inter_tile.py)
    state, memory, returns = run_grid(Exchange() if has_inter_tile_ops(info.func) else None)
    outputs = {b.key: memory.fetch(b.address, b.shape, b.element) for b in layout.global_buffers()}
    outputs.update(local_outputs(state.scratchpad, state.num_tiles, layout))
    return KernelResult(outputs, layout, memory, state.scratchpads, returns, state.ops_run, state.warnings)


def check_input_keys(info: KernelInfo, layout: Layout, inputs: dict[str, Any], scalar_names: set[str]) -> None:
    """Fail (ValueError) on an input that is neither a buffer of `layout` nor a scalar argument."""
    buffers = layout.by_key()
    unknown = set(inputs) - set(buffers) - scalar_names
    if unknown:
        raise ValueError(
            f"input(s) {', '.join(sorted(unknown))} are neither buffers nor scalar arguments of "
            f"@{info.name} (buffers: {', '.join(buffers) or 'none'}; scalars: {', '.join(sorted(scalar_names)) or 'none'})"
        )


def place_inputs(memory: Memory, layout: Layout, inputs: dict[str, Any]) -> None:
    """Store each input array given for a global buffer of `layout` at its address."""
    for b in layout.global_buffers():
        if b.key not in inputs:
            continue
        data = inputs[b.key]
        data = data if isinstance(data, GeneratedInput) else np.asarray(data)
        count = int(np.prod(b.shape, dtype=np.int64))
        if data.size != count:
            raise ValueError(f"input '{b.key}' has {data.size} elements but its buffer holds {count} ({list(b.shape)})")
        memory.place(b.address, data if isinstance(data, GeneratedInput) else b.element.cast(data).reshape(-1),
                      b.element)


def place_local_inputs(scratchpad, tiles: int, layout: Layout, inputs: dict[str, Any]) -> None:
    """Store row t of each scratchpad-resident input in compute tile t's scratchpad
    (`scratchpad(t) -> Memory`), at its buffer's address (no race bookkeeping)."""
    for b in layout.local_buffers():
        if b.key not in inputs:
            continue
        data = np.asarray(inputs[b.key])
        count = int(np.prod(b.shape, dtype=np.int64))
        if data.size != tiles * count:
            raise ValueError(f"input '{b.key}' has {data.size} elements but its scratchpad buffer holds "
                             f"{count} ({list(b.shape)}) in each of {tiles} compute tile(s): give shape "
                             f"{[tiles, *b.shape]}")
        rows = b.element.cast(data).reshape(tiles, count)
        for t in range(tiles):
            scratchpad(t).place(b.address, rows[t], b.element)


def local_outputs(scratchpad, tiles: int, layout: Layout) -> dict[str, np.ndarray]:
    """Each scratchpad-resident buffer after the run, one row per compute tile."""
    return {b.key: np.stack([scratchpad(t).fetch(b.address, b.shape, b.element) for t in range(tiles)])
            for b in layout.local_buffers()}


def run_kernel(module: ModuleOp, inputs: dict[str, Any] | None = None, *, kernel: str | None = None, **opts) -> dict[str, np.ndarray]:
    """Every buffer of the kernel after running it on `inputs` (see the module docstring)."""
    return run(module, inputs, kernel=kernel, **opts).outputs


def call_function(module: ModuleOp, name: str, *args: Any, grid: tuple[int, ...] = (1,), tile: tuple[int, ...] | None = None, **opts) -> tuple:
    """Run `func.func @name` once on Python values (as one tile of `grid`)."""
    f = find_kernel(module, name)
    options = _options(opts)
    state = State(options=options, grid=tuple(grid))
    state.global_memory = Memory("global memory", options.unit, None, track_races=False)
    state.tile_coords = tuple(tile) if tile is not None else (0,) * len(grid)
    state.tile_index = int(np.ravel_multi_index(state.tile_coords, grid)) if grid else 0
    block = f.body.blocks.first
    params = list(block.args) if block else []
    if len(args) != len(params):
        raise ValueError(f"@{name} takes {len(params)} argument(s), got {len(args)}")
    values = [_argument(v, p.type, p.name_hint or f"arg{i}") for i, (v, p) in enumerate(zip(args, params))]
    interpreter = KtirInterpreter(module, state)
    with np.errstate(all="ignore"):
        return tuple(interpreter.call_op(f, tuple(values)))


def compare_outputs(
    expected: dict[str, np.ndarray],
    actual: dict[str, np.ndarray],
    *,
    rtol: float = 0.0,
    atol: float = 0.0,
    keys: list[str] | None = None,
) -> list[str]:
    """Where two runs' outputs differ (see the module docstring); [] if nowhere."""
    problems: list[str] = []
    for key in keys if keys is not None else sorted(set(expected) | set(actual)):
        if key not in expected or key not in actual:
            problems.append(f"{key}: only in {'expected' if key in expected else 'actual'} outputs")
            continue
        a, b = expected[key], actual[key]
        if isinstance(a, TouchedBuffer) or isinstance(b, TouchedBuffer):
            problems.extend(_touched_differences(key, a, b, rtol, atol))
            continue
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            problems.append(f"{key}: shape {list(a.shape)} != {list(b.shape)}")
            continue
        problems.extend(_differences(key, a, b, rtol, atol))
    return problems


def _differences(key: str, a: np.ndarray, b: np.ndarray, rtol: float, atol: float,
                 where=lambda i: list(i)) -> list[str]:
    """The one-line difference report of two same-shaped arrays ([] when equal)."""
    if np.iscomplexobj(a) or np.iscomplexobj(b) or a.dtype.kind == "f" or b.dtype.kind == "f":
        x = a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)
        y = b.astype(np.complex128 if np.iscomplexobj(b) else np.float64)
        same = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
    else:
        same = a == b
    if same.all():
        return []
    bad = np.argwhere(~same)
    first = tuple(int(i) for i in bad[0])
    return [f"{key}: {len(bad)} of {same.size} elements differ, first at {where(first)}: "
            f"expected {a[first]!r}, got {b[first]!r}"]


def _touched_differences(key: str, a, b, rtol: float, atol: float) -> list[str]:
    """Two generated-on-touch buffers agree where either run touched them (elsewhere both
    still hold the generated input)."""
    if not (isinstance(a, TouchedBuffer) and isinstance(b, TouchedBuffer)):
        return [f"{key}: generated on touch in the {'expected' if isinstance(a, TouchedBuffer) else 'actual'} "
                f"outputs only"]
    if a.shape != b.shape:
        return [f"{key}: shape {list(a.shape)} != {list(b.shape)}"]
    problems: list[str] = []
    for lo, x, y in touched_parts(a, b):
        where = lambda i, lo=lo: [int(v) for v in np.unravel_index(lo + i[0], a.shape)]  # noqa: E731
        problems += _differences(key, x, y, rtol, atol, where)
        if problems:
            break
    return problems


def touched_parts(a: TouchedBuffer, b: TouchedBuffer) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(first element, a's values, b's values) of each run of elements either run touched."""
    merged: list[list[int]] = []
    for lo, hi in sorted((first, first + v.size) for first, v in a.runs + b.runs):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, a.read(lo, hi - lo), b.read(lo, hi - lo)) for lo, hi in merged]


def _implementation_for(table: dict, op_type: type) -> Any:
    """The implementation registered for `op_type` or its nearest base class: our dialects
    subclass xDSL's ops (scf_ext, linalg_ext, memref_ext, ...) to fix their syntax."""
    for cls in op_type.__mro__:
        entry = table.get(cls)
        if entry is not None:
            return entry
    return None
