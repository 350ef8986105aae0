"""THE pass order: the `-ktir-to-dfir` pipeline and other named pipelines, nothing else.

A pass joins `KTIR_TO_DFIR` when it lands, at its upstream position
(`docs/architecture.md#the-pipeline`, preceded by `ensure-device-declaration`). Entries are pass
pipeline texts in MLIR syntax, so a pass can be anchored on nested ops.
"""

from __future__ import annotations

# The front door: the kernel specialised on the tools' --bind values, its addresses made bytes
# (--unit element), access tiles clipped to views a bound size made static (Decision 103), Triton's
# scalar broadcasts written as linalg. The tools run it right after
# parsing, before `-ktir-to-dfir` (whose text stays upstream's, as `--dump-pass-pipeline` shows
# it) and before dfsched-run's reference, so the reference and every pass see one kernel.
FRONT_DOOR: list[str] = ["bind-kernel-arguments", "clip-bound-access-tiles", "address-units-to-bytes", "triton-to-linalg",
                         "single-tile-grid", "resolve-distributed-views"]

KTIR_TO_DFIR: list[str] = [
    # frontend (`docs/architecture.md#the-pipeline`, preceded by the device declaration)
    "ensure-device-declaration",
    "ktir-legality-check",
    "compute-group-extraction",
    "construct-three-stage-pipeline",
    "builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling})))",
    # routing
    "path-expansion",
    "scalar-broadcast-legalization",
    # nesting: loop tiling and nested pipelines
    "normalize-scf-for-loops",
    "canonicalize",
    "tile-scf-for-loops{tile-single-loops=true}",
    "canonicalize",
    "loop-invariant-code-motion",
    "stage-coarsening",
    "reduction-dim-chunking",
    "reduction-loop-exposure",
    "map-reduction-partials",
    "broadcast-promotion",
    # loop space
    "double-buffering",
    "parallelize-loops-across-instances",
    "tile-size-selection",
    "canonicalize",
    "affine-min-canonicalization",
    "subsume-linearize-index",
    # backend
    "address-assignment",
    "normalize-grid-to-1d",
    "ktdf-to-ktdflowering{uniform-grid-cores=3}",
    "ktdflowering-to-dfir",
    "wrap-program-dfir",
]

NAMED_PIPELINES: dict[str, list[str]] = {
    "ktir-to-dfir": KTIR_TO_DFIR,
    # upstream's dataflow-scheduler-opt spelling: the pipeline plus the split output files
    "kEmitDFIR": KTIR_TO_DFIR + ["emit-split-dfir"],
}
