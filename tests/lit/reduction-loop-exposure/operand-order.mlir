// RUN: dfsched-opt %s --reduction-loop-exposure | filecheck %s

// The load stage sends B before A (B came from DDR, A is an intermediate of the program), but
// the compute stage reads A first: in DataflowIR one FIFO joins the two units, so the stepped
// transfers are put in the order of the contraction's inputs, A's column before B's row.

// CHECK-LABEL: func.func @intermediate_times_matrix(
// CHECK-SAME:      %[[A:.*]]: memref<2x64xf16, "L1">, %[[B:.*]]: memref<64x32xf16, "L1">, %[[C:.*]]: memref<2x32xf16, "L1">)
// CHECK:         ktdf.stage depends_in(none)
// CHECK:           %{{.*}} = arith.constant 64 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.data_transfer from %[[A]][0, %[[K]]] size [2, 1]
// CHECK-NEXT:        ktdf.data_transfer from %[[B]][%[[K]], 0] size [1, 32]
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:           ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 2xf16> -> tensor<2x1xf16>
// CHECK-NEXT:      ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 32xf16> -> tensor<1x32xf16>
func.func @intermediate_times_matrix(%a: memref<2x64xf16, "L1">, %b: memref<64x32xf16, "L1">, %c: memref<2x32xf16, "L1">) {
  ktdf.pipeline {
    %f:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 2048xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
      %x:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 2048xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      %u2 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x#0, %x#1, %y, %u0, %u1, %u2 : !ktdf.fifo.slot<"L1LU" -> "SFU", 2048xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#3) {
      ktdf.data_transfer from %b[0, 0] size [64, 32] to %f#0 size [64, 32] : memref<64x32xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 2048xf16>
      ktdf.data_transfer from %a[0, 0] size [2, 64] to %f#1 size [2, 64] : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#3) depends_out(%f#4) {
      %w = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 2048xf16> -> tensor<64x32xf16>
      %v = ktdf.read_from_fifo %f#1 : <"L1LU" -> "SFU", 128xf16> -> tensor<2x64xf16>
      %e = tensor.empty() : tensor<2x32xf16>
      %s = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v, %w : tensor<2x64xf16>, tensor<64x32xf16>) outs(%e : tensor<2x32xf16>) {
      ^bb0(%p: f16, %q: f16, %acc: f16):
        %m = arith.mulf %p, %q : f16
        %n = arith.addf %acc, %m : f16
        linalg.yield %n : f16
      } -> tensor<2x32xf16>
      ktdf.write_to_fifo %s, %f#2 : tensor<2x32xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#4) depends_out(%f#5) {
      ktdf.data_transfer from %f#2 size [2, 32] to %c[0, 0] size [2, 32] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<2x32xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}
