// A one-core device whose compute unit CU executes only add and mul on f16 (its simd `ops`)
// and every element-wise op on f32 (a type `ops` omits).

#memory = {kind = "M", size = 65536}
#compute = {kind = "CU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {
  lanes = #ktdf_arch.map<f16 = 16, f32 = 16>,
  ops = #ktdf_arch.map<f16 = ["arith.addf", "arith.mulf"]>}}}
#loader = {kind = "LD", ktdf_arch.features = {ktdf_arch.feature.load}}
#storer = {kind = "ST", ktdf_arch.features = {ktdf_arch.feature.store}}
#queue = {ktdf_arch.transfer_granularity = array<i64: 64>, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
#plain = {}

ktdf_arch.device @add_mul_f16 {
  %m = memory #memory
  %ld = exec_unit #loader
  %cu = exec_unit #compute
  %st = exec_unit #storer
  datapath #plain %m to %ld : memory, exec_unit
  datapath #queue %ld to %cu : exec_unit, exec_unit
  datapath #queue %cu to %st : exec_unit, exec_unit
  datapath #plain %st to %m : exec_unit, memory
}
