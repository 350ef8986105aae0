// The sample device of the Dataflow Scheduler, described for dfsched.
//
// One core. Its DMA units (MNILU loads DDR into L1, MNISU stores L1 back) share the
// device memory; two identical sub-cores each stream L1 through a load FIFO unit (L1LU)
// into an SFU compute unit and back through a store FIFO unit (L1SU).
//
//   DDR -> MNILU -> L1 -> L1LU -> SFU -> L1SU -> L1 -> MNISU -> DDR
//
// Short name: --device=sample.

// Memories (sizes in bytes).
#ddr_memory = {kind = "DDR", size = 1073741824}
#scratchpad = {kind = "L1", size = 1048576}
#sfu_registers = {kind = "SFU_REG", size = 2048}

// DMA engines between DDR and L1: 64-byte words in both memories, any single word. Both also
// move rows at byte addresses read from a list in L1 (gathers and scatters).
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

// The compute unit: 64 half-precision lanes, or 32 i32 lanes (the same 128 bytes; address
// arithmetic such as spyreop.idx32toaddr).
#sfu = {
  kind = "SFU",
  ktdf_arch.features = {
    ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, i32 = 32>}
  }
}

// FIFO units between L1 and the SFU: 64-word vectors or 2-word pairs.
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

// Links.
#dma_link = {ktdf_arch.transfer_granularity = array<i64: 64>}
#scratchpad_queue = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}
#compute_queue = {
  ktdf_arch.transfer_granularity = array<i64: 64, 2>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}
}

ktdf_arch.device @sample_device {
  %ddr = memory #ddr_memory

  group {kind = "core"} share(%ddr) {
    %l1 = memory #scratchpad
    %dma_in = exec_unit #dma_load
    %dma_out = exec_unit #dma_store
    datapath #dma_link %ddr to %dma_in : memory, exec_unit
    datapath #dma_link %dma_in to %l1 : exec_unit, memory
    datapath #dma_link %l1 to %dma_out : memory, exec_unit
    datapath #dma_link %dma_out to %ddr : exec_unit, memory

    // Sub-core 0.
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

    // Sub-core 1: the same as sub-core 0.
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
