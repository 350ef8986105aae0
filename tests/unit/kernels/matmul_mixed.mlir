// Mixed precision: C = A x B with f16 operands and an f32 result (`linalg.matmul` extends
// both operands to f32, then multiplies and accumulates in f32), A 8x16, B 16x8, C 8x8, one
// compute tile. A unit whose matrix unit lists f16 = f32 (matrix_unit) runs it there; a vector
// unit with f32 lanes (quad_corelet) runs it on its lanes; a device without f32 lanes cannot
// hold the f32 accumulator (the located error of Decision 7).
// A, B and C live in global memory at byte addresses 0, 256 and 512.

#a_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#b_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#c_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matmul_mixed() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 256 : index
    %c_address = arith.constant 512 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [8, 16], strides: [16, 1] {coordinate_set = #a_matrix, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [16, 8], strides: [8, 1] {coordinate_set = #b_matrix, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [8, 8], strides: [8, 1] {coordinate_set = #c_matrix, memory_space = #ktdp.memory_space<global>} : memref<8x8xf32>
    %a_tile = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #a_matrix, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %b_tile = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #b_matrix, access_tile_order = #row_major} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
    %x = ktdp.load %a_tile : <8x16xindex> -> tensor<8x16xf16>
    %y = ktdp.load %b_tile : <16x8xindex> -> tensor<16x8xf16>
    %zero = arith.constant 0.000000e+00 : f32
    %empty = tensor.empty() : tensor<8x8xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
    %product = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x8xf16>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
    %c_tile = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = #c_matrix, access_tile_order = #row_major} : memref<8x8xf32> -> !ktdp.access_tile<8x8xindex>
    ktdp.store %product, %c_tile : tensor<8x8xf32>, <8x8xindex>
    return
  }
}
