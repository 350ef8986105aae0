"""A grid whose cores all run the same program is lowered on a few cores, then replicated.

Issue #19 (grid scaling): the backend builds per core a `dataflow.get_unit` per unit kind and
two mapping operands per unit list, and every later step walks them, about 1 ms of CPU a tile.
A kernel that never reads its tile id (no `ktdp.get_compute_tile_id`, no tile exchange) gives
every core the same program, so whatever the backend builds for core c it builds for core 0 with
c in place of 0. `ktdf-to-ktdflowering{uniform-grid-cores=K}` (the `-ktir-to-dfir` pipeline sets
K) lowers such a function on its first K cores (`fold_uniform_grid`: its `grid` becomes `[K]`,
the real one kept in `dfsched.uniform_grid`), and `wrap-program-dfir` ends by replicating them
(`expand_uniform_grids`): each run of K per-core units becomes one for every core, and each run of K
mapping entries or program-unit operands on them one per core, so the printed program is the one
the backend would have built for the whole grid (Decision 121). What the replication reads is
checked: a per-core unit used in any other shape is a located error, never a silent miscompile.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, SSAValue

from dfsched.diagnostics import error
from dfsched.dialects.constants import integer_attr
from dfsched.dialects.dataflow import GetUnitOp, ProgramUnitOp
from dfsched.dialects.uniform import DefImmutableMappingOp

MARK = "dfsched.uniform_grid"
"""The real `grid` of a function lowered on its first cores only, until `expand_uniform_grids`."""
KEYS = "dfsched.uniform_grid_keys"
"""The values of the index constants such a function held that number a core it was not lowered on."""

# What makes one core's program differ from another's: the tile id, and the ops that exchange
# data between tiles or read views distributed over them.
TILE_EXCHANGES = frozenset({
    "ktdp.inter_tile_produce", "ktdp.inter_tile_consume", "ktdp.inter_tile_reduce", "ktdp.yield_partial",
    "ktdp.yield_reduced", "ktdp.construct_distributed_memory_view", "ktdf.tile_reduce",
})
"""The ops that make a tile read or wait for another tile's data."""
_TILE_DEPENDENT = TILE_EXCHANGES | {"ktdp.get_compute_tile_id"}


def is_core_uniform(module: ModuleOp) -> bool:
    """Whether no op of `module` can make one core's program differ from another's."""
    return not any(op.name in _TILE_DEPENDENT for op in module.walk())


def fold_uniform_grid(function: func.FuncOp, grid: int, cores: int) -> int:
    """Lower `function` (1-D `grid` tiles) on its first `cores` cores: the grid it is lowered on."""
    if grid <= cores:
        return grid
    real = function.attributes["grid"]
    assert isinstance(real, ArrayAttr) and isinstance(real.data[0], IntegerAttr)  # one_d_grid_size said so
    size = real.data[0].value.data
    function.attributes[MARK] = real
    function.attributes[KEYS] = ArrayAttr([IntegerAttr(v, IndexType()) for v in sorted({
        op.value.value.data for op in function.walk()
        if isinstance(op, arith.ConstantOp) and _core_key(op, cores, size)})])
    function.attributes["grid"] = ArrayAttr([IntegerAttr(cores, real.data[0].type)])
    return cores


def expand_uniform_grids(module: ModuleOp) -> None:
    """Replicate the cores of every function `fold_uniform_grid` folded, to its real grid."""
    for replication in _unfold(module):
        replication.replicate()


def grids_for_the_printer(module: ModuleOp, printable: Callable[[GetUnitOp], bool]) -> list[Replication]:
    """What `expand_uniform_grids` does, but for a printer that writes the other cores as it
    prints (`printing.print_module(grids=...)`, `wrap-program-dfir{expand-grids=false}`): every
    folded function gets its real `grid` and its constants' order, and the checked
    replications are returned, the IR left with the cores it was lowered on. When some run's
    first unit is not `printable` (one result, a form the printer writes directly), every
    function is replicated in the IR instead, and none is returned."""
    replications = _unfold(module)
    if all(len(run[0].results) == 1 and printable(run[0]) for r in replications for run in r.runs):
        return replications
    for replication in replications:
        replication.replicate()
    return []


def _unfold(module: ModuleOp) -> list[Replication]:
    """Each folded function's checked replication, its real grid and constants' order restored."""
    replications = []
    for function in [op for op in module.walk() if isinstance(op, func.FuncOp) and MARK in op.attributes]:
        real, keys = function.attributes[MARK], function.attributes.get(KEYS)
        cores, size = one_size_of(function.attributes.get("grid")), one_size_of(real)
        if cores is None or size is None or size <= cores or not (
                isinstance(keys, ArrayAttr) and all(isinstance(k, IntegerAttr) for k in keys.data)):
            raise error(function, f"cannot replicate a grid: '{MARK}' must be a 1-D grid larger than 'grid', "
                                  f"with '{KEYS}' an array of integers")
        replication = Replication(function, cores, size)
        replication.check()
        del function.attributes[MARK], function.attributes[KEYS]
        function.attributes["grid"] = real
        _order_constants_as_core_keys(function.body.block, cores, {k.value.data for k in keys.data})
        replications.append(replication)
    return replications


def one_size_of(grid: object) -> int | None:
    """The size of a 1-D grid attribute `[n]`, or None (a malformed grid the folds refuse)."""
    if isinstance(grid, ArrayAttr) and len(grid.data) == 1 and isinstance(grid.data[0], IntegerAttr):
        return grid.data[0].value.data
    return None


def _order_constants_as_core_keys(block: Block, cores: int, met_as_keys: set[int]) -> None:
    """Put the hoisted index constants of `block` in the order a whole-grid lowering leaves.

    `ktdf-to-ktdflowering` numbers the cores with index constants 0, 1, ... at the start of
    the body, and the greedy driver hoists each constant to the front of the block when it first
    meets it, reusing the first of equal ones: a constant the body held before (`met_as_keys`:
    valued `cores`..grid-1) is met as its core's key, before any other. Lowered on `cores` cores,
    they were met later; they move to where the keys leave them: just before the keys of the
    cores lowered, highest first.
    """
    leading: list[Operation] = []
    for op in block.ops:
        if not isinstance(op, arith.ConstantOp):
            break
        leading.append(op)
    keys = [op for op in leading if _core_key(op, 0, cores)]
    moved = sorted((op for op in leading if _core_key(op, cores, 1 << 63) and op.value.value.data in met_as_keys),
                   key=lambda op: op.value.value.data, reverse=True)
    anchor = keys[0] if keys else (leading[-1].next_op if leading else block.first_op)
    for op in moved:
        op.detach()
        if anchor is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, anchor)


def _core_key(op: arith.ConstantOp, low: int, high: int) -> bool:
    """Whether `op` is an index constant that numbers a core of `low`..high-1."""
    value = op.value
    return (isinstance(value, IntegerAttr) and isinstance(value.type, IndexType)
            and low <= value.value.data < high)


class Replication:
    """The per-core units of a function lowered on `cores` cores, replicated to `grid`: checked
    first (`check`), then built in the IR (`replicate`) or written by the printer from `runs`
    and `users`."""

    def __init__(self, function: func.FuncOp, cores: int, grid: int) -> None:
        self.function, self.cores, self.grid = function, cores, grid
        # A per-core unit result -> (the first unit of its run of `cores`, its core, its result index).
        self.per_core: dict[SSAValue, tuple[GetUnitOp, int, int]] = {}
        self.runs: list[list[GetUnitOp]] = []
        # Each mapping and program unit naming per-core units -> its operands in runs of `cores`.
        self.users: dict[Operation, list[_Chunk]] = {}

    def check(self) -> None:
        """Collect the runs and how each user names them; a shape the replication cannot
        reproduce is a located error."""
        self._collect_runs()
        for op in self.function.walk():
            if op is self.function or isinstance(op, GetUnitOp) or not any(
                    operand in self.per_core for operand in op._operands):  # noqa: SLF001 (the tuple)
                continue
            if isinstance(op, DefImmutableMappingOp):
                keys = list(op.keys)
                self.users[op] = self._chunks(op, keys, keys=None) + self._chunks(op, list(op.values), keys=keys)
            elif isinstance(op, ProgramUnitOp):
                self.users[op] = self._chunks(op, list(op.units), keys=None)
            else:
                raise error(op, f"cannot replicate a grid whose per-core units '{op.name}' reads "
                                "(only mappings and program units may name them)")

    def replicate(self) -> None:
        """Build every core's units, mapping entries and program-unit operands in the IR."""
        replicas = {run[0]: self._replicate_run(run) for run in self.runs}

        def values(chunks: list[_Chunk]) -> list[SSAValue]:
            out: list[SSAValue] = []
            for template, position, shared in chunks:
                if template is None:
                    out.extend([shared] * self.grid)
                else:
                    out.extend(results[position] for results in replicas[template])
            return out

        for op, chunks in self.users.items():
            if isinstance(op, DefImmutableMappingOp):
                half = len(chunks) // 2
                self._replace_mapping(op, values(chunks[:half]), values(chunks[half:]))
            else:
                op.operands = values(chunks)

    def _collect_runs(self) -> None:
        """Per-core units come in runs of `cores` consecutive ops, cores 0, 1, ... in order."""
        ops = list(self.function.body.block.ops)
        index = 0
        while index < len(ops):
            op = ops[index]
            if not (isinstance(op, GetUnitOp) and op.core is not None):
                index += 1
                continue
            run = ops[index:index + self.cores]
            if not all(isinstance(u, GetUnitOp) and _same_kind(u, op) and u.core == core
                       for core, u in enumerate(run)) or len(run) < self.cores:
                raise error(op, f"cannot replicate a grid: the per-core units from '{op.unit_name.data}' "
                                f"are not one per core of the {self.cores} it was lowered on")
            self.runs.append(run)
            for core, unit in enumerate(run):
                for position, result in enumerate(unit.results):
                    self.per_core[result] = (op, core, position)
            index += self.cores

    def _replicate_run(self, run: list[GetUnitOp]) -> list[tuple[SSAValue, ...]]:
        """Add the units of cores `cores`..grid-1 after the run, as the backend orders them:
        every core's results, core by core."""
        template = run[0]
        suffix = template.unit_name.data[len(f"C{template.core}-"):]
        kind = template.unit_type
        result_types = [r.type for r in template.results]
        core_type = template.attributes["core"].type
        new: list[GetUnitOp] = []
        for core in range(self.cores, self.grid):
            attributes = dict(template.attributes)
            attributes["core"] = integer_attr(core, core_type)  # one per core, shared by the runs
            new.append(GetUnitOp.create(result_types=result_types, attributes=attributes,
                                        properties={"name": StringAttr(f"C{core}-{suffix}"), "type": kind}))
        run[-1].parent_block().insert_ops_after(new, run[-1])
        return [tuple(u.results) for u in run] + [tuple(u.results) for u in new]

    def _chunks(self, op: Operation, values: list[SSAValue], keys: list[SSAValue] | None) -> list[_Chunk]:
        """`values` in chunks of `cores`: a run of per-core units (its first unit and result
        index), or a value repeated `cores` times beside a chunk of per-core keys (`keys`)."""
        if len(values) % self.cores:
            raise error(op, f"cannot replicate a grid: '{op.name}' names {len(values)} units, "
                            f"not a multiple of the {self.cores} cores it was lowered on")
        out: list[_Chunk] = []
        for start in range(0, len(values), self.cores):
            chunk = values[start:start + self.cores]
            first = self.per_core.get(chunk[0])
            if first is not None:
                template, _, position = first
                if any(self.per_core.get(v) != (template, core, position) for core, v in enumerate(chunk)):
                    raise error(op, f"cannot replicate a grid: '{op.name}' names per-core units out of core order")
                out.append((template, position, None))
            elif keys is not None and all(v is chunk[0] for v in chunk) and keys[start] in self.per_core:
                out.append((None, 0, chunk[0]))
            else:
                raise error(op, f"cannot replicate a grid: '{op.name}' maps per-core units to "
                                "values that differ between cores")
        return out

    @staticmethod
    def _replace_mapping(op: DefImmutableMappingOp, keys: list[SSAValue], values: list[SSAValue]) -> None:
        mapping = DefImmutableMappingOp(keys, values, op.result.type)
        mapping.attributes.update(op.attributes)
        op.parent_block().insert_op_before(mapping, op)
        op.result.replace_all_uses_with(mapping.result)
        op.parent_block().erase_op(op)


# A chunk of `cores` operands: (the first unit of a run, the result index, None) for a run of
# per-core units, or (None, 0, value) for a value every core shares.
_Chunk = tuple[GetUnitOp | None, int, SSAValue | None]


def _same_kind(unit: GetUnitOp, template: GetUnitOp) -> bool:
    """Whether `unit` is `template`'s unit on another core: same type, corelet, results, and name
    but for its `C<core>-` prefix."""
    prefix, template_prefix = f"C{unit.core}-", f"C{template.core}-"
    return (unit.unit_type == template.unit_type and unit.corelet == template.corelet
            and len(unit.results) == len(template.results)
            and unit.unit_name.data.startswith(prefix) and template.unit_name.data.startswith(template_prefix)
            and unit.unit_name.data[len(prefix):] == template.unit_name.data[len(template_prefix):]
            and unit.attributes.keys() == template.attributes.keys())
