// Attention of a sequence's 4 query heads over its 12 cached tokens, gathered from a paged KV
// cache with the token split into pages by the subscripts (`ind(%table[%s, %t floordiv 4])`
// picks the page, `(%t mod 4)` the token in it): the tensors are 12 x 16, as a kernel writes
// them. compute-group-extraction gathers page by page into one more dimension and carries it
// through QK^T, the softmax and PV (Decision 89). Buffers as in examples/paged_attention_decode.mlir.

#q_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#one_seq = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#tokens = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#in_order3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>
#q_map = affine_map<(d0, d1, d2) -> (d0, d2)>
#k_map = affine_map<(d0, d1, d2) -> (d1, d2)>
#s_map = affine_map<(d0, d1, d2) -> (d0, d1)>

module {
  func.func @paged_attention_rows() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %q_address = arith.constant 0 : index
    %k_address = arith.constant 256 : index
    %v_address = arith.constant 1280 : index
    %table_address = arith.constant 2304 : index
    %o_address = arith.constant 2336 : index
    %minus_infinity = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %scale = arith.constant 0.25 : f16
    %s = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %first = arith.muli %s, %c4 : index
    %q = ktdp.construct_memory_view %q_address, sizes: [8, 16], strides: [16, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %kp = ktdp.construct_memory_view %k_address, sizes: [8, 4, 16], strides: [64, 16, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x16xf16>
    %vp = ktdp.construct_memory_view %v_address, sizes: [8, 4, 16], strides: [64, 16, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x16xf16>
    %table = ktdp.construct_memory_view %table_address, sizes: [2, 3], strides: [3, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2x3xi32>
    %o = ktdp.construct_memory_view %o_address, sizes: [8, 16], strides: [16, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %q_tile = ktdp.construct_access_tile %q[%first, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
    %queries = ktdp.load %q_tile : <4x16xindex> -> tensor<4x16xf16>
    %k_tile = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
        %kp[ind(%table[%s, %t floordiv 4]), (%t mod 4), (%d)] {
          variables_space_set = #tokens, variables_space_order = #row_major
        } : memref<8x4x16xf16>, memref<2x3xi32> -> !ktdp.access_tile<12x16xindex>
    %keys = ktdp.load %k_tile : <12x16xindex> -> tensor<12x16xf16>
    %v_tile = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
        %vp[ind(%table[%s, %t floordiv 4]), (%t mod 4), (%d)] {
          variables_space_set = #tokens, variables_space_order = #row_major
        } : memref<8x4x16xf16>, memref<2x3xi32> -> !ktdp.access_tile<12x16xindex>
    %values = ktdp.load %v_tile : <12x16xindex> -> tensor<12x16xf16>

    %empty = tensor.empty() : tensor<4x12xf16>
    %s_init = linalg.fill ins(%zero : f16) outs(%empty : tensor<4x12xf16>) -> tensor<4x12xf16>
    %scores = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%queries, %keys : tensor<4x16xf16>, tensor<12x16xf16>) outs(%s_init : tensor<4x12xf16>) {
    ^bb0(%a: f16, %b: f16, %acc: f16):
      %p = arith.mulf %a, %b : f16
      %r = arith.addf %p, %acc : f16
      linalg.yield %r : f16
    } -> tensor<4x12xf16>
    %scaled = linalg.generic {indexing_maps = [#row_major, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%scores : tensor<4x12xf16>) outs(%empty : tensor<4x12xf16>) {
    ^bb0(%x: f16, %out: f16):
      %y = arith.mulf %x, %scale : f16
      linalg.yield %y : f16
    } -> tensor<4x12xf16>
    %empty_row = tensor.empty() : tensor<4xf16>
    %max_init = linalg.fill ins(%minus_infinity : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %maxima = linalg.reduce { arith.maximumf } ins(%scaled : tensor<4x12xf16>) outs(%max_init : tensor<4xf16>) dimensions = [1]
    %exps = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%scaled, %maxima : tensor<4x12xf16>, tensor<4xf16>) outs(%empty : tensor<4x12xf16>) {
    ^bb0(%value: f16, %maximum: f16, %out: f16):
      %shifted = arith.subf %value, %maximum : f16
      %e = math.exp %shifted : f16
      linalg.yield %e : f16
    } -> tensor<4x12xf16>
    %sum_init = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %sums = linalg.reduce { arith.addf } ins(%exps : tensor<4x12xf16>) outs(%sum_init : tensor<4xf16>) dimensions = [1]
    %weights = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%exps, %sums : tensor<4x12xf16>, tensor<4xf16>) outs(%empty : tensor<4x12xf16>) {
    ^bb0(%e: f16, %sum: f16, %out: f16):
      %w = arith.divf %e, %sum : f16
      linalg.yield %w : f16
    } -> tensor<4x12xf16>
    %o_empty = tensor.empty() : tensor<4x16xf16>
    %o_init = linalg.fill ins(%zero : f16) outs(%o_empty : tensor<4x16xf16>) -> tensor<4x16xf16>
    %out = linalg.matmul ins(%weights, %values : tensor<4x12xf16>, tensor<12x16xf16>) outs(%o_init : tensor<4x16xf16>) -> tensor<4x16xf16>
    %o_tile = ktdp.construct_access_tile %o[%first, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
    ktdp.store %out, %o_tile : tensor<4x16xf16>, <4x16xindex>
    return
  }
}
