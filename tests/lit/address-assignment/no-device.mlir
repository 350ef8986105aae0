// RUN: dfsched-opt %s -split-input-file --address-assignment --verify-diagnostics

// Capacities come from the device: without one (no declaration, no --device) the pass fails.
// expected-error @below {{MemoryTrackerAnalysis: No ktdf_arch::DeviceOp found in module. This could happen if the device spec file is empty or contains multiple devices}}
module {
  func.func @no_device() {
    %a = memref.alloc() : memref<64xf16, "L1">
    return
  }
}

// -----

// Two devices: which one the kernel runs on is ambiguous.
// expected-error @below {{MemoryTrackerAnalysis: No ktdf_arch::DeviceOp found in module}}
module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")
  ktdf_arch.device @quad_corelet import("../../../arch/devices/quad_corelet.mlir")
  func.func @two_devices() {
    %a = memref.alloc() : memref<64xf16, "L1">
    return
  }
}
