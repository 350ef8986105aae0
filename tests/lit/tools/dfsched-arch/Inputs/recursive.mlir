// This declaration imports itself.
ktdf_arch.device @again import("recursive.mlir")
