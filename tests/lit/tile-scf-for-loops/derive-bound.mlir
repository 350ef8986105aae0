// RUN: dfsched-opt %s --tile-scf-for-loops="tile-sizes=4,16" | filecheck %s

// A point loop bounded by a derive_size (an earlier tiling) tiles again: the dimension's total
// stays the original total and the earlier pairs come first (its ancestry), in the new
// derive_size and in the new linearize_index.

// CHECK-LABEL: func.func @retile(
// CHECK-SAME:      %[[T:[^:]*]]: index, %[[U:[^:]*]]: index) {
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[BI:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[C12]]], total_size = %[[C96]] : index
// CHECK:         %[[S4:.*]] = arith.constant 4 : index
// CHECK:         %[[S16:.*]] = arith.constant 16 : index
// CHECK:         arith.ceildivui %[[BI]], %[[S4]] : index
// CHECK:         scf.for %[[TI:.*]] =
// CHECK:           arith.ceildivui %[[C64]], %[[S16]] : index
// CHECK:           scf.for %[[TJ:.*]] =
// CHECK-NEXT:        %[[SI:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[C12]]], [%[[TI]] : %[[S4]]], total_size = %[[C96]] : index
// CHECK-NEXT:        %[[SJ:.*]] = ktdf.tiling.derive_size [%[[TJ]] : %[[S16]]], total_size = %[[C64]] : index
// CHECK-NEXT:        scf.for %[[PI:.*]] = %{{.*}} to %[[SI]]
// CHECK-NEXT:          scf.for %[[PJ:.*]] = %{{.*}} to %[[SJ]]
// CHECK-NEXT:            ktdf.tiling.linearize_index [%[[TJ]] : %[[S16]]], [%[[PJ]] : %{{.*}}] : index
// CHECK-NEXT:            ktdf.tiling.linearize_index [%[[T]] : %[[C12]]], [%[[TI]] : %[[S4]]], [%[[PI]] : %{{.*}}] : index
func.func @retile(%t: index, %u: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %rows = ktdf.tiling.derive_size [%t : %c12], total_size = %c96 : index
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %m = memref.alloca(%i, %j) : memref<?x?xf16>
    }
  }
  return
}
