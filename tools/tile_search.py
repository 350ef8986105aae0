"""The simulator as the judge of `tile-size-selection{strategy=search}` (Decision 11).

A pass may not import the simulator (arrows point down: tools -> interp/passes), so the pass
takes a callback and the tools hand it this one: `attach(instance, device)` gives a
`TileSizeSelection` with `strategy=search` an evaluator that compiles a candidate module (its
placeholders of one program already sized) through the rest of `-ktir-to-dfir` (from
`tile-size-selection`, whose default strategy sizes the other programs' placeholders, to the
backend tail the pipeline may not run yet) and returns the simulated cycles, with no inputs
(timing does not depend on the data), no race check and no timeline. A candidate that fails to
compile or to run gives None: the pass does not choose it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dfsched import pipeline


def rest_of_pipeline() -> str:
    """`-ktir-to-dfir` from `tile-size-selection` on, plus the backend tail, as pipeline text."""
    from dfsched.tools.dataflow_compile import BACKEND_TAIL, in_pipeline

    entries = pipeline.KTIR_TO_DFIR
    start = next(i for i, e in enumerate(entries) if e.startswith("tile-size-selection"))
    rest = list(entries[start:]) + [name for name in BACKEND_TAIL if not in_pipeline(name)]
    return ",".join(rest)


def evaluator(device: str | None):
    """Module -> simulated cycles (None when it fails), compiled with `--device=device`."""
    from dfsched.interp.dataflow import simulate
    from dfsched.tools.opt import DfschedOptMain

    flags = ["--disable-verify"] + ([f"--device={device}"] if device else [])
    tool = DfschedOptMain(flags + ["-p", rest_of_pipeline()])
    built = tool.build_passes()

    def evaluate(module: ModuleOp) -> int | None:
        try:
            for request, instance in built:
                tool.apply_pass(module, request, instance)
            result = simulate(module, None, device, record_timeline=False, check_races=False)
        except Exception:  # noqa: BLE001 (any failure rules the candidate out; the pass says so if all fail)
            return None
        return result.total_cycles

    return evaluate


def attach(instance: ModulePass, device: str | None) -> ModulePass:
    """`instance` with the simulator as its judge when it is a `search` tile-size selection."""
    if instance.name != "tile-size-selection":
        return instance  # (importing that pass pulls in its cost model and xDSL's linalg: not for every run)
    from dfsched.passes.scheduling.tile_size_selection import TileSizeSelection

    if isinstance(instance, TileSizeSelection) and instance.strategy == "search":
        return instance.with_evaluator(evaluator(device or instance.device))
    return instance
