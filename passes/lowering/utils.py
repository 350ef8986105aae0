"""Helpers shared by the backend passes (`docs/passes.md#ktdf-to-ktdflowering`).

* **Building**: `Inserter` (insert ops in order at one place, each taking a source
  location), `index_constant`.
* **Device**: `device_model` (the device a module runs on, or a located error).
* **Grid**: `one_d_grid_size` (the 1-D `grid` of a program function, with its diagnostics).
* **Units**: `unit_type_tag` (the lower-case `type` of a `dataflow.get_unit` for a kind or a
  memory space), `make_unit`, `kind_of` (the spec's kindOf: the device kind behind a unit
  query or a `get_unit`), `core_of` / `corelet_of`.
* **Stages**: `stages_post_order`, `pipelines_post_order`, `direct_stages`,
  `parallel_parent`, the token DAG of one pipeline (`analyze_stage_dependencies`,
  `topological_sort`), the root/leaf stages of a stage that wraps a pipeline, the global
  DAG over leaf stages (`build_global_stage_dag`), `op_positions` for IR order.
* **Memory**: `memref_aliases`, `region_writes_to` (upstream's write-set scan), `static_trip_count`.
* **Bounds**: `value_bounds` / `constant_upper_bound` (closed integer ranges of index values:
  constants, affine.apply/min, arith, loop induction variables, derive_size).

Everything iterates in IR order (Decision 5): maps are keyed by ops or values but only ever
walked in the order their keys were inserted, which is IR order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, MemRefType, StringAttr, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.rewriter import InsertPoint, Rewriter

from dfsched.diagnostics import error
from dfsched.dialects import ktdf
from dfsched.passes.constants import constant_int

# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


@dataclass
class Inserter:
    """Inserts ops one after the other at a fixed place; every op gets `location`."""

    point: InsertPoint
    location: Operation | None = None

    @classmethod
    def before(cls, op: Operation, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.before(op), location or op)

    @classmethod
    def after(cls, op: Operation, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.after(op), location or op)

    @classmethod
    def at_start(cls, block: Block, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.at_start(block), location)

    @classmethod
    def at_end(cls, block: Block, location: Operation | None = None) -> Inserter:
        return cls(InsertPoint.at_end(block), location)

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        if self.location is not None:
            op.location = self.location.location
        return op


def index_constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


# ---------------------------------------------------------------------------
# Device
# ---------------------------------------------------------------------------

NO_DEVICE = ("Unable to import the device specification. This could happen if the device spec file is "
             "empty or contains multiple devices")


def device_model(module: Operation, device: str | None = None, message: str = NO_DEVICE):
    """The `DeviceModel` of the device `module` runs on (its own, else `--device`)."""
    from dfsched.arch.loading import device_model_for

    model = device_model_for(module, device=device)
    if model is None:
        raise error(module, message)
    return model


# ---------------------------------------------------------------------------
# Grid
# ---------------------------------------------------------------------------


MISSING_GRID = ("Function missing 'grid' attribute: a kernel declares its compute grid, "
                "e.g. `func.func @k(...) attributes {grid = [4]}`")


def one_d_grid_size(function: func.FuncOp) -> int:
    """The number of cores a program runs on: its 1-D `grid`."""
    grid = function.attributes.get("grid")
    if grid is None:
        raise error(function, MISSING_GRID)
    if not isinstance(grid, ArrayAttr):
        raise error(function, "Function 'grid' attribute must be an array of integers")
    if len(grid.data) != 1:
        raise error(function, f"Only 1D grids supported in Phase 1 (got {len(grid.data)}D grid)")
    size = grid.data[0]
    if not isinstance(size, IntegerAttr):
        raise error(function, "Grid size must be integer attribute")
    if size.value.data <= 0:
        raise error(function, f"Grid size must be positive (got {size.value.data})")
    return size.value.data


# ---------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------


def unit_type_tag(kind: Attribute | str) -> str:
    """The `type` of a `dataflow.get_unit` for a kind: lower case.

    `#ktdp.memory_space<global>` / `<ct_local>` are spelled `hbm` / `lx` (what DFIR code
    generation expects); any other attribute is its printed form, lower-cased.
    """
    if isinstance(kind, str):
        return kind.lower()
    if isinstance(kind, StringAttr):
        return kind.data.lower()
    if kind.name == "ktdp.memory_space":
        space = getattr(kind, "kind", None)
        name = space.data if isinstance(space, StringAttr) else str(space)
        if name == "global":
            return "hbm"
        if name == "ct_local":
            return "lx"
    from dfsched.dialects.ktdf_arch import attribute_text

    return attribute_text(kind).lower()


def unit_name(tag: str, core: int | None = None, corelet: int | None = None) -> str:
    """`C<core>-<tag>[-CL<corelet>]`, or the bare tag for a unit that belongs to no core."""
    name = tag if core is None else f"C{core}-{tag}"
    return name if corelet is None else f"{name}-CL{corelet}"


def make_unit(name: str, tag: str, core: int | None = None, corelet: int | None = None):
    """`dataflow.get_unit {core = c : i32, corelet = k : i32, name = ..., type = ...} : index`."""
    from dfsched.dialects.dataflow import GetUnitOp

    attrs: dict[str, Attribute] = {}
    if core is not None:
        attrs["core"] = IntegerAttr(core, i32)
    if corelet is not None:
        attrs["corelet"] = IntegerAttr(corelet, i32)
    return GetUnitOp(name, tag, attributes=attrs)


def get_unit_of(value: SSAValue):
    """The `dataflow.get_unit` a unit value stands for: itself, or the first value of the map a
    `uniform.query_map` reads (None for anything else)."""
    from dfsched.dialects.dataflow import GetUnitOp
    from dfsched.dialects.uniform import DefImmutableMappingOp, QueryMapOp

    owner = value.owner
    if isinstance(owner, QueryMapOp):
        table = owner.map.owner
        if not isinstance(table, DefImmutableMappingOp) or not table.values:
            return None
        owner = table.values[0].owner
    return owner if isinstance(owner, GetUnitOp) else None


def kind_of(value: SSAValue) -> str | None:
    """The device kind of a unit value: its `get_unit`'s `type`, upper-cased (kindOf)."""
    unit = get_unit_of(value)
    return unit.unit_type.data.upper() if unit is not None else None


def core_of(unit) -> int | None:
    return unit.core


def corelet_of(unit) -> int:
    """The unit's corelet, -1 when it has none (memory units)."""
    corelet = unit.corelet
    return -1 if corelet is None else corelet


# ---------------------------------------------------------------------------
# Walking
# ---------------------------------------------------------------------------


def post_order(root: Operation) -> Iterator[Operation]:
    """Ops under `root` (and `root` last), nested ops before the op holding them (MLIR's walk)."""
    return root.walk(region_first=True)


def stages_post_order(root: Operation) -> list[ktdf.StageOp]:
    """Every stage under `root`; a stage holding pipelines comes after their stages."""
    return [op for op in post_order(root) if isinstance(op, ktdf.StageOp)]


def pipelines_post_order(root: Operation) -> list[ktdf.PipelineOp]:
    return [op for op in post_order(root) if isinstance(op, ktdf.PipelineOp)]


def direct_stages(pipeline: ktdf.PipelineOp) -> list[ktdf.StageOp]:
    return [op for op in pipeline.body.block.ops if isinstance(op, ktdf.StageOp)]


def parallel_parent(op: Operation) -> ktdf.ParallelOp | None:
    """The nearest `ktdf.parallel` around `op`."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ktdf.ParallelOp):
        parent = parent.parent_op()
    return parent


def op_positions(root: Operation) -> dict[Operation, int]:
    """Pre-order position of every op under `root`: the IR order used to sort."""
    return {op: i for i, op in enumerate(root.walk())}


def function_parent(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


# ---------------------------------------------------------------------------
# Stage dependency DAGs
# ---------------------------------------------------------------------------


@dataclass
class StageDAG:
    """Edges between stages; successor and predecessor lists keep insertion order, no duplicates."""

    successors: dict[Operation, list[Operation]] = field(default_factory=dict)
    predecessors: dict[Operation, list[Operation]] = field(default_factory=dict)

    def add_node(self, stage: Operation) -> None:
        self.successors.setdefault(stage, [])
        self.predecessors.setdefault(stage, [])

    def add_edge(self, producer: Operation, consumer: Operation) -> None:
        self.add_node(producer)
        self.add_node(consumer)
        if consumer not in self.successors[producer]:
            self.successors[producer].append(consumer)
            self.predecessors[consumer].append(producer)

    def has_edge(self, producer: Operation, consumer: Operation) -> bool:
        return consumer in self.successors.get(producer, ())

    def edges(self) -> list[tuple[Operation, Operation]]:
        return [(p, c) for p, succs in self.successors.items() for c in succs]

    def edges_in_ir_order(self, position: dict[Operation, int]) -> list[tuple[Operation, Operation]]:
        """Edges sorted by the producer's IR position, then the consumer's."""
        return sorted(self.edges(), key=lambda e: (position[e[0]], position[e[1]]))


class CircularDependency(Exception):
    def __init__(self, stage: ktdf.StageOp):
        super().__init__("Circular token dependency detected in pipeline")
        self.stage = stage


def analyze_stage_dependencies(stages: Sequence[ktdf.StageOp]) -> StageDAG:
    """Producer→consumer edges of the stages of one pipeline, from their tokens.

    A token in a stage's `depends_in` connects it to the stage listing the token in
    `depends_out` (the last such stage). Raises `CircularDependency` on a cycle.
    """
    dag = StageDAG()
    producer: dict[SSAValue, ktdf.StageOp] = {}
    for stage in stages:
        dag.add_node(stage)
        for token in stage.depends_out:
            producer[token] = stage
    for stage in stages:
        for token in stage.depends_in:
            if token in producer:
                dag.add_edge(producer[token], stage)
    _check_acyclic(stages, dag)
    return dag


def _check_acyclic(stages: Sequence[ktdf.StageOp], dag: StageDAG) -> None:
    color: dict[Operation, int] = {}  # absent: unvisited, 1: on the stack, 2: done
    for start in stages:
        if start in color:
            continue
        stack: list[tuple[Operation, Iterator[Operation]]] = [(start, iter(dag.successors[start]))]
        color[start] = 1
        while stack:
            node, successors = stack[-1]
            nxt = next(successors, None)
            if nxt is None:
                color[node] = 2
                stack.pop()
            elif color.get(nxt) == 1:
                raise CircularDependency(start)
            elif nxt not in color:
                color[nxt] = 1
                stack.append((nxt, iter(dag.successors[nxt])))


def topological_sort(stages: Sequence[ktdf.StageOp], dag: StageDAG) -> list[ktdf.StageOp] | None:
    """Kahn's algorithm with a FIFO queue seeded in stage order (None if a cycle remains)."""
    in_degree = {s: len(dag.predecessors.get(s, ())) for s in stages}
    queue = [s for s in stages if in_degree[s] == 0]
    order: list[ktdf.StageOp] = []
    while queue:
        current = queue.pop(0)
        order.append(current)
        for succ in dag.successors.get(current, ()):
            in_degree[succ] -= 1
            if in_degree[succ] == 0:
                queue.append(succ)
    return order if len(order) == len(stages) else None


def nested_pipeline(stage: ktdf.StageOp) -> ktdf.PipelineOp | None:
    """The first pipeline a post-order walk of `stage` reaches (the deepest on the first path)."""
    for op in post_order(stage):
        if isinstance(op, ktdf.PipelineOp):
            return op
    return None


def root_stages(stage: ktdf.StageOp) -> list[ktdf.StageOp]:
    """The leaf stages that start `stage`: itself, or the roots of its nested pipeline's sources."""
    return _boundary_stages(stage, sources=True)


def leaf_stages(stage: ktdf.StageOp) -> list[ktdf.StageOp]:
    """The leaf stages that end `stage`: itself, or the leaves of its nested pipeline's sinks."""
    return _boundary_stages(stage, sources=False)


def _boundary_stages(stage: ktdf.StageOp, sources: bool) -> list[ktdf.StageOp]:
    inner_pipeline = nested_pipeline(stage)
    if inner_pipeline is None:
        return [stage]
    inner = direct_stages(inner_pipeline)
    try:
        dag = analyze_stage_dependencies(inner)
    except CircularDependency:
        return [stage]
    result: list[ktdf.StageOp] = []
    for s in inner:
        neighbours = dag.predecessors[s] if sources else dag.successors[s]
        if not neighbours:
            result.extend(_boundary_stages(s, sources))
    return result


def build_global_stage_dag(root: Operation) -> StageDAG:
    """Edges between leaf stages across every nesting level under `root`.

    Pipelines are taken outermost first; each local edge P→C of a pipeline adds
    leaves(P) × roots(C). Raises `CircularDependency` when a pipeline has a token cycle.
    """
    dag = StageDAG()
    for pipeline in reversed(pipelines_post_order(root)):
        stages = direct_stages(pipeline)
        if not stages:
            continue
        local = analyze_stage_dependencies(stages)
        for producer, consumer in local.edges():
            for leaf in leaf_stages(producer):
                for first in root_stages(consumer):
                    dag.add_edge(leaf, first)
    return dag


# ---------------------------------------------------------------------------
# Memory aliasing and writers
# ---------------------------------------------------------------------------

ALIASING_OPS = frozenset({"memref.cast", "memref.view", "memref.subview", "memref.reinterpret_cast",
                          "memref.memory_space_cast"})


def memref_aliases(memref: SSAValue) -> list[SSAValue]:
    """`memref` and every value derived from it through memref casts and views."""
    found: list[SSAValue] = []
    seen: set[SSAValue] = set()
    worklist = [memref]
    while worklist:
        value = worklist.pop()
        if value in seen:
            continue
        seen.add(value)
        found.append(value)
        for use in value.uses:
            if use.operation.name in ALIASING_OPS:
                worklist.extend(use.operation.results)
    return found


def writes_to(op: Operation, aliases: Iterable[SSAValue]) -> bool:
    """True when `op` writes through one of `aliases` (data transfers, memref.store, linalg inits)."""
    targets = set(aliases)
    if isinstance(op, ktdf.DataTransferOp):
        return op.destination in targets and not isinstance(op.destination.type, ktdf.FifoSlotType)
    if op.name == "memref.store":
        return len(op.operands) >= 2 and op.operands[1] in targets
    if op.name.startswith("linalg.") and hasattr(op, "outputs"):
        return any(v in targets for v in op.outputs)
    return False


def memref_root(memref: SSAValue) -> SSAValue:
    """The value `memref` is derived from through memref casts and views (itself if none)."""
    while isinstance(memref, OpResult) and memref.op.name in ALIASING_OPS and memref.op.operands:
        memref = memref.op.operands[0]
    return memref


def reads_from(op: Operation) -> list[SSAValue]:
    """The memrefs `op` reads (non-FIFO transfer sources, memref.load/copy, linalg inputs, memref
    data written to a FIFO)."""
    if isinstance(op, ktdf.DataTransferOp):
        return [] if isinstance(op.source.type, ktdf.FifoSlotType) else [op.source]
    if op.name in ("memref.load", "memref.copy", "ktdf.write_to_fifo"):
        candidates = list(op.operands[:1])
    elif op.name.startswith("linalg.") and hasattr(op, "inputs"):
        candidates = list(op.inputs)
    else:
        return []
    return [v for v in candidates if isinstance(v.type, MemRefType)]


def region_writes_to(region_holder: Operation, memref: SSAValue) -> bool:
    """True when an op inside `region_holder` writes through `memref` or an alias of it."""
    aliases = memref_aliases(memref)
    return any(writes_to(op, aliases) for op in region_holder.walk() if op is not region_holder)


def static_trip_count(loop: scf.ForOp) -> int | None:
    lb, ub, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


# ---------------------------------------------------------------------------
# Bounds of index values
# ---------------------------------------------------------------------------

Range = tuple[int | None, int | None]  # closed [low, high]; None is unbounded


def constant_upper_bound(value: SSAValue) -> int | None:
    """A constant closed upper bound of an integer value, if one can be shown."""
    return value_bounds(value)[1]


def value_bounds(value: SSAValue, depth: int = 0) -> Range:
    """Closed bounds of an integer/index value from the ops that compute it."""
    if depth > 64:
        return (None, None)
    constant = constant_int(value)
    if constant is not None:
        return (constant, constant)
    if isinstance(value, BlockArgument):
        return _block_argument_bounds(value, depth)
    if not isinstance(value, OpResult):
        return (None, None)
    op = value.op
    handler = _BOUNDS.get(op.name)
    if handler is None:
        return (None, None)
    return handler(op, depth + 1)


def _block_argument_bounds(arg: BlockArgument, depth: int) -> Range:
    loop = arg.block.parent_op()
    if isinstance(loop, scf.ForOp) and arg.index == 0:
        low = value_bounds(loop.lb, depth + 1)[0]
        high = value_bounds(loop.ub, depth + 1)[1]
        return (low, None if high is None else high - 1)
    return (None, None)


def _operand_bounds(op: Operation, depth: int) -> list[Range]:
    return [value_bounds(v, depth) for v in op.operands]


def _add(a: Range, b: Range) -> Range:
    return (None if a[0] is None or b[0] is None else a[0] + b[0],
            None if a[1] is None or b[1] is None else a[1] + b[1])


def _neg(a: Range) -> Range:
    return (None if a[1] is None else -a[1], None if a[0] is None else -a[0])


def _mul(a: Range, b: Range) -> Range:
    if None in a or None in b:
        if a == (0, 0) or b == (0, 0):
            return (0, 0)
        return (None, None)
    products = [x * y for x in a for y in b]  # type: ignore[operator]
    return (min(products), max(products))


def _div(a: Range, divisor: int, ceil: bool) -> Range:
    if divisor <= 0:
        return (None, None)

    def q(x: int | None) -> int | None:
        if x is None:
            return None
        return -(-x // divisor) if ceil else x // divisor

    return (q(a[0]), q(a[1]))


def _rem(a: Range, modulus: int) -> Range:
    if modulus <= 0:
        return (None, None)
    if a[0] is not None and a[0] >= 0:
        high = modulus - 1 if a[1] is None else min(a[1], modulus - 1)
        return (0, high)
    return (-(modulus - 1), modulus - 1)


def _min(ranges: Sequence[Range]) -> Range:
    lows = [r[0] for r in ranges]
    highs = [r[1] for r in ranges if r[1] is not None]
    return (None if None in lows else min(lows), min(highs) if highs else None)  # type: ignore[type-var]


def _max(ranges: Sequence[Range]) -> Range:
    lows = [r[0] for r in ranges if r[0] is not None]
    highs = [r[1] for r in ranges]
    return (max(lows) if lows else None, None if None in highs else max(highs))  # type: ignore[type-var]


def expr_bounds(expr: AffineExpr, dims: Sequence[Range], symbols: Sequence[Range]) -> Range:
    """Interval evaluation of an affine expression."""
    if isinstance(expr, AffineConstantExpr):
        return (expr.value, expr.value)
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else (None, None)
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position] if expr.position < len(symbols) else (None, None)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = expr_bounds(expr.lhs, dims, symbols)
        rhs = expr_bounds(expr.rhs, dims, symbols)
        if expr.kind == AffineBinaryOpKind.Add:
            return _add(lhs, rhs)
        if expr.kind == AffineBinaryOpKind.Mul:
            return _mul(lhs, rhs)
        if rhs[0] is not None and rhs[0] == rhs[1]:
            if expr.kind == AffineBinaryOpKind.FloorDiv:
                return _div(lhs, rhs[0], ceil=False)
            if expr.kind == AffineBinaryOpKind.CeilDiv:
                return _div(lhs, rhs[0], ceil=True)
            if expr.kind == AffineBinaryOpKind.Mod:
                return _rem(lhs, rhs[0])
    return (None, None)


def _affine_results(op: Operation, depth: int) -> list[Range]:
    amap = op.properties["map"].data if "map" in op.properties else op.attributes["map"].data  # type: ignore[attr-defined]
    bounds = _operand_bounds(op, depth)
    dims, symbols = bounds[: amap.num_dims], bounds[amap.num_dims:]
    return [expr_bounds(e, dims, symbols) for e in amap.results]


def _binary(combine: Callable[[Range, Range], Range]) -> Callable[[Operation, int], Range]:
    def handler(op: Operation, depth: int) -> Range:
        lhs, rhs = _operand_bounds(op, depth)[:2]
        return combine(lhs, rhs)

    return handler


def _by_constant(combine: Callable[[Range, int], Range]) -> Callable[[Operation, int], Range]:
    def handler(op: Operation, depth: int) -> Range:
        lhs = value_bounds(op.operands[0], depth)
        rhs = constant_int(op.operands[1])
        return (None, None) if rhs is None else combine(lhs, rhs)

    return handler


def _derive_size_bounds(op: Operation, depth: int) -> Range:
    tile = value_bounds(op.tile_sizes[-1], depth)  # type: ignore[attr-defined]
    total = value_bounds(op.total_size, depth)  # type: ignore[attr-defined]
    return _min([(0, tile[1]), (0, total[1])])


_BOUNDS: dict[str, Callable[[Operation, int], Range]] = {
    "affine.apply": lambda op, depth: _affine_results(op, depth)[0],
    "affine.min": lambda op, depth: _min(_affine_results(op, depth)),
    "affine.max": lambda op, depth: _max(_affine_results(op, depth)),
    "arith.addi": _binary(_add),
    "arith.subi": _binary(lambda a, b: _add(a, _neg(b))),
    "arith.muli": _binary(_mul),
    "arith.minsi": _binary(lambda a, b: _min([a, b])),
    "arith.minui": _binary(lambda a, b: _min([a, b])),
    "arith.maxsi": _binary(lambda a, b: _max([a, b])),
    "arith.maxui": _binary(lambda a, b: _max([a, b])),
    "arith.divui": _by_constant(lambda a, c: _div(a, c, ceil=False)),
    "arith.floordivsi": _by_constant(lambda a, c: _div(a, c, ceil=False)),
    "arith.ceildivsi": _by_constant(lambda a, c: _div(a, c, ceil=True)),
    "arith.ceildivui": _by_constant(lambda a, c: _div(a, c, ceil=True)),
    "arith.remui": _by_constant(_rem),
    "arith.index_cast": lambda op, depth: value_bounds(op.operands[0], depth),
    "ktdf.tiling.derive_size": _derive_size_bounds,
}

