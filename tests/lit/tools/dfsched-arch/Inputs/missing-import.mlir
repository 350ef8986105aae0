// Declares a device whose file does not exist.
ktdf_arch.device @gone import("no-such-device.mlir")
