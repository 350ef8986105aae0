// RUN: dfsched-opt %s --reduction-loop-exposure | filecheck %s

// A contraction, one row of C = A x B (what a linalg.matmul tiled to one 1x64 row of C
// becomes): A's row (m, k) and all of B (k, n) are read from two FIFO slots. Every input
// steps along k, so both slots shrink to one step (1 element of A, one 64-element row of B)
// and both transfers move into the k loop, at k along A's dim 1 and B's dim 0.

// CHECK-LABEL: func.func @row_times_matrix(
// CHECK-SAME:      %[[A:.*]]: memref<2x64xf16, "L1">, %[[B:.*]]: memref<64x64xf16, "L1">, %[[C:.*]]: memref<2x64xf16, "L1">)
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK:         ktdf.stage depends_in(none)
// CHECK:           %{{.*}} = arith.constant 64 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.data_transfer from %[[A]][%{{.*}}, %[[K]]] size [1, 1] to %{{.*}} size [1, 1]
// CHECK-NEXT:        ktdf.data_transfer from %[[B]][%[[K]], 0] size [1, 64] to %{{.*}} size [1, 64]
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:           scf.for %[[K2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x64xf16>) {
// CHECK-NEXT:        %[[X:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
// CHECK-NEXT:        %[[Y:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:        %{{.*}} = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<1x1xf16>, tensor<1x64xf16>) outs(%[[ACC]] : tensor<1x64xf16>)
func.func @row_times_matrix(%a: memref<2x64xf16, "L1">, %b: memref<64x64xf16, "L1">, %c: memref<2x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 4096xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
        %x:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 4096xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        %u2 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x#0, %x#1, %y, %u0, %u1, %u2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 4096xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#3) {
        ktdf.data_transfer from %a[%r, 0] size [1, 64] to %f#0 size [1, 64] : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %b[0, 0] size [64, 64] to %f#1 size [64, 64] : memref<64x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 4096xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#3) depends_out(%f#4) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %w = ktdf.read_from_fifo %f#1 : <"L1LU" -> "SFU", 4096xf16> -> tensor<64x64xf16>
        %e = tensor.empty() : tensor<1x64xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v, %w : tensor<1x64xf16>, tensor<64x64xf16>) outs(%e : tensor<1x64xf16>) {
        ^bb0(%p: f16, %q: f16, %acc: f16):
          %m = arith.mulf %p, %q : f16
          %n = arith.addf %acc, %m : f16
          linalg.yield %n : f16
        } -> tensor<1x64xf16>
        ktdf.write_to_fifo %s, %f#2 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#4) depends_out(%f#5) {
        ktdf.data_transfer from %f#2 size [1, 64] to %c[%r, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<2x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}
