// Layer normalisation of each row of a 16x64 f16 matrix,
// Y[r, c] = (X[r, c] - mean_r) * rsqrt(var_r + eps) * G[c] + B[c], mean_r and var_r over the row,
// in Inductor's style (linalg on tensors), over a grid of 4 compute tiles, 4 rows per tile.
// Each tile loads its 4x64 rows once, sums them (mean), sums the squared deviations from the
// mean (variance), and normalises, scales by G and shifts by B, both broadcast along the rows.
// The rows, the deviations and the per-row statistics are intermediates: they stay in the
// scratchpad, so X, G and B are read from DDR once and Y written once.
// X, G, B and Y live in global memory at byte addresses 0, 2048, 2176 and 4096.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
#per_column = affine_map<(d0, d1) -> (d1)>

module {
  func.func @layernorm() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %x_address = arith.constant 0 : index
    %g_address = arith.constant 2048 : index
    %b_address = arith.constant 2176 : index
    %y_address = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f16
    %columns = arith.constant 64.0 : f16
    %epsilon = arith.constant 1.0e-3 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %x = ktdp.construct_memory_view %x_address, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %g = ktdp.construct_memory_view %g_address, sizes: [64], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [64], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %x_rows = ktdp.construct_access_tile %x[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %g_all = ktdp.construct_access_tile %g[%c0] {access_tile_set = #row, access_tile_order = #in_order} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %b_all = ktdp.construct_access_tile %b[%c0] {access_tile_set = #row, access_tile_order = #in_order} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %rows = ktdp.load %x_rows : <4x64xindex> -> tensor<4x64xf16>
    %gain = ktdp.load %g_all : <64xindex> -> tensor<64xf16>
    %bias = ktdp.load %b_all : <64xindex> -> tensor<64xf16>

    %empty_row = tensor.empty() : tensor<4xf16>
    %zeros = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %sums = linalg.reduce { arith.addf } ins(%rows : tensor<4x64xf16>) outs(%zeros : tensor<4xf16>) dimensions = [1]
    %means = linalg.generic {indexing_maps = [#in_order, #in_order], iterator_types = ["parallel"]}
        ins(%sums : tensor<4xf16>) outs(%empty_row : tensor<4xf16>) {
    ^bb0(%sum: f16, %out: f16):
      %mean = arith.divf %sum, %columns : f16
      linalg.yield %mean : f16
    } -> tensor<4xf16>

    %empty = tensor.empty() : tensor<4x64xf16>
    %squares = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%rows, %means : tensor<4x64xf16>, tensor<4xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%value: f16, %mean: f16, %out: f16):
      %deviation = arith.subf %value, %mean : f16
      %square = arith.mulf %deviation, %deviation : f16
      linalg.yield %square : f16
    } -> tensor<4x64xf16>
    %square_sums = linalg.reduce { arith.addf } ins(%squares : tensor<4x64xf16>) outs(%zeros : tensor<4xf16>) dimensions = [1]

    %normed = linalg.generic {indexing_maps = [#row_major, #per_row, #per_row, #per_column, #per_column, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%rows, %means, %square_sums, %gain, %bias : tensor<4x64xf16>, tensor<4xf16>, tensor<4xf16>, tensor<64xf16>, tensor<64xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%value: f16, %mean: f16, %square_sum: f16, %scale: f16, %shift: f16, %out: f16):
      %variance = arith.divf %square_sum, %columns : f16
      %shifted = arith.addf %variance, %epsilon : f16
      %factor = math.rsqrt %shifted : f16
      %deviation = arith.subf %value, %mean : f16
      %normalised = arith.mulf %deviation, %factor : f16
      %scaled = arith.mulf %normalised, %scale : f16
      %result = arith.addf %scaled, %shift : f16
      linalg.yield %result : f16
    } -> tensor<4x64xf16>

    %y_rows = ktdp.construct_access_tile %y[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %normed, %y_rows : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
