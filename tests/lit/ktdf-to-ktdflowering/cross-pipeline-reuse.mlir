// Write-after-read across pipelines (README Decision 43), on examples/batch_matmul.mlir on the
// matrix_unit device: broadcast promotion loads each 8-row block of A once, in its own pipeline
// before the loop over N tiles (DMAR fills the single buffer at SPM offset 0), and the pipelines
// of that loop read it on MLD. Before the next row block's load overwrites the buffer, the
// readers must be done: a signal among the readers (both MLD corelets) and the writer (DMAR)
// ends the reader pipeline on the N loop's last iteration, except on the row loop's last.
// RUN: dfsched-opt --device=matrix_unit -p "ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling}))),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops{tile-single-loops=true},canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances,tile-size-selection,canonicalize,affine-min-canonicalization,subsume-linearize-index,address-assignment,normalize-grid-to-1d,ktdf-to-ktdflowering" %examples/batch_matmul.mlir | filecheck %s

// CHECK-DAG:   %[[DMAR:.*]] = uniform.query_map(map:%{{.*}}, key:%{{.*}}) : index
// CHECK:       scf.for %[[ROW:.*]] = %{{.*}} to %[[ROWS:.*]] step %[[ROW_STEP:[^ ]*]] {
// CHECK:         ktdf_lowering.execute_on %[[DMAR]] {
// CHECK:           ktdf.data_transfer from %{{.*}} to %{{.*}} : memref<1x16x32xf16, strided<[512, 32, 1], offset: ?>, "MEM">, memref<?x1x4x32xf16, "SPM">
// CHECK:         scf.for %[[COL:.*]] = %{{.*}} to %[[COLS:.*]] step %[[COL_STEP:[^ ]*]] {
// CHECK:           ktdf_lowering.execute_on %[[DMAR]], %[[MLD0:[^,]*]], %[[MLD1:[^,]*]],
// CHECK:             %[[LAST_ROW:.*]] = arith.subi %[[ROWS]], %[[ROW_STEP]] : index
// CHECK-NEXT:        %[[NOT_LAST_ROW:.*]] = arith.cmpi ne, %[[ROW]], %[[LAST_ROW]] : index
// CHECK-NEXT:        %[[LAST_COL:.*]] = arith.subi %[[COLS]], %[[COL_STEP]] : index
// CHECK-NEXT:        %[[IS_LAST_COL:.*]] = arith.cmpi eq, %[[COL]], %[[LAST_COL]] : index
// CHECK-NEXT:        %[[WHEN:.*]] = arith.andi %[[NOT_LAST_ROW]], %[[IS_LAST_COL]] : i1
// CHECK-NEXT:        scf.if %[[WHEN]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[MLD0]], %[[MLD1]], %[[DMAR]]
