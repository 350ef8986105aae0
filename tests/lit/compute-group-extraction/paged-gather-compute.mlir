// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// Decision 89. A gather whose subscripts split token t into pages of 4 (`t floordiv 4` picks
// the block-table entry, `t mod 4` the token in the page) feeding compute: the tile becomes
// pages x tokens (3 x 4 x 8, the page index read as `ind(%table[%p])`), the scaling works on
// 3 x 4 x 8, and the sum over tokens reduces both dimensions, so the stored sums are unchanged.
// CHECK-LABEL: func.func @local_schedule_0()
// CHECK:         %[[T:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[P:.*]], %[[U:.*]], %[[D:.*]]) %{{.*}}[ind(%{{.*}}[%[[P]]]), (%[[U]]), (%[[D]])] {{.*}} -> !ktdp.access_tile<3x4x8xindex>
// CHECK-NEXT:    %[[X:.*]] = ktdp.load %[[T]] : <3x4x8xindex> -> tensor<3x4x8xf16>
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<3x4x8xf16>) outs(%{{.*}} : tensor<3x4x8xf16>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "reduction", "parallel"]} ins(%[[Y]] : tensor<3x4x8xf16>) outs(%{{.*}} : tensor<8xf16>)
// CHECK-NOT:     floordiv
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#tokens = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#out_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @paged_gather_compute() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %pa = arith.constant 0 : index
  %ta = arith.constant 1024 : index
  %oa = arith.constant 1056 : index
  %half = arith.constant 0.5 : f16
  %zero = arith.constant 0.0 : f16
  %pool = ktdp.construct_memory_view %pa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [3], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<3xi32>
  %out = ktdp.construct_memory_view %oa, sizes: [8], strides: [1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %d) %pool[ind(%table[%r floordiv 4]), (%r mod 4), (%d)] {variables_space_set = #tokens, variables_space_order = #id2} : memref<8x4x8xf16>, memref<3xi32> -> !ktdp.access_tile<12x8xindex>
  %x = ktdp.load %t : <12x8xindex> -> tensor<12x8xf16>
  %e = tensor.empty() : tensor<12x8xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<12x8xf16>) outs(%e : tensor<12x8xf16>) {
  ^bb0(%v: f16, %o: f16):
    %w = arith.mulf %v, %half : f16
    linalg.yield %w : f16
  } -> tensor<12x8xf16>
  %er = tensor.empty() : tensor<8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%er : tensor<8xf16>) -> tensor<8xf16>
  %sums = linalg.reduce { arith.addf } ins(%y : tensor<12x8xf16>) outs(%init : tensor<8xf16>) dimensions = [0]
  %to = ktdp.construct_access_tile %out[%c0] {access_tile_set = #out_set, access_tile_order = #id1} : memref<8xf16> -> !ktdp.access_tile<8xindex>
  ktdp.store %sums, %to : tensor<8xf16>, <8xindex>
  return
}

// -----

// Rows computed from a paged gather and stored as they are would need the page dimension in the
// store's tile: the gather is left alone (construct-three-stage-pipeline then refuses it, naming
// the split: construct-three-stage-pipeline/indirect-access-invalid.mlir).
// CHECK-LABEL: func.func @local_schedule_0()
// CHECK:         ktdp.construct_indirect_access_tile {{.*}}[ind(%{{.*}}[%{{.*}} floordiv 4]), (%{{.*}} mod 4), (%{{.*}})] {{.*}} -> !ktdp.access_tile<12x8xindex>
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#tokens = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @paged_rows_stored() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %pa = arith.constant 0 : index
  %ta = arith.constant 1024 : index
  %oa = arith.constant 1056 : index
  %pool = ktdp.construct_memory_view %pa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [3], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<3xi32>
  %out = ktdp.construct_memory_view %oa, sizes: [12, 8], strides: [8, 1] {coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>} : memref<12x8xf16>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %d) %pool[ind(%table[%r floordiv 4]), (%r mod 4), (%d)] {variables_space_set = #tokens, variables_space_order = #id2} : memref<8x4x8xf16>, memref<3xi32> -> !ktdp.access_tile<12x8xindex>
  %x = ktdp.load %t : <12x8xindex> -> tensor<12x8xf16>
  %e = tensor.empty() : tensor<12x8xf16>
  %y = linalg.add ins(%x, %x : tensor<12x8xf16>, tensor<12x8xf16>) outs(%e : tensor<12x8xf16>) -> tensor<12x8xf16>
  %to = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #tokens, access_tile_order = #id2} : memref<12x8xf16> -> !ktdp.access_tile<12x8xindex>
  ktdp.store %y, %to : tensor<12x8xf16>, <12x8xindex>
  return
}
