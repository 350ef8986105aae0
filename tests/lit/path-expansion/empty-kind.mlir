// RUN: dfsched-opt %s --path-expansion --device=%S/Inputs/empty-kind.mlir | filecheck %s

// The device memory's kind is "": the routing graph names its node "" as the device model
// does (it used to call it "?", and path expansion stopped on an assertion when it looked
// the memory up). The routes go "" -> DMA -> S -> LD -> CU and back through ST, S and OUT.

// CHECK-LABEL: func.func @copy_scaled(
// CHECK:         ktdf.private -> (memref<16xf16, "S">, !ktdf.fifo.slot<"LD" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "ST", 16xf16>, memref<16xf16, "S">,
// CHECK:         ktdf.data_transfer from %{{.*}} size [16] to %{{.*}}[0] size [16] : memref<256xf16, "">, memref<16xf16, "S">
// CHECK:         } {applicable_units = ["DMA"]}
// CHECK:         } {applicable_units = ["LD"]}
// CHECK:         } {applicable_units = ["CU"]}
// CHECK:         } {applicable_units = ["ST"]}
// CHECK:         ktdf.data_transfer from %{{.*}}[0] size [16] to %{{.*}} size [16] : memref<16xf16, "S">, memref<256xf16, "">
// CHECK:         } {applicable_units = ["OUT"]}
module {
  func.func @copy_scaled(%src: memref<256xf16, "">, %dst: memref<256xf16, "">) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c16 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"" -> "CU", 16xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"CU" -> "", 16xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16] : memref<256xf16, "">, !ktdf.fifo.slot<"" -> "CU", 16xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"" -> "CU", 16xf16> -> tensor<16xf16>
          %y = arith.addf %x, %x : tensor<16xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<16xf16>, <"CU" -> "", 16xf16>
        } {applicable_units = ["CU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16] : !ktdf.fifo.slot<"CU" -> "", 16xf16>, memref<256xf16, "">
        }
      }
    }
    return
  }
}
