// A device file that parses but does not verify.
ktdf_arch.device @unsized {
  %m = memory {kind = "M", size = -4}
}
