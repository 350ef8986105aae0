// quad_corelet: an invented device to test dfsched against a second topology.
//
// Two cores share GMEM. Each core has a SPAD scratchpad with DMA units (DMARD reads
// GMEM into SPAD, DMAWR writes it back) and four identical "corelet" groups; a corelet
// streams SPAD through a vector load unit (VLD) into a VPU and back through a vector
// store unit (VST). The VPU has 32 f16 / 16 f32 / 32 bf16 lanes.
//
//   GMEM -> DMARD -> SPAD -> VLD -> VPU -> VST -> SPAD -> DMAWR -> GMEM
//
// Short name: --device=quad_corelet.

#gmem = {kind = "GMEM", size = 4294967296}
#spad = {kind = "SPAD", size = 524288}
#vreg = {kind = "VREG", size = 1024}

#dma_read = {
  kind = "DMARD",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      word_size = #ktdf_arch.map<"GMEM" = 32, "SPAD" = 32>,
      access_granularity = #ktdf_arch.map<
        "GMEM" = [{size_in_words = 1, align_in_words = 1}],
        "SPAD" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#dma_write = {
  kind = "DMAWR",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      word_size = #ktdf_arch.map<"GMEM" = 32, "SPAD" = 32>,
      access_granularity = #ktdf_arch.map<
        "GMEM" = [{size_in_words = 1, align_in_words = 1}],
        "SPAD" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#vpu = {
  kind = "VPU",
  ktdf_arch.features = {
    ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32, f32 = 16, bf16 = 32>}
  }
}
#vector_load = {
  kind = "VLD",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      access_granularity = #ktdf_arch.map<"SPAD" = [
        {size_in_words = 32, align_in_words = 32},
        {size_in_words = 1, align_in_words = 1}]>
    },
    ktdf_arch.feature.simd = {splat}
  }
}
#vector_store = {
  kind = "VST",
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      access_granularity = #ktdf_arch.map<"SPAD" = [
        {size_in_words = 32, align_in_words = 32},
        {size_in_words = 1, align_in_words = 1}]>
    }
  }
}

#dma_link = {ktdf_arch.transfer_granularity = array<i64: 32>}
#spad_queue = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8, ordered}}}
#vpu_queue = {
  ktdf_arch.transfer_granularity = array<i64: 32, 1>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8, ordered}}
}

ktdf_arch.device @quad_corelet {
  %gmem = memory #gmem

  group @core0 {kind = "core"} share(%gmem) {
    %spad = memory #spad
    %dmard = exec_unit #dma_read
    %dmawr = exec_unit #dma_write
    datapath #dma_link %gmem to %dmard : memory, exec_unit
    datapath #dma_link %dmard to %spad : exec_unit, memory
    datapath #dma_link %spad to %dmawr : memory, exec_unit
    datapath #dma_link %dmawr to %gmem : exec_unit, memory

    // Corelet 0.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }

    // Corelet 1.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }

    // Corelet 2.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }

    // Corelet 3.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }
  }

  group @core1 {kind = "core"} share(%gmem) {
    %spad = memory #spad
    %dmard = exec_unit #dma_read
    %dmawr = exec_unit #dma_write
    datapath #dma_link %gmem to %dmard : memory, exec_unit
    datapath #dma_link %dmard to %spad : exec_unit, memory
    datapath #dma_link %spad to %dmawr : memory, exec_unit
    datapath #dma_link %dmawr to %gmem : exec_unit, memory

    // Corelet 0.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }

    // Corelet 1.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }

    // Corelet 2.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }

    // Corelet 3.
    group {kind = "corelet"} share(%spad) {
      %vector = group {kind = "VPU_Block"} share() {
        %regs = memory #vreg
        %vpu = exec_unit #vpu
        yield %vpu
      } -> exec_unit
      %vld = exec_unit #vector_load
      %vst = exec_unit #vector_store
      datapath #spad_queue %spad to %vld : memory, exec_unit
      datapath #vpu_queue %vld to %vector : exec_unit, exec_unit
      datapath #vpu_queue %vector to %vst : exec_unit, exec_unit
      datapath #spad_queue %vst to %spad : exec_unit, memory
    }
  }
}
