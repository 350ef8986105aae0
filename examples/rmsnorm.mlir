// RMSNorm of each row of a 16x64 f16 matrix, Y[r, c] = X[r, c] * rsqrt(mean_c(X[r, c]^2) + eps) * W[c],
// in Inductor's style (linalg on tensors), over a grid of 4 compute tiles, 4 rows per tile.
// Each tile loads its 4x64 rows once, sums their squares (a sum-reduction), turns each sum into
// the row's reciprocal root mean square, and scales every element by it and by the weight W,
// broadcast along the rows. The rows and the per-row factors are intermediates: they stay in
// the scratchpad, so X and W are read from DDR once and Y written once.
// X, W and Y live in global memory at byte addresses 0, 2048 and 4096.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
#per_column = affine_map<(d0, d1) -> (d1)>

module {
  func.func @rmsnorm() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %x_address = arith.constant 0 : index
    %w_address = arith.constant 2048 : index
    %y_address = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f16
    %columns = arith.constant 64.0 : f16
    %epsilon = arith.constant 1.0e-3 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %x = ktdp.construct_memory_view %x_address, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %w = ktdp.construct_memory_view %w_address, sizes: [64], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %x_rows = ktdp.construct_access_tile %x[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %w_all = ktdp.construct_access_tile %w[%c0] {access_tile_set = #row, access_tile_order = #in_order} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %rows = ktdp.load %x_rows : <4x64xindex> -> tensor<4x64xf16>
    %weight = ktdp.load %w_all : <64xindex> -> tensor<64xf16>

    %empty_row = tensor.empty() : tensor<4xf16>
    %zeros = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %squares = linalg.generic {indexing_maps = [#row_major, #per_row], iterator_types = ["parallel", "reduction"]}
        ins(%rows : tensor<4x64xf16>) outs(%zeros : tensor<4xf16>) {
    ^bb0(%value: f16, %sum: f16):
      %square = arith.mulf %value, %value : f16
      %next = arith.addf %sum, %square : f16
      linalg.yield %next : f16
    } -> tensor<4xf16>

    %factors = linalg.generic {indexing_maps = [#in_order, #in_order], iterator_types = ["parallel"]}
        ins(%squares : tensor<4xf16>) outs(%empty_row : tensor<4xf16>) {
    ^bb0(%sum: f16, %out: f16):
      %mean = arith.divf %sum, %columns : f16
      %shifted = arith.addf %mean, %epsilon : f16
      %factor = math.rsqrt %shifted : f16
      linalg.yield %factor : f16
    } -> tensor<4xf16>

    %empty = tensor.empty() : tensor<4x64xf16>
    %normed = linalg.generic {indexing_maps = [#row_major, #per_row, #per_column, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%rows, %factors, %weight : tensor<4x64xf16>, tensor<4xf16>, tensor<64xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%value: f16, %factor: f16, %scale: f16, %out: f16):
      %scaled = arith.mulf %value, %factor : f16
      %weighted = arith.mulf %scaled, %scale : f16
      linalg.yield %weighted : f16
    } -> tensor<4x64xf16>

    %y_rows = ktdp.construct_access_tile %y[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %normed, %y_rows : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
