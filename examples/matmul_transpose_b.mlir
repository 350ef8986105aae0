// A contraction with B stored transposed: C = A x B^T for f16 matrices, A 16x32, B 16x32 (row n
// of B is column n of the product's right operand), C 16x16, written as a `linalg.matmul` with
// explicit indexing maps (MLIR's matmul_transpose_b), over a grid of 2 compute tiles, 8 rows of
// A (and of C) per tile. The scheduler reads B through its (n, k) map; nothing is transposed
// in memory.
// A, B and C live in global memory at byte addresses 0, 1024 and 2048.

#a_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#a_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matmul_transpose_b() attributes {grid = [2]} {
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
    %product = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %y : tensor<8x32xf16>, tensor<16x32xf16>) outs(%init : tensor<8x16xf16>) -> tensor<8x16xf16>

    %c_tile = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #c_rows, access_tile_order = #row_major} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
    ktdp.store %product, %c_tile : tensor<8x16xf16>, <8x16xindex>
    return
  }
}
