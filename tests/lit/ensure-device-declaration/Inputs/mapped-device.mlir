// A device that says itself where KTIR memory spaces live.
ktdf_arch.device @mapped attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "OUTER", #ktdp.memory_space<ct_local> = "INNER">} {
  %outer = memory { kind = "OUTER", size = 65536 }
  group { kind = "tile" } share(%outer) {
    %inner = memory { kind = "INNER", size = 4096 }
    %alu = exec_unit { kind = "ALU", ktdf_arch.features = { ktdf_arch.feature.compute } }
    datapath %inner to %alu : memory, exec_unit
  }
}
