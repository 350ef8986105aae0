// A 4-core test device whose cores are linked in a ring, for dfsched's tests.
//
// Each core is the sample device's core with one sub-core (DDR -> MNILU -> L1 -> L1LU -> SFU ->
// L1SU -> L1 -> MNISU -> DDR); the SFU accumulates reductions in f32. The cores' L1 scratchpads
// are linked one way round a ring (core 0 -> 1 -> 2 -> 3 -> 0), 64 bytes a cycle per link after
// 4 cycles per hop: core 3 reaches core 0 in one hop, core 0 reaches core 3 in three. The figures
// are a test choice, not a real device's. Its DDR holds 2 GiB: the corpus' paged KV caches
// (`paged-tensor-copy`, `-write`: a 1.31 GB page pool at byte 120,000,000) fit, as on spyre.
//
// Unlike the sample device, the SFU also computes f32 (32 lanes: the same 64-byte vector as 64 f16
// or 32 i32), so kernels that keep state in f32 (the corpus' paged_attention, its online-softmax
// state; vector_add_dynamic_ktir) run on a multi-core device with address-list DMA units. spyre
// declares no f32 lanes: no public Spyre source gives its vector unit an f32 format (see spyre.mlir).
//
// Short name: --device=ring4.

#ddr_memory = {kind = "DDR", size = 2147483648}
#scratchpad = {kind = "L1", size = 1048576}
#sfu_registers = {kind = "SFU_REG", size = 2048}

#dma_load = {
  kind = "MNILU",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.address_list = {memory = "L1"},
    ktdf_arch.feature.load = {
      word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>,
      access_granularity = #ktdf_arch.map<
        "DDR" = [{size_in_words = 1, align_in_words = 1}],
        "L1" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#dma_store = {
  kind = "MNISU",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.address_list = {memory = "L1"},
    ktdf_arch.feature.store = {
      word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>,
      access_granularity = #ktdf_arch.map<
        "DDR" = [{size_in_words = 1, align_in_words = 1}],
        "L1" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#sfu = {
  kind = "SFU",
  ktdf_arch.features = {
    ktdf_arch.feature.compute = {accumulate = f32},
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32>}
  }
}
#fifo_load = {
  kind = "L1LU",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      access_granularity = #ktdf_arch.map<"L1" = [
        {size_in_words = 64, align_in_words = 64},
        {size_in_words = 2, align_in_words = 2}]>
    },
    ktdf_arch.feature.simd = {splat, zero_pad}
  }
}
#fifo_store = {
  kind = "L1SU",
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      access_granularity = #ktdf_arch.map<"L1" = [
        {size_in_words = 64, align_in_words = 64},
        {size_in_words = 2, align_in_words = 2}]>
    }
  }
}

#dma_link = {ktdf_arch.transfer_granularity = array<i64: 64>}
#scratchpad_queue = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}
#compute_queue = {
  ktdf_arch.transfer_granularity = array<i64: 64, 2>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}
}

ktdf_arch.device @ring4 attributes {
  ktdf_arch.core_links = {topology = "ring", bandwidth = 64, latency = 4}
} {
  %ddr = memory #ddr_memory

  group @core0 {kind = "core"} share(%ddr) {
    %l1 = memory #scratchpad
    %dma_in = exec_unit #dma_load
    %dma_out = exec_unit #dma_store
    datapath #dma_link %ddr to %dma_in : memory, exec_unit
    datapath #dma_link %dma_in to %l1 : exec_unit, memory
    datapath #dma_link %l1 to %dma_out : memory, exec_unit
    datapath #dma_link %dma_out to %ddr : exec_unit, memory
    group share(%l1) {
      %compute = group {kind = "SFU_Block"} share() {
        %regs = memory #sfu_registers
        %unit = exec_unit #sfu
        yield %unit
      } -> exec_unit
      %reader = exec_unit #fifo_load
      %writer = exec_unit #fifo_store
      datapath #scratchpad_queue %l1 to %reader : memory, exec_unit
      datapath #compute_queue %reader to %compute : exec_unit, exec_unit
      datapath #compute_queue %compute to %writer : exec_unit, exec_unit
      datapath #scratchpad_queue %writer to %l1 : exec_unit, memory
    }
  }

  group @core1 {kind = "core"} share(%ddr) {
    %l1 = memory #scratchpad
    %dma_in = exec_unit #dma_load
    %dma_out = exec_unit #dma_store
    datapath #dma_link %ddr to %dma_in : memory, exec_unit
    datapath #dma_link %dma_in to %l1 : exec_unit, memory
    datapath #dma_link %l1 to %dma_out : memory, exec_unit
    datapath #dma_link %dma_out to %ddr : exec_unit, memory
    group share(%l1) {
      %compute = group {kind = "SFU_Block"} share() {
        %regs = memory #sfu_registers
        %unit = exec_unit #sfu
        yield %unit
      } -> exec_unit
      %reader = exec_unit #fifo_load
      %writer = exec_unit #fifo_store
      datapath #scratchpad_queue %l1 to %reader : memory, exec_unit
      datapath #compute_queue %reader to %compute : exec_unit, exec_unit
      datapath #compute_queue %compute to %writer : exec_unit, exec_unit
      datapath #scratchpad_queue %writer to %l1 : exec_unit, memory
    }
  }

  group @core2 {kind = "core"} share(%ddr) {
    %l1 = memory #scratchpad
    %dma_in = exec_unit #dma_load
    %dma_out = exec_unit #dma_store
    datapath #dma_link %ddr to %dma_in : memory, exec_unit
    datapath #dma_link %dma_in to %l1 : exec_unit, memory
    datapath #dma_link %l1 to %dma_out : memory, exec_unit
    datapath #dma_link %dma_out to %ddr : exec_unit, memory
    group share(%l1) {
      %compute = group {kind = "SFU_Block"} share() {
        %regs = memory #sfu_registers
        %unit = exec_unit #sfu
        yield %unit
      } -> exec_unit
      %reader = exec_unit #fifo_load
      %writer = exec_unit #fifo_store
      datapath #scratchpad_queue %l1 to %reader : memory, exec_unit
      datapath #compute_queue %reader to %compute : exec_unit, exec_unit
      datapath #compute_queue %compute to %writer : exec_unit, exec_unit
      datapath #scratchpad_queue %writer to %l1 : exec_unit, memory
    }
  }

  group @core3 {kind = "core"} share(%ddr) {
    %l1 = memory #scratchpad
    %dma_in = exec_unit #dma_load
    %dma_out = exec_unit #dma_store
    datapath #dma_link %ddr to %dma_in : memory, exec_unit
    datapath #dma_link %dma_in to %l1 : exec_unit, memory
    datapath #dma_link %l1 to %dma_out : memory, exec_unit
    datapath #dma_link %dma_out to %ddr : exec_unit, memory
    group share(%l1) {
      %compute = group {kind = "SFU_Block"} share() {
        %regs = memory #sfu_registers
        %unit = exec_unit #sfu
        yield %unit
      } -> exec_unit
      %reader = exec_unit #fifo_load
      %writer = exec_unit #fifo_store
      datapath #scratchpad_queue %l1 to %reader : memory, exec_unit
      datapath #compute_queue %reader to %compute : exec_unit, exec_unit
      datapath #compute_queue %compute to %writer : exec_unit, exec_unit
      datapath #scratchpad_queue %writer to %l1 : exec_unit, memory
    }
  }
}
