// KV-cache write (a scatter): cache[slots[t], :] = keys[t, :] * 0.125 for 8 new tokens, the
// keys scaled by 1/sqrt(64) as they are written into a cache of 16 rows of 64 f16 at the rows
// an i32 slot table names. One compute tile; the cache row comes from an indirect access
// tile: `ind(%slots[%t])` reads the row from the slot table, `(%c)` is the column. A slot named
// twice keeps the later token's row. Keys, slots and cache live in global memory at byte
// addresses 0, 1024 and 1056.

#keys_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slots_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#cache_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @kv_cache_scatter() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %keys_address = arith.constant 0 : index
    %slots_address = arith.constant 1024 : index
    %cache_address = arith.constant 1056 : index

    %keys = ktdp.construct_memory_view %keys_address, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #keys_set, memory_space = #ktdp.memory_space<global>
    } : memref<8x64xf16>
    %slots = ktdp.construct_memory_view %slots_address, sizes: [8], strides: [1] {
      coordinate_set = #slots_set, memory_space = #ktdp.memory_space<global>
    } : memref<8xi32>
    %cache = ktdp.construct_memory_view %cache_address, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #cache_set, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>

    %key_rows = ktdp.construct_access_tile %keys[%c0, %c0] {access_tile_set = #keys_set, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %k = ktdp.load %key_rows : <8x64xindex> -> tensor<8x64xf16>

    %scale = arith.constant 0.125 : f16
    %init = tensor.empty() : tensor<8x64xf16>
    %scaled = linalg.generic {indexing_maps = [#row_major, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%k : tensor<8x64xf16>) outs(%init : tensor<8x64xf16>) {
    ^bb0(%value: f16, %o: f16):
      %s = arith.mulf %value, %scale : f16
      linalg.yield %s : f16
    } -> tensor<8x64xf16>

    %cache_rows = ktdp.construct_indirect_access_tile intermediate_variables(%t, %c)
        %cache[ind(%slots[%t]), (%c)] {
          variables_space_set = #keys_set, variables_space_order = #row_major
        } : memref<16x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %scaled, %cache_rows : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
