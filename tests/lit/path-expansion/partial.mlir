// RUN: dfsched-opt %s -split-input-file --path-expansion --device=sample | filecheck %s

// Half-expanded pipelines are completed: the half that already follows the device keeps
// its stages (cloned as they are, now tagged with their units) and its buffers; the other
// half is expanded.

// The load side is done (DDR -> L1 buffer, L1 buffer -> FIFO); the store still goes from
// the SFU straight to DDR. The result FIFO is retyped to SFU -> L1SU, an L1SU stage fills
// a new L1 buffer, and the store stage reads that buffer instead of the FIFO.
// CHECK-LABEL: func.func @load_side_done(
// CHECK:         arith.constant 0 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[P:.*]]:10 = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:           %[[BUF_A:.*]] = memref.alloc() : memref<64xf16, "L1">
// CHECK:           %[[BUF_B:.*]] = memref.alloc() : memref<64xf16, "L1">
// CHECK:           %[[IN:.*]]:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:           %[[OUT:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK:           %[[BUF_C:.*]] = memref.alloc() : memref<64xf16, "L1">
// Kept as written: the constant subscripts of the preserved stage are not folded.
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#0[%[[C0]]] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#1[%[[C0]]] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[%[[C0]]] size [64] to %[[P]]#2 size [64]
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#1[%[[C0]]] size [64] to %[[P]]#3 size [64]
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK:           ktdf.write_to_fifo %{{.*}}, %[[P]]#4 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#8) depends_out(%[[P]]#9) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#4 size [64] to %[[P]]#5[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#9) depends_out(none) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#5[0] size [64] to %{{.*}}[%{{.*}}] size [64] : memref<64xf16, "L1">, memref<256xf16, "DDR">
// CHECK:         } {applicable_units = ["MNISU"]}

!row = memref<256xf16, "DDR">
module {
  func.func @load_side_done(%a: !row, %b: !row, %c: !row) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:8 = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %buf_a = memref.alloc() : memref<64xf16, "L1">
          %buf_b = memref.alloc() : memref<64xf16, "L1">
          %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %buf_a, %buf_b, %in#0, %in#1, %out, %t0, %t1, %t2 : memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#5) {
          ktdf.data_transfer from %a[%i] size [64] to %p#0[%c0] size [64] : !row, memref<64xf16, "L1">
          ktdf.data_transfer from %b[%i] size [64] to %p#1[%c0] size [64] : !row, memref<64xf16, "L1">
        }
        ktdf.stage depends_in(%p#5) depends_out(%p#6) {
          ktdf.data_transfer from %p#0[%c0] size [64] to %p#2 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %p#1[%c0] size [64] to %p#3 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#6) depends_out(%p#7) {
          %x = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          %y = ktdf.read_from_fifo %p#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          %d = arith.subf %x, %y : tensor<64xf16>
          ktdf.write_to_fifo %d, %p#4 : tensor<64xf16>, <"SFU" -> "DDR", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#7) depends_out(none) {
          ktdf.data_transfer from %p#4 size [64] to %c[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !row
        }
      }
    }
    return
  }
}

// -----

// The store side is done (FIFO -> L1 buffer, L1 buffer -> DDR); the loads still go from
// DDR straight into FIFOs of the SFU. The private keeps its own results first (the
// result buffer and FIFO), then the new L1 buffers, then the new L1LU -> SFU FIFO.
// CHECK-LABEL: func.func @store_side_done(
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 0 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[P:.*]]:10 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">, memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#6) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#2[0] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#3[0] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#2[0] size [64] to %[[P]]#4 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#3[0] size [64] to %[[P]]#5 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#4 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:      ktdf.read_from_fifo %[[P]]#5 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK:           ktdf.write_to_fifo %{{.*}}, %[[P]]#1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#8) depends_out(%[[P]]#9) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#1 size [64] to %[[P]]#0[%[[C0]]] size [64]
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#9) depends_out(none) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[%[[C0]]] size [64] to %{{.*}}[%{{.*}}] size [64]
// CHECK:         } {applicable_units = ["MNISU"]}

!row = memref<256xf16, "DDR">
module {
  func.func @store_side_done(%a: !row, %b: !row, %c: !row) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:8 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %buf_c = memref.alloc() : memref<64xf16, "L1">
          %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          %t3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %buf_c, %in#0, %in#1, %out, %t0, %t1, %t2, %t3 : memref<64xf16, "L1">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#4) {
          ktdf.data_transfer from %a[%i] size [64] to %p#1 size [64] : !row, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          ktdf.data_transfer from %b[%i] size [64] to %p#2 size [64] : !row, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {
          %x = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
          %y = ktdf.read_from_fifo %p#2 : <"DDR" -> "SFU", 64xf16> -> tensor<64xf16>
          %d = arith.subf %x, %y : tensor<64xf16>
          ktdf.write_to_fifo %d, %p#3 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#5) depends_out(%p#6) {
          ktdf.data_transfer from %p#3 size [64] to %p#0[%c0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
        }
        ktdf.stage depends_in(%p#6) depends_out(%p#7) {
          ktdf.data_transfer from %p#0[%c0] size [64] to %c[%i] size [64] : memref<64xf16, "L1">, !row
        }
      }
    }
    return
  }
}

// -----

// A stage whose transfers run on different units (an L1 view streamed into a FIFO by
// L1LU, a DDR tile copied into L1 by MNILU) is split: each transfer goes to the stage of
// its unit, with the ops it needs (the index computation) cloned along; the L1LU part
// joins the original L1LU stage. The pipeline was otherwise complete.
// CHECK-LABEL: func.func @split(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<256xf16, "L1">, %[[Y:[a-z0-9_]+]]: memref<256xf16, "DDR">
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C64:.*]] {
// CHECK:         %[[P:.*]]:7 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:      %[[J:.*]] = arith.addi %[[I]], %[[C64]] : index
// CHECK-NEXT:      ktdf.data_transfer from %[[Y]][%[[J]]] size [64] to %[[P]]#0[0] size [64]
// CHECK:         } {applicable_units = ["MNILU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      ktdf.data_transfer from %[[X]][%[[I]]] size [64] to %[[P]]#1 size [64]
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#0[0] size [64] to %[[P]]#2 size [64]
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#5) depends_out(%[[P]]#6) {
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#6) depends_out(none) {
// CHECK:         } {applicable_units = ["L1SU"]}

module {
  func.func @split(%x: memref<256xf16, "L1">, %y: memref<256xf16, "DDR">, %z: memref<256xf16, "L1">) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:7 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %buf = memref.alloc() : memref<64xf16, "L1">
          %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %buf, %in#0, %in#1, %out, %t0, %t1, %t2 : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#4) {
          %j = arith.addi %i, %c64 : index
          ktdf.data_transfer from %x[%i] size [64] to %p#1 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %y[%j] size [64] to %p#0[0] size [64] : memref<256xf16, "DDR">, memref<64xf16, "L1">
        }
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {
          ktdf.data_transfer from %p#0[0] size [64] to %p#2 size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#5) depends_out(%p#6) {
          %a = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          %b = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          %s = arith.addf %a, %b : tensor<64xf16>
          ktdf.write_to_fifo %s, %p#3 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#6) depends_out(none) {
          ktdf.data_transfer from %p#3 size [64] to %z[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<256xf16, "L1">
        }
      }
    }
    return
  }
}
