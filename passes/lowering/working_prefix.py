"""A program that only the first tiles of a grid launch is lowered on those cores only.

Issue #19 (grid scaling), Decision 122. A Triton kernel whose grid is raised past its work
(`scale_rows_triton`'s 4 rows on 4,096 tiles) launches each program under a host branch on the
tile id (Decision 114's guarded row copies), so the tiles that run it are known before any core
is lowered (`dfir_tile_branches.launch_tiles`). When they all lie below some P smaller than the
grid and nothing exchanges data between tiles, `ktdf-to-ktdflowering` (option `working-prefix`, on by default) lowers
the program's function on cores 0..P-1 (`fold_working_prefix`: its `grid` becomes `[P]`, the real
one kept in `dfsched.working_prefix_grid`), and `wrap-program-dfir` ends by giving the function its
real grid back (`restore_working_prefix_grids`). The idle cores P..G-1 get no units, mapping
entries or start addresses: no program unit would name them, so they only cost compile time
(about 3-9 ms a core) and output.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp

from dfsched.diagnostics import error
from dfsched.passes.lowering.dfir_tile_branches import launch_tiles
from dfsched.passes.lowering.uniform_grid import TILE_EXCHANGES, one_size_of

MARK = "dfsched.working_prefix_grid"
"""The real `grid` of a function lowered on the cores of its working prefix only."""


def working_prefixes(module: ModuleOp, functions: list[func.FuncOp]) -> dict[func.FuncOp, int]:
    """For each of `functions` (programs of `module`) that only tiles below P launch, with P
    smaller than its grid: P. Empty when some tile may read another's data."""
    if any(op.name in TILE_EXCHANGES or _names_a_tile_scratchpad(op) for op in module.walk()):
        return {}
    tiles = launch_tiles(module)
    prefixes: dict[func.FuncOp, int] = {}
    for function in functions:
        program = function.parent_op()
        launched = tiles.get(program.sym_name.data) if isinstance(program, ModuleOp) and program.sym_name else None
        grid = one_size_of(function.attributes.get("grid"))
        if launched and grid is not None and max(launched) + 1 < grid:
            prefixes[function] = max(launched) + 1
    return prefixes


def fold_working_prefix(function: func.FuncOp, cores: int) -> int:
    """Lower `function` on its first `cores` cores: the grid it is lowered on."""
    real = function.attributes["grid"]
    assert isinstance(real, ArrayAttr) and isinstance(real.data[0], IntegerAttr)  # working_prefixes said so
    function.attributes[MARK] = real
    function.attributes["grid"] = ArrayAttr([IntegerAttr(cores, real.data[0].type)])
    return cores


def restore_working_prefix_grids(module: ModuleOp) -> None:
    """Give every function `fold_working_prefix` folded its real grid back."""
    for function in [op for op in module.walk() if isinstance(op, func.FuncOp) and MARK in op.attributes]:
        real = function.attributes[MARK]
        cores, size = one_size_of(function.attributes.get("grid")), one_size_of(real)
        if cores is None or size is None or size <= cores:
            raise error(function, f"cannot restore a grid: '{MARK}' must be a 1-D grid larger than 'grid'")
        del function.attributes[MARK]
        function.attributes["grid"] = real


def _names_a_tile_scratchpad(op) -> bool:
    """Whether `op` views compute tile N's scratchpad (`ct_local, ct_id = N`, Decision 93)."""
    owner = getattr(getattr(op.properties.get("memory_space"), "ct_id", None), "data", -1)
    return isinstance(owner, int) and owner >= 0
