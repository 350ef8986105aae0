// Scaled dot-product attention in one kernel, Inductor style: for 4 query rows per compute
// tile (a grid of 4 over 16 queries of width 16), scores = Q K^T over 64 keys (a
// multiply-accumulate `linalg.generic` with K's map transposed), scaled by 1/sqrt(16),
// a numerically stable softmax along each row (row maxima, exp of the shifted scores, row sums,
// division), and the weighted sum of the 64 value rows (`linalg.matmul`). Every intermediate
// stays in the scratchpad: one program of several compute ops with two contractions, each on
// the matrix unit where the device has one (spyre, matrix_unit), else on the vector lanes.
// Q (16x16), K (64x16), V (64x16) and O (16x16) live in global memory at byte addresses 0,
// 512, 2560 and 4608.

#queries_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#keys_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>
#q_map = affine_map<(d0, d1, d2) -> (d0, d2)>
#k_map = affine_map<(d0, d1, d2) -> (d1, d2)>
#s_map = affine_map<(d0, d1, d2) -> (d0, d1)>

module {
  func.func @attention() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %q_address = arith.constant 0 : index
    %k_address = arith.constant 512 : index
    %v_address = arith.constant 2560 : index
    %o_address = arith.constant 4608 : index
    %scale = arith.constant 0.25 : f16
    %minus_infinity = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %q = ktdp.construct_memory_view %q_address, sizes: [16, 16], strides: [16, 1] {coordinate_set = #queries_all, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %k = ktdp.construct_memory_view %k_address, sizes: [64, 16], strides: [16, 1] {coordinate_set = #keys_all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %v = ktdp.construct_memory_view %v_address, sizes: [64, 16], strides: [16, 1] {coordinate_set = #keys_all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %o = ktdp.construct_memory_view %o_address, sizes: [16, 16], strides: [16, 1] {coordinate_set = #queries_all, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
    %q_rows = ktdp.construct_access_tile %q[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
    %k_all = ktdp.construct_access_tile %k[%c0, %c0] {access_tile_set = #keys_all, access_tile_order = #row_major} : memref<64x16xf16> -> !ktdp.access_tile<64x16xindex>
    %v_all = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = #keys_all, access_tile_order = #row_major} : memref<64x16xf16> -> !ktdp.access_tile<64x16xindex>
    %queries = ktdp.load %q_rows : <4x16xindex> -> tensor<4x16xf16>
    %keys = ktdp.load %k_all : <64x16xindex> -> tensor<64x16xf16>
    %values = ktdp.load %v_all : <64x16xindex> -> tensor<64x16xf16>

    %empty = tensor.empty() : tensor<4x64xf16>
    %s_init = linalg.fill ins(%zero : f16) outs(%empty : tensor<4x64xf16>) -> tensor<4x64xf16>
    %scores = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%queries, %keys : tensor<4x16xf16>, tensor<64x16xf16>) outs(%s_init : tensor<4x64xf16>) {
    ^bb0(%a: f16, %b: f16, %acc: f16):
      %p = arith.mulf %a, %b : f16
      %s = arith.addf %p, %acc : f16
      linalg.yield %s : f16
    } -> tensor<4x64xf16>
    %scaled = linalg.generic {indexing_maps = [#row_major, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%scores : tensor<4x64xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%x: f16, %out: f16):
      %y = arith.mulf %x, %scale : f16
      linalg.yield %y : f16
    } -> tensor<4x64xf16>

    %empty_row = tensor.empty() : tensor<4xf16>
    %max_init = linalg.fill ins(%minus_infinity : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %maxima = linalg.reduce { arith.maximumf } ins(%scaled : tensor<4x64xf16>) outs(%max_init : tensor<4xf16>) dimensions = [1]
    %exps = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%scaled, %maxima : tensor<4x64xf16>, tensor<4xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%value: f16, %maximum: f16, %out: f16):
      %shifted = arith.subf %value, %maximum : f16
      %e = math.exp %shifted : f16
      linalg.yield %e : f16
    } -> tensor<4x64xf16>
    %sum_init = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %sums = linalg.reduce { arith.addf } ins(%exps : tensor<4x64xf16>) outs(%sum_init : tensor<4xf16>) dimensions = [1]
    %weights = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%exps, %sums : tensor<4x64xf16>, tensor<4xf16>) outs(%empty : tensor<4x64xf16>) {
    ^bb0(%e: f16, %sum: f16, %out: f16):
      %w = arith.divf %e, %sum : f16
      linalg.yield %w : f16
    } -> tensor<4x64xf16>

    %o_empty = tensor.empty() : tensor<4x16xf16>
    %o_init = linalg.fill ins(%zero : f16) outs(%o_empty : tensor<4x16xf16>) -> tensor<4x16xf16>
    %out = linalg.matmul ins(%weights, %values : tensor<4x64xf16>, tensor<64x16xf16>) outs(%o_init : tensor<4x16xf16>) -> tensor<4x16xf16>
    %o_rows = ktdp.construct_access_tile %o[%first_row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
    ktdp.store %out, %o_rows : tensor<4x16xf16>, <4x16xindex>
    return
  }
}
