// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --ensure-device-declaration

// expected-error @below {{no 'ktdf_arch.device' is present in the module and no device file name is provided to ensure-device-declaration pass}}
module {
  func.func @kernel() {
    return
  }
}

// -----

module {
  // expected-note @below {{first device is here}}
  ktdf_arch.device @a import("Inputs/two-devices.mlir")
  // expected-error @below {{the module declares 2 'ktdf_arch.device' ops; a kernel runs on exactly one device}}
  ktdf_arch.device @b import("Inputs/two-devices.mlir")
}

// -----

module {
  // expected-error @below {{'ktdf_arch.device' op unable to import device graph: no device named 'middle'}}
  ktdf_arch.device @middle import("Inputs/two-devices.mlir")
}

// -----

module {
  // expected-error-re @below {{'ktdf_arch.device' op unable to import device graph: cannot open '{{.*}}Inputs/missing.mlir': No such file or directory}}
  ktdf_arch.device @gone import("Inputs/missing.mlir")
}
