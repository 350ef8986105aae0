// Embedding lookup (a gather): out[r, :] = table[ids[r], :] * 8.0, the token embeddings of a
// transformer scaled by sqrt(64). The table holds 128 rows of 64 f16, the ids are 32 i32 row
// numbers, and a grid of 4 compute tiles looks up 8 ids each. The table row comes from an
// indirect access tile: `ind(%ids[%first + %r])` reads the row number from the ids, `(%c)` is
// the column. Table, ids and out live in global memory at byte addresses 0, 16384 and 16512.

#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#out_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#eight_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @embedding_gather() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %table_address = arith.constant 0 : index
    %ids_address = arith.constant 16384 : index
    %out_address = arith.constant 16512 : index
    %tile = ktdp.get_compute_tile_id : index
    %first = arith.muli %tile, %c8 : index

    %table = ktdp.construct_memory_view %table_address, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>
    } : memref<128x64xf16>
    %ids = ktdp.construct_memory_view %ids_address, sizes: [32], strides: [1] {
      coordinate_set = #ids_set, memory_space = #ktdp.memory_space<global>
    } : memref<32xi32>
    %out = ktdp.construct_memory_view %out_address, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>

    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
        %table[ind(%ids[%first + %r]), (%c)] {
          variables_space_set = #eight_rows, variables_space_order = #row_major
        } : memref<128x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    %embedded = ktdp.load %rows : <8x64xindex> -> tensor<8x64xf16>

    %scale = arith.constant 8.0 : f16
    %init = tensor.empty() : tensor<8x64xf16>
    %scaled = linalg.generic {indexing_maps = [#row_major, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%embedded : tensor<8x64xf16>) outs(%init : tensor<8x64xf16>) {
    ^bb0(%value: f16, %o: f16):
      %s = arith.mulf %value, %scale : f16
      linalg.yield %s : f16
    } -> tensor<8x64xf16>

    %out_rows = ktdp.construct_access_tile %out[%first, %c0] {access_tile_set = #eight_rows, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %scaled, %out_rows : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
