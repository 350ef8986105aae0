// Two small devices in one file: a name must be given to pick one.
ktdf_arch.device @left {
  %hbm = memory { kind = "HBM", size = 65536 }
  group { kind = "tile" } share(%hbm) {
    %sram = memory { kind = "SRAM", size = 4096 }
    %alu = exec_unit { kind = "ALU", ktdf_arch.features = { ktdf_arch.feature.compute } }
    datapath %sram to %alu : memory, exec_unit
    datapath %alu to %sram : exec_unit, memory
  }
}
ktdf_arch.device @right {
  %dram = memory { kind = "DRAM", size = 65536 }
  group { kind = "tile" } share(%dram) {
    %buf = memory { kind = "BUF", size = 2048 }
    %vpu = exec_unit { kind = "VPU", ktdf_arch.features = { ktdf_arch.feature.compute } }
    datapath %buf to %vpu : memory, exec_unit
  }
}
