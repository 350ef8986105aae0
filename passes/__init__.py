"""Pass registry: command-line name -> (module, class), imported lazily.

One pass per module, the module named after the pass (`path_expansion.py` for
`path-expansion`). A pass joins this table when it lands, and joins `-ktir-to-dfir`
(see `dfsched.pipeline`) in upstream order.
"""

from __future__ import annotations

PASSES: dict[str, tuple[str, str]] = {
    # xDSL's generic passes that the pipeline relies on
    "cse": ("xdsl.transforms.common_subexpression_elimination", "CommonSubexpressionElimination"),
    "dce": ("xdsl.transforms.dead_code_elimination", "DeadCodeElimination"),
    "canonicalize": ("dfsched.passes.cleanup.canonicalize", "CanonicalizePass"),
    "licm": ("xdsl.transforms.loop_invariant_code_motion", "LoopInvariantCodeMotionPass"),
    "loop-invariant-code-motion": ("dfsched.passes.cleanup.loop_invariant_code_motion", "LoopInvariantCodeMotion"),
    "normalize-scf-for-loops": ("dfsched.passes.scheduling.normalize_scf_for_loops", "NormalizeSCFForLoops"),
    "affine-min-canonicalization": ("dfsched.passes.scheduling.affine_min_canonicalization", "AffineMinCanonicalization"),
    "bind-kernel-arguments": ("dfsched.passes.frontend.bind_kernel_arguments", "BindKernelArguments"),
    "clip-bound-access-tiles": ("dfsched.passes.frontend.clip_bound_access_tiles", "ClipBoundAccessTiles"),
    "address-units-to-bytes": ("dfsched.passes.frontend.address_units_to_bytes", "AddressUnitsToBytes"),
    "fold-accumulation-loops": ("dfsched.passes.frontend.fold_accumulation_loops", "FoldAccumulationLoops"),
    "lower-inter-tile-ops": ("dfsched.passes.frontend.lower_inter_tile_ops", "LowerInterTileOps"),
    "tile-invariant-loop-bounds": ("dfsched.passes.frontend.tile_invariant_loop_bounds", "TileInvariantLoopBounds"),
    "triton-to-linalg": ("dfsched.passes.frontend.triton_to_linalg", "TritonToLinalg"),
    "single-tile-grid": ("dfsched.passes.frontend.single_tile_grid", "SingleTileGrid"),
    "resolve-distributed-views": ("dfsched.passes.frontend.resolve_distributed_views", "ResolveDistributedViews"),
    "ktir-legality-check": ("dfsched.passes.frontend.ktir_legality_check", "KtirLegalityCheck"),
    "compute-group-extraction": ("dfsched.passes.frontend.compute_group_extraction", "ComputeGroupExtraction"),
    "construct-three-stage-pipeline": ("dfsched.passes.frontend.construct_three_stage_pipeline", "ConstructThreeStagePipeline"),
    "ktdfarch-apply-patterns": ("dfsched.passes.frontend.ktdfarch_apply_patterns", "KtdfarchApplyPatterns"),
    "ensure-device-declaration": ("dfsched.passes.frontend.ensure_device_declaration", "EnsureDeviceDeclaration"),
    "path-expansion": ("dfsched.passes.scheduling.path_expansion", "PathExpansion"),
    "tile-scf-for-loops": ("dfsched.passes.scheduling.tile_scf_for_loops", "TileSCFForLoops"),
    "strip-mine-scf-for-loops": ("dfsched.passes.scheduling.strip_mine_scf_for_loops", "StripMineSCFForLoops"),
    "tile-size-selection": ("dfsched.passes.scheduling.tile_size_selection", "TileSizeSelection"),
    "subsume-linearize-index": ("dfsched.passes.scheduling.subsume_linearize_index", "SubsumeLinearizeIndex"),
    "scalar-broadcast-legalization": ("dfsched.passes.scheduling.scalar_broadcast_legalization", "ScalarBroadcastLegalization"),
    "ktdflowering-to-dfir": ("dfsched.passes.lowering.ktdflowering_to_dfir", "KtdfloweringToDfir"),
    "hold-broadcast-operands": ("dfsched.passes.lowering.hold_broadcast_operands", "HoldBroadcastOperands"),
    "carry-reduction-partials": ("dfsched.passes.lowering.carry_reduction_partials", "CarryReductionPartials"),
    "overlap-staging-copies": ("dfsched.passes.lowering.overlap_staging_copies", "OverlapStagingCopies"),
    "wrap-program-dfir": ("dfsched.passes.lowering.wrap_program_dfir", "WrapProgramDfir"),
    "emit-split-dfir": ("dfsched.passes.lowering.emit_split_dfir", "EmitSplitDfir"),
    "stage-coarsening": ("dfsched.passes.scheduling.stage_coarsening", "StageCoarsening"),
    "double-buffering": ("dfsched.passes.scheduling.double_buffering", "DoubleBuffering"),
    "parallelize-loops-across-instances": ("dfsched.passes.scheduling.parallelize_loops_across_instances", "ParallelizeLoopsAcrossInstances"),
    "reduction-dim-chunking": ("dfsched.passes.scheduling.reduction_dim_chunking", "ReductionDimChunking"),
    "reduction-loop-exposure": ("dfsched.passes.scheduling.reduction_loop_exposure", "ReductionLoopExposure"),
    "map-reduction-partials": ("dfsched.passes.scheduling.map_reduction_partials", "MapReductionPartials"),
    "broadcast-promotion": ("dfsched.passes.scheduling.broadcast_promotion", "BroadcastPromotion"),
    "normalize-grid-to-1d": ("dfsched.passes.lowering.normalize_grid_to_1d", "NormalizeGridTo1D"),
    "address-assignment": ("dfsched.passes.lowering.address_assignment", "AddressAssignment"),
    "ktdf-to-ktdflowering": ("dfsched.passes.lowering.ktdf_to_ktdflowering", "KTDFToKTDFLowering"),
}
