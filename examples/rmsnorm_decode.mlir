// RMSNorm at decode time: one token per compute tile. Y[t, c] = X[t, c] * rsqrt(mean_c(X[t, c]^2) + eps) * W[c]
// for a 2x1024 f16 matrix (two tokens) over a grid of 2 tiles, in Inductor's style. Each tile
// has a single row of 1024, so a reduction stepping one column at a time would use one lane of
// the vector unit per step; the scheduler steps it lane-wide instead (Decision 65): 64
// elements of the row per step into 64 partial sums, folded into the row's sum at the end.
// The row and its factor stay in the scratchpad: X and W are read from DDR once, Y written once.
// X, W and Y live in global memory at byte addresses 0, 4096 and 8192.

#tokens = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#one_token = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#hidden = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>
#per_column = affine_map<(d0, d1) -> (d1)>

module {
  func.func @rmsnorm_decode() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %x_address = arith.constant 0 : index
    %w_address = arith.constant 4096 : index
    %y_address = arith.constant 8192 : index
    %zero = arith.constant 0.0 : f16
    %width = arith.constant 1024.0 : f16
    %epsilon = arith.constant 1.0e-3 : f16
    %token = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %x_address, sizes: [2, 1024], strides: [1024, 1] {coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>} : memref<2x1024xf16>
    %w = ktdp.construct_memory_view %w_address, sizes: [1024], strides: [1] {coordinate_set = #hidden, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [2, 1024], strides: [1024, 1] {coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>} : memref<2x1024xf16>
    %x_row = ktdp.construct_access_tile %x[%token, %c0] {access_tile_set = #one_token, access_tile_order = #row_major} : memref<2x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    %w_all = ktdp.construct_access_tile %w[%c0] {access_tile_set = #hidden, access_tile_order = #in_order} : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
    %row = ktdp.load %x_row : <1x1024xindex> -> tensor<1x1024xf16>
    %weight = ktdp.load %w_all : <1024xindex> -> tensor<1024xf16>

    %empty_sum = tensor.empty() : tensor<1xf16>
    %zeros = linalg.fill ins(%zero : f16) outs(%empty_sum : tensor<1xf16>) -> tensor<1xf16>
    %squares = linalg.generic {indexing_maps = [#row_major, #per_row], iterator_types = ["parallel", "reduction"]}
        ins(%row : tensor<1x1024xf16>) outs(%zeros : tensor<1xf16>) {
    ^bb0(%value: f16, %sum: f16):
      %square = arith.mulf %value, %value : f16
      %next = arith.addf %sum, %square : f16
      linalg.yield %next : f16
    } -> tensor<1xf16>

    %factor = linalg.generic {indexing_maps = [#in_order, #in_order], iterator_types = ["parallel"]}
        ins(%squares : tensor<1xf16>) outs(%empty_sum : tensor<1xf16>) {
    ^bb0(%sum: f16, %out: f16):
      %mean = arith.divf %sum, %width : f16
      %shifted = arith.addf %mean, %epsilon : f16
      %root = math.rsqrt %shifted : f16
      linalg.yield %root : f16
    } -> tensor<1xf16>

    %empty = tensor.empty() : tensor<1x1024xf16>
    %normed = linalg.generic {indexing_maps = [#row_major, #per_row, #per_column, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%row, %factor, %weight : tensor<1x1024xf16>, tensor<1xf16>, tensor<1024xf16>) outs(%empty : tensor<1x1024xf16>) {
    ^bb0(%value: f16, %f: f16, %scale: f16, %out: f16):
      %scaled = arith.mulf %value, %f : f16
      %weighted = arith.mulf %scaled, %scale : f16
      linalg.yield %weighted : f16
    } -> tensor<1x1024xf16>

    %y_row = ktdp.construct_access_tile %y[%token, %c0] {access_tile_set = #one_token, access_tile_order = #row_major} : memref<2x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %normed, %y_row : tensor<1x1024xf16>, <1x1024xindex>
    return
  }
}
