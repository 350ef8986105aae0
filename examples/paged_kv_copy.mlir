// Paged KV cache read (a gather by pages): out[s, t, h, :] = pool[table[s, t / 4], h, t % 4, :].
// A pool of 8 pages, each 4 tokens of 2 heads x 8 features (f16), holds the keys of two
// sequences; the block table (i32) lists each sequence's 3 pages, and compute tile s copies
// sequence s's 12 tokens out, tokens before heads. The indirect access tile reads the page
// number as `ind(%table[%s, %t floordiv 4])` and the token within it as `(%t mod 4)`; the
// store enumerates out's tokens and heads swapped (access_tile_order). Pool, table and out live
// in global memory at byte addresses 0, 1024 and 1088.

#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 7 >= 0)>
#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 11 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 7 >= 0)>
#one_sequence = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 11 >= 0, d3 >= 0, -d3 + 7 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 11 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 7 >= 0)>
#in_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#heads_before_tokens = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>

module {
  func.func @paged_kv_copy() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %pool_address = arith.constant 0 : index
    %table_address = arith.constant 1024 : index
    %out_address = arith.constant 1088 : index
    %s = ktdp.get_compute_tile_id : index

    %pool = ktdp.construct_memory_view %pool_address, sizes: [8, 2, 4, 8], strides: [64, 32, 8, 1] {
      coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>
    } : memref<8x2x4x8xf16>
    %table = ktdp.construct_memory_view %table_address, sizes: [2, 3], strides: [3, 1] {
      coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>
    } : memref<2x3xi32>
    %out = ktdp.construct_memory_view %out_address, sizes: [2, 12, 2, 8], strides: [192, 16, 8, 1] {
      coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>
    } : memref<2x12x2x8xf16>

    %keys = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h, %t, %d)
        %pool[ind(%table[%s + %b, %t floordiv 4]), (%h), (%t mod 4), (%d)] {
          variables_space_set = #one_sequence, variables_space_order = #in_order
        } : memref<8x2x4x8xf16>, memref<2x3xi32> -> !ktdp.access_tile<1x2x12x8xindex>
    %values = ktdp.load %keys : <1x2x12x8xindex> -> tensor<1x2x12x8xf16>
    %out_rows = ktdp.construct_access_tile %out[%s, %c0, %c0, %c0] {
      access_tile_set = #out_tile, access_tile_order = #heads_before_tokens
    } : memref<2x12x2x8xf16> -> !ktdp.access_tile<1x2x12x8xindex>
    ktdp.store %values, %out_rows : tensor<1x2x12x8xf16>, <1x2x12x8xindex>
    return
  }
}
