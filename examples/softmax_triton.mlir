// Softmax of each row of a 4x64 f16 matrix in Triton's style: arith and math ops on whole
// tensors, a reduction's result brought back to the row through `tensor.extract` and
// `tensor.splat`, reductions started from `tensor.splat` constants. One row per compute tile,
// over a grid of 4 tiles. The front door (`triton-to-linalg`) rewrites the extract/splat
// pairs into broadcast generics and the constant splats into fills, the form of
// examples/softmax.mlir; the row and its statistics then stay in the scratchpad.
// X and Y live in global memory at byte addresses 0 and 512.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @softmax_triton() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 512 : index
    %minus_infinity = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %row = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %x_address, sizes: [4, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [4, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %x_row = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %values = ktdp.load %x_row : <1x64xindex> -> tensor<1x64xf16>

    %max_init = tensor.splat %minus_infinity : tensor<1xf16>
    %maximum = linalg.reduce { arith.maximumf } ins(%values : tensor<1x64xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
    %max_scalar = tensor.extract %maximum[%c0] : tensor<1xf16>
    %max_row = tensor.splat %max_scalar : tensor<1x64xf16>
    %shifted = arith.subf %values, %max_row : tensor<1x64xf16>
    %exps = math.exp %shifted : tensor<1x64xf16>

    %sum_init = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%exps : tensor<1x64xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
    %sum_scalar = tensor.extract %sum[%c0] : tensor<1xf16>
    %sum_row = tensor.splat %sum_scalar : tensor<1x64xf16>
    %softmax = arith.divf %exps, %sum_row : tensor<1x64xf16>

    %y_row = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %softmax, %y_row : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
