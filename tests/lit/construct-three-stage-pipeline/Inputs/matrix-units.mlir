// Small devices whose compute unit CU declares a matrix unit, for contraction tiling tests.
// Each has one core: memory M, a load unit LD and a store unit ST around CU (8 f16/f32 lanes).

#memory = {kind = "M", size = 65536}
#loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load}}
#storer = {kind = "ST", ktdf_arch.features = {ktdf_arch.feature.store}}
#queue = {ktdf_arch.transfer_granularity = array<i64: 16>, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
#plain = {}

// f16 operands accumulate in f16 only: an f32 result is more than the unit produces.
#narrow = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute,
  ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8, f32 = 8>},
  ktdf_arch.feature.matrix = {tile = array<i64: 2, 4, 2>, types = #ktdf_arch.map<f16 = f16>, cycles_per_tile = 1}}}
ktdf_arch.device @narrow_accumulator {
  %m = memory #memory
  %ld = exec_unit #loader
  %cu = exec_unit #narrow
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #queue %ld to %cu : exec_unit, exec_unit
  datapath #queue %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}

// A 4x4x4 tile: each operand holds 16 elements, more than the 8 lanes one FIFO transfer carries.
#wide = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute,
  ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 8>},
  ktdf_arch.feature.matrix = {tile = array<i64: 4, 4, 4>, types = #ktdf_arch.map<f16 = f32>, cycles_per_tile = 1}}}
ktdf_arch.device @wide_tile {
  %m = memory #memory
  %ld = exec_unit #loader
  %cu = exec_unit #wide
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #queue %ld to %cu : exec_unit, exec_unit
  datapath #queue %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}
