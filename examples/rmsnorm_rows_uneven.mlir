// RMSNorm of each row of a 7x32 f16 matrix in Triton's style, Y = X * rsqrt(mean(X^2) + eps) * W,
// over a grid of 3 compute tiles that take every third row: tile 0 normalises rows 0, 3 and 6,
// tiles 1 and 2 two rows each, so the row loop runs 3 times on tile 0 and twice on the others.
// Each row's squares are summed in 2 chunks of 16 columns (`iter_args`), then the row is scaled
// chunk by chunk. The scheduler runs the two iterations every tile has as a host loop over
// programs on all 3 tiles and the third under a branch on the tile id (`tile-invariant-loop-bounds`,
// Decision 68), whose program launches on tile 0 alone (Decision 64); the chunk loops fold into
// whole-row computations (Decision 60).
// X, W and Y live in global memory at byte addresses 0, 512 and 1024.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @rmsnorm_rows_uneven() attributes {grid = [3]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %w_address = arith.constant 512 : index
    %y_address = arith.constant 1024 : index
    %columns = arith.constant 32.0 : f16
    %epsilon = arith.constant 1.0e-3 : f16
    %zero = arith.constant 0.0 : f16
    %zero_chunk = arith.constant dense<0.0> : tensor<1x16xf16>
    %tile = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %c0, sizes: [7, 32], strides: [32, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<7x32xf16>
    %w = ktdp.construct_memory_view %w_address, sizes: [7, 32], strides: [32, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<7x32xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [7, 32], strides: [32, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<7x32xf16>

    scf.for %row = %tile to %c7 step %c3 {
      %square_chunks = scf.for %col = %c0 to %c32 step %c16 iter_args(%acc = %zero_chunk) -> (tensor<1x16xf16>) {
        %x_chunk = ktdp.construct_access_tile %x[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<7x32xf16> -> !ktdp.access_tile<1x16xindex>
        %v = ktdp.load %x_chunk : <1x16xindex> -> tensor<1x16xf16>
        %square = arith.mulf %v, %v : tensor<1x16xf16>
        %next = arith.addf %acc, %square : tensor<1x16xf16>
        scf.yield %next : tensor<1x16xf16>
      }
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %square_sum = linalg.reduce { arith.addf } ins(%square_chunks : tensor<1x16xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %square_scalar = tensor.extract %square_sum[%c0] : tensor<1xf16>
      %mean_square = arith.divf %square_scalar, %columns : f16
      %shifted = arith.addf %mean_square, %epsilon : f16
      %rstd_scalar = math.rsqrt %shifted : f16
      %rstd_chunk = tensor.splat %rstd_scalar : tensor<1x16xf16>

      scf.for %col = %c0 to %c32 step %c16 {
        %x_chunk = ktdp.construct_access_tile %x[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<7x32xf16> -> !ktdp.access_tile<1x16xindex>
        %w_chunk = ktdp.construct_access_tile %w[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<7x32xf16> -> !ktdp.access_tile<1x16xindex>
        %v = ktdp.load %x_chunk : <1x16xindex> -> tensor<1x16xf16>
        %scale = ktdp.load %w_chunk : <1x16xindex> -> tensor<1x16xf16>
        %normalised = arith.mulf %v, %rstd_chunk : tensor<1x16xf16>
        %result = arith.mulf %normalised, %scale : tensor<1x16xf16>
        %y_chunk = ktdp.construct_access_tile %y[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<7x32xf16> -> !ktdp.access_tile<1x16xindex>
        ktdp.store %result, %y_chunk : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
      }
    }
    return
  }
}
