module {
  ktdf_arch.device @sample_device import("../../../../../arch/devices/sample_device.mlir")
}
