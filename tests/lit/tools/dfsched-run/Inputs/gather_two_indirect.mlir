// A gather with two indirect subscripts: out[r, c] = x[pages[r], rows[r], c] + 1, the address
// of each row the idx32toaddr chain base + 1024 * pages[r] + 128 * rows[r].
#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#i_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather_two_indirect() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %xa = arith.constant 0 : index
    %pa = arith.constant 8192 : index
    %ra = arith.constant 8224 : index
    %oa = arith.constant 8256 : index
    %x = ktdp.construct_memory_view %xa, sizes: [8, 8, 64], strides: [512, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x8x64xf16>
    %p = ktdp.construct_memory_view %pa, sizes: [8], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
    %q = ktdp.construct_memory_view %ra, sizes: [8], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
    %o = ktdp.construct_memory_view %oa, sizes: [8, 64], strides: [64, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
        %x[ind(%p[%r]), ind(%q[%r]), (%c)] {variables_space_set = #o_set, variables_space_order = #id2}
        : memref<8x8x64xf16>, memref<8xi32>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
    %v = ktdp.load %g : <8x64xindex> -> tensor<8x64xf16>
    %one = arith.constant 1.0 : f16
    %e = tensor.empty() : tensor<8x64xf16>
    %w = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
    ^bb0(%a: f16, %b: f16):
      %s = arith.addf %a, %one : f16
      linalg.yield %s : f16
    } -> tensor<8x64xf16>
    %to = ktdp.construct_access_tile %o[%c0, %c0] {access_tile_set = #o_set, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %w, %to : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
