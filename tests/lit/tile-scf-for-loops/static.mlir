// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --tile-scf-for-loops="tile-sizes=4,32" | filecheck %s

// Static sizes on a normalized 2-D nest: tile loops over ceildivui(total, size), one
// derive_size per dimension in the innermost tile loop, point loops up to it, and every use of
// an old induction variable reads a linearize_index (the inner dimension's is made first).
// Both the tile and the point loops keep the attributes of the loop they come from.

// CHECK-LABEL: func.func @transpose_tile(
// CHECK-SAME:      %[[A:.*]]: memref<16x64xf16>) {
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[S4:.*]] = arith.constant 4 : index
// CHECK:         %[[S32:.*]] = arith.constant 32 : index
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[NI:.*]] = arith.ceildivui %[[C16]], %[[S4]] : index
// CHECK-NEXT:    scf.for %[[TI:.*]] = %[[ZERO]] to %[[NI]] step %[[ONE]] {
// CHECK-NEXT:      %[[NJ:.*]] = arith.ceildivui %[[C64]], %[[S32]] : index
// CHECK-NEXT:      scf.for %[[TJ:.*]] = %[[ZERO]] to %[[NJ]] step %[[ONE]] {
// CHECK-NEXT:        %[[SI:.*]] = ktdf.tiling.derive_size [%[[TI]] : %[[S4]]], total_size = %[[C16]] : index
// CHECK-NEXT:        %[[SJ:.*]] = ktdf.tiling.derive_size [%[[TJ]] : %[[S32]]], total_size = %[[C64]] : index
// CHECK-NEXT:        scf.for %[[PI:.*]] = %[[ZERO]] to %[[SI]] step %[[ONE]] {
// CHECK-NEXT:          scf.for %[[PJ:.*]] = %[[ZERO]] to %[[SJ]] step %[[ONE]] {
// CHECK-NEXT:            %[[J:.*]] = ktdf.tiling.linearize_index [%[[TJ]] : %[[S32]]], [%[[PJ]] : %[[ONE]]] : index
// CHECK-NEXT:            %[[I:.*]] = ktdf.tiling.linearize_index [%[[TI]] : %[[S4]]], [%[[PI]] : %[[ONE]]] : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<16x64xf16>
// CHECK-NEXT:            memref.store %[[V]], %[[A]][%[[J]], %[[I]]] : memref<16x64xf16>
// CHECK:               } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:             } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         return
func.func @transpose_tile(%A: memref<16x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %A[%i, %j] : memref<16x64xf16>
      memref.store %v, %A[%j, %i] : memref<16x64xf16>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}

// -----

// Only the outer induction variable is used: the inner dimension gets no linearize_index.
// Sizes that do not divide the totals (4 into 18, 32 into 40) are fine: derive_size gives the
// last tile its remainder. Two sibling nests are tiled independently.

// CHECK-LABEL: func.func @one_index_used(
// CHECK:         arith.ceildivui %{{.*}}, %[[A4:.*]] : index
// CHECK:         scf.for %[[TI:.*]] =
// CHECK:           scf.for %[[TJ:.*]] =
// CHECK:             scf.for %[[PI:.*]] =
// CHECK-NEXT:          scf.for %{{.*}} =
// CHECK-NEXT:            %[[I:.*]] = ktdf.tiling.linearize_index [%[[TI]] : %[[A4]]], [%[[PI]] : %{{.*}}] : index
// CHECK-NEXT:            "test.use"(%[[I]]) : (index) -> ()
// CHECK:               }
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             ktdf.tiling.derive_size
// CHECK-NEXT:        ktdf.tiling.derive_size
// CHECK-NOT:     ktdf.tiling.linearize_index
// CHECK:         return
func.func @one_index_used(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c18 = arith.constant 18 : index
  %c40 = arith.constant 40 : index
  scf.for %i = %c0 to %c18 step %c1 {
    scf.for %j = %c0 to %c40 step %c1 {
      "test.use"(%i) : (index) -> ()
    }
  }
  scf.for %i = %c0 to %c18 step %c1 {
    scf.for %j = %c0 to %c40 step %c1 {
      "test.other"() : () -> ()
    }
  }
  return
}

// -----

// A bound that is not a constant is the dimension's total as it is.

// CHECK-LABEL: func.func @symbolic_bounds(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[M:[^:]*]]: index) {
// CHECK:         %[[NI:.*]] = arith.ceildivui %[[N]], %[[S4:.*]] : index
// CHECK:         %[[NJ:.*]] = arith.ceildivui %[[M]], %[[S32:.*]] : index
// CHECK:         ktdf.tiling.derive_size [%{{.*}} : %[[S4]]], total_size = %[[N]] : index
// CHECK-NEXT:    ktdf.tiling.derive_size [%{{.*}} : %[[S32]]], total_size = %[[M]] : index
func.func @symbolic_bounds(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}
