// A small invented device with a matrix unit, for tests of contraction scheduling.
//
// One core with two corelets. Each corelet's compute unit MXU has 32-lane vectors (f16 and
// f32) and a matrix unit that multiplies a 4 x 4 tile of A by a 4 x 8 tile of B into a
// 4 x 8 accumulator per step, in 2 cycles (64 multiply-accumulates per cycle): f16
// operands accumulate in f32 (mixed precision), f32 operands in f32. The numbers are
// chosen to be small (tests stay fast) and to differ from spyre's, not taken from hardware.
//
//   MEM -> DMAR -> SPM -> MLD -> MXU -> MST -> SPM -> DMAW -> MEM
//
// Short name: --device=matrix_unit.

#device_memory = {kind = "MEM", size = 268435456}
#scratchpad = {kind = "SPM", size = 262144}
#accumulators = {kind = "ACC", size = 2048}

#dma_read = {
  kind = "DMAR",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      word_size = #ktdf_arch.map<"MEM" = 64, "SPM" = 64>,
      access_granularity = #ktdf_arch.map<
        "MEM" = [{size_in_words = 1, align_in_words = 1}],
        "SPM" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#dma_write = {
  kind = "DMAW",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      word_size = #ktdf_arch.map<"MEM" = 64, "SPM" = 64>,
      access_granularity = #ktdf_arch.map<
        "MEM" = [{size_in_words = 1, align_in_words = 1}],
        "SPM" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}

// The compute unit: vectors and a matrix unit.
#mxu = {
  kind = "MXU",
  ktdf_arch.features = {
    ktdf_arch.feature.compute,
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32, f32 = 32>},
    ktdf_arch.feature.matrix = {tile = array<i64: 4, 8, 4>, types = #ktdf_arch.map<f16 = f32, f32 = f32>, cycles_per_tile = 2}
  }
}

#fifo_load = {
  kind = "MLD",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      access_granularity = #ktdf_arch.map<"SPM" = [
        {size_in_words = 32, align_in_words = 32},
        {size_in_words = 1, align_in_words = 1}]>
    },
    ktdf_arch.feature.simd = {splat, zero_pad}
  }
}
#fifo_store = {
  kind = "MST",
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      access_granularity = #ktdf_arch.map<"SPM" = [
        {size_in_words = 32, align_in_words = 32},
        {size_in_words = 1, align_in_words = 1}]>
    }
  }
}

#dma_link = {ktdf_arch.transfer_granularity = array<i64: 64>}
#scratchpad_queue = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}
#compute_queue = {
  ktdf_arch.transfer_granularity = array<i64: 64, 2>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}
}

ktdf_arch.device @matrix_unit {
  %mem = memory #device_memory

  group {kind = "core"} share(%mem) {
    %spm = memory #scratchpad
    %dma_in = exec_unit #dma_read
    %dma_out = exec_unit #dma_write
    datapath #dma_link %mem to %dma_in : memory, exec_unit
    datapath #dma_link %dma_in to %spm : exec_unit, memory
    datapath #dma_link %spm to %dma_out : memory, exec_unit
    datapath #dma_link %dma_out to %mem : exec_unit, memory

    // Corelet 0.
    group share(%spm) {
      %compute = group {kind = "MXU_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #mxu
        yield %unit
      } -> exec_unit
      %reader = exec_unit #fifo_load
      %writer = exec_unit #fifo_store
      datapath #scratchpad_queue %spm to %reader : memory, exec_unit
      datapath #compute_queue %reader to %compute : exec_unit, exec_unit
      datapath #compute_queue %compute to %writer : exec_unit, exec_unit
      datapath #scratchpad_queue %writer to %spm : exec_unit, memory
    }

    // Corelet 1: the same as corelet 0.
    group share(%spm) {
      %compute = group {kind = "MXU_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #mxu
        yield %unit
      } -> exec_unit
      %reader = exec_unit #fifo_load
      %writer = exec_unit #fifo_store
      datapath #scratchpad_queue %spm to %reader : memory, exec_unit
      datapath #compute_queue %reader to %compute : exec_unit, exec_unit
      datapath #compute_queue %compute to %writer : exec_unit, exec_unit
      datapath #scratchpad_queue %writer to %spm : exec_unit, memory
    }
  }
}
