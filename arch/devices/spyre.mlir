// IBM Spyre, as far as public facts go, for dfsched.
//
// Public facts used: 32 cores per chip; each core has a 2 MB scratchpad; a device
// memory shared by all cores (128 GB of LPDDR5 on a card); data moves in 128-byte
// "sticks" (64 f16 values); the vector unit computes 64 f16 lanes at a time.
//
// Modelling choices (not public detail): the scratchpad is called LX (the name the
// scheduler uses for core-local memory), DMA units DMAI/DMAO move sticks between DDR
// and LX, and each core has one corelet whose load/store units (LXLU/LXSU) feed the
// PE compute unit through ordered FIFOs; the PE keeps reduction partials in a small
// PE_REG memory (size a placeholder). The 32 cores are identical.
//
//   DDR -> DMAI -> LX -> LXLU -> PE -> LXSU -> LX -> DMAO -> DDR
//
// Short name: --device=spyre.

#device_memory = {kind = "DDR", size = 137438953472}
#scratchpad = {kind = "LX", size = 2097152}
#accumulators = {kind = "PE_REG", size = 16384}

// DMA engines: one addressed word is one 128-byte stick. Both also gather and scatter rows at
// byte addresses read from a list in LX: the seed post's indirect-access path (an address program
// fills the list with spyreop.idx32toaddr, the DMA moves the rows it names).
#dma_in = {
  kind = "DMAI",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.address_list = {memory = "LX"},
    ktdf_arch.feature.load = {
      word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>,
      access_granularity = #ktdf_arch.map<
        "DDR" = [{size_in_words = 1, align_in_words = 1}],
        "LX" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}
#dma_out = {
  kind = "DMAO",
  dataflow_scheduler.double_buffer_last,
  ktdf_arch.features = {
    ktdf_arch.feature.address_list = {memory = "LX"},
    ktdf_arch.feature.store = {
      word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>,
      access_granularity = #ktdf_arch.map<
        "DDR" = [{size_in_words = 1, align_in_words = 1}],
        "LX" = [{size_in_words = 1, align_in_words = 1}]>
    }
  }
}

// The vector unit: 64 f16 lanes, one stick per vector; i32 (address arithmetic, idx32toaddr)
// at 32 lanes is the same 128-byte stick, our modelling choice.
// No f32 lanes: no public source gives the vector unit an f32 format, and torch-spyre (the
// PyTorch backend, README: `TORCH_SPYRE_DOWNCAST_WARN`) downcasts float32 tensors to float16 for
// the device, with a warning. An f32 element-wise kernel (corpus vector_add_dynamic_ktir) is
// therefore Decision 7's located error here, as on upstream's sample device.
// Accumulation type: the public sources above (IBM Research, "Lifting the cover on the IBM
// Spyre Accelerator"; torch-spyre's docs/architecture/spyre_accelerator.md) say the cores do
// mixed-precision math but do not name the accumulator format. f32 is our modelling choice
// (fp16 products summed in a wider register, as mixed-precision engines do); the reference
// interpreter accumulates this device's reductions in it when it checks a schedule.
//
// The matrix unit. Public: each corelet holds a 2D 8x8 "SIMD-systolic" array of processing
// elements for matrix multiplication and convolution (IBM Research, "Lifting the cover on the
// IBM Spyre Accelerator"; torch-spyre docs/architecture/spyre_accelerator.md: "an 8 x 8 systolic
// Processing Element (PE) array, used for matrix-style compute"), and mixed-precision math. Not
// public: the tile one step consumes and Spyre's f16 rate. Modelling choice: one step multiplies
// an 8x8 tile of A by an 8x8 tile of B into an 8x8 accumulator (the array's shape; each operand
// is one 64-element f16 stick, what one FIFO transfer carries) in 1 cycle: 512 f16
// multiply-accumulates per cycle, 8 per PE. The closest public rate is the predecessor core's:
// IBM Research's AI core prototype (VLSI 2018, "A Scalable Multi-TeraOPS Core for AI Training
// and Inference") reached 1.5 TFLOPS fp16 at 1.5 GHz, 500 multiply-accumulates per cycle.
// Products of f16 operands accumulate in f32, as the vector unit's reductions (`accumulate`).
#pe = {
  kind = "PE",
  ktdf_arch.features = {
    ktdf_arch.feature.compute = {accumulate = f32},
    ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, i32 = 32>},
    ktdf_arch.feature.matrix = {tile = array<i64: 8, 8, 8>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = 1}
  }
}
#lx_load = {
  kind = "LXLU",
  ktdf_arch.features = {
    ktdf_arch.feature.load = {
      access_granularity = #ktdf_arch.map<"LX" = [
        {size_in_words = 64, align_in_words = 64},
        {size_in_words = 1, align_in_words = 1}]>
    },
    ktdf_arch.feature.simd = {splat, zero_pad}
  }
}
#lx_store = {
  kind = "LXSU",
  ktdf_arch.features = {
    ktdf_arch.feature.store = {
      access_granularity = #ktdf_arch.map<"LX" = [
        {size_in_words = 64, align_in_words = 64},
        {size_in_words = 1, align_in_words = 1}]>
    }
  }
}

#stick_link = {ktdf_arch.transfer_granularity = array<i64: 128>}
#lx_queue = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}}
#pe_queue = {
  ktdf_arch.transfer_granularity = array<i64: 64, 1>,
  ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16, ordered}}
}

// Core-to-core links. Public: "Cores talk to each other over a bi-directional ring interconnect
// at 128 B per cycle per direction" (torch-spyre docs/architecture/spyre_accelerator.md). Not
// public: the latency of one hop. Modelling choice: 8 cycles per hop (a few pipeline stages per
// ring stop); the ring links the cores' LX scratchpads in core order (core 31 back to core 0).
ktdf_arch.device @spyre attributes {
  ktdf_arch.core_links = {topology = "ring", bidirectional, bandwidth = 128, latency = 8}
} {
  %ddr = memory #device_memory

  group @core0 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core1 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core2 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core3 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core4 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core5 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core6 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core7 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core8 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core9 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core10 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core11 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core12 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core13 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core14 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core15 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core16 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core17 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core18 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core19 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core20 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core21 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core22 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core23 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core24 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core25 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core26 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core27 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core28 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core29 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core30 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }

  group @core31 {kind = "core"} share(%ddr) {
    %lx = memory #scratchpad
    %dmai = exec_unit #dma_in
    %dmao = exec_unit #dma_out
    datapath #stick_link %ddr to %dmai : memory, exec_unit
    datapath #stick_link %dmai to %lx : exec_unit, memory
    datapath #stick_link %lx to %dmao : memory, exec_unit
    datapath #stick_link %dmao to %ddr : exec_unit, memory
    group {kind = "corelet"} share(%lx) {
      %pe = group {kind = "PE_Block"} share() {
        %acc = memory #accumulators
        %unit = exec_unit #pe
        yield %unit
      } -> exec_unit
      %ld = exec_unit #lx_load
      %st = exec_unit #lx_store
      datapath #lx_queue %lx to %ld : memory, exec_unit
      datapath #pe_queue %ld to %pe : exec_unit, exec_unit
      datapath #pe_queue %pe to %st : exec_unit, exec_unit
      datapath #lx_queue %st to %lx : exec_unit, memory
    }
  }
}
