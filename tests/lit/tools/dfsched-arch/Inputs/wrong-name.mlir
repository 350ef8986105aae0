// The imported file has no device of this name.
ktdf_arch.device @elsewhere import("two-devices.mlir")
