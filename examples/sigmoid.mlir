// A sigmoid written out element by element, as Inductor lowers torch.sigmoid to linalg:
// C = exp(A) / (1 + exp(A)) on 32x64 f16 rows, one row per compute tile over a grid of 32.
// No vectorchain op computes exp, a divide or an add with a scalar, so each becomes an
// island (a one-op linalg.generic over the vector) in DataflowIR, run by the simulator with
// the reference semantics. A lives at byte address 0, C at 4096.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @sigmoid() attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %c_address = arith.constant 4096 : index
    %row = ktdp.get_compute_tile_id : index
    %a = ktdp.construct_memory_view %a_address, sizes: [32, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [32, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %init = tensor.empty() : tensor<1x64xf16>
    %s = linalg.generic {indexing_maps = [#row_major, #row_major],
                             iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) {
    ^bb0(%v: f16, %out: f16):
      %one = arith.constant 1.0 : f16
      %e = math.exp %v : f16
      %d = arith.addf %e, %one : f16
      %q = arith.divf %e, %d : f16
      linalg.yield %q : f16
    } -> tensor<1x64xf16>
    %tc = ktdp.construct_access_tile %c[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %tc : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
