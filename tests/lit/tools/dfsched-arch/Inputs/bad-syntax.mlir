// A device file with a syntax error.
ktdf_arch.device @broken {
  %m = memory {kind = "M"}
  datapath %m to %m memory, memory
}
