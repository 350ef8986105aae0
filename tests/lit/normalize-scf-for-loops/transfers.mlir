// RUN: dfsched-opt %s --normalize-scf-for-loops | filecheck %s --check-prefix=NORM
// RUN: dfsched-opt %s --normalize-scf-for-loops --canonicalize | filecheck %s

// The index expressions of ktdf.data_transfer absorb the affine.apply ops that normalization
// puts in place of the induction variables; constant indices fold into the map on the way.
// The applies themselves are left for canonicalize, which also uniques and hoists the new
// bounds (the first constant met that is not right after a uniqued one goes first).

// NORM-LABEL: func.func @transfers
// NORM:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NORM:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NORM:             ktdf.stage
// NORM-NEXT:          affine.apply
// NORM-NEXT:          affine.apply
// NORM-NEXT:          ktdf.data_transfer from %{{.*}}[%[[I]], 1, %[[J]] * 32 + 1] size [1, 1, 32]
// NORM:             ktdf.stage
// NORM-NEXT:          affine.apply
// NORM-NEXT:          affine.apply
// NORM-NEXT:          ktdf.data_transfer from %{{.*}}[0, 0, 0] size [1, 1, 32] to %{{.*}}[0, %[[I]] + 2, 1, %[[J]] * 32]

// CHECK-LABEL: func.func @transfers
// CHECK-SAME:    (%[[SRC:[^:]*]]: memref<8x32x128xf16>, %[[DST:[^:]*]]: memref<1x8x32x128xf16>)
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C6]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.*]]:2 = ktdf.private
// CHECK:                 memref.alloc
// CHECK:                 ktdf.create_token
// CHECK:                 ktdf.private_yield
// CHECK:               }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[P]]#1) {
// CHECK-NEXT:            ktdf.data_transfer from %[[SRC]][%[[I]], 1, %[[J]] * 32 + 1] size [1, 1, 32] to %[[P]]#0[0, 0, 0] size [1, 1, 32] : memref<8x32x128xf16>, memref<1x1x32xf16, "L1">
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#1) depends_out(none) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#0[0, 0, 0] size [1, 1, 32] to %[[DST]][0, %[[I]] + 2, 1, %[[J]] * 32] size [1, 1, 1, 32] : memref<1x1x32xf16, "L1">, memref<1x8x32x128xf16>
// CHECK:               } {applicable_units = ["MNISU"]}
// CHECK:             }
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         return
func.func @transfers(%src: memref<8x32x128xf16>, %dst: memref<1x8x32x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c2 to %c8 step %c1 {
    scf.for %j = %c0 to %c128 step %c32 {
      ktdf.pipeline {
        %p:2 = ktdf.private -> (memref<1x1x32xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<1x1x32xf16, "L1">
          %t = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %t : memref<1x1x32xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#1) {
          ktdf.data_transfer from %src[%i - 2, %c1, %j + 1] size [1, 1, 32] to %p#0[0, 0, 0] size [1, 1, 32] : memref<8x32x128xf16>, memref<1x1x32xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%p#1) depends_out(none) {
          ktdf.data_transfer from %p#0[0, 0, 0] size [1, 1, 32] to %dst[%c0, %i, %c1, %j] size [1, 1, 1, 32] : memref<1x1x32xf16, "L1">, memref<1x8x32x128xf16>
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
