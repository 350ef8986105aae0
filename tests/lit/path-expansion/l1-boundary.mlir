// RUN: dfsched-opt %s -split-input-file --path-expansion --device=sample | filecheck %s

// Operands and result already in the L1 scratchpad: L1 -> L1LU -> SFU -> L1SU -> L1 is
// one hop each way, so no buffer and no stage is added.

// The FIFOs already name the units: the pipeline is legal and stays as it is; only the two
// transfer stages get the unit that runs them.
// CHECK-LABEL: func.func @legal(
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 64 : index
// CHECK:         %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#0 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#1 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK-NEXT:      ktdf.data_transfer from %[[P]]#2 size [64] to %{{.*}}[%{{.*}}] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<256xf16, "L1">
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     ktdf.stage

!row = memref<256xf16, "L1">
module {
  func.func @legal(%a: !row, %b: !row, %c: !row) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
          %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in#0, %in#1, %out, %t0, %t1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#3) {
          ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %b[%i] size [64] to %p#1 size [64] : !row, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %x = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          %y = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
          %m = arith.maximumf %x, %y : tensor<64xf16>
          ktdf.write_to_fifo %m, %p#2 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(none) {
          ktdf.data_transfer from %p#2 size [64] to %c[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !row
        }
      }
    }
    return
  }
}

// -----

// The frontend's FIFOs name the memory ("L1" -> "SFU"): the route is still one hop each
// way, but the FIFOs are retyped to the units they connect (L1LU -> SFU, SFU -> L1SU) and
// the pipeline is rebuilt around them, still three stages and no buffer.
// CHECK-LABEL: func.func @retyped(
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 64 : index
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
// CHECK:             %[[IN:.*]]:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:             %[[OUT:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK:             %[[T0:.*]] = ktdf.create_token : !ktdf.token
// CHECK:             %[[T1:.*]] = ktdf.create_token : !ktdf.token
// CHECK:             ktdf.private_yield %[[IN]]#0, %[[IN]]#1, %[[OUT]], %[[T0]], %[[T1]] :
// CHECK:           }
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#0 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%{{.*}}] size [64] to %[[P]]#1 size [64] : memref<256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:           } {applicable_units = ["L1LU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:        %{{.*}} = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:        %{{.*}} = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
// CHECK-NEXT:        %[[M:.*]] = arith.maximumf
// CHECK-NEXT:        ktdf.write_to_fifo %[[M]], %[[P]]#2 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK:           } {applicable_units = ["SFU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %[[P]]#2 size [64] to %{{.*}}[%{{.*}}] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<256xf16, "L1">
// CHECK:           } {applicable_units = ["L1SU"]}
// CHECK:         }

!row = memref<256xf16, "L1">
module {
  func.func @retyped(%a: !row, %b: !row, %c: !row) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %p:6 = ktdf.private -> (!ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in#0, %in#1, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#3) {
          ktdf.data_transfer from %a[%i] size [64] to %p#0 size [64] : !row, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
          ktdf.data_transfer from %b[%i] size [64] to %p#1 size [64] : !row, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
        }
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          %x = ktdf.read_from_fifo %p#0 : <"L1" -> "SFU", 64xf16> -> tensor<64xf16>
          %y = ktdf.read_from_fifo %p#1 : <"L1" -> "SFU", 64xf16> -> tensor<64xf16>
          %m = arith.maximumf %x, %y : tensor<64xf16>
          ktdf.write_to_fifo %m, %p#2 : tensor<64xf16>, <"SFU" -> "L1", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#4) depends_out(%p#5) {
          ktdf.data_transfer from %p#2 size [64] to %c[%i] size [64] : !ktdf.fifo.slot<"SFU" -> "L1", 64xf16>, !row
        }
      }
    }
    return
  }
}
