// out[r, :] = table[ids[r], :] + table[ids[r], :], the table at a run-time base address (a
// kernel argument) and the ids i64 (read by their i32 low words), as Triton's indexed_add.
#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_base(%base: index, %ia: index, %oa: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %table = ktdp.construct_memory_view %base, sizes: [128, 64], strides: [64, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %ids = ktdp.construct_memory_view %ia, sizes: [8], strides: [1] {coordinate_set = #ids_set, memory_space = #ktdp.memory_space<global>} : memref<8xi64>
  %out = ktdp.construct_memory_view %oa, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %table[ind(%ids[%r]), (%c)] {variables_space_set = #rows, variables_space_order = #id2} : memref<128x64xf16>, memref<8xi64> -> !ktdp.access_tile<8x64xindex>
  %x = ktdp.load %t : <8x64xindex> -> tensor<8x64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %y = linalg.add ins(%x, %x : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %to = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  ktdp.store %y, %to : tensor<8x64xf16>, <8x64xindex>
  return
}
