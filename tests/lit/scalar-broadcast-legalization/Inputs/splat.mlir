// Small devices for scalar-broadcast-legalization. Memories "G" (device memory, 8-byte
// words for the DMA) and "S" (scratchpad); "DMA" loads G into S, "LD" streams S into the
// compute unit "CU" (16 f16 lanes), one 2-byte element at a time if need be.

#global = {kind = "G", size = 1048576}
#scratch = {kind = "S", size = 65536}
#dma = {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {
  word_size = #ktdf_arch.map<"G" = 8, "S" = 8>,
  access_granularity = #ktdf_arch.map<"G" = [{size_in_words = 1, align_in_words = 1}], "S" = [{size_in_words = 1, align_in_words = 1}]>}}}
#dma_s_only = {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {
  word_size = #ktdf_arch.map<"S" = 8>,
  access_granularity = #ktdf_arch.map<"S" = [{size_in_words = 1, align_in_words = 1}]>}}}
#out = {kind = "OUT", ktdf_arch.features = {ktdf_arch.feature.store}}
#ld_access = #ktdf_arch.map<"S" = [{size_in_words = 32, align_in_words = 32}, {size_in_words = 2, align_in_words = 2}]>
#loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ld_access}, ktdf_arch.feature.simd = {splat}}}
#no_splat_loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ld_access}}}
#compute = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 16, index = 16>}}}
#splat_compute = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 16>, splat}}}
#plain = {}
#words_only = {ktdf_arch.transfer_granularity = array<i64: 32>}

// Everything a splat needs.
ktdf_arch.device @plain {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %out = exec_unit #out
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
}

// LD cannot splat.
ktdf_arch.device @no_splat {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #no_splat_loader
  %cu = exec_unit #compute
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
}

// LD reads S only in 32-byte transfers: no single element.
ktdf_arch.device @coarse {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #words_only %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
}

// The compute unit splats by itself.
ktdf_arch.device @splat_compute {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma
  %ld = exec_unit #loader
  %cu = exec_unit #splat_compute
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
}

// The DMA unit does not say how it loads from G.
ktdf_arch.device @dma_without_g {
  %g = memory #global
  %s = memory #scratch
  %dma = exec_unit #dma_s_only
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  datapath #plain %g to %dma : memory, exec_unit
  datapath #plain %dma to %s : exec_unit, memory
  datapath #plain %s to %ld : memory, exec_unit
  datapath #plain %ld to %cu : exec_unit, exec_unit
}
