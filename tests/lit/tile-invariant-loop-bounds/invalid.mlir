// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --tile-invariant-loop-bounds
// RUN: not dfsched-opt %s --tile-invariant-loop-bounds 2>&1 | filecheck %s --check-prefix=LOC

// A host loop whose bounds read the tile id may run at most 8 iterations more on some tiles than
// on others; otherwise (or when a bound cannot be evaluated at a tile) it is a located error on
// the loop.

#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @far_apart(%a: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c20 = arith.constant 20 : index
  %first = arith.muli %t, %c10 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @below {{the loop's bounds depend on the compute tile id and its trip count differs by more than 8 between tiles (10 on tile 1, 20 on tile 0), so the host cannot run it for every tile at once}}
  scf.for %i = %first to %c20 step %c1 {
    %ti = ktdp.construct_access_tile %v[%i] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    ktdp.store %x, %ti : tensor<64xf16>, <64xindex>
  }
  return
}
// LOC: invalid.mlir:[[# @LINE - 7]]:3: error: the loop's bounds depend on the compute tile id and its trip count

// -----

#set2 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id2 = affine_map<(d0) -> (d0)>
func.func @opaque(%a: index, %n: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set2, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @below {{the loop's bounds depend on the compute tile id and cannot be evaluated at tile 0, so the host cannot run it for every tile at once}}
  scf.for %i = %t to %n step %c1 {
    %ti = ktdp.construct_access_tile %v[%i] {access_tile_set = #set2, access_tile_order = #id2} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    ktdp.store %x, %ti : tensor<64xf16>, <64xindex>
  }
  return
}
