// C = A B with K = 2048 in f16, walked in K chunks of 128 (the corpus' matmul_fwd_ktir, one
// 4x16 tile): each chunk's product from tensor.empty(), added to an f16 accumulator.
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#a_chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mm_small() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 16384 : index
    %c_address = arith.constant 81920 : index
    %av = ktdp.construct_memory_view %a_address, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
    %bv = ktdp.construct_memory_view %b_address, sizes: [2048, 16], strides: [16, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<2048x16xf16>
    %cv = ktdp.construct_memory_view %c_address, sizes: [4, 16], strides: [16, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %zero = arith.constant dense<0.0> : tensor<4x16xf16>
    %c = scf.for %k = %c0 to %c2048 step %c128 iter_args(%acc = %zero) -> tensor<4x16xf16> {
      %at = ktdp.construct_access_tile %av[%c0, %k] {access_tile_set = #a_chunk, access_tile_order = #id} : memref<4x2048xf16> -> !ktdp.access_tile<4x128xindex>
      %bt = ktdp.construct_access_tile %bv[%k, %c0] {access_tile_set = #b_chunk, access_tile_order = #id} : memref<2048x16xf16> -> !ktdp.access_tile<128x16xindex>
      %a = ktdp.load %at : !ktdp.access_tile<4x128xindex> -> tensor<4x128xf16>
      %b = ktdp.load %bt : !ktdp.access_tile<128x16xindex> -> tensor<128x16xf16>
      %e = tensor.empty() : tensor<4x16xf16>
      %p = linalg.matmul ins(%a, %b : tensor<4x128xf16>, tensor<128x16xf16>) outs(%e : tensor<4x16xf16>) -> tensor<4x16xf16>
      %next = arith.addf %acc, %p : tensor<4x16xf16>
      scf.yield %next : tensor<4x16xf16>
    }
    %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c_set, access_tile_order = #id} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
    ktdp.store %c, %ct : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
    return
  }
}
