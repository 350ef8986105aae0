// A file without any device.
func.func private @nothing()
