// RUN: not dfsched-opt %s -split-input-file --map-reduction-partials 2>&1 >/dev/null | filecheck %s --check-prefix=NODEV
// RUN: not dfsched-opt %s -split-input-file --map-reduction-partials 2>/dev/null | filecheck %s --check-prefix=DECLARED
// RUN: not dfsched-opt %s -split-input-file --map-reduction-partials --device=sample 2>&1 >/dev/null | filecheck %s --check-prefix=SAMPLE-ERR
// RUN: not dfsched-opt %s -split-input-file --map-reduction-partials --device=sample 2>/dev/null | filecheck %s --check-prefix=SAMPLE
// RUN: not dfsched-opt %s -split-input-file --map-reduction-partials --device=spyre 2>&1 >/dev/null | filecheck %s --check-prefix=SPYRE-ERR
// RUN: not dfsched-opt %s -split-input-file --map-reduction-partials --device=spyre 2>/dev/null | filecheck %s --check-prefix=SPYRE

// The accumulator's memory is the group-local memory of the compute stage's one unit, as
// the device says: SFU_REG for the sample device's SFU, PE_REG for spyre's PE. A unit
// with no such memory (L1LU shares no private memory with its group; a unit the device
// does not have) is an error naming the unit, with the device in a note. Without a device
// (no declaration, no --device) the pass cannot run; a declared device is used.

// NODEV: devices.mlir:{{[0-9]+}}:7: error: Unable to import the device specification.
// NODEV: devices.mlir:{{[0-9]+}}:7: error: Unable to import the device specification.
// NODEV: devices.mlir:{{[0-9]+}}:7: error: Unable to import the device specification.
// NODEV-NOT: error:

// DECLARED-LABEL: func.func @declared
// DECLARED:         memref.alloc() : memref<1xf16, "SFU_REG">

// SAMPLE-ERR: devices.mlir:{{[0-9]+}}:7: error: no unambiguous local memory found for exec_unit kind 'PE' in device description
// SAMPLE-ERR: note: in device 'sample_device'
// SAMPLE-ERR: error: no unambiguous local memory found for exec_unit kind 'L1LU' in device description
// SAMPLE-LABEL: func.func @on_sfu
// SAMPLE:         memref.alloc() : memref<1xf16, "SFU_REG">
// SAMPLE-LABEL: func.func @declared
// SAMPLE:         memref.alloc() : memref<1xf16, "SFU_REG">

// SPYRE-ERR: error: no unambiguous local memory found for exec_unit kind 'SFU' in device description
// SPYRE-ERR: note: in device 'spyre'
// SPYRE-ERR: error: no unambiguous local memory found for exec_unit kind 'L1LU' in device description
// SPYRE-LABEL: func.func @on_pe
// SPYRE:         memref.alloc() : memref<1xf16, "PE_REG">

func.func @on_sfu(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

func.func @on_pe(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["PE"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

func.func @on_l1lu(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")
func.func @declared(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}
}
