// Elementwise add C = A + B of three 96x64 f16 matrices, spread over a 1-D grid of 32
// compute tiles: tile t loads rows [3t, 3t + 3) of A and B as one 3x64 tile each, adds
// them, and stores the 3x64 result into the same rows of C.
// The matrices live in global memory at byte addresses 0 (A), 12288 (B) and 24576 (C).

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#three_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @add() attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 3 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 12288 : index
    %c_address = arith.constant 24576 : index

    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index

    %a = ktdp.construct_memory_view %a_address, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<96x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<96x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<96x64xf16>

    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {
      access_tile_set = #three_rows, access_tile_order = #row_major
    } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %b_rows = ktdp.construct_access_tile %b[%first_row, %c0] {
      access_tile_set = #three_rows, access_tile_order = #row_major
    } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %x = ktdp.load %a_rows : <3x64xindex> -> tensor<3x64xf16>
    %y = ktdp.load %b_rows : <3x64xindex> -> tensor<3x64xf16>

    %init = tensor.empty() : tensor<3x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<3x64xf16>, tensor<3x64xf16>)
                      outs(%init : tensor<3x64xf16>) -> tensor<3x64xf16>

    %c_rows = ktdp.construct_access_tile %c[%first_row, %c0] {
      access_tile_set = #three_rows, access_tile_order = #row_major
    } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    ktdp.store %sum, %c_rows : tensor<3x64xf16>, <3x64xindex>
    return
  }
}
