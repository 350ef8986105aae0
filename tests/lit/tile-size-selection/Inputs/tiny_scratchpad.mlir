// A device whose core has a 4 KiB scratchpad ("SPAD"), for tile-size-selection tests.

ktdf_arch.device @tiny {
  %dram = memory {kind = "DRAM", size = 1048576}
  group {kind = "core"} share(%dram) {
    %spad = memory {kind = "SPAD", size = 4096}
    %dma = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {}, ktdf_arch.feature.store = {}}}
    %alu = exec_unit {kind = "ALU", ktdf_arch.features = {ktdf_arch.feature.compute}}
    datapath {} %dram to %dma : memory, exec_unit
    datapath {} %dma to %spad : exec_unit, memory
    datapath {} %spad to %alu : memory, exec_unit
    datapath {} %alu to %spad : exec_unit, memory
  }
}
