// A gather with a mix of subscripts: page from an index view (indirect, the index tile
// anchored at the tile id), row a variable plus the tile id (direct, captured offset), column
// a variable (direct). out[4t + r, h, c] = 2 * x[pages[4t + r], h + t, c].
#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#p_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#o_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @gather_mixed() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %xa = arith.constant 0 : index
    %pa = arith.constant 8192 : index
    %oa = arith.constant 8256 : index
    %t = ktdp.get_compute_tile_id : index
    %first = arith.muli %t, %c4 : index
    %x = ktdp.construct_memory_view %xa, sizes: [8, 8, 64], strides: [512, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x8x64xf16>
    %p = ktdp.construct_memory_view %pa, sizes: [8], strides: [1] {coordinate_set = #p_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
    %o = ktdp.construct_memory_view %oa, sizes: [8, 2, 64], strides: [128, 64, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<8x2x64xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables(%r, %h, %c)
        %x[ind(%p[%first + %r]), (%h + %t), (%c)] {variables_space_set = #vars, variables_space_order = #id3}
        : memref<8x8x64xf16>, memref<8xi32> -> !ktdp.access_tile<4x2x64xindex>
    %v = ktdp.load %g : <4x2x64xindex> -> tensor<4x2x64xf16>
    %e = tensor.empty() : tensor<4x2x64xf16>
    %w = linalg.add ins(%v, %v : tensor<4x2x64xf16>, tensor<4x2x64xf16>) outs(%e : tensor<4x2x64xf16>) -> tensor<4x2x64xf16>
    %to = ktdp.construct_access_tile %o[%first, %c0, %c0] {access_tile_set = #vars, access_tile_order = #id3} : memref<8x2x64xf16> -> !ktdp.access_tile<4x2x64xindex>
    ktdp.store %w, %to : tensor<4x2x64xf16>, <4x2x64xindex>
    return
  }
}
