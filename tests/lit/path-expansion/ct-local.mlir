// RUN: dfsched-opt %s -split-input-file --path-expansion --device=sample | filecheck %s

// A = X + Y where X already lives in the core's scratchpad (a ct_local view, cast to "L1"
// by the frontend) and Y in DDR. Routes are planned per operand: Y goes DDR -> MNILU ->
// L1 -> L1LU -> SFU, X only L1 -> L1LU -> SFU. No DMA stage moves X: the MNILU stage holds
// Y's transfer alone, and X joins at the L1LU stage, straight from its view.

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<256xf16, "L1">, %[[Y:[a-z0-9_]+]]: memref<256xf16, "DDR">
// Only Y's and the result's transfers got a buffer (two upstream-style zeros).
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 64 : index
// CHECK:         %[[P:.*]]:9 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#5) {
// CHECK-NOT:       %[[X]]
// CHECK-NEXT:      ktdf.data_transfer from %[[Y]][%{{.*}}] size [64] to %[[P]]#0[0] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.data_transfer from %[[X]][%{{.*}}] size [64] to %[[P]]#1 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0] size [64] to %[[P]]#2 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      %[[A:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:      %[[B:.*]] = ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:      arith.addf %[[A]], %[[B]] : tensor<64xf16>
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#8) depends_out(none) {
// CHECK:         } {applicable_units = ["MNISU"]}
// CHECK-NOT:     ktdf.stage

module {
  func.func @mixed(%x: memref<256xf16, "L1">, %y: memref<256xf16, "DDR">, %z: memref<256xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:6 = ktdf.private -> (!ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %from_l1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
          %from_ddr = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %from_l1, %from_ddr, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#3) {
          ktdf.data_transfer from %x[%i] size [64] to %p#0 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
          ktdf.data_transfer from %y[%i] size [64] to %p#1 size [64] : memref<256xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %a = ktdf.read_from_fifo %p#0 : <"L1" -> "SFU", 64xf16> -> tensor<64xf16>
          %b = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
          %s = arith.addf %a, %b : tensor<64xf16>
          ktdf.write_to_fifo %s, %p#2 : tensor<64xf16>, <"SFU" -> "DDR", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {
          ktdf.data_transfer from %p#2 size [64] to %z[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<256xf16, "DDR">
        }
      }
    }
    return
  }
}

// -----

// The same with KTIR memory spaces left on the memrefs: #ktdp.memory_space<ct_local> is the
// core's scratchpad (L1) and <global> the device memory (DDR) (Decision 6 with --device).
// The result stays in the scratchpad, so it needs no MNISU stage either: three stages.
// CHECK-LABEL: func.func @ktir_spaces(
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 64 : index
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %{{.*}} size [64] : memref<256xf16, #ktdp.memory_space<ct_local>>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0] size [64] to %{{.*}} size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} size [64] to %{{.*}}[%{{.*}}] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<256xf16, #ktdp.memory_space<ct_local>>
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK:       }

module {
  func.func @ktir_spaces(%x: memref<256xf16, #ktdp.memory_space<ct_local>>, %y: memref<256xf16, #ktdp.memory_space<global>>, %z: memref<256xf16, #ktdp.memory_space<ct_local>>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>, !ktdf.token, !ktdf.token) {
          %from_l1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
          %from_ddr = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %from_l1, %from_ddr, %out, %t0, %t1 : !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#3) {
          ktdf.data_transfer from %x[%i] size [64] to %p#0 size [64] : memref<256xf16, #ktdp.memory_space<ct_local>>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
          ktdf.data_transfer from %y[%i] size [64] to %p#1 size [64] : memref<256xf16, #ktdp.memory_space<global>>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %a = ktdf.read_from_fifo %p#0 : <"L1" -> "SFU", 64xf16> -> tensor<64xf16>
          %b = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
          %s = arith.mulf %a, %b : tensor<64xf16>
          ktdf.write_to_fifo %s, %p#2 : tensor<64xf16>, <"SFU" -> "L1", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(none) {
          ktdf.data_transfer from %p#2 size [64] to %z[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>, memref<256xf16, #ktdp.memory_space<ct_local>>
        }
      }
    }
    return
  }
}
