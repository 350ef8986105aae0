// RUN: dfsched-opt %s --tile-scf-for-loops="tile-sizes=8" | dfsched-opt --tile-scf-for-loops="tile-sizes=2" | filecheck %s

// Tiling twice: the second run tiles the tile loop of the first (its perfect nest stops at the
// derive_size). The old tile index now reads a linearize_index of the new loops, and the
// existing linearize_index of the element gets the old pair split into the new tile and point
// pairs.
// QUIRK (upstream, kept): the split keeps the new tile size (2) as the outer stride, so the
// element index reads 2*t + 8*p + q where 16*t + 8*p + q is meant; the pipeline never tiles
// twice.

// CHECK-LABEL: func.func @twice(
// CHECK-SAME:      %[[A:[^:]*]]: memref<64xf16>) {
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[S8:.*]] = arith.constant 8 : index
// CHECK:         %[[N8:.*]] = arith.ceildivui %[[C64]], %[[S8]] : index
// CHECK:         %[[S2:.*]] = arith.constant 2 : index
// CHECK:         %[[N2:.*]] = arith.ceildivui %[[N8]], %[[S2]] : index
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %[[N2]] step %{{.*}} {
// CHECK-NEXT:      %[[SZ2:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[S2]]], total_size = %[[N8]] : index
// CHECK-NEXT:      scf.for %[[P:.*]] = %{{.*}} to %[[SZ2]] step %{{.*}} {
// CHECK-NEXT:        %[[OLD:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[S2]]], [%[[P]] : %{{.*}}] : index
// CHECK-NEXT:        %[[SZ8:.*]] = ktdf.tiling.derive_size [%[[OLD]] : %[[S8]]], total_size = %[[C64]] : index
// CHECK-NEXT:        scf.for %[[Q:.*]] = %{{.*}} to %[[SZ8]] step %{{.*}} {
// CHECK-NEXT:          %[[E:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[S2]]], [%[[P]] : %[[S8]]], [%[[Q]] : %{{.*}}] : index
// CHECK-NEXT:          memref.load %[[A]][%[[E]]] : memref<64xf16>
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @twice(%A: memref<64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %A[%i] : memref<64xf16>
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
