// Causal mask over grouped query heads, as a paged-attention kernel masks its scores: each tile
// loads 2 tokens x 4 heads x 64 key positions (f16) and views them as 8 rows (the load collapsed,
// Decision 108), keeps score [row, col] where key position col is at most the query's position
// (48 + the token's index, token = row / 4 of the tile's tokens), sets the others to -inf
// (linalg.index in the body, Decision 107), and stores the rows back as 2 x 4 x 64 (expanded).
// Scores and masked scores live in global memory at byte addresses 0 and 8192; grid [2, 4]:
// token pairs x groups of 4 heads. The tile's rows are not one stride apart in memory (heads
// 128 bytes apart, tokens 2048), so the reshape goes through the scratchpad.

#scores = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#in_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @causal_mask_heads() attributes {grid = [2, 4]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %context = arith.constant 48 : index
    %scores_address = arith.constant 0 : index
    %masked_address = arith.constant 8192 : index
    %neg_inf = arith.constant 0xFC00 : f16
    %pair, %group = ktdp.get_compute_tile_id : index, index
    %first_token = arith.muli %pair, %c2 : index
    %first_head = arith.muli %group, %c4 : index
    %first_position = arith.addi %context, %first_token : index

    %s = ktdp.construct_memory_view %scores_address, sizes: [4, 16, 64], strides: [1024, 64, 1] {coordinate_set = #scores, memory_space = #ktdp.memory_space<global>} : memref<4x16x64xf16>
    %m = ktdp.construct_memory_view %masked_address, sizes: [4, 16, 64], strides: [1024, 64, 1] {coordinate_set = #scores, memory_space = #ktdp.memory_space<global>} : memref<4x16x64xf16>

    %s_tile = ktdp.construct_access_tile %s[%first_token, %first_head, %c0] {access_tile_set = #tile, access_tile_order = #in_order} : memref<4x16x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    %s3 = ktdp.load %s_tile : <2x4x64xindex> -> tensor<2x4x64xf16>
    %s2 = tensor.collapse_shape %s3 [[0, 1], [2]] : tensor<2x4x64xf16> into tensor<8x64xf16>

    %init = tensor.empty() : tensor<8x64xf16>
    %masked = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
        ins(%s2 : tensor<8x64xf16>) outs(%init : tensor<8x64xf16>) {
    ^bb0(%score: f16, %out: f16):
      %row = linalg.index 0 : index
      %col = linalg.index 1 : index
      %token = arith.divui %row, %c4 : index
      %position = arith.addi %first_position, %token : index
      %visible = arith.cmpi ule, %col, %position : index
      %kept = arith.select %visible, %score, %neg_inf : f16
      linalg.yield %kept : f16
    } -> tensor<8x64xf16>

    %m3 = tensor.expand_shape %masked [[0, 1], [2]] output_shape [2, 4, 64] : tensor<8x64xf16> into tensor<2x4x64xf16>
    %m_tile = ktdp.construct_access_tile %m[%first_token, %first_head, %c0] {access_tile_set = #tile, access_tile_order = #in_order} : memref<4x16x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    ktdp.store %m3, %m_tile : tensor<2x4x64xf16>, <2x4x64xindex>
    return
  }
}
