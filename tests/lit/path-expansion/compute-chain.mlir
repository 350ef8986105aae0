// RUN: dfsched-opt %s --path-expansion --device=sample | filecheck %s

// Two compute stages on the SFU, the first handing its result to the second through a
// FIFO of its own. The sample device has no SFU -> SFU datapath: the shortest round trip
// is SFU -> L1SU -> L1 -> L1LU -> SFU, so the hand-over goes through an L1 buffer with an
// L1SU stage and an L1LU stage between the two compute stages (placed right after the
// producer). Eight stages in all.

// CHECK-LABEL: func.func @exp_then_scale(
// CHECK:         %[[P:.*]]:14 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#0[0] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0] size [64] to %[[P]]#1 size [64]
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#8) depends_out(%[[P]]#9) {
// CHECK-NEXT:      %[[X:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[X]] : tensor<64xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[EXP]], %[[P]]#3 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#9) depends_out(%[[P]]#10) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3 size [64] to %[[P]]#5[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#10) depends_out(%[[P]]#11) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#5[0] size [64] to %[[P]]#2 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#11) depends_out(%[[P]]#12) {
// CHECK-NEXT:      %[[Y:.*]] = ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:      %[[TWICE:.*]] = arith.addf %[[Y]], %[[Y]] : tensor<64xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[TWICE]], %[[P]]#4 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#12) depends_out(%[[P]]#13) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#4 size [64] to %[[P]]#6[0] size [64]
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#13) depends_out(none) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#6[0] size [64] to %{{.*}}[%{{.*}}] size [64]
// CHECK:         } {applicable_units = ["MNISU"]}

!row = memref<256xf16, "DDR">
module {
  func.func @exp_then_scale(%src: !row, %dst: !row) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          %mid = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %mid, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#3) {
          ktdf.data_transfer from %src[%i] size [64] to %p#0 size [64] : !row, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
          %e = math.exp %x : tensor<64xf16>
          ktdf.write_to_fifo %e, %p#1 : tensor<64xf16>, <"SFU" -> "SFU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {
          %y = ktdf.read_from_fifo %p#1 : <"SFU" -> "SFU", 64xf16> -> tensor<64xf16>
          %d = arith.addf %y, %y : tensor<64xf16>
          ktdf.write_to_fifo %d, %p#2 : tensor<64xf16>, <"SFU" -> "DDR", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#5) depends_out(none) {
          ktdf.data_transfer from %p#2 size [64] to %dst[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !row
        }
      }
    }
    return
  }
}
