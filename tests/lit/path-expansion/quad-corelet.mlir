// RUN: dfsched-opt %s --path-expansion --device=quad_corelet | filecheck %s

// The quad_corelet device names its units differently and has 32 f16 lanes: global memory
// GMEM reaches the VPU through the DMARD DMA unit, the SPAD scratchpad and the VLD vector
// load unit, and results go back through VST, SPAD and DMAWR. The stages take those kinds.

// CHECK-LABEL: func.func @scale(
// CHECK:         %[[P:.*]]:8 = ktdf.private -> (memref<4x32xf16, "SPAD">, !ktdf.fifo.slot<"VLD" -> "VPU", 128xf16>, !ktdf.fifo.slot<"VPU" -> "VST", 128xf16>, memref<4x32xf16, "SPAD">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}, 0] size [4, 32] to %[[P]]#0[0, 0] size [4, 32] : memref<64x32xf16, "GMEM">, memref<4x32xf16, "SPAD">
// CHECK:         } {applicable_units = ["DMARD"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0, 0] size [4, 32] to %[[P]]#1 size [128] : memref<4x32xf16, "SPAD">, !ktdf.fifo.slot<"VLD" -> "VPU", 128xf16>
// CHECK:         } {applicable_units = ["VLD"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK-NEXT:      %[[X:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"VLD" -> "VPU", 128xf16> -> tensor<4x32xf16>
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : tensor<4x32xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[Y]], %[[P]]#2 : tensor<4x32xf16>, <"VPU" -> "VST", 128xf16>
// CHECK:         } {applicable_units = ["VPU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#2 size [128] to %[[P]]#3[0, 0] size [4, 32] : !ktdf.fifo.slot<"VPU" -> "VST", 128xf16>, memref<4x32xf16, "SPAD">
// CHECK:         } {applicable_units = ["VST"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(none) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3[0, 0] size [4, 32] to %{{.*}}[%{{.*}}, 0] size [4, 32] : memref<4x32xf16, "SPAD">, memref<64x32xf16, "GMEM">
// CHECK:         } {applicable_units = ["DMAWR"]}

!matrix = memref<64x32xf16, "GMEM">
module {
  func.func @scale(%src: !matrix, %dst: !matrix) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c4 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"GMEM" -> "VPU", 128xf16>, !ktdf.fifo.slot<"VPU" -> "GMEM", 128xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"GMEM" -> "VPU", 128xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VPU" -> "GMEM", 128xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"GMEM" -> "VPU", 128xf16>, !ktdf.fifo.slot<"VPU" -> "GMEM", 128xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i, %c0] size [4, 32] to %p#0 size [4, 32] : !matrix, !ktdf.fifo.slot<"GMEM" -> "VPU", 128xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"GMEM" -> "VPU", 128xf16> -> tensor<4x32xf16>
          %y = arith.mulf %x, %x : tensor<4x32xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<4x32xf16>, <"VPU" -> "GMEM", 128xf16>
        } {applicable_units = ["VPU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [4, 32] to %dst[%i, %c0] size [4, 32] : !ktdf.fifo.slot<"VPU" -> "GMEM", 128xf16>, !matrix
        }
      }
    }
    return
  }
}
