// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --resolve-distributed-views --ktir-legality-check

// A distributed view resolve-distributed-views leaves (README Decision 53) is refused on the
// view, with the reason.

#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @overlapping_parts() {
  %lo = arith.constant 0 : index
  %hi = arith.constant 2048 : index
  %a = ktdp.construct_memory_view %lo, sizes: [16, 64], strides: [64, 1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %b = ktdp.construct_memory_view %hi, sizes: [16, 64], strides: [64, 1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  // expected-error @below {{V1 does not support ktdp.construct_distributed_memory_view unless resolve-distributed-views resolves it into plain views: parts #0 and #1 hold common coordinates}}
  %whole = ktdp.construct_distributed_memory_view (%a, %b : memref<16x64xf16>, memref<16x64xf16>) : memref<32x64xf16>
  return
}

// -----

#rows0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @scratchpad_of_a_tile_outside_the_grid() attributes {grid = [2]} {
  %lo = arith.constant 0 : index
  %a = ktdp.construct_memory_view %lo, sizes: [16, 64], strides: [64, 1] {coordinate_set = #rows0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x64xf16>
  // expected-error @below {{the view is compute tile 2's scratchpad (ct_id = 2), but the kernel's grid has 2 tile(s)}}
  %b = ktdp.construct_memory_view %lo, sizes: [16, 64], strides: [64, 1] {coordinate_set = #rows1, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<16x64xf16>
  %whole = ktdp.construct_distributed_memory_view (%a, %b : memref<16x64xf16>, memref<16x64xf16>) : memref<32x64xf16>
  return
}

// -----

#rows0 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @unbound_extent(%n: index) {
  %lo = arith.constant 0 : index
  %a = ktdp.construct_memory_view %lo, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #rows0, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  // expected-error @below {{part #0's coordinate_set depends on a value known only at run time (bind it with --bind NAME=VALUE)}}
  %whole = ktdp.construct_distributed_memory_view (%a : memref<?x64xf16>) : memref<?x64xf16>
  return
}

// -----

#diag = affine_set<(d0, d1) : (d0 - d1 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
func.func @not_a_box() {
  %lo = arith.constant 0 : index
  %a = ktdp.construct_memory_view %lo, sizes: [16, 16], strides: [16, 1] {coordinate_set = #diag, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  // expected-error @below {{part #0's coordinate_set is not a box of constant bounds}}
  %whole = ktdp.construct_distributed_memory_view (%a : memref<16x16xf16>) : memref<16x16xf16>
  return
}

// -----

// (two halves that are not one strided view: the second starts 1024 bytes in, not 64)
#part = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#part2 = affine_set<(d0) : (d0 - 32 >= 0, -d0 + 63 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @runtime_position(%i: index) {
  %lo = arith.constant 0 : index
  %hi = arith.constant 1024 : index
  %p = ktdp.construct_memory_view %lo, sizes: [32], strides: [1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %p2 = ktdp.construct_memory_view %hi, sizes: [32], strides: [1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  // expected-error @below {{the access tile's position is a value known only at run time}}
  %d = ktdp.construct_distributed_memory_view (%p, %p2 : memref<32xf16>, memref<32xf16>) : memref<64xf16>
  %t = ktdp.construct_access_tile %d[%i] {access_tile_set = #tile, access_tile_order = #order} : memref<64xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %t : <16xindex> -> tensor<16xf16>
  %o = ktdp.construct_memory_view %lo, sizes: [16], strides: [1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  %to = ktdp.construct_access_tile %o[%lo] {access_tile_set = #tile, access_tile_order = #order} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  ktdp.store %x, %to : tensor<16xf16>, <16xindex>
  return
}

// -----

#part = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @outside_every_part() {
  %lo = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  %p = ktdp.construct_memory_view %lo, sizes: [32], strides: [1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  // expected-error @below {{the access tile reaches coordinates no part of the distributed view holds (tile [24..39])}}
  %d = ktdp.construct_distributed_memory_view (%p : memref<32xf16>) : memref<64xf16>
  %t = ktdp.construct_access_tile %d[%c24] {access_tile_set = #tile, access_tile_order = #order} : memref<64xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %t : <16xindex> -> tensor<16xf16>
  %o = ktdp.construct_memory_view %lo, sizes: [16], strides: [1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  %to = ktdp.construct_access_tile %o[%lo] {access_tile_set = #tile, access_tile_order = #order} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  ktdp.store %x, %to : tensor<16xf16>, <16xindex>
  return
}

// -----

#left = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#right = affine_set<(d0) : (d0 - 32 >= 0, -d0 + 63 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#order = affine_map<(d0) -> (d0)>
func.func @spanning_tile_computed_on() {
  %lo = arith.constant 0 : index
  %hi = arith.constant 4096 : index
  %c24 = arith.constant 24 : index
  %l = ktdp.construct_memory_view %lo, sizes: [32], strides: [1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %r = ktdp.construct_memory_view %hi, sizes: [32], strides: [1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  // expected-error @below {{a tile spanning several parts of a distributed view can only be copied (stored as loaded, once); here it feeds 'math.exp'}}
  %d = ktdp.construct_distributed_memory_view (%l, %r : memref<32xf16>, memref<32xf16>) : memref<64xf16>
  %t = ktdp.construct_access_tile %d[%c24] {access_tile_set = #tile, access_tile_order = #order} : memref<64xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %t : <16xindex> -> tensor<16xf16>
  %y = math.exp %x : tensor<16xf16>
  %o = ktdp.construct_memory_view %lo, sizes: [16], strides: [1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  %to = ktdp.construct_access_tile %o[%lo] {access_tile_set = #tile, access_tile_order = #order} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  ktdp.store %y, %to : tensor<16xf16>, <16xindex>
  return
}
