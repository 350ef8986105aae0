// RUN: not dfsched-opt %s -split-input-file --path-expansion 2>&1 | filecheck %s

// Devices whose routes cannot carry the pipeline (Inputs/routes.mlir), and no device.

// No device in the module and no --device: upstream's message, on the module.
// CHECK: device-errors.mlir:7:1: error: Unable to import the device specification for path expansion. This could happen if the device spec file is empty or contains multiple devices
module {
  func.func @copy_scaled(%src: memref<256xf16, "G">, %dst: memref<256xf16, "G">) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c16 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"G" -> "CU", 16xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"CU" -> "G", 16xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16] : memref<256xf16, "G">, !ktdf.fifo.slot<"G" -> "CU", 16xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"G" -> "CU", 16xf16> -> tensor<16xf16>
          %y = arith.addf %x, %x : tensor<16xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<16xf16>, <"CU" -> "G", 16xf16>
        } {applicable_units = ["CU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16] : !ktdf.fifo.slot<"CU" -> "G", 16xf16>, memref<256xf16, "G">
        }
      }
    }
    return
  }
}

// -----

// The device has no way back from the compute unit to G: the error names both kinds and
// the device, on the transfer that needs the route.
// CHECK: device-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: path-expansion: failed to plan path expansion: no route from 'CU' to 'G' in device 'one_way' ({{.*}}Inputs/routes.mlir)
// CHECK-NEXT: ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16]
module {
  ktdf_arch.device @one_way import("Inputs/routes.mlir")
  func.func @copy_scaled(%src: memref<256xf16, "G">, %dst: memref<256xf16, "G">) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c16 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"G" -> "CU", 16xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"CU" -> "G", 16xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16] : memref<256xf16, "G">, !ktdf.fifo.slot<"G" -> "CU", 16xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"G" -> "CU", 16xf16> -> tensor<16xf16>
          %y = arith.addf %x, %x : tensor<16xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<16xf16>, <"CU" -> "G", 16xf16>
        } {applicable_units = ["CU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16] : !ktdf.fifo.slot<"CU" -> "G", 16xf16>, memref<256xf16, "G">
        }
      }
    }
    return
  }
}

// -----

// The way from S to CU passes an execution unit that neither loads nor stores.
// CHECK: error: path-expansion: failed to plan path expansion: route G -> DMA -> S -> LD -> RELAY -> CU passes through compute unit 'RELAY'
// CHECK-NEXT: ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16]
module {
  ktdf_arch.device @relay import("Inputs/routes.mlir")
  func.func @copy_scaled(%src: memref<256xf16, "G">, %dst: memref<256xf16, "G">) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c16 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"G" -> "CU", 16xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"CU" -> "G", 16xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16] : memref<256xf16, "G">, !ktdf.fifo.slot<"G" -> "CU", 16xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"G" -> "CU", 16xf16> -> tensor<16xf16>
          %y = arith.addf %x, %x : tensor<16xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<16xf16>, <"CU" -> "G", 16xf16>
        } {applicable_units = ["CU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16] : !ktdf.fifo.slot<"CU" -> "G", 16xf16>, memref<256xf16, "G">
        }
      }
    }
    return
  }
}

// -----

// Two load units between S and CU: a hop is run by one unit.
// CHECK: error: path-expansion: failed to plan path expansion: route G -> DMA -> S -> LD -> STAGE -> CU chains 2 load/store units between 'S' and 'CU'; only one unit per hop is supported
module {
  ktdf_arch.device @chained import("Inputs/routes.mlir")
  func.func @copy_scaled(%src: memref<256xf16, "G">, %dst: memref<256xf16, "G">) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c16 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"G" -> "CU", 16xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"CU" -> "G", 16xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16] : memref<256xf16, "G">, !ktdf.fifo.slot<"G" -> "CU", 16xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"G" -> "CU", 16xf16> -> tensor<16xf16>
          %y = arith.addf %x, %x : tensor<16xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<16xf16>, <"CU" -> "G", 16xf16>
        } {applicable_units = ["CU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16] : !ktdf.fifo.slot<"CU" -> "G", 16xf16>, memref<256xf16, "G">
        }
      }
    }
    return
  }
}

// -----

// G is wired straight to S: no unit runs that copy.
// CHECK: error: path-expansion: failed to plan path expansion: route G -> S -> LD -> CU has no load/store unit between 'G' and 'S' to run the transfer
module {
  ktdf_arch.device @wired import("Inputs/routes.mlir")
  func.func @copy_scaled(%src: memref<256xf16, "G">, %dst: memref<256xf16, "G">) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c16 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"G" -> "CU", 16xf16>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"CU" -> "G", 16xf16>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"G" -> "CU", 16xf16>, !ktdf.fifo.slot<"CU" -> "G", 16xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [16] to %p#0 size [16] : memref<256xf16, "G">, !ktdf.fifo.slot<"G" -> "CU", 16xf16>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"G" -> "CU", 16xf16> -> tensor<16xf16>
          %y = arith.addf %x, %x : tensor<16xf16>
          ktdf.write_to_fifo %y, %p#1 : tensor<16xf16>, <"CU" -> "G", 16xf16>
        } {applicable_units = ["CU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [16] to %dst[%i] size [16] : !ktdf.fifo.slot<"CU" -> "G", 16xf16>, memref<256xf16, "G">
        }
      }
    }
    return
  }
}
