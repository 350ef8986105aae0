"""Host branches on the compute tile id become the set of cores a program launches on.

Step of `ktdflowering-to-dfir` (README Decision 64). The orchestrator is host code, run once
for all cores, so it cannot ask which tile it runs for: `scf.if %pid == 0 { call @P() }` (only
tile 0 stores the all-reduced row) stopped the simulator ("get_compute_tile_id only runs inside
a dataflow.program_unit"). An `scf.if` without results or else branch, whose condition is `arith`
on `ktdp.get_compute_tile_id` and constants and whose body only calls programs, is evaluated for
every tile of the 1-D grid at compile time: each called program keeps, in every
`dataflow.program_unit`, the units of the cores where it holds, and the branch is replaced by its
calls. A program called from elsewhere too is left, and so is the branch.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from dfsched.compat import InsertPoint, Rewriter
from dfsched.dialects.dataflow import GetUnitOp, ProgramUnitOp
from dfsched.passes.lowering.program import one_d_grid_size
from dfsched.passes.tile_arith import evaluate_at_tile

# the tile arithmetic left without users once a branch is gone
_ARITH = {"arith.cmpi", "arith.addi", "arith.subi", "arith.muli", "arith.remui", "arith.divui", "arith.remsi",
          "arith.divsi", "arith.andi", "arith.ori", "arith.xori"}


def specialise_tile_branches(module: ModuleOp) -> None:
    for branch, kernel, body, cores in launching_branches(module):
        for call in body:
            _keep_cores(module, call.callee.root_reference.data, set(cores))
            call.detach()
            Rewriter.insert_op(call, InsertPoint.before(branch))
        Rewriter.erase_op(branch)
        _erase_unused_tile_arithmetic(kernel)


def launch_tiles(module: ModuleOp) -> dict[str, list[int]]:
    """The tiles each program runs on, for the programs launched only under a host branch on the
    tile id (the branches `specialise_tile_branches` evaluates); other programs run on every tile."""
    return {call.callee.root_reference.data: cores
            for _, _, body, cores in launching_branches(module) for call in body}


def launching_branches(module: ModuleOp) -> Iterator[tuple[scf.IfOp, func.FuncOp, list[func.CallOp], list[int]]]:
    """Each host `scf.if` that only launches programs (called nowhere else) under a condition
    on the tile id known at every tile of the grid: the branch, its kernel, its calls and the
    tiles where it holds."""
    calls: dict[str, int] = {}
    for op in module.walk():
        if isinstance(op, func.CallOp):
            calls[op.callee.root_reference.data] = calls.get(op.callee.root_reference.data, 0) + 1
    for branch in [op for op in module.walk() if isinstance(op, scf.IfOp)]:
        kernel = branch.parent_op()
        while kernel is not None and not (isinstance(kernel, func.FuncOp) and "grid" in kernel.attributes):
            kernel = kernel.parent_op()
        if kernel is None or branch.results or branch.false_region.blocks and list(branch.false_region.block.ops)[:-1]:
            continue
        body = [op for op in branch.true_region.block.ops if not isinstance(op, scf.YieldOp)]
        if not body or not all(isinstance(op, func.CallOp) and calls.get(op.callee.root_reference.data) == 1
                               for op in body):
            continue
        holds = [evaluate_at_tile(branch.cond, (t,)) for t in range(one_d_grid_size(kernel))]
        if None not in holds:
            yield branch, kernel, body, [t for t, h in enumerate(holds) if h]


def _keep_cores(module: ModuleOp, program: str, cores: set[int]) -> None:
    target = next((op for op in module.body.block.ops if isinstance(op, ModuleOp) and op.sym_name is not None
                   and op.sym_name.data == program), None)
    if target is None:
        return
    for unit_program in [op for op in target.walk() if isinstance(op, ProgramUnitOp)]:
        kept = [u for u in unit_program.units if not isinstance(u.owner, GetUnitOp) or _core(u.owner) in cores]
        unit_program.operands = kept


def _core(unit: Operation) -> int | None:
    core = unit.attributes.get("core")
    return None if core is None else core.value.data


def _erase_unused_tile_arithmetic(kernel: func.FuncOp) -> None:
    """The tile id and the integer arithmetic on it that nothing reads any more (`remui` and
    `divui` are not pure to xDSL: division by zero)."""
    changed = True
    while changed:
        changed = False
        for op in list(kernel.walk()):
            if (op.name in _ARITH or op.name in ("ktdp.get_compute_tile_id", "arith.constant")) and not any(
                    r.uses for r in op.results):
                Rewriter.erase_op(op)
                changed = True
