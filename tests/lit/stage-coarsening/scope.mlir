// RUN: dfsched-opt %s --device=sample -p stage-coarsening | filecheck %s

// Two computes chained through the scratchpad: exp, then a square, with the intermediate
// vector going SFU -> L1 -> SFU. All FIFO stages form one group. The intermediate L1 buffer
// is used only by that group, so it is not expanded and moves, with the FIFOs, into the
// nested pipeline's private (resources first, then the nested pipeline's 5 tokens). The
// buffers the DMA stages share stay in the outer private.

// CHECK-LABEL: func.func @exp_square(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:4 = ktdf.private -> (memref<3x64xf16, "L1">, memref<3x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:           ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 %[[Q:.+]]:10 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[Q]]#5) {
// CHECK:                   ktdf.data_transfer from %[[P]]#0[%{{.+}}, 0] size [1, 64] to %[[Q]]#1 size [64]
// CHECK:                 ktdf.stage depends_in(%[[Q]]#6) depends_out(%[[Q]]#7) {
// CHECK-NEXT:              ktdf.data_transfer from %[[Q]]#2 size [64] to %[[Q]]#0[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
// CHECK:                 } {applicable_units = ["L1SU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#7) depends_out(%[[Q]]#8) {
// CHECK-NEXT:              ktdf.data_transfer from %[[Q]]#0[0] size [64] to %[[Q]]#3 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:                 } {applicable_units = ["L1LU"]}
// CHECK:                 ktdf.stage depends_in(%[[Q]]#9) depends_out(none) {
// CHECK:                   ktdf.data_transfer from %[[Q]]#4 size [64] to %[[P]]#1[%{{.+}}, 0] size [1, 64]
// CHECK:                 } {applicable_units = ["L1SU"]}
// CHECK:               }
// CHECK:             }
// CHECK:           } {applicable_units = ["L1LU", "SFU", "L1SU"]}

func.func @exp_square(%x: memref<192xf16, "DDR">, %z: memref<192xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  scf.for %n = %c0 to %c192 step %c64 {
    ktdf.pipeline {
      %lx, %lt, %lz, %q0, %q1, %q2, %q3, %t0, %t1, %t2, %t3, %t4, %t5, %t6 = ktdf.private -> (
          memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
          !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
          !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
          !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %a0 = memref.alloc() : memref<64xf16, "L1">
        %a1 = memref.alloc() : memref<64xf16, "L1">
        %a2 = memref.alloc() : memref<64xf16, "L1">
        %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %f2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %f3 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        %k2 = ktdf.create_token : !ktdf.token
        %k3 = ktdf.create_token : !ktdf.token
        %k4 = ktdf.create_token : !ktdf.token
        %k5 = ktdf.create_token : !ktdf.token
        %k6 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a0, %a1, %a2, %f0, %f1, %f2, %f3, %k0, %k1, %k2, %k3, %k4, %k5, %k6 :
            memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %x[%n] size [64] to %lx[0] size [64] : memref<192xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        ktdf.data_transfer from %lx[0] size [64] to %q0 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t1) depends_out(%t2) {
        %a = ktdf.read_from_fifo %q0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        %e = tensor.empty() : tensor<64xf16>
        %r = linalg.exp ins(%a : tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
        ktdf.write_to_fifo %r, %q1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%t2) depends_out(%t3) {
        ktdf.data_transfer from %q1 size [64] to %lt[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%t3) depends_out(%t4) {
        ktdf.data_transfer from %lt[0] size [64] to %q2 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t4) depends_out(%t5) {
        %a = ktdf.read_from_fifo %q2 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        %e = tensor.empty() : tensor<64xf16>
        %r = linalg.mul ins(%a, %a : tensor<64xf16>, tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
        ktdf.write_to_fifo %r, %q3 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%t5) depends_out(%t6) {
        ktdf.data_transfer from %q3 size [64] to %lz[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%t6) depends_out(none) {
        ktdf.data_transfer from %lz[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<192xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}
