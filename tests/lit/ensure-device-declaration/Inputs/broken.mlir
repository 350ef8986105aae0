// Not a device description: the parser stops on the second line.
ktdf_arch.device @half {
  %m = memory { kind = "M", size = }
}
