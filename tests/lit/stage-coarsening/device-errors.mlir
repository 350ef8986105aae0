// RUN: not dfsched-opt %s -split-input-file -p stage-coarsening 2>&1 | filecheck %s
// RUN: not dfsched-opt %s -split-input-file -p 'stage-coarsening{loop-nest-depth=-1}' 2>&1 | filecheck %s --check-prefix=DEPTH

// Grouping needs the device's memory tree: with a pipeline to coarsen, no device (or more
// than one in the module) is an error on that pipeline.

// CHECK: device-errors.mlir:{{[0-9]+}}:5: error: Unable to import device specification for stage grouping. This could happen if the device spec file is empty or contains multiple devices
// CHECK-NEXT: ktdf.pipeline {
// A negative depth is rejected before anything else, in every input.
// DEPTH-NOT: Unable to import
// DEPTH: error: stage-coarsening: loop-nest-depth must not be negative (got -1)
// DEPTH-NOT: Unable to import
// DEPTH: device-errors.mlir:{{[0-9]+}}:1: error: stage-coarsening: loop-nest-depth must not be negative (got -1)
func.func @no_device(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c64 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// CHECK: device-errors.mlir:{{[0-9]+}}:7: error: Unable to import device specification for stage grouping
module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")
  ktdf_arch.device @quad_corelet import("../../../arch/devices/quad_corelet.mlir")
  func.func @two_devices(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    scf.for %n = %c0 to %c128 step %c64 {
      ktdf.pipeline {
        %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
          %a = memref.alloc() : memref<64xf16, "L1">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    }
    return
  }
}
