// A batched contraction: C[b] = A[b] x B[b] for 2 batches of f16 matrices, A 2x16x32,
// B 2x32x16, C 2x16x16, as a `linalg.batch_matmul` (Inductor's bmm), over a grid of 2 compute
// tiles, one batch each. On a device with a matrix unit each batch's 16x16 result is tiled to
// the unit's output tile; elsewhere it runs on the vector lanes.
// A, B and C live in global memory at byte addresses 0, 2048 and 4096.

#a_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#b_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#c_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#a_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#b_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#c_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#row_major = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

module {
  func.func @batch_matmul() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 2048 : index
    %c_address = arith.constant 4096 : index
    %batch = ktdp.get_compute_tile_id : index

    %a = ktdp.construct_memory_view %a_address, sizes: [2, 16, 32], strides: [512, 32, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<2x16x32xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [2, 32, 16], strides: [512, 16, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<2x32x16xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [2, 16, 16], strides: [256, 16, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<2x16x16xf16>

    %a_tile = ktdp.construct_access_tile %a[%batch, %c0, %c0] {access_tile_set = #a_one, access_tile_order = #row_major} : memref<2x16x32xf16> -> !ktdp.access_tile<1x16x32xindex>
    %b_tile = ktdp.construct_access_tile %b[%batch, %c0, %c0] {access_tile_set = #b_one, access_tile_order = #row_major} : memref<2x32x16xf16> -> !ktdp.access_tile<1x32x16xindex>
    %x = ktdp.load %a_tile : <1x16x32xindex> -> tensor<1x16x32xf16>
    %y = ktdp.load %b_tile : <1x32x16xindex> -> tensor<1x32x16xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<1x16x16xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<1x16x16xf16>) -> tensor<1x16x16xf16>
    %product = linalg.batch_matmul ins(%x, %y : tensor<1x16x32xf16>, tensor<1x32x16xf16>) outs(%init : tensor<1x16x16xf16>) -> tensor<1x16x16xf16>

    %c_tile = ktdp.construct_access_tile %c[%batch, %c0, %c0] {access_tile_set = #c_one, access_tile_order = #row_major} : memref<2x16x16xf16> -> !ktdp.access_tile<1x16x16xindex>
    ktdp.store %product, %c_tile : tensor<1x16x16xf16>, <1x16x16xindex>
    return
  }
}
