// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --compute-group-extraction

// A paged copy splits one variable into pages, and whole pages of it.
#pool = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @partial_page() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %pool = ktdp.construct_memory_view %c0, sizes: [16, 4], strides: [4, 1] {coordinate_set = #pool, memory_space = #ktdp.memory_space<global>} : memref<16x4xf16>
  %table = ktdp.construct_memory_view %c512, sizes: [4, 4], strides: [4, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<4x4xi32>
  %out = ktdp.construct_memory_view %c1024, sizes: [6, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<6x8xf16>
  // expected-error @below {{variable 0 ranges over 6 values, not a whole number of pages of 4: a paged copy needs whole pages}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
      %pool[ind(%table[%c0, %t floordiv 4]), (%t mod 4)] {
    variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    variables_space_order = #id
  } : memref<16x4xf16>, memref<4x4xi32> -> !ktdp.access_tile<6x8xindex>
  %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #out, access_tile_order = #id} : memref<6x8xf16> -> !ktdp.access_tile<6x8xindex>
  %x = ktdp.load %g : <6x8xindex> -> tensor<6x8xf16>
  ktdp.store %x, %o : tensor<6x8xf16>, <6x8xindex>
  return
}

// -----

#pool = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_paged_variables() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %pool = ktdp.construct_memory_view %c0, sizes: [16, 4], strides: [4, 1] {coordinate_set = #pool, memory_space = #ktdp.memory_space<global>} : memref<16x4xf16>
  %table = ktdp.construct_memory_view %c512, sizes: [4, 4], strides: [4, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<4x4xi32>
  %out = ktdp.construct_memory_view %c1024, sizes: [8, 8], strides: [8, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  // expected-error @below {{the subscripts of this indirect access tile split more than one variable into pages (variable 0 by 4, variable 1 by 2); a paged copy splits one}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
      %pool[ind(%table[%t floordiv 4, %d floordiv 2]), (%t mod 4)] {
    variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    variables_space_order = #id
  } : memref<16x4xf16>, memref<4x4xi32> -> !ktdp.access_tile<8x8xindex>
  %o = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #out, access_tile_order = #id} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
  %x = ktdp.load %g : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %x, %o : tensor<8x8xf16>, <8x8xindex>
  return
}
