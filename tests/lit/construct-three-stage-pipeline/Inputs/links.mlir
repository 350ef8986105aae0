// Small devices whose compute unit links break what construct-three-stage-pipeline needs.
// Each has one core: memory M, a load unit LD and a store unit ST around the compute unit CU.

#memory = {kind = "M", size = 65536}
#compute = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>}}}
#loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load}}
#storer = {kind = "ST", ktdf_arch.features = {ktdf_arch.feature.store}}
#queue = {ktdf_arch.transfer_granularity = array<i64: 16>, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
#unordered = {ktdf_arch.transfer_granularity = array<i64: 16>, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4}}}
#no_granularity = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
#wide_queue = {ktdf_arch.transfer_granularity = array<i64: 8, 32>, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
#plain = {}

// The compute unit's input link is not an ordered queue.
ktdf_arch.device @unordered {
  %m = memory #memory
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #unordered %ld to %cu : exec_unit, exec_unit
  datapath #queue %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}

// The output link has no transfer granularity.
ktdf_arch.device @no_granularity {
  %m = memory #memory
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #queue %ld to %cu : exec_unit, exec_unit
  datapath #no_granularity %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}

// In and out links move different maximum transfers (16 vs 32 bytes).
ktdf_arch.device @mismatch {
  %m = memory #memory
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #queue %ld to %cu : exec_unit, exec_unit
  datapath #wide_queue %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}

// The compute unit reads from two units.
ktdf_arch.device @two_inputs {
  %m = memory #memory
  %ld = exec_unit #loader
  %ld2 = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #queue %ld to %cu : exec_unit, exec_unit
  datapath #queue %ld2 to %cu : exec_unit, exec_unit
  datapath #queue %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}

// No unit computes.
ktdf_arch.device @no_compute {
  %m = memory #memory
  %ld = exec_unit #loader
  datapath #plain %m to %ld : memory, exec_unit
}
