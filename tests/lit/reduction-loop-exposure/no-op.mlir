// RUN: dfsched-opt %s -split-input-file --reduction-loop-exposure | filecheck %s

// CHECK-LABEL: func.func @dynamic_row
// CHECK-NOT:     reduction_loop
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", ?xf16> -> tensor<1x?xf16>
// CHECK-NOT:     reduction_loop
// CHECK-LABEL: func.func @scale
// CHECK-NOT:     scf.for

// A dynamic reduction extent: nothing to count steps with, left alone (as upstream).
func.func @dynamic_row(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate(%len) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [%len] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", ?xf16> -> tensor<1x?xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x?xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// No reduction: an elementwise generic is not touched.
func.func @scale(%x: tensor<1x64xf16>, %e: tensor<1x64xf16>) -> tensor<1x64xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a: f16, %b: f16):
    %n = arith.addf %a, %a : f16
    linalg.yield %n : f16
  } -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}
