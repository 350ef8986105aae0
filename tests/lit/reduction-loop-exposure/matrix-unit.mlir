// RUN: dfsched-opt %s --reduction-loop-exposure --map-reduction-partials --device=matrix_unit | filecheck %s

// A contraction marked for a matrix unit (dfsched.matrix_tile = 2x8x4: what
// construct-three-stage-pipeline writes when the compute unit's feature.matrix takes it)
// steps K by the tile's K = 4, not by 1: 16 steps, each slot shrinks to one 2x4 block of A and
// one 4x8 block of B, read at k * 4; map-reduction-partials keeps the mark on the in-place
// generic for the DataflowIR lowering, and the accumulator in the unit's f32 (f16 products
// extended, summed in f32 for all of K); the block is rounded once to f16, into a second
// buffer, right before it leaves the unit.

// CHECK-LABEL: func.func @matrix_steps(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"MLD" -> "MXU", 8xf16>, !ktdf.fifo.slot<"MLD" -> "MXU", 32xf16>, !ktdf.fifo.slot<"MXU" -> "MST", 16xf16>
// CHECK:         ktdf.stage depends_in(none)
// CHECK:           %{{.*}} = arith.constant 16 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[0, %[[K]] * 4] size [2, 4] to %{{.*}} size [2, 4]
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%[[K]] * 4, 0] size [4, 8] to %{{.*}} size [4, 8]
// CHECK:           %[[X:.*]] = ktdf.read_from_fifo %{{.*}} -> memref<2x4xf16>
// CHECK-NEXT:      %[[Y:.*]] = ktdf.read_from_fifo %{{.*}} -> memref<4x8xf16>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[X]], %[[Y]] : memref<2x4xf16>, memref<4x8xf16>) outs(%[[ACC:.*]] : memref<2x8xf32, "ACC">) attrs = {dfsched.matrix_tile = array<i64: 2, 8, 4>}
// CHECK:           ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK:           scf.if
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[ACC]] : memref<2x8xf32, "ACC">) outs(%[[NARROW:.*]] : memref<2x8xf16, "ACC">)
// CHECK:               arith.truncf %{{.*}} : f32 to f16
// CHECK:             ktdf.write_to_fifo %[[NARROW]]
func.func @matrix_steps(%a: memref<2x64xf16, "SPM">, %b: memref<64x8xf16, "SPM">, %c: memref<2x8xf16, "SPM">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:6 = ktdf.private -> (!ktdf.fifo.slot<"MLD" -> "MXU", 128xf16>, !ktdf.fifo.slot<"MLD" -> "MXU", 512xf16>, !ktdf.fifo.slot<"MXU" -> "MST", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
        %x:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"MLD" -> "MXU", 128xf16>, !ktdf.fifo.slot<"MLD" -> "MXU", 512xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"MXU" -> "MST", 16xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        %u2 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x#0, %x#1, %y, %u0, %u1, %u2 : !ktdf.fifo.slot<"MLD" -> "MXU", 128xf16>, !ktdf.fifo.slot<"MLD" -> "MXU", 512xf16>, !ktdf.fifo.slot<"MXU" -> "MST", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#3) {
        ktdf.data_transfer from %a[0, 0] size [2, 64] to %f#0 size [2, 64] : memref<2x64xf16, "SPM">, !ktdf.fifo.slot<"MLD" -> "MXU", 128xf16>
        ktdf.data_transfer from %b[0, 0] size [64, 8] to %f#1 size [64, 8] : memref<64x8xf16, "SPM">, !ktdf.fifo.slot<"MLD" -> "MXU", 512xf16>
      } {applicable_units = ["MLD"]}
      ktdf.stage depends_in(%f#3) depends_out(%f#4) {
        %v = ktdf.read_from_fifo %f#0 : <"MLD" -> "MXU", 128xf16> -> tensor<2x64xf16>
        %w = ktdf.read_from_fifo %f#1 : <"MLD" -> "MXU", 512xf16> -> tensor<64x8xf16>
        %e = tensor.empty() : tensor<2x8xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v, %w : tensor<2x64xf16>, tensor<64x8xf16>) outs(%e : tensor<2x8xf16>) attrs = {dfsched.matrix_tile = array<i64: 2, 8, 4>} {
        ^bb0(%p: f16, %q: f16, %acc: f16):
          %m = arith.mulf %p, %q : f16
          %n = arith.addf %acc, %m : f16
          linalg.yield %n : f16
        } -> tensor<2x8xf16>
        ktdf.write_to_fifo %s, %f#2 : tensor<2x8xf16>, <"MXU" -> "MST", 16xf16>
      } {applicable_units = ["MXU"]}
      ktdf.stage depends_in(%f#4) depends_out(%f#5) {
        ktdf.data_transfer from %f#2 size [2, 8] to %c[0, 0] size [2, 8] : !ktdf.fifo.slot<"MXU" -> "MST", 16xf16>, memref<2x8xf16, "SPM">
      } {applicable_units = ["MST"]}
    }
  }
  return
}
