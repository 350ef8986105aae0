// RUN: dfsched-opt %s --ktdf-to-ktdflowering --verify-diagnostics

// Unit kinds, their instances and the memories they read and write come from the device.
// expected-error @below {{Unable to import the device specification. This could happen if the device spec file is empty or contains multiple devices}}
module {
  func.func @no_device() attributes {grid = [1]} {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
      } {applicable_units = ["SFU"]}
    }
    return
  }
}
