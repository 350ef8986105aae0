// Softmax of each row of a 16x64 f16 matrix, Y[r, :] = exp(X[r, :] - max(X[r, :])) / sum(...),
// in Inductor's style (linalg on tensors), over a grid of 4 compute tiles, 4 rows per tile.
// Each tile loads its 4x64 rows once, reduces them to their row maxima (a max-reduction
// from -inf), subtracts the broadcast maximum and exponentiates, sums the exponentials
// (a sum-reduction from 0) and divides by the broadcast sum. The row maxima and sums are
// intermediates: they stay in the scratchpad, so X is read from DDR once and Y written once.
// X and Y live in global memory at byte addresses 0 and 2048.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>

module {
  func.func @softmax() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 2048 : index
    %minus_infinity = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %x = ktdp.construct_memory_view %x_address, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [16, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %x_rows = ktdp.construct_access_tile %x[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %rows = ktdp.load %x_rows : <4x64xindex> -> tensor<4x64xf16>

    %empty_row = tensor.empty() : tensor<4xf16>
    %max_init = linalg.fill ins(%minus_infinity : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %maxima = linalg.reduce { arith.maximumf } ins(%rows : tensor<4x64xf16>) outs(%max_init : tensor<4xf16>) dimensions = [1]

    %empty = tensor.empty() : tensor<4x64xf16>
    %exps = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%rows, %maxima : tensor<4x64xf16>, tensor<4xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%value: f16, %maximum: f16, %out: f16):
      %shifted = arith.subf %value, %maximum : f16
      %e = math.exp %shifted : f16
      linalg.yield %e : f16
    } -> tensor<4x64xf16>

    %sum_init = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %sums = linalg.reduce { arith.addf } ins(%exps : tensor<4x64xf16>) outs(%sum_init : tensor<4xf16>) dimensions = [1]

    %softmax = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%exps, %sums : tensor<4x64xf16>, tensor<4xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%e: f16, %sum: f16, %out: f16):
      %q = arith.divf %e, %sum : f16
      linalg.yield %q : f16
    } -> tensor<4x64xf16>

    %y_rows = ktdp.construct_access_tile %y[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %softmax, %y_rows : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
