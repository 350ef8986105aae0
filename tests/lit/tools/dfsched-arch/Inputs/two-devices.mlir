// Two small devices in one file: `--name` picks one.
ktdf_arch.device @left {
  %m = memory {kind = "SRAM", size = 256}
  %u = exec_unit {kind = "CPU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %m to %u : memory, exec_unit
}
ktdf_arch.device @right {
  %m = memory {kind = "SRAM", size = 512}
  %u = exec_unit {kind = "GPU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  %v = exec_unit {kind = "NPU"}
  datapath %u to %m : exec_unit, memory
}
