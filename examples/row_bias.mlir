// Broadcast: adds a row bias to every row of a matrix, C[r, :] = A[r, :] + bias[:], for a
// 96x64 f16 matrix over a grid of 32 compute tiles, 3 rows per tile. Each tile loads the
// whole 64-element bias once and a linalg.generic broadcasts it along the rows.
// A, bias and C live in global memory at byte addresses 0, 12288 and 16384.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#three_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#per_column = affine_map<(d0, d1) -> (d1)>

module {
  func.func @row_bias() attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %a_address = arith.constant 0 : index
    %bias_address = arith.constant 12288 : index
    %c_address = arith.constant 16384 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c3 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [96, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %bias = ktdp.construct_memory_view %bias_address, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [96, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>

    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #three_rows, access_tile_order = #row_major} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %bias_all = ktdp.construct_access_tile %bias[%c0] {access_tile_set = #vector, access_tile_order = #in_order} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %a_rows : <3x64xindex> -> tensor<3x64xf16>
    %b = ktdp.load %bias_all : <64xindex> -> tensor<64xf16>

    %init = tensor.empty() : tensor<3x64xf16>
    %biased = linalg.generic {indexing_maps = [#row_major, #per_column, #row_major],
                              iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : tensor<3x64xf16>, tensor<64xf16>) outs(%init : tensor<3x64xf16>) {
    ^bb0(%value: f16, %offset: f16, %out: f16):
      %s = arith.addf %value, %offset : f16
      linalg.yield %s : f16
    } -> tensor<3x64xf16>

    %c_rows = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #three_rows, access_tile_order = #row_major} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    ktdp.store %biased, %c_rows : tensor<3x64xf16>, <3x64xindex>
    return
  }
}
