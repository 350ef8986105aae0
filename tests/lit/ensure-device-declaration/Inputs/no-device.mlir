// Valid MLIR without any device.
func.func @nothing_here() {
  return
}
