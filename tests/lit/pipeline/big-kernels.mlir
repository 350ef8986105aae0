// A kernel whose per-tile data is larger than the scratchpad: each compute tile adds 8192
// rows of 64 f16 (1 MiB per operand, three operands; see Inputs/big_rows_add.mlir).
//
// DEFINE: %{sched} = --pass-pipeline='builtin.module(ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling})),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops{tile-single-loops=true},canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances,tile-size-selection,canonicalize,affine-min-canonicalization,subsume-linearize-index)'
// RUN: dfsched-opt --device=sample %{sched} %S/Inputs/big_rows_add.mlir | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt --device=quad_corelet %{sched} %S/Inputs/big_rows_add.mlir | filecheck %s --check-prefix=QUAD
//
// The whole -ktir-to-dfir pipeline gets through address assignment to the end on both devices:
// RUN: dfsched-opt --device=sample -ktir-to-dfir %S/Inputs/big_rows_add.mlir -o /dev/null
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %S/Inputs/big_rows_add.mlir -o /dev/null

// Sample device (64 lanes, 1 MiB of "L1", 2 corelets). A row is one vector, so the compute
// tile is a single loop over 8192 rows, which tile-scf-for-loops{tile-single-loops} tiles
// because the rows do not fit whole. Stage coarsening sinks the point loop into the stages and
// leaves the tile loop around the outer pipeline; double buffering gives each of A, B and C
// two L1 copies selected by the tile loop's phase; the corelet pipeline's point loop is
// spread over the 2 corelets; tile-size-selection takes the row count dividing 8192 with the
// fewest predicted cycles among those that fit with all six copies (Decision 11): 64 rows
// (the largest, 1024, would make the first load and the last store a 1024-row wait), so the
// tile loop runs 128 times. No tiling placeholder or helper op is left.

// SAMPLE-LABEL: func.func @local_schedule_0(
// SAMPLE-NOT:     ktdf.tiling
// SAMPLE-COUNT-6: memref.alloc() : memref<64x1x64xf16, "L1">
// SAMPLE-NOT:     memref.alloc
// SAMPLE:         scf.for %[[T:[^ ]+]] = %[[C0:[^ ]+]] to %c128 step %[[C1:[^ ]+]] {
// SAMPLE-NEXT:      %[[PH:.+]] = ktdf.buffer_phase(%[[T]]) {num_phases = 2 : i64} : index
// SAMPLE-NEXT:      %[[A:.+]] = ktdf.select_memref %[[PH]][%{{.+}}, %{{.+}}] : memref<?x1x64xf16, "L1">
// SAMPLE-NEXT:      %[[B:.+]] = ktdf.select_memref %[[PH]][%{{.+}}, %{{.+}}] : memref<?x1x64xf16, "L1">
// SAMPLE-NEXT:      %[[C:.+]] = ktdf.select_memref %[[PH]][%{{.+}}, %{{.+}}] : memref<?x1x64xf16, "L1">
// SAMPLE-NEXT:      ktdf.pipeline modulo(size : 2) {
// SAMPLE:             ktdf.private -> (!ktdf.token, !ktdf.token) {
// SAMPLE:             ktdf.stage depends_in(none) depends_out(%{{.+}}) {
// SAMPLE-NEXT:          scf.for %[[P:[^ ]+]] = %[[C0]] to %c64 step %[[C1]] {
// SAMPLE-NEXT:            ktdf.data_transfer from %{{.+}}[%[[T]] * 64 + %[[P]], 0] size [1, 64] to %[[A]][%[[P]], 0, 0] size [1, 1, 64]
// SAMPLE-NEXT:            ktdf.data_transfer from %{{.+}}[%[[T]] * 64 + %[[P]], 0] size [1, 64] to %[[B]][%[[P]], 0, 0] size [1, 1, 64]
// SAMPLE:             } {applicable_units = ["MNILU"]}
// SAMPLE-NEXT:        ktdf.stage
// SAMPLE-NEXT:          ktdf.parallel (%[[Q:[^,]+]], %{{[^)]+}}) = (%[[C0]]) to (%c64) step (%[[C1]]) distribute(num_instances = 2) {
// SAMPLE-NEXT:            ktdf.pipeline {
// SAMPLE:                   ktdf.data_transfer from %[[A]][%[[Q]], 0, 0] size [1, 1, 64] to
// SAMPLE-NEXT:              ktdf.data_transfer from %[[B]][%[[Q]], 0, 0] size [1, 1, 64] to
// SAMPLE:                   ktdf.data_transfer from %{{.+}} size [64] to %[[C]][%[[Q]], 0, 0] size [1, 1, 64]
// SAMPLE:             } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// SAMPLE-NEXT:        ktdf.stage
// SAMPLE-NEXT:          scf.for %[[P2:[^ ]+]] = %[[C0]] to %c64 step %[[C1]] {
// SAMPLE-NEXT:            ktdf.data_transfer from %[[C]][%[[P2]], 0, 0] size [1, 1, 64] to %{{.+}}[%[[T]] * 64 + %[[P2]], 0] size [1, 64]
// SAMPLE:             } {applicable_units = ["MNISU"]}
// SAMPLE:           }
// SAMPLE:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// SAMPLE-COUNT-6: memref.dealloc %{{.+}} : memref<64x1x64xf16, "L1">
// SAMPLE:         return
// SAMPLE-NOT:     ktdf.tiling

// quad_corelet (32 lanes, 512 KiB of "SPAD", 4 corelets). A row is 2 vectors, so the compute
// tile is a 2-deep nest, tiled as such (no single loop here). Selection keeps both vectors of
// a row (its tile loop folds away) and takes the 64 rows the cost model predicts fastest
// (Decision 11; 128 rows by one vector tie, and ties keep the larger innermost tile; the
// largest that fits is 512, 6 x 64 KiB = 384 KiB): 128 tiles, each spread over the 4 corelets.

// QUAD-LABEL: func.func @local_schedule_0(
// QUAD-NOT:     ktdf.tiling
// QUAD-COUNT-6: memref.alloc() : memref<64x2x1x32xf16, "SPAD">
// QUAD-NOT:     memref.alloc
// QUAD:         scf.for %[[T:[^ ]+]] = %[[C0:[^ ]+]] to %c128 step %[[C1:[^ ]+]] {
// QUAD-NEXT:      %[[PH:.+]] = ktdf.buffer_phase(%[[T]]) {num_phases = 2 : i64} : index
// QUAD-NEXT:      %[[A:.+]] = ktdf.select_memref %[[PH]][%{{.+}}, %{{.+}}] : memref<?x?x1x32xf16, "SPAD">
// QUAD-NEXT:      %[[B:.+]] = ktdf.select_memref %[[PH]][%{{.+}}, %{{.+}}] : memref<?x?x1x32xf16, "SPAD">
// QUAD-NEXT:      %[[C:.+]] = ktdf.select_memref %[[PH]][%{{.+}}, %{{.+}}] : memref<?x?x1x32xf16, "SPAD">
// QUAD-NEXT:      ktdf.pipeline modulo(size : 2) {
// QUAD:             ktdf.private -> (!ktdf.token, !ktdf.token) {
// QUAD:             ktdf.stage depends_in(none) depends_out(%{{.+}}) {
// QUAD-NEXT:          scf.for %[[P:[^ ]+]] = %[[C0]] to %c64 step %[[C1]] {
// QUAD-NEXT:            scf.for %[[V:[^ ]+]] = %[[C0]] to %c2 step %[[C1]] {
// QUAD-NEXT:              ktdf.data_transfer from %{{.+}}[%[[T]] * 64 + %[[P]], %[[V]] * 32] size [1, 32] to %[[A]][%[[P]], %[[V]], 0, 0] size [1, 1, 1, 32]
// QUAD:             } {applicable_units = ["DMARD"]}
// QUAD-NEXT:        ktdf.stage
// QUAD-NEXT:          ktdf.parallel (%[[Q:[^,]+]], %{{[^)]+}}) = (%[[C0]]) to (%c64) step (%[[C1]]) distribute(num_instances = 4) {
// QUAD:             } {applicable_units = ["VLD", "VPU", "VST"]}
// QUAD-NEXT:        ktdf.stage
// QUAD:             } {applicable_units = ["DMAWR"]}
// QUAD-COUNT-6: memref.dealloc %{{.+}} : memref<64x2x1x32xf16, "SPAD">
// QUAD:         return
// QUAD-NOT:     ktdf.tiling
