// Imports a file with a syntax error.
ktdf_arch.device @broken import("bad-syntax.mlir")
