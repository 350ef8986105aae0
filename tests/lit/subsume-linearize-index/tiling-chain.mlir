// RUN: dfsched-opt %s --device=sample --tile-scf-for-loops --tile-size-selection --subsume-linearize-index | filecheck %s

// The tiling family in pipeline order on a 2-D parallel nest around a pipeline: tiling leaves
// placeholders, selection makes them the largest sizes that fit (the whole loops: 32 rows and
// 2 column blocks, the private's 1x64 L1 buffer is small; full tiles, so the point loops run
// to the sizes), and the transfer subscripts absorb the linearized indices.

// CHECK-LABEL: func.func @tiled_copy(
// CHECK-SAME:      %[[A:[^:]*]]: memref<32x128xf16, "DDR">) {
// CHECK:         %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 32 : index
// CHECK:         %[[COLS:.*]] = arith.constant 2 : index
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK:         scf.for %[[TI:[^ ]*]] =
// CHECK:           scf.for %[[TJ:[^ ]*]] =
// CHECK-NEXT:        scf.for %[[PI:[^ ]*]] = %{{.*}} to %[[ROWS]] step
// CHECK-NEXT:          scf.for %[[PJ:[^ ]*]] = %{{.*}} to %[[COLS]] step
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   ktdf.data_transfer from %[[A]][%[[TI]] * 32 + %[[PI]], %[[TJ]] * 128 + %[[PJ]] * 64] size [1, 64] to %{{.*}}[0, 0] size [1, 64]
// CHECK-NOT:     ktdf.tiling.linearize_index
func.func @tiled_copy(%A: memref<32x128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      ktdf.pipeline {
        %buf = ktdf.private -> (memref<1x64xf16, "L1">) {
          %b = memref.alloc() : memref<1x64xf16, "L1">
          ktdf.private_yield %b : memref<1x64xf16, "L1">
        }
        ktdf.stage depends_in(none) depends_out(none) {
          ktdf.data_transfer from %A[%i, %j * 64] size [1, 64] to %buf[0, 0] size [1, 64]
            : memref<32x128xf16, "DDR">, memref<1x64xf16, "L1">
        } {applicable_units = ["MNILU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
