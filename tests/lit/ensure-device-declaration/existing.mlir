// RUN: dfsched-opt %s -split-input-file --ensure-device-declaration --device=%S/Inputs/two-devices.mlir | filecheck %s

// A module that already declares its device keeps it as it is (no second declaration, no
// mapping added), whatever --device says; the declared import is read to check it.

// CHECK:     ktdf_arch.device @left import("Inputs/two-devices.mlir")
// CHECK-NOT: ktdf_arch.device
// CHECK:     func.func @kernel
ktdf_arch.device @left import("Inputs/two-devices.mlir")
func.func @kernel() {
  return
}

// -----

// CHECK:     ktdf_arch.device @inline {
// CHECK-NOT: ktdf_arch.device
ktdf_arch.device @inline {
  %m = memory { kind = "M", size = 1024 }
  %u = exec_unit { kind = "U", ktdf_arch.features = { ktdf_arch.feature.compute } }
  datapath %m to %u : memory, exec_unit
}
