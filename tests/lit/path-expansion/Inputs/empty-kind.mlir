// A device whose global memory has the empty string as its kind: a valid memory space
// (any string is), which passes must find by that name like any other kind.

#global = {kind = "", size = 1048576}
#scratch = {kind = "S", size = 65536}
#compute = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 16>}}}
#dma = {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load}}
#out = {kind = "OUT", ktdf_arch.features = {ktdf_arch.feature.store}}
#loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load}}
#storer = {kind = "ST", ktdf_arch.features = {ktdf_arch.feature.store}}
#plain = {}

ktdf_arch.device @unnamed_global {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  %out = exec_unit #out
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
  datapath #plain %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %s : exec_unit, memory
  datapath #plain %s to %out : memory, exec_unit
  datapath #plain %out to %g : exec_unit, memory
}
