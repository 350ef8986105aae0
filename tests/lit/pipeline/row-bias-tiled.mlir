// The row-bias add of examples/row_bias_tiled.mlir: 4096 rows of 64 f16 in one compute tile,
// so A and C (512 KiB each) do not fit the sample device's 1 MiB L1 together.
//
// DEFINE: %{sched} = --pass-pipeline='builtin.module(ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling})),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops{tile-single-loops=true},canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances,tile-size-selection,canonicalize,affine-min-canonicalization,subsume-linearize-index)'
// RUN: dfsched-opt --device=sample %{sched} %examples/row_bias_tiled.mlir | filecheck %s
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_bias_tiled.mlir | filecheck %s --check-prefix=DFIR

// The rows are tiled (tile-single-loops) and stage coarsening leaves the tile loop around the
// outer pipeline. The bias does not depend on the tile loop, so broadcast promotion moves its
// load into a sibling pipeline before the loop: it is loaded once per program, into its own L1
// buffer, which the corelet pipeline reads on every row. A and C are double-buffered; the
// cost model (Decision 11) takes 32-row tiles, the fewest predicted cycles (the largest that
// fits with the bias, 1024 rows, leaves the first load and the last store exposed), so the
// tile loop runs 128 times.

// CHECK-LABEL: module @local_schedule_0
// CHECK:         %[[BIAS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [64], strides: [1]
// CHECK-NOT:     scf.for
// CHECK:         %[[BIAS_L1:.*]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %[[BIAS]][{{.*}}] size [64] to %[[BIAS_L1]][0] size [64]
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
// CHECK-COUNT-4: memref.alloc() : memref<32x1x64xf16, "L1">
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %c128 step
// CHECK-NEXT:      ktdf.buffer_phase(%[[T]]) {num_phases = 2 : i64}
// CHECK:           ktdf.pipeline modulo(size : 2) {
// CHECK:             ktdf.stage
// CHECK-NOT:           %[[BIAS]]
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:             ktdf.parallel ({{.*}}) = ({{.*}}) to (%c32) step ({{.*}}) distribute(num_instances = 2) {
// CHECK:               ktdf.data_transfer from %[[BIAS_L1]][0] size [64] to %{{.*}} size [64]
// CHECK:           } {applicable_units = ["MNISU"]}
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK-NOT:     %[[BIAS]]

// In DataflowIR the DMA load unit copies the bias (at byte 524288) into L1 once, before its
// tile loop, and nothing else reads the bias in device memory.
// DFIR:         dataflow.program_unit iter_arg : %{{.*}} -> (%0) : {
// DFIR:           %[[BIAS:.*]] = dataflow.get_logical_memory_view %{{.*}}, %c524288 {{.*}} memref<64xf16>
// DFIR:           agen.composite_load_and_store src:%[[BIAS]]
// DFIR:           scf.for %{{.*}} = %c0 to %c128 step %c1
// DFIR-NOT:       src:%[[BIAS]]
// DFIR-NOT:       ktdf.
