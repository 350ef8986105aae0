// f16 rows widened to f32 for exp(a) * b, then narrowed back: the body's f32 type needs f32
// lanes (quad_corelet's VPU has 16, so the row is tiled by 16); sample and spyre declare only
// f16 lanes, a located error on the extf (Decision 7).

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mix() attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 1024 : index
    %c_address = arith.constant 2048 : index
    %row = ktdp.get_compute_tile_id : index
    %a = ktdp.construct_memory_view %a_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
    %init = tensor.empty() : tensor<1x64xf16>
    %s = linalg.generic {indexing_maps = [#row_major, #row_major, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) {
    ^bb0(%v: f16, %w: f16, %out: f16):
      %v32 = arith.extf %v : f16 to f32
      %w32 = arith.extf %w : f16 to f32
      %e = math.exp %v32 : f32
      %p = arith.mulf %e, %w32 : f32
      %h = arith.truncf %p : f32 to f16
      linalg.yield %h : f16
    } -> tensor<1x64xf16>
    %tc = ktdp.construct_access_tile %c[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %tc : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
