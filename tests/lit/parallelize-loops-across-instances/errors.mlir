// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -parallelize-loops-across-instances

// A stage must say which units run it (upstream aborts). The error comes before any loop
// changes, even one that qualifies earlier in the module.
module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")
  func.func @unit_less_stage() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i) : (index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    scf.for %j = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        // expected-error @below {{ktdf.stage is missing required `applicable_units` attribute}}
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%j) : (index) -> ()
        }
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    return
  }
}

// -----

// No device in the module and no --device: upstream's message, on the module.
// expected-error @below {{Unable to import the device specification. This could happen if the device spec file is empty or contains multiple devices}}
module {
  func.func @no_device() {
    return
  }
}
