// RUN: dfsched-opt %s --split-input-file --reduction-loop-exposure | filecheck %s

// Four rows of 64 f16 reduced at once (the SIMD tile of a 4-row reduction, as in
// examples/softmax.mlir): the FIFO side of the load holds [4, 64]; dividing every size by
// the 64 steps would leave [0, 1], so it shrinks along the reduction dim instead, to [4, 1]:
// one column of the four rows per step. The slot shrinks from 256 elements to 4.

// CHECK-LABEL: func.func @row_maxima(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 4xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token)
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0, %[[J]]] size [4, 1] to %{{.*}} size [4, 1] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf16>
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 4xf16> -> tensor<4x1xf16>

func.func @row_maxima(%in: memref<4x64xf16, "L1">, %out: memref<4x1xf16, "L1">) {
  %cst = arith.constant 0xFC00 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [4, 64] to %f#0 size [4, 64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 256xf16> -> tensor<4x64xf16>
      %e = tensor.empty() : tensor<4xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<4x64xf16>) outs(%i : tensor<4xf16>) {
      ^bb0(%a: f16, %b: f16):
        %r = arith.maximumf %b, %a : f16
        linalg.yield %r : f16
      } -> tensor<4xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<4xf16>, <"SFU" -> "L1SU", 4xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [4, 1] to %out[0, 0] size [4, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, memref<4x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// A square tile (32 rows of 32, sdpa_2d's scores): every size divides by the 32 steps, but
// dividing them would leave one element ([1, 1]); the side is the whole tile reduced along one
// dim, so it shrinks along that dim to a column of the 32 rows ([32, 1]).

// CHECK-LABEL: func.func @square_tile(
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0, %[[J]]] size [32, 1] to %{{.*}} size [32, 1] : memref<32x32xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf16>

func.func @square_tile(%in: memref<32x32xf16, "L1">, %out: memref<32x1xf16, "L1">) {
  %cst = arith.constant 0xFC00 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1024xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1024xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1024xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [32, 32] to %f#0 size [32, 32] : memref<32x32xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1024xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1024xf16> -> tensor<32x32xf16>
      %e = tensor.empty() : tensor<32xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<32xf16>) -> tensor<32xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<32x32xf16>) outs(%i : tensor<32xf16>) {
      ^bb0(%a: f16, %b: f16):
        %r = arith.maximumf %b, %a : f16
        linalg.yield %r : f16
      } -> tensor<32xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<32xf16>, <"SFU" -> "L1SU", 32xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [32, 1] to %out[0, 0] size [32, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf16>, memref<32x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}
