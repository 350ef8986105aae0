// One decode step of paged attention written as Triton writes it: an online softmax over the
// sequence's pages (the corpus' paged_attention.mlir, small and without its causal mask). Each
// compute tile is one sequence whose 4 query heads share one KV head of size 16; the loop
// visits its 3 pages of 4 tokens, gathering each page's keys and values through the block
// table (`ind(%table[%seq, %j + %p])`, one page), and carries the rows' running maximum, the
// running sum of exponentials and the output accumulator, each rescaled by exp(old max - new
// max). After the loop the accumulator is divided by the sum. The scheduler folds the loop into
// one softmax over all pages (Decision 88), the page and the token staying two dimensions of
// the gathered tensors. Q (8x16), the K and V pools (8x4x16 each), the table (2x3, i32) and O
// (8x16) live in global memory at byte addresses 0, 256, 1280, 2304 and 2336.

#q_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#in_order3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>
#q_map = affine_map<(m, p, u, d) -> (m, d)>
#k_map = affine_map<(m, p, u, d) -> (p, u, d)>
#s_map = affine_map<(m, p, u, d) -> (m, p, u)>
#w_map = affine_map<(m, d, p, u) -> (m, p, u)>
#v_map = affine_map<(m, d, p, u) -> (p, u, d)>
#o_map = affine_map<(m, d, p, u) -> (m, d)>

#rows = affine_map<(d0) -> (d0)>
#per_row2 = affine_map<(d0, d1) -> (d0)>

module {
  func.func @paged_attention_decode() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %q_address = arith.constant 0 : index
    %k_address = arith.constant 256 : index
    %v_address = arith.constant 1280 : index
    %table_address = arith.constant 2304 : index
    %o_address = arith.constant 2336 : index
    %minus_infinity = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %one = arith.constant 1.0 : f16
    %scale = arith.constant 0.25 : f16
    %seq = ktdp.get_compute_tile_id : index
    %first = arith.muli %seq, %c4 : index
    %q = ktdp.construct_memory_view %q_address, sizes: [8, 16], strides: [16, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %kp = ktdp.construct_memory_view %k_address, sizes: [8, 4, 16], strides: [64, 16, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x16xf16>
    %vp = ktdp.construct_memory_view %v_address, sizes: [8, 4, 16], strides: [64, 16, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x16xf16>
    %table = ktdp.construct_memory_view %table_address, sizes: [2, 3], strides: [3, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2x3xi32>
    %o = ktdp.construct_memory_view %o_address, sizes: [8, 16], strides: [16, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %q_tile = ktdp.construct_access_tile %q[%first, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
    %queries = ktdp.load %q_tile : <4x16xindex> -> tensor<4x16xf16>

    %empty_row = tensor.empty() : tensor<4xf16>
    %m_init = linalg.fill ins(%minus_infinity : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %l_init = linalg.fill ins(%one : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %sum_init = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
    %o_empty = tensor.empty() : tensor<4x16xf16>
    %acc_init = linalg.fill ins(%zero : f16) outs(%o_empty : tensor<4x16xf16>) -> tensor<4x16xf16>
    %empty = tensor.empty() : tensor<4x1x4xf16>
    %s_init = linalg.fill ins(%zero : f16) outs(%empty : tensor<4x1x4xf16>) -> tensor<4x1x4xf16>
    %m_final, %l_final, %acc_final = scf.for %j = %c0 to %c3 step %c1
        iter_args(%m = %m_init, %l = %l_init, %acc = %acc_init) -> (tensor<4xf16>, tensor<4xf16>, tensor<4x16xf16>) {
      %k_tile = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d)
          %kp[ind(%table[%seq, %j + %p]), (%u), (%d)] {
            variables_space_set = #one_page, variables_space_order = #in_order3
          } : memref<8x4x16xf16>, memref<2x3xi32> -> !ktdp.access_tile<1x4x16xindex>
      %keys = ktdp.load %k_tile : <1x4x16xindex> -> tensor<1x4x16xf16>
      %v_tile = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d)
          %vp[ind(%table[%seq, %j + %p]), (%u), (%d)] {
            variables_space_set = #one_page, variables_space_order = #in_order3
          } : memref<8x4x16xf16>, memref<2x3xi32> -> !ktdp.access_tile<1x4x16xindex>
      %values = ktdp.load %v_tile : <1x4x16xindex> -> tensor<1x4x16xf16>
      %scores = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
          ins(%queries, %keys : tensor<4x16xf16>, tensor<1x4x16xf16>) outs(%s_init : tensor<4x1x4xf16>) {
      ^bb0(%a: f16, %b: f16, %out: f16):
        %pr = arith.mulf %a, %b : f16
        %r = arith.addf %pr, %out : f16
        linalg.yield %r : f16
      } -> tensor<4x1x4xf16>
      %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%scores : tensor<4x1x4xf16>) outs(%empty : tensor<4x1x4xf16>) {
      ^bb0(%x: f16, %out: f16):
        %y = arith.mulf %x, %scale : f16
        linalg.yield %y : f16
      } -> tensor<4x1x4xf16>
      %max_init = linalg.fill ins(%minus_infinity : f16) outs(%empty_row : tensor<4xf16>) -> tensor<4xf16>
      %page_max = linalg.reduce { arith.maximumf } ins(%scaled : tensor<4x1x4xf16>) outs(%max_init : tensor<4xf16>) dimensions = [1, 2]
      %m_new = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]}
          ins(%m, %page_max : tensor<4xf16>, tensor<4xf16>) outs(%empty_row : tensor<4xf16>) {
      ^bb0(%old: f16, %new: f16, %out: f16):
        %larger = arith.maximumf %old, %new : f16
        linalg.yield %larger : f16
      } -> tensor<4xf16>
      %exps = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%scaled, %m_new : tensor<4x1x4xf16>, tensor<4xf16>) outs(%empty : tensor<4x1x4xf16>) {
      ^bb0(%value: f16, %maximum: f16, %out: f16):
        %shifted = arith.subf %value, %maximum : f16
        %e = math.exp %shifted : f16
        linalg.yield %e : f16
      } -> tensor<4x1x4xf16>
      %page_sum = linalg.reduce { arith.addf } ins(%exps : tensor<4x1x4xf16>) outs(%sum_init : tensor<4xf16>) dimensions = [1, 2]
      %alpha = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]}
          ins(%m, %m_new : tensor<4xf16>, tensor<4xf16>) outs(%empty_row : tensor<4xf16>) {
      ^bb0(%old: f16, %new: f16, %out: f16):
        %shift = arith.subf %old, %new : f16
        %e = math.exp %shift : f16
        linalg.yield %e : f16
      } -> tensor<4xf16>
      %acc_scaled = linalg.generic {indexing_maps = [#row_major, #per_row2, #row_major], iterator_types = ["parallel", "parallel"]}
          ins(%acc, %alpha : tensor<4x16xf16>, tensor<4xf16>) outs(%o_empty : tensor<4x16xf16>) {
      ^bb0(%a: f16, %factor: f16, %out: f16):
        %r = arith.mulf %a, %factor : f16
        linalg.yield %r : f16
      } -> tensor<4x16xf16>
      %acc_new = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
          ins(%exps, %values : tensor<4x1x4xf16>, tensor<1x4x16xf16>) outs(%acc_scaled : tensor<4x16xf16>) {
      ^bb0(%a: f16, %b: f16, %out: f16):
        %pr = arith.mulf %a, %b : f16
        %r = arith.addf %pr, %out : f16
        linalg.yield %r : f16
      } -> tensor<4x16xf16>
      %l_new = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]}
          ins(%l, %alpha, %page_sum : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) outs(%empty_row : tensor<4xf16>) {
      ^bb0(%old: f16, %factor: f16, %add: f16, %out: f16):
        %kept = arith.mulf %old, %factor : f16
        %r = arith.addf %kept, %add : f16
        linalg.yield %r : f16
      } -> tensor<4xf16>
      scf.yield %m_new, %l_new, %acc_new : tensor<4xf16>, tensor<4xf16>, tensor<4x16xf16>
    }
    %out = linalg.generic {indexing_maps = [#row_major, #per_row2, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%acc_final, %l_final : tensor<4x16xf16>, tensor<4xf16>) outs(%o_empty : tensor<4x16xf16>) {
    ^bb0(%a: f16, %sum: f16, %o_: f16):
      %r = arith.divf %a, %sum : f16
      linalg.yield %r : f16
    } -> tensor<4x16xf16>
    %o_tile = ktdp.construct_access_tile %o[%first, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
    ktdp.store %out, %o_tile : tensor<4x16xf16>, <4x16xindex>
    return
  }
}
