// Small devices whose routes path-expansion cannot use. Memories: "G" (device memory) and
// "S" (scratchpad); "DMA" and "OUT" move G <-> S, "LD"/"ST" stream S <-> the compute unit
// "CU". Each device breaks one thing.

#global = {kind = "G", size = 1048576}
#scratch = {kind = "S", size = 65536}
#compute = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 16>}}}
#dma = {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load}}
#out = {kind = "OUT", ktdf_arch.features = {ktdf_arch.feature.store}}
#loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load}}
#storer = {kind = "ST", ktdf_arch.features = {ktdf_arch.feature.store}}
#stager = {kind = "STAGE", ktdf_arch.features = {ktdf_arch.feature.load}}
#relay = {kind = "RELAY"}
#plain = {}

// Results cannot go back to G: there is no datapath out of S.
ktdf_arch.device @one_way {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
  datapath #plain %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %s : exec_unit, memory
}

// The way from S to CU passes another execution unit without load/store features.
ktdf_arch.device @relay {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #loader
  %relay = exec_unit #relay
  %cu = exec_unit #compute
  %st = exec_unit #storer
  %out = exec_unit #out
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %relay : exec_unit, exec_unit
  datapath #plain %relay to %cu : exec_unit, exec_unit
  datapath #plain %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %s : exec_unit, memory
  datapath #plain %s to %out : memory, exec_unit
  datapath #plain %out to %g : exec_unit, memory
}

// S feeds CU through two load units in a row.
ktdf_arch.device @chained {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #loader
  %stage = exec_unit #stager
  %cu = exec_unit #compute
  %st = exec_unit #storer
  %out = exec_unit #out
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %stage : exec_unit, exec_unit
  datapath #plain %stage to %cu : exec_unit, exec_unit
  datapath #plain %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %s : exec_unit, memory
  datapath #plain %s to %out : memory, exec_unit
  datapath #plain %out to %g : exec_unit, memory
}

// G is wired straight to S, with no unit to run the copy.
ktdf_arch.device @wired {
  %g = memory #global
  %s = memory #scratch
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  %out = exec_unit #out
  datapath #plain %g to %s : memory, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
  datapath #plain %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %s : exec_unit, memory
  datapath #plain %s to %out : memory, exec_unit
  datapath #plain %out to %g : exec_unit, memory
}
