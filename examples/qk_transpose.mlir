// Attention scores: S = Q x K^T for f16 matrices, Q 16x32 (queries), K 16x32 (keys), S 16x16,
// written as the multiply-accumulate `linalg.generic` an attention kernel has (K indexed by the
// transposed map (j, d)), over a grid of 2 compute tiles, 8 queries per tile. The scheduler
// reads K through its map; nothing is transposed in memory.
// Q, K and S live in global memory at byte addresses 0, 1024 and 2048.

#a_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#a_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @qk_transpose() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 1024 : index
    %c_address = arith.constant 2048 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c8 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [16, 32], strides: [32, 1] {coordinate_set = #a_matrix, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [16, 32], strides: [32, 1] {coordinate_set = #a_matrix, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [16, 16], strides: [16, 1] {coordinate_set = #c_matrix, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>

    %a_tile = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #a_rows, access_tile_order = #row_major} : memref<16x32xf16> -> !ktdp.access_tile<8x32xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #a_matrix, access_tile_order = #row_major} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %x = ktdp.load %a_tile : <8x32xindex> -> tensor<8x32xf16>
    %y = ktdp.load %b_all : <16x32xindex> -> tensor<16x32xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<8x16xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x16xf16>) -> tensor<8x16xf16>
    %product = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<8x32xf16>, tensor<16x32xf16>) outs(%init : tensor<8x16xf16>) {
    ^bb0(%q: f16, %k: f16, %acc: f16):
      %qk = arith.mulf %q, %k : f16
      %sum = arith.addf %acc, %qk : f16
      linalg.yield %sum : f16
    } -> tensor<8x16xf16>

    %c_tile = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #c_rows, access_tile_order = #row_major} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
    ktdp.store %product, %c_tile : tensor<8x16xf16>, <8x16xindex>
    return
  }
}
