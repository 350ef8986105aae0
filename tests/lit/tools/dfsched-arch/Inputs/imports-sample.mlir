// Imports the shipped sample device by a path relative to this file.
ktdf_arch.device @sample_device attributes {version = 3} import("../../../../../arch/devices/sample_device.mlir")
