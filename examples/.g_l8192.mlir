// Layer normalisation of each row of an 8x64 f16 matrix in Triton's style, Y = (X - mean) * rstd
// * W + B per row, over a grid of 2 compute tiles that take every other row. Each row is walked
// in 4 chunks of 16 columns three times: summing the chunks element-wise (`iter_args`), summing
// the squared deviations from the mean the same way, and normalising chunk by chunk. The mean
// and rstd of each row are stored too. The scheduler folds each chunk loop into one computation
// on the whole row (`fold-accumulation-loops`, Decisions 44 and 52): the sums become reductions
// of the row, the normalising loop one store; rstd's scalar arithmetic (`rsqrt(var / 64 + eps)`)
// moves into a broadcast's body (`triton-to-linalg`), and the stored mean, which the
// deviations also use, is computed a second time for its store (Decision 61).
// X, W, B, Y, Mean and Rstd live in global memory at byte addresses 0, 1024, 2048, 3072, 4096
// and 4112.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#column = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @layernorm_triton() attributes {grid = [8192]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %columns = arith.constant 64 : i32
    %epsilon = arith.constant 1.0e-3 : f16
    %zero = arith.constant 0.0 : f16
    %zero_chunk = arith.constant dense<0.0> : tensor<1x16xf16>
    %tile = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %c0, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %w_address = arith.constant 1024 : index
    %w = ktdp.construct_memory_view %w_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %b_address = arith.constant 2048 : index
    %b = ktdp.construct_memory_view %b_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %y_address = arith.constant 3072 : index
    %y = ktdp.construct_memory_view %y_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %mean_address = arith.constant 4096 : index
    %means = ktdp.construct_memory_view %mean_address, sizes: [8], strides: [1] {coordinate_set = #column, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
    %rstd_address = arith.constant 4112 : index
    %rstds = ktdp.construct_memory_view %rstd_address, sizes: [8], strides: [1] {coordinate_set = #column, memory_space = #ktdp.memory_space<global>} : memref<8xf16>

    scf.for %row = %tile to %c8 step %c2 {
      %sum_chunks = scf.for %col = %c0 to %c64 step %c16 iter_args(%acc = %zero_chunk) -> (tensor<1x16xf16>) {
        %x_chunk = ktdp.construct_access_tile %x[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x16xindex>
        %v = ktdp.load %x_chunk : <1x16xindex> -> tensor<1x16xf16>
        %next = arith.addf %acc, %v : tensor<1x16xf16>
        scf.yield %next : tensor<1x16xf16>
      }
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %sum = linalg.reduce { arith.addf } ins(%sum_chunks : tensor<1x16xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %n = arith.sitofp %columns : i32 to f16
      %n_splat = tensor.splat %n : tensor<1xf16>
      %mean = arith.divf %sum, %n_splat : tensor<1xf16>
      %mean_scalar = tensor.extract %mean[%c0] : tensor<1xf16>
      %mean_chunk = tensor.splat %mean_scalar : tensor<1x16xf16>

      %square_chunks = scf.for %col = %c0 to %c64 step %c16 iter_args(%acc = %zero_chunk) -> (tensor<1x16xf16>) {
        %x_chunk = ktdp.construct_access_tile %x[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x16xindex>
        %v = ktdp.load %x_chunk : <1x16xindex> -> tensor<1x16xf16>
        %deviation = arith.subf %v, %mean_chunk : tensor<1x16xf16>
        %square = arith.mulf %deviation, %deviation : tensor<1x16xf16>
        %next = arith.addf %acc, %square : tensor<1x16xf16>
        scf.yield %next : tensor<1x16xf16>
      }
      %square_sum = linalg.reduce { arith.addf } ins(%square_chunks : tensor<1x16xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %square_scalar = tensor.extract %square_sum[%c0] : tensor<1xf16>
      %variance = arith.divf %square_scalar, %n : f16
      %shifted = arith.addf %variance, %epsilon : f16
      %rstd_scalar = math.rsqrt %shifted : f16
      %rstd_chunk = tensor.splat %rstd_scalar : tensor<1x16xf16>
      %rstd = tensor.splat %rstd_scalar : tensor<1xf16>

      %mean_at = ktdp.construct_access_tile %means[%row] {access_tile_set = #one, access_tile_order = #in_order} : memref<8xf16> -> !ktdp.access_tile<1xindex>
      %rstd_at = ktdp.construct_access_tile %rstds[%row] {access_tile_set = #one, access_tile_order = #in_order} : memref<8xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %mean, %mean_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
      ktdp.store %rstd, %rstd_at : tensor<1xf16>, !ktdp.access_tile<1xindex>

      scf.for %col = %c0 to %c64 step %c16 {
        %x_chunk = ktdp.construct_access_tile %x[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x16xindex>
        %w_chunk = ktdp.construct_access_tile %w[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x16xindex>
        %b_chunk = ktdp.construct_access_tile %b[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x16xindex>
        %v = ktdp.load %x_chunk : <1x16xindex> -> tensor<1x16xf16>
        %scale = ktdp.load %w_chunk : <1x16xindex> -> tensor<1x16xf16>
        %shift = ktdp.load %b_chunk : <1x16xindex> -> tensor<1x16xf16>
        %deviation = arith.subf %v, %mean_chunk : tensor<1x16xf16>
        %normalised = arith.mulf %deviation, %rstd_chunk : tensor<1x16xf16>
        %scaled = arith.mulf %normalised, %scale : tensor<1x16xf16>
        %result = arith.addf %scaled, %shift : tensor<1x16xf16>
        %y_chunk = ktdp.construct_access_tile %y[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x16xindex>
        ktdp.store %result, %y_chunk : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
      }
    }
    return
  }
}
