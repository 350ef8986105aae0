// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// ktdf.tiling.reserve_size, ktdf.tiling.derive_size and ktdf.tiling.linearize_index.

// reserve_size: the two index attributes print sorted, whatever the input order.
// CHECK-LABEL: func.func @reserve
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[T:.*]] = ktdf.tiling.reserve_size {divisibility = 4 : index, min_value = 8 : index} : index
// CHECK-NEXT:    %{{.*}} = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 16 : index, origin = "loop0"} : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[T]] {
// GENERIC-LABEL: sym_name = "reserve"
// GENERIC:         "ktdf.tiling.reserve_size"() <{{{.*}}divisibility = 4 : index{{.*}}}> : () -> index
func.func @reserve(%n: index) {
  %c0 = arith.constant 0 : index
  %ts = ktdf.tiling.reserve_size {min_value = 8 : index, divisibility = 4 : index} : index
  %ts2 = ktdf.tiling.reserve_size {origin = "loop0", min_value = 16 : index, divisibility = 1 : index} : index
  scf.for %i = %c0 to %n step %ts {
  }
  return
}

// derive_size and linearize_index over a two-level tiling of one loop, outermost pair
// first; the last pair of linearize_index is the point loop with stride 1.
// CHECK-LABEL: func.func @two_levels
// CHECK-SAME:    (%[[N:[^:]*]]: index, %[[T0:[^:]*]]: index, %[[T1:[^:]*]]: index)
// CHECK:         scf.for %[[I0:[^ ]*]] =
// CHECK-NEXT:      %[[X1:.*]] = ktdf.tiling.derive_size [%[[I0]] : %[[T0]]], total_size = %[[N]] : index
// CHECK-NEXT:      scf.for %[[I1:[^ ]*]] = %{{.*}} to %[[X1]]
// CHECK-NEXT:        %[[X2:.*]] = ktdf.tiling.derive_size [%[[I0]] : %[[T0]]], [%[[I1]] : %[[T1]]], total_size = %[[N]] {level = 2 : i64} : index
// CHECK-NEXT:        scf.for %[[I2:[^ ]*]] = %{{.*}} to %[[X2]]
// CHECK-NEXT:          %{{.*}} = ktdf.tiling.linearize_index [%[[I0]] : %[[T0]]], [%[[I1]] : %[[T1]]], [%[[I2]] : %[[C1:[a-z0-9_]+]]] : index
// CHECK-NEXT:          %{{.*}} = ktdf.tiling.linearize_index [%[[I2]] : %[[C1]]] {note = "point"} : index
// GENERIC-LABEL: sym_name = "two_levels"
// GENERIC:         "ktdf.tiling.derive_size"(%{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index) -> index
// GENERIC:         "ktdf.tiling.derive_size"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {level = 2 : i64} : (index, index, index, index, index) -> index
// GENERIC:         "ktdf.tiling.linearize_index"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, index, index, index) -> index
func.func @two_levels(%n: index, %t0: index, %t1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %trips = arith.ceildivui %n, %t0 : index
  scf.for %i0 = %c0 to %trips step %c1 {
    %x1 = ktdf.tiling.derive_size [%i0 : %t0], total_size = %n : index
    scf.for %i1 = %c0 to %x1 step %c1 {
      %x2 = ktdf.tiling.derive_size [%i0 : %t0], [%i1 : %t1], total_size = %n {level = 2} : index
      scf.for %i2 = %c0 to %x2 step %c1 {
        %flat = ktdf.tiling.linearize_index [%i0 : %t0], [%i1 : %t1], [%i2 : %c1] : index
        %point = ktdf.tiling.linearize_index [%i2 : %c1] {note = "point"} : index
      }
    }
  }
  return
}
