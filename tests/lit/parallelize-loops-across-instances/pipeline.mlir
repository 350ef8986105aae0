// DEFINE: %{chain} = --ensure-device-declaration --ktir-legality-check --compute-group-extraction --construct-three-stage-pipeline --path-expansion --scalar-broadcast-legalization --normalize-scf-for-loops --canonicalize --tile-scf-for-loops --canonicalize --loop-invariant-code-motion --stage-coarsening --double-buffering --parallelize-loops-across-instances
// RUN: dfsched-opt %examples/add.mlir --device=sample %{chain} | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %examples/add.mlir --device=quad_corelet %{chain} | filecheck %s --check-prefix=QUAD

// The seed's add (3 rows of 64 f16 per compute tile) scheduled up to this pass, on two
// devices. Only the vector pipeline inside the coarse stage runs on corelet units; the DMA
// stages around it use units of the whole core and keep their loops.

// Sample device: the 3 rows go to its 2 sub-cores, 2 and 1 (Decision 3: 2 does not divide
// 3, which upstream's backend rejects).
// SAMPLE-LABEL: func.func @local_schedule_0(
// SAMPLE:         ktdf.stage depends_in(none) depends_out(%{{.+}}) {
// SAMPLE-NEXT:      scf.for
// SAMPLE:         } {applicable_units = ["MNILU"]}
// SAMPLE-NEXT:    ktdf.stage
// SAMPLE-NEXT:      ktdf.parallel (%[[ROW:[^,]+]], %{{[^)]+}}) = (%[[C0:[^)]+]]) to (%[[C3:[^)]+]]) step (%[[C1:[^)]+]]) distribute(num_instances = 2) {
// SAMPLE-NEXT:        ktdf.pipeline {
// SAMPLE:               ktdf.data_transfer from %{{.+}}[%{{.+}}, 0, 0] size [1, 1, 64] to
// SAMPLE:             ktdf.parallel_yield
// SAMPLE:           }
// SAMPLE:         } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// SAMPLE-NEXT:    ktdf.stage
// SAMPLE-NEXT:      scf.for %{{.+}} = %[[C0]] to %[[C3]] step %[[C1]] {
// SAMPLE:         } {applicable_units = ["MNISU"]}

// quad_corelet: 32 lanes, so a row is 2 vectors; both loops are tiled and the tile sizes
// are still open, so the row loop's trip count is not known yet. It is spread over the 4
// corelets of a core.
// QUAD-LABEL: func.func @local_schedule_0(
// QUAD:         } {applicable_units = ["DMARD"]}
// QUAD-NEXT:    ktdf.stage
// QUAD-NEXT:      ktdf.parallel (%[[ROW:[^,]+]], %{{[^)]+}}) = (%{{[^)]+}}) to (%[[ROWS:[^)]+]]) step (%{{[^)]+}}) distribute(num_instances = 4) {
// QUAD-NEXT:        ktdf.tiling.linearize_index [%{{.+}} : %{{.+}}], [%[[ROW]] : %{{.+}}] : index
// QUAD-NEXT:        scf.for
// QUAD:             ktdf.parallel_yield
// QUAD:           }
// QUAD:         } {applicable_units = ["VLD", "VPU", "VST"]}
// QUAD-NOT:     ktdf.parallel (
