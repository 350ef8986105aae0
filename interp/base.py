"""Shared pieces of the KTIR interpreter: run state, value conventions, impl registration.

Python values the interpreter gives SSA values:

| MLIR type                         | Python value                                              |
|-----------------------------------|-----------------------------------------------------------|
| `index`, `iN` (N > 1) scalar      | `int` (two's-complement, sign-extended from N bits)        |
| `i1` scalar                       | `bool`                                                     |
| float scalar (`f16`, `f32`, ...)  | numpy scalar of the type's dtype (`np.float16(1.5)`)       |
| `tensor<...>`                     | `np.ndarray` (dtype from `dtypes.element_type`)            |
| memref from `construct_memory_view` | `memory.StridedView` / `memory.DistributedView`          |
| `!ktdp.access_tile<...>`          | `memory.AccessTile`                                        |
| `!ktdp.runtime_arg<T, ...>`       | the argument's value                                       |

Inside a `linalg.generic` body run "vectorised", scalar-typed SSA values hold numpy arrays
over the iteration space instead; every scalar op implementation accepts both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ShapedType
from xdsl.interpreter import InterpreterFunctions, impl, impl_terminator, register_impls
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from dfsched.interp.dtypes import element_type
from dfsched.interp.memory import Memory


class NeedsScalar(Exception):
    """Raised by an op that cannot run on arrays; the linalg engine retries point by point."""


@dataclass
class Options:
    """How a kernel runs.

    unit: address unit of memories and view offsets: "byte" (default) or "element"
        (see memory.py).
    check_races: fail when two compute tiles touch one memory slot and one of them writes.
    out_of_bounds: "mask" (default, as Triton and ktir-cpu) makes a load outside a view's
        sizes or coordinate set read 0 and such a store do nothing; "error" (`--strict-bounds`)
        fails on it, located.
    accumulate: the float type reductions and contractions accumulate in ("f32", default:
        what a device declares, `ktdf_arch.feature.compute = {accumulate = T}`, and f32 without
        one; "f16"/"f64"; None: the output's own type). See linalg_impl.py.
    reduction_lanes: {(file, line, col): L} of reductions a schedule sums in L lanes
        (`linalg_ext.LANE_WIDE`): an op at one of these locations, accumulating in f16, sums
        in that order as if it carried the mark (`--check` re-examining an f16 mismatch in
        the schedule's order, Decision 112). None: only the marks in the IR count.
    slice_width: lanes per slice for `spyreop.slice_reduction` (undocumented upstream).
    layernorm_eps: epsilon of `spyreop.layernormscale` (None: intrinsics.LAYERNORM_EPS).
    max_ops: give up (located error) after interpreting this many ops (None: no limit).
    max_elements: refuse (located error) a kernel whose buffers hold more elements in all
        (inputs and outputs are dense arrays; None: no limit).
    """

    unit: str = "byte"
    check_races: bool = True
    out_of_bounds: str = "mask"
    accumulate: str | None = "f32"
    reduction_lanes: dict[tuple, int] | None = None
    slice_width: int | None = None
    layernorm_eps: float | None = None
    max_ops: int | None = 20_000_000
    max_elements: int | None = 1 << 26


@dataclass
class State:
    """What the ops of one run share (hung on the interpreter as `interpreter.state`)."""

    options: Options
    grid: tuple[int, ...] = (1,)
    tile_coords: tuple[int, ...] = (0,)
    tile_index: int = 0
    global_memory: Memory | None = None
    scratchpads: dict[int, Memory] = field(default_factory=dict)
    probe: bool = False  # layout dry run: memories store nothing
    views: list[Any] = field(default_factory=list)  # dry run: ViewRecord-like tuples
    index_stack: list[list[Any]] = field(default_factory=list)  # linalg.index values
    stop_after: Any = None  # layout dry run: the op after which a tile has built all its views
    widen: Any = None  # ElementType a reduction body computes in (linalg_impl), else None
    warnings: list[Any] = field(default_factory=list)  # Diagnostics, one per op and message
    _warned: set = field(default_factory=set)
    ops_run: int = 0

    @property
    def num_tiles(self) -> int:
        return int(np.prod(self.grid, dtype=np.int64))

    def warn(self, op: Operation, message: str) -> None:
        """A located warning, once per op and message (not during the layout dry run)."""
        if self.probe or (id(op), message) in self._warned:
            return
        from dfsched.diagnostics import make_diagnostic

        self._warned.add((id(op), message))
        self.warnings.append(make_diagnostic(op, message, "warning"))

    def scratchpad(self, tile: int) -> Memory:
        mem = self.scratchpads.get(tile)
        if mem is None:
            mem = Memory(
                f"the scratchpad of compute tile {tile}",
                self.options.unit,
                None,
                probe=self.probe,
                track_races=self.options.check_races and not self.probe,
            )
            self.scratchpads[tile] = mem
        return mem


# ---------------------------------------------------------------------------------------
# value conventions
# ---------------------------------------------------------------------------------------


DYNAMIC = -(2**63)
"""MLIR's `ShapedType::kDynamic`: a shape or offset entry given by an operand."""


def per_op(interpreter: Any, op: Operation, compute: Callable[[Operation], Any]) -> Any:
    """`compute(op)`, remembered per op in the interpreter's `op_cache` when it has one.

    What is cached comes from the op's static attributes and types: the IR does not change
    while an interpreter runs it, and the cache lives and dies with the interpreter (a run),
    so keying by the op's identity is safe.
    """
    cache = getattr(interpreter, "op_cache", None)
    if cache is None:
        return compute(op)
    found = cache.get(id(op))
    if found is None:
        found = cache[id(op)] = compute(op)
    return found


def static_or_dynamic(static, dynamic) -> list[int]:
    """The entries of a static list with each `DYNAMIC` one taken, in order, from `dynamic`."""
    it = iter(dynamic)
    return [int(next(it)) if s == DYNAMIC else int(s) for s in static]


def is_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.ndim > 0


def to_python(value: Any, t: Attribute) -> Any:
    """Give a computed value the conventional representation of type `t`.

    Arrays with dimensions stay arrays (a tensor, or a vectorised body value); 0-d
    values of scalar types become `int`/`bool`/numpy scalars.
    """
    if isinstance(t, ShapedType):
        et = element_type(t)
        arr = np.asarray(value)
        return arr if arr.dtype == et.dtype else arr.astype(et.dtype)
    et = element_type(t)
    arr = np.asarray(value)
    if arr.ndim > 0:
        return arr if arr.dtype == et.dtype else et.cast(arr)
    if et.kind in ("int", "uint", "index"):
        return int(arr)
    if et.kind == "bool":
        return bool(arr)
    return et.dtype.type(et.cast(arr)[()])


def operand_values(op: Operation, args: tuple[Any, ...]) -> dict[Any, Any]:
    """SSA value -> Python value for the operands of `op` (for ops with variadic groups)."""
    return {operand: value for operand, value in zip(op.operands, args)}


# ---------------------------------------------------------------------------------------
# registering implementations by op name
# ---------------------------------------------------------------------------------------

ImplFn = Callable[[Any, Any, Operation, tuple[Any, ...]], Any]


def functions_for(
    cls_name: str, table: dict[str, ImplFn], classes: Iterable[type[Operation]], base: type = InterpreterFunctions
) -> type[InterpreterFunctions]:
    """An `InterpreterFunctions` subclass implementing every class whose `.name` is in `table`.

    Several classes may share a name (xDSL's own op and a dfsched subclass of it): each gets
    the implementation. Terminators are registered with `impl_terminator`.
    """
    namespace: dict[str, Any] = {}
    for i, cls in enumerate(classes):
        fn = table.get(cls.name)
        if fn is None:
            continue
        terminator = cls.has_trait(IsTerminator)
        wrapped = (impl_terminator if terminator else impl)(cls)(fn)
        # what the wrapper calls, so an interpreter may call it without the wrapper
        wrapped.dfsched_unwrapped = (fn, terminator)
        namespace[f"_impl_{i}_{cls.__name__}"] = wrapped
    return register_impls(type(cls_name, (base,), namespace))


def defined_inside(value: SSAValue, root: Operation) -> bool:
    """Whether `value` is defined by an op or block nested in `root` (or by `root` itself)."""
    owner = value.owner
    node = owner.parent_op() if isinstance(owner, Block) else owner
    while node is not None:
        if node is root:
            return True
        node = node.parent_op()
    return False
