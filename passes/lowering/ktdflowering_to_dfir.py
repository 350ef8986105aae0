"""`ktdflowering-to-dfir`: KTDFLowering → DataflowIR (`docs/passes.md#ktdflowering-to-dfir`).

Per function (every `func.func` of the module, in textual order), after numbering the run's
symbols once for the module:

1. split the entry block into prelude and work — a function without work is skipped;
2. discover the unit kinds its `execute_on`s name and build one `dataflow.program_unit`
   per kind, each holding only its own work, a compute tile id becoming a per-unit core lookup;
3. erase what became dead;
4. turn memories into units and memrefs into logical memory views, with symbolic start
   addresses where a base address comes from a run input;
5. fold arithmetic over per-unit constant lookups into the lookups;
6. lower transfers, compute, FIFOs, signals and tile-size derivations, then
   double buffering and `ktdf.parallel` (over any number of corelets);
7. canonicalize the function;
8. send a loop-invariant broadcast operand once per loop, its receiver holding it
   (`hold-broadcast-operands`, Decision 90; `hold-broadcasts=false` keeps one send per step);
9. carry a reduction's partial in a register through its loop instead of loading and storing
   it at every step (`carry-reduction-partials`, Decision 102; `carry-partials=false` keeps them).

Where dfsched departs from upstream (the spec's Decisions):

* Decision 3: `ktdf.parallel` is spread over however many corelets its units have, honouring
  its lower bound and step, and trip counts the instances do not divide (`dfir_parallel`);
* Decision 4: every failure is a located error that fails the pass (upstream's greedy
  rewrites only report some of them); nothing is left half-rewritten silently;
* Decision 5: everything iterates in IR order (upstream iterates some pointer-keyed maps);
* Decision 6: a KTIR memory space without a `mem_space_mapping` resolves to the device-level
  or core-private memory (`DeviceModel.memory_for_space`);
* Decision 7: a transfer wider than one element needs the compute kind's SIMD lanes for its
  element type; none declared is an error naming the type and the unit;
* Decision 8: a view's start address is a byte address, as address-assignment's addresses and
  the run's inputs are; element offsets (reinterpret_cast offsets, the element distance a
  parallel loop covers) are converted to bytes where they are added, and symbols stand for
  byte addresses (`dfir_memory_views`, `dfir_parallel`, `dfir_symbols`).

Greedy rewrites run with MLIR's default (bottom-up) configuration, as upstream's
`applyPatternsGreedily` calls do; the order in which patterns meet ops is visible in the output.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from dfsched.diagnostics import error, location_of
from dfsched.passes.cleanup.canonicalize import canonicalize
from dfsched.passes.cleanup.greedy import GreedyConfig, apply_patterns_greedily, region_dce
from dfsched.passes.cleanup.patterns import fold, folder_patterns
from dfsched.passes.device_pass import DevicePass
from dfsched.passes.lowering import carry_reduction_partials, hold_broadcast_operands
from dfsched.passes.lowering import (
    dfir_buffering,
    dfir_collapse,
    dfir_compute,
    dfir_memory_views,
    dfir_parallel,
    dfir_signals,
    dfir_symbols,
    dfir_tile_branches,
    dfir_transfers,
    dfir_tile_reduce,
    dfir_units,
)

# `applyPatternsGreedily` with MLIR's default configuration walks bottom-up (post-order).
BOTTOM_UP = GreedyConfig(top_down=False)



def _functions(module: ModuleOp) -> list[FuncOp]:
    return [op for op in module.walk() if isinstance(op, FuncOp)]


def operation_lowerings(func: FuncOp, components, model) -> None:
    """Transfers, compute, FIFOs and signals as one greedy pattern set (folding on), then buffer
    phases and `ktdf.parallel`."""
    blocks = dfir_compute.matrix_block_ops(func)
    generic = dfir_compute.LowerLinalgGeneric(model, blocks)
    fill = dfir_compute.LowerLinalgFill(model, blocks)
    copy = dfir_compute.LowerCopyFromFifo()
    read = dfir_compute.LowerReadFromFifo(components, model, blocks)
    write = dfir_compute.LowerWriteToFifo(components, model, blocks)
    transfer = dfir_transfers.LowerDataTransfer(components, model)
    signal = dfir_signals.LowerSignal()
    derive = dfir_compute.LowerDeriveSize()
    table = {
        "linalg.generic": (generic,),
        "linalg.fill": (fill,),
        "memref.copy": (copy,),
        "ktdf.read_from_fifo": (read,),
        "ktdf.write_to_fifo": (write,),
        "ktdf.data_transfer": (transfer,),
        "ktdf_lowering.signal": (signal,),
        "ktdf.tiling.derive_size": (derive,),
    }

    def patterns_for(op: Operation):
        return (*folder_patterns(op), *table.get(op.name, ()))

    if not apply_patterns_greedily(func, patterns_for, fold, BOTTOM_UP):
        raise error(func, f"failed to run operation lowerings for @{func.sym_name.data}")
    dfir_buffering.lower_double_buffering(func, model)
    dfir_parallel.lower_parallel_ops(func)


@dataclass(frozen=True)
class KtdfloweringToDfir(DevicePass):
    """Lower units, signals and execute_on regions to per-unit DataflowIR programs."""

    name = "ktdflowering-to-dfir"


    hold_broadcasts: bool = True
    """Send a loop-invariant broadcast operand once per loop, held by its receiver (Decision 90)."""

    carry_partials: bool = True
    """Carry a reduction's partial through its loop in a register (Decision 102)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from dfsched.arch.loading import NO_DEVICE, device_model_for

        model = device_model_for(op, device=self.device)
        if model is None:
            # On the module, or its first op when the module (implicit) has no location.
            located = next((o for o in op.walk() if location_of(o)[1] is not None), op)
            raise error(located, NO_DEVICE)
        symbols = dfir_symbols.SymbolAllocator(op)
        for func in _functions(op):
            _, work = dfir_units.partition(func)
            if not work:
                continue
            components = dfir_units.discover_unit_types(work)
            dfir_units.build_program_units(func, work, components)
            region_dce(func.body)
            dfir_memory_views.build_logical_memory_views(func, model, symbols)
            if not dfir_collapse.collapse_arith_over_query_maps(func):
                raise error(func, "failed to collapse arith ops over query maps")
            operation_lowerings(func, components, model)
            canonicalize(func, top_down=False)
            if self.hold_broadcasts and hold_broadcast_operands.hold_broadcasts(func):
                canonicalize(func, top_down=False)
            if self.carry_partials and carry_reduction_partials.carry_partials(func):
                canonicalize(func, top_down=False)
        dfir_tile_reduce.lower_tile_reduces(op, model)  # all-reduces between tiles: launches of their own
        dfir_tile_branches.specialise_tile_branches(op)  # `if %pid == 0 { call }`: the program's cores
