"""`tile-size-selection`: give every `ktdf.tiling.reserve_size` a concrete size
(`docs/passes.md#tile-size-selection`, with the scratchpad budget upstream leaves as a TODO).

**Which placeholders.** A placeholder is resolved through the loops it tiles: each
`arith.ceildivui %total, %placeholder` with a constant `%total` whose result is the upper bound
of an `scf.for` (or of a `ktdf.parallel`, which `parallelize-loops-across-instances` may have
made of that loop) associates that loop and its total with the placeholder. A placeholder with
no associated loop is left in the IR, as upstream does.

**Candidates.** Sizes `c >= max(1, min_value)` that are multiples of `divisibility` (when it is
above 1) and divide every associated total, largest first. None at all is an error naming the
constraints.

**What must fit** (a hard constraint for every strategy; upstream only tries 2 and then 1),
per program (the enclosing `func.func`) and per scratchpad memory the device declares with a size (a memory of depth 1 in
the memory tree, found through the buffer's memory space and the device's
`mem_space_mapping`):

* every `memref.alloc`/`memref.alloca` of the program in that memory, all counted as live at
  once: `address-assignment` gives each allocation its own address range and never reuses one,
  so their sum is what has to fit;
* a buffer's bytes are the product of its dimensions times its element size (`ceil(bits/8)`).
  A dynamic dimension counts with its largest value, computed from its size operand with the
  chosen sizes in place (constants, the placeholders, loop induction variables over their
  bounds, `arith` integer ops, `affine.apply/min/max`, `ktdf.tiling.derive_size` (at most its
  last tile size and its total) and `ktdf.tiling.linearize_index`);
* copies: a buffer allocated inside `ktdf.parallel ... distribute(num_instances = N)` exists
  once per instance (N times); a buffer allocated inside a `ktdf.pipeline modulo(size : M)`
  exists once per rolling resource set (M times), except a buffer that is itself one of the
  copies a `ktdf.select_memref` picks from (double buffering already allocated each copy).

**Strategies** (`strategy=`, Decision 11):

* `largest`: the largest tile that fits. With several placeholders in a program they are chosen
  one at a time, the innermost tiled dimension first (reverse IR order: tiling emits a nest's
  placeholders outermost first): a tile spanning whole rows of the innermost dimension is one
  contiguous block, which moves in a single transfer. Each takes the largest candidate that
  fits while the ones already chosen keep their size and the ones still open take their
  smallest candidate. If a size fits at all, this finds one. Every strategy starts here.
* `model` (the default): the fitting size combination with the fewest cycles predicted by
  `tile_cost_model.py` (transfer, FIFO and compute time per tile from the device description,
  pipeline fill and drain, handshakes, overlap from double buffering and corelets); ties keep
  the larger tiles. The largest tile is rarely the fastest: its first load and last store
  overlap nothing. Without a device there is nothing to predict with and `largest` stands.
* `search`: the best `search-limit` combinations by the model (4; 0 for all) and the largest are
  compiled through the rest of the pipeline and simulated; the fastest is kept. A pass may not
  import the simulator, so a tool supplies the judge (`tools/tile_search.py`, attached by
  `dfsched-opt`/`dfsched`/`dfsched-run` to every `search` instance); a candidate that fails to
  compile or run is skipped.

**Bounded time.** The model ranks every combination of a program's candidates when there are
at most `MAX_COMBINATIONS` (512), else it runs a coordinate descent from the largest choice
(each placeholder in turn over its candidates, the others fixed, at most `DESCENT_ROUNDS` (3)
sweeps); one prediction is one walk of the program. `search` simulates at most
`search-limit` + 1 schedules per program.

**Report.** The pass appends a `TileDecision` per program to its `decisions` list: the
placeholders' locations, the ranked candidates (`Candidate(sizes, predicted, simulated)`) and
the chosen sizes (for `--report` and the benchmarks).

**Diagnostics** (on the placeholder unless said otherwise): no candidate satisfies the
constraints; no candidate fits (the sizes tried, the bytes needed with the smallest, and the
capacity); a scratchpad buffer whose size cannot be bounded (on the buffer); buffers in memory
spaces but no device to read capacities from (`--device` supplies one).

**Before tiling.** `whole_loop_fits` applies the same budget to a loop that is not tiled yet
(every buffer allocated inside it grown by its trip count): `tile-scf-for-loops
{tile-single-loops}` tiles a lone loop only when it may not fit whole.

**Output.** Each resolved placeholder becomes `arith.constant <size> : index` in its place.
When the size divides a tiled loop's total, every tile is full, so a `derive_size [%t : size],
total_size = total` of that loop's index `%t` (0 .. ceildivui(total, size) by 1) is replaced by
the size itself (upstream keeps it, and with it a loop-dependent bound the backend's
`ktdf.parallel` lowering rejects). `canonicalize` then folds the bounds, the remaining
`derive_size`s and the dynamic allocations.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    FixedBitwidthType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import IsolatedFromAbove

from dfsched.arch.model import SCRATCHPAD, DeviceModel, Memory
from dfsched.diagnostics import DiagnosticError, error, location_of
from dfsched.dialects import ktdf
from dfsched.dialects.constants import static_trip_count
from dfsched.dialects.ktdf_arch import attribute_text
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.scheduling.tile_cost_model import TileCostModel
from dfsched.passes.scheduling.tiling_utils import constant_index_value, insert_before
from dfsched.passes.value_bounds import known_bounds, upper_bound

PASS = "tile-size-selection"


STRATEGIES = ("largest", "model", "search")
MAX_COMBINATIONS = 512
"""Size combinations of one program the model ranks exhaustively; beyond, one placeholder at a
time (coordinate descent from the largest choice, at most `DESCENT_ROUNDS` sweeps)."""
DESCENT_ROUNDS = 3

Evaluator = Callable[[ModuleOp], "int | None"]
"""Simulated cycles of a module whose placeholders have sizes (None: it failed to compile or run)."""


@dataclass(frozen=True)
class Candidate:
    sizes: tuple[int, ...]  # one per placeholder of the program, in IR order
    predicted: int | None  # the cost model's cycles (None without a device)
    simulated: int | None = None  # `search` only: the simulator's cycles, when it ran


@dataclass
class TileDecision:
    """What the pass chose for one program: for `--report` and the benchmarks."""

    program: str
    strategy: str
    placeholders: list[str]  # "file:line:col" of each placeholder, in IR order
    candidates: list[Candidate]  # the fitting combinations ranked, best first (`largest`: the one chosen)
    chosen: tuple[int, ...]


@dataclass(frozen=True)
class TileSizeSelection(DevicePass):
    """Give each tile-size placeholder the largest size whose buffers fit the scratchpad."""

    name = "tile-size-selection"


    strategy: str = "model"
    """`largest`, `model` (the default) or `search` (module docstring)."""

    search_limit: int = 4
    """`search`: how many combinations (the best by the model) are simulated; 0 for all."""

    def __post_init__(self):
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not '{self.strategy}'")
        if self.search_limit < 0:
            raise ValueError("search-limit must be 0 (all) or positive")
        object.__setattr__(self, "evaluate", None)
        object.__setattr__(self, "decisions", [])

    def with_evaluator(self, evaluate: Evaluator) -> TileSizeSelection:
        """A copy whose `search` simulates through `evaluate` (a tool supplies it: passes do not
        import the simulator)."""
        copy = dataclasses.replace(self)
        object.__setattr__(copy, "evaluate", evaluate)
        return copy

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        placeholders = [r for r in op.walk() if isinstance(r, ktdf.TilingReserveSizeOp)]
        for program, members in group_by_program(placeholders):
            tiles = [Placeholder.of(r) for r in members]
            tiles = [t for t in tiles if t.loops]  # the others stay, as upstream
            if not tiles:
                continue
            budget = ScratchpadBudget.of(program, tiles[0].op, self.device)
            choose_sizes(tiles, budget)
            self.decisions.append(self.rank(op, program, tiles, budget))
            for tile in tiles:
                replace_with_constant(tile)

    def rank(self, root: ModuleOp, program: Operation, tiles: list[Placeholder],
             budget: ScratchpadBudget) -> TileDecision:
        """Re-choose `tiles` (already holding the largest fitting sizes) by predicted, or for
        `search` simulated, cycles."""
        from dfsched.arch.loading import device_model_for

        largest = tuple(t.size for t in tiles)
        name = program.sym_name.data if isinstance(program, func.FuncOp) else program.name
        places = [_location(t.op) for t in tiles]
        model = None if self.strategy == "largest" else device_model_for(tiles[0].op, device=self.device)
        if model is None:  # `largest`, or nothing to predict with: the largest stays
            return TileDecision(name, self.strategy, places, [Candidate(largest, None)], largest)
        cost = TileCostModel(program, model, known_bounds)
        ranked = rank_combinations(tiles, budget, cost, largest)
        if self.strategy == "search":
            ranked = self.simulate(root, tiles, ranked, largest)
        for tile, size in zip(tiles, ranked[0].sizes):
            tile.size = size
        return TileDecision(name, self.strategy, places, ranked, ranked[0].sizes)

    def simulate(self, root: ModuleOp, tiles: list[Placeholder], ranked: list[Candidate],
                 largest: tuple[int, ...]) -> list[Candidate]:
        """The best `search_limit` by the model (and the largest) simulated, fastest first."""
        evaluate = getattr(self, "evaluate", None)
        if evaluate is None:
            raise error(tiles[0].op, f"{PASS}: strategy=search needs a simulator to judge the candidates "
                                     "(dfsched-opt and dfsched supply one)")
        limit = len(ranked) if self.search_limit == 0 else self.search_limit
        chosen = ranked[:limit] + [c for c in ranked[limit:] if c.sizes == largest]
        order = [r for r in root.walk() if isinstance(r, ktdf.TilingReserveSizeOp)]
        indices = [order.index(t.op) for t in tiles]
        judged = []
        for candidate in chosen:
            clone = root.clone()
            ops = [r for r in clone.walk() if isinstance(r, ktdf.TilingReserveSizeOp)]
            for index, size in zip(indices, candidate.sizes):
                copy = Placeholder.of(ops[index])
                copy.size = size
                replace_with_constant(copy)
            judged.append(dataclasses.replace(candidate, simulated=evaluate(clone)))
        ran = [c for c in judged if c.simulated is not None]
        if not ran:
            raise error(tiles[0].op, f"{PASS}: strategy=search could not simulate any candidate "
                                     "(every one failed to compile or run)")
        ran.sort(key=lambda c: c.simulated)
        return ran + [c for c in judged if c.simulated is None] + [c for c in ranked[limit:] if c not in chosen]


# ---------------------------------------------------------------------------
# Placeholders, their loops and candidate sizes
# ---------------------------------------------------------------------------


@dataclass
class Placeholder:
    op: ktdf.TilingReserveSizeOp
    loops: list[tuple[Operation, int]]  # (tiled loop, total size)
    candidates: list[int] = field(default_factory=list)  # largest first
    size: int | None = None

    @classmethod
    def of(cls, op: ktdf.TilingReserveSizeOp) -> Placeholder:
        tile = cls(op, associated_loops(op.results[0]))
        if tile.loops:
            tile.candidates = candidate_sizes(tile)
        return tile

    @property
    def min_value(self) -> int:
        return self.op.min_value.value.data

    @property
    def divisibility(self) -> int:
        return self.op.divisibility.value.data

    @property
    def totals(self) -> list[int]:
        return [total for _, total in self.loops]


def associated_loops(size: SSAValue) -> list[tuple[Operation, int]]:
    """Loops bounded by `ceildivui(constant total, size)`, with the total, in use order."""
    found: list[tuple[Operation, int]] = []
    for use in list(size.uses):
        ceildiv = use.operation
        if not isinstance(ceildiv, arith.CeilDivUIOp) or use.index != 1:
            continue  # upstream: a placeholder used as the dividend stays unresolved here
        total = constant_index_value(ceildiv.lhs)
        if total is None:
            continue
        trips = ceildiv.results[0]
        for bound_use in list(trips.uses):
            loop = bound_use.operation
            if isinstance(loop, scf.ForOp) and loop.ub is trips:
                found.append((loop, total))
            elif isinstance(loop, ktdf.ParallelOp) and any(ub is trips for ub in loop.upper_bounds):
                found.append((loop, total))
    return found


def candidate_sizes(tile: Placeholder) -> list[int]:
    """Sizes satisfying the placeholder's constraints, largest first (error when none does)."""
    lowest = max(1, tile.min_value)
    common = abs(math.gcd(*tile.totals))
    if common == 0:  # loops without iterations: any size is right, take the smallest allowed
        step = max(1, tile.divisibility)
        return [-(-lowest // step) * step]
    divisors = sorted(common_divisors(common), reverse=True)
    sizes = [c for c in divisors if c >= lowest and (tile.divisibility <= 1 or c % tile.divisibility == 0)]
    if not sizes:
        totals = ", ".join(str(t) for t in tile.totals)
        raise error(tile.op, f"{PASS}: no tile size satisfies the constraints min_value = {tile.min_value}, "
                             f"divisibility = {tile.divisibility} and divides the tiled loop totals ({totals})")
    return sizes


def common_divisors(n: int) -> set[int]:
    """Every positive divisor of `n` > 0."""
    found: set[int] = set()
    for d in range(1, math.isqrt(n) + 1):
        if n % d == 0:
            found.update((d, n // d))
    return found


def group_by_program(ops: Sequence[Operation]) -> list[tuple[Operation, list[Operation]]]:
    """Placeholders grouped by the program holding them, in IR order."""
    groups: dict[Operation, list[Operation]] = {}
    for op in ops:
        groups.setdefault(program_of(op), []).append(op)
    return list(groups.items())


def program_of(op: Operation) -> Operation:
    """The enclosing `func.func`, else the nearest isolated op (the module at worst)."""
    parent = op.parent_op()
    fallback: Operation | None = None
    while parent is not None:
        if isinstance(parent, func.FuncOp):
            return parent
        if fallback is None and parent.has_trait(IsolatedFromAbove):
            fallback = parent
        parent = parent.parent_op()
    assert fallback is not None
    return fallback


def replace_with_constant(tile: Placeholder) -> None:
    assert tile.size is not None
    constant = insert_before(arith.ConstantOp(IntegerAttr(tile.size, IndexType())), tile.op)
    fold_full_tile_extents(tile, constant.results[0])
    tile.op.results[0].replace_all_uses_with(constant.results[0])
    Rewriter.erase_op(tile.op)


def fold_full_tile_extents(tile: Placeholder, size: SSAValue) -> None:
    """`derive_size [%t : placeholder], total_size = T` of a tile loop `%t` over T is the size
    itself when the size divides T: every tile is full."""
    totals = {iv: total for loop, total in tile.loops for iv in tiled_ivs(loop, tile.op.results[0])}
    for use in list(tile.op.results[0].uses):
        derive = use.operation
        if not isinstance(derive, ktdf.TilingDeriveSizeOp) or len(derive.ivs) != 1 or use.index != 1:
            continue
        total = totals.get(derive.ivs[0])
        if total is None or constant_index_value(derive.total_size) != total or total % tile.size:
            continue
        derive.results[0].replace_all_uses_with(size)
        Rewriter.erase_op(derive)


def tiled_ivs(loop: Operation, size: SSAValue) -> list[SSAValue]:
    """The induction variables of `loop` that run over `ceildivui(total, size)` from 0 by 1."""
    if isinstance(loop, scf.ForOp):
        bounds = [(loop.lb, loop.ub, loop.step, loop.body.block.args[0])]
    elif isinstance(loop, ktdf.ParallelOp):
        bounds = list(zip(loop.lower_bounds, loop.upper_bounds, loop.steps, loop.induction_vars))
    else:
        return []
    return [iv for lb, ub, step, iv in bounds
            if constant_index_value(lb) == 0 and constant_index_value(step) == 1
            and isinstance(ub.owner, arith.CeilDivUIOp) and ub.owner.rhs is size]


# ---------------------------------------------------------------------------
# The choice
# ---------------------------------------------------------------------------


def choose_sizes(tiles: list[Placeholder], budget: ScratchpadBudget) -> None:
    """Innermost dimension first, each the largest candidate that fits (module docstring)."""
    env: dict[Operation, int] = {t.op: t.candidates[-1] for t in tiles}
    budget.check_bounded(env)
    for tile in reversed(tiles):
        for size in tile.candidates:
            env[tile.op] = size
            if budget.fits(env):
                tile.size = size
                break
        else:
            env[tile.op] = tile.candidates[-1]
            raise budget.no_fit(tile, env)


def rank_combinations(tiles: list[Placeholder], budget: ScratchpadBudget, cost: TileCostModel,
                      largest: tuple[int, ...]) -> list[Candidate]:
    """Fitting size combinations by predicted cycles, best first; ties keep the larger tiles.

    Every combination when there are at most `MAX_COMBINATIONS`, else those met by a
    coordinate descent from the largest choice (module docstring): the time is bounded.
    """
    def predict(sizes: tuple[int, ...]) -> Candidate | None:
        env = {t.op: s for t, s in zip(tiles, sizes)}
        return Candidate(sizes, cost.cycles(env)) if budget.fits(env) else None

    seen: dict[tuple[int, ...], Candidate | None] = {}

    def judged(sizes: tuple[int, ...]) -> Candidate | None:
        if sizes not in seen:
            seen[sizes] = predict(sizes)
        return seen[sizes]

    if math.prod(len(t.candidates) for t in tiles) <= MAX_COMBINATIONS:
        for sizes in itertools.product(*(t.candidates for t in tiles)):
            judged(sizes)
    else:
        current = list(largest)
        for _ in range(DESCENT_ROUNDS):
            before = tuple(current)
            for position in reversed(range(len(tiles))):
                options = [judged(tuple(current[:position] + [c] + current[position + 1:]))
                           for c in tiles[position].candidates]
                best = min((c for c in options if c is not None), key=_rank_key)
                current = list(best.sizes)
            if tuple(current) == before:
                break
    found = [c for c in seen.values() if c is not None]
    if largest not in seen or seen[largest] is None:
        found.append(Candidate(largest, cost.cycles({t.op: s for t, s in zip(tiles, largest)})))
    return sorted(found, key=_rank_key)


def _rank_key(candidate: Candidate) -> tuple:
    return (candidate.predicted, tuple(-s for s in reversed(candidate.sizes)))


def _location(op: Operation) -> str:
    file, line, column = location_of(op)
    return f"{file}:{line}:{column}" if file is not None else "?"


# ---------------------------------------------------------------------------
# Before tiling: does a whole loop fit?
# ---------------------------------------------------------------------------


def whole_loop_fits(loop: scf.ForOp, device: str | None) -> bool:
    """True when the scratchpad buffers of `loop`'s program provably fit even if every one
    allocated inside `loop` grows by the loop's trip count, which is what `stage-coarsening`
    does to a pipeline's buffers when it sinks an untiled loop (an over-estimate: it grows only
    the buffers handed between its stage groups). False when that cannot be told: no device,
    a trip count that is not constant, a buffer without a static size. A loop holding no
    scratchpad buffer fits.

    `tile-scf-for-loops{tile-single-loops}` asks this before it tiles a lone loop: a loop that
    fits whole is left to `stage-coarsening` (as upstream leaves it), since a tile size
    chosen only afterwards would come too late for the passes in between (double buffering
    over the tile loop, the loop given to `ktdf.parallel`).
    """
    from dfsched.arch.loading import device_model_for

    trips = static_trip_count(loop)
    if trips is None or device_model_for(loop, device=device) is None:
        return False
    try:
        budget = ScratchpadBudget.of(program_of(loop), loop, device)
    except DiagnosticError:
        return False  # e.g. an element type without a size: this pass reports it later
    used: dict[str, int] = {}
    for buffer in budget.buffers:
        size = buffer.bytes({})
        if size is None:
            return False
        if loop.is_ancestor(buffer.op):
            size *= trips
        used[buffer.memory.kind] = used.get(buffer.memory.kind, 0) + size
    return all(used.get(kind, 0) <= capacity for kind, capacity in budget.capacities().items())


# ---------------------------------------------------------------------------
# What must fit
# ---------------------------------------------------------------------------


@dataclass
class Buffer:
    op: Operation
    memory: Memory
    copies: int
    dims: list[int | SSAValue]
    element_bytes: int

    def bytes(self, env: dict[Operation, int]) -> int | None:
        total = self.element_bytes * self.copies
        for position, dim in enumerate(self.dims):
            if isinstance(dim, int):
                total *= dim
                continue
            high = upper_bound(dim, env)
            if high is None:
                return None
            total *= max(0, high)
        return total


@dataclass
class ScratchpadBudget:
    buffers: list[Buffer]

    @classmethod
    def of(cls, program: Operation, at: Operation, device: str | None) -> ScratchpadBudget:
        allocations = [op for op in program.walk() if isinstance(op, memref.AllocOp | memref.AllocaOp)]
        placed = [op for op in allocations if not isinstance(memory_space(op), NoneAttr)]
        if not placed:
            return cls([])
        from dfsched.arch.loading import device_model_for

        model = device_model_for(at, device=device)
        if model is None:
            space = memory_space(placed[0])
            raise error(at, f"{PASS}: buffers are allocated in memory space {space} but no device declares "
                            "its capacity (declare a ktdf_arch.device or pass --device)")
        buffers = []
        for op in placed:
            memory = scratchpad_of(model, memory_space(op))
            if memory is not None:
                buffers.append(make_buffer(op, memory, program))
        return cls(buffers)

    def check_bounded(self, env: dict[Operation, int]) -> None:
        for buffer in self.buffers:
            if buffer.bytes(env) is None:
                raise error(buffer.op, f"{PASS}: cannot bound the size of this scratchpad buffer in "
                                       f"\"{buffer.memory.kind}\" (a dynamic dimension has no known upper bound)")

    def usage(self, env: dict[Operation, int]) -> dict[str, int]:
        used: dict[str, int] = {}
        for buffer in self.buffers:
            used[buffer.memory.kind] = used.get(buffer.memory.kind, 0) + (buffer.bytes(env) or 0)
        return used

    def capacities(self) -> dict[str, int]:
        return {b.memory.kind: b.memory.size for b in self.buffers if b.memory.size is not None}

    def fits(self, env: dict[Operation, int]) -> bool:
        used = self.usage(env)
        return all(used.get(kind, 0) <= size for kind, size in self.capacities().items())

    def no_fit(self, tile: Placeholder, env: dict[Operation, int]) -> DiagnosticError:
        used, capacities = self.usage(env), self.capacities()
        kind = next(k for k, size in capacities.items() if used.get(k, 0) > size)
        tried = ", ".join(str(c) for c in tile.candidates)
        largest = max((b for b in self.buffers if b.memory.kind == kind), key=lambda b: b.bytes(env) or 0)
        return error(tile.op, f"{PASS}: no tile size fits the scratchpad: tried {tried}; with {tile.candidates[-1]} "
                              f"the program's buffers need {used[kind]} bytes of \"{kind}\", which holds "
                              f"{capacities[kind]} bytes; the largest is {attribute_text(largest.op.results[0].type)} "
                              f"({largest.bytes(env)} bytes, {largest.copies} cop{'y' if largest.copies == 1 else 'ies'})")


def memory_space(op: Operation) -> Attribute:
    type_ = op.results[0].type
    assert isinstance(type_, MemRefType)
    return type_.memory_space


def scratchpad_of(model: DeviceModel, space: Attribute) -> Memory | None:
    """The device's scratchpad memory `space` names, if it is one and declares a size."""
    try:
        memory = model.memory_for_space(space)
    except DiagnosticError:
        return None  # a space the device does not know is for other passes to report
    if memory.level != SCRATCHPAD or memory.size is None:
        return None
    return memory


def make_buffer(op: Operation, memory: Memory, program: Operation) -> Buffer:
    type_ = op.results[0].type
    assert isinstance(type_, MemRefType)
    element = type_.element_type
    if isinstance(element, IndexType):
        element_bytes = 8
    elif isinstance(element, FixedBitwidthType):
        element_bytes = max(1, math.ceil(element.bitwidth / 8))
    else:
        raise error(op, f"{PASS}: cannot size scratchpad buffers of element type {element}")
    dynamic = iter(op.dynamic_sizes)
    dims: list[int | SSAValue] = [next(dynamic) if d < 0 else d for d in type_.get_shape()]
    return Buffer(op, memory, copies_of(op, program), dims, element_bytes)


def copies_of(op: Operation, program: Operation) -> int:
    """Parallel instances times rolling resource sets of the pipelines around `op`."""
    copies = 1
    is_selected = feeds_select_memref(op.results[0])
    parent = op.parent_op()
    while parent is not None and parent is not program:
        if isinstance(parent, ktdf.ParallelOp):
            copies *= max(1, parent.num_instances.value.data)
        elif isinstance(parent, ktdf.PipelineOp) and parent.modulo is not None and not is_selected:
            copies *= max(1, parent.modulo.value.data)
        parent = parent.parent_op()
    return copies


def feeds_select_memref(value: SSAValue) -> bool:
    """True when `value` (or the private result it is yielded as) is a select_memref candidate."""
    for use in value.uses:
        user = use.operation
        if isinstance(user, ktdf.SelectMemrefOp) and use.index > 0:
            return True
        if isinstance(user, ktdf.PrivateYieldOp):
            private = user.parent_op()
            if isinstance(private, ktdf.PrivateOp) and feeds_select_memref(private.results[use.index]):
                return True
    return False
