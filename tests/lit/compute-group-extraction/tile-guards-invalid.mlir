// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --compute-group-extraction
// RUN: not dfsched-opt %s --compute-group-extraction 2>&1 | filecheck %s --check-prefix=LOC

// A tile guard must let the grid's first tiles through (a program runs on those), and its
// condition must be known on every tile; otherwise it is a located error on the scf.if.

#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @last_tiles(%a: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %late = arith.cmpi sge, %t, %c2 : index
  // expected-error @below {{this scf.if depends on the compute tile id and lets tiles 2, 3 of the grid [4] run its body, which are not the grid's first tiles; a program runs on the first tiles of the grid (row-major)}}
  scf.if %late {
    %ti = ktdp.construct_access_tile %v[%t] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    %y = arith.addf %x, %x : tensor<64xf16>
    ktdp.store %y, %ti : tensor<64xf16>, <64xindex>
  }
  return
}
// LOC: tile-guards-invalid.mlir:[[# @LINE - 8]]:3: error: this scf.if depends on the compute tile id

// -----

#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @second_column(%a: index) attributes {grid = [2, 2]} {
  %t:2 = ktdp.get_compute_tile_id : index, index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set1, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %left = arith.cmpi slt, %t#1, %c1 : index
  // expected-error @below {{lets tiles (0, 0), (1, 0) of the grid [2, 2] run its body, which are not the grid's first tiles}}
  scf.if %left {
    %ti = ktdp.construct_access_tile %v[%t#0] {access_tile_set = #set1, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    %y = arith.addf %x, %x : tensor<64xf16>
    ktdp.store %y, %ti : tensor<64xf16>, <64xindex>
  }
  return
}

// -----

#set2 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id2 = affine_map<(d0) -> (d0)>
func.func @unknown_on_a_tile(%a: index, %n: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set2, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %below = arith.cmpi slt, %t, %n : index
  // expected-error @below {{this scf.if's condition depends on the compute tile id and cannot be evaluated at tile 0, so the host cannot tell which tiles run its body}}
  scf.if %below {
    %ti = ktdp.construct_access_tile %v[%t] {access_tile_set = #set2, access_tile_order = #id2} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    %y = arith.addf %x, %x : tensor<64xf16>
    ktdp.store %y, %ti : tensor<64xf16>, <64xindex>
  }
  return
}
