// A contraction: C = A x B for f16 matrices, A 64x128, B 128x64, C 64x64, written the way
// Inductor writes it, as a `linalg.matmul` on loaded tiles, over a grid of 16 compute tiles,
// 4 rows of A (and of C) per tile. Each tile loads its 4x128 rows of A and all of B and
// multiplies them into its 4x64 rows of C, accumulating into a zero fill (the only initial
// value the scheduler accepts for an accumulator). On a device with a matrix unit (spyre,
// matrix_unit) it runs there, one tile step (M x N x K) at a time; on a device without one it
// runs on the vector unit: one multiply-accumulate per step of K, a column of A spread over a
// row of B.
// A, B and C live in global memory at byte addresses 0, 16384 and 32768.

#a_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#a_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matmul() attributes {grid = [16]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 16384 : index
    %c_address = arith.constant 32768 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [64, 128], strides: [128, 1] {coordinate_set = #a_matrix, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [128, 64], strides: [64, 1] {coordinate_set = #b_matrix, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c_matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>

    %a_tile = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #a_rows, access_tile_order = #row_major} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #b_matrix, access_tile_order = #row_major} : memref<128x64xf16> -> !ktdp.access_tile<128x64xindex>
    %x = ktdp.load %a_tile : <4x128xindex> -> tensor<4x128xf16>
    %y = ktdp.load %b_all : <128x64xindex> -> tensor<128x64xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<4x64xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<4x64xf16>) -> tensor<4x64xf16>
    %product = linalg.matmul ins(%x, %y : tensor<4x128xf16>, tensor<128x64xf16>) outs(%init : tensor<4x64xf16>) -> tensor<4x64xf16>

    %c_tile = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #c_rows, access_tile_order = #row_major} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %product, %c_tile : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
