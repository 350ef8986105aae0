// RUN: dfsched-opt %s -split-input-file -verify-diagnostics -double-buffering

// The pass needs the device to tell which memory is the scratchpad.

// No device in the module and no --device: upstream's message, on the module.
// expected-error @below {{Unable to import the device specification. This could happen if the device spec file is empty or contains multiple devices}}
module {
  func.func @no_device(%in: memref<64xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        %buf, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %in[0] size [64] to %buf[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        }
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %buf[0] size [64] to %in[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
        }
      }
    }
    return
  }
}

// -----

// A declared device whose file is missing.
module {
  // expected-error @below {{unable to import device graph}}
  ktdf_arch.device @nowhere import("Inputs/no-such-device.mlir")
  func.func @missing_file() {
    return
  }
}
