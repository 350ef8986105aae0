// RUN: dfsched-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect --compute-group-extraction

// Blocks whose loads and stores do not split into contiguous groups (where upstream only
// asserts) are reported on the offending op, before anything is changed.

func.func @load_outside_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-note @below {{the load is here}}
  %x = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  scf.for %i = %c0 to %n step %c1 {
    %e = tensor.empty() : tensor<4xf16>
    %y = linalg.add ins(%x, %x : tensor<4xf16>, tensor<4xf16>) outs(%e : tensor<4xf16>) -> tensor<4xf16>
    // expected-error @below {{the data of this ktdp.store comes from a ktdp.load in another block; a compute group cannot span control flow}}
    ktdp.store %y, %t : tensor<4xf16>, !ktdp.access_tile<4xindex>
  }
  return
}

// -----

func.func @stray_load() {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %u = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @below {{this ktdp.load feeds no ktdp.store in its block}}
  %unused = ktdp.load %u : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  %x = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  ktdp.store %x, %t : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

// The same access tile read by two groups ties them into one class, which then shows up
// twice in the block.
func.func @tile_shared_by_two_groups() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %w = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-note @below {{the group started here}}
  %x = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  ktdp.store %x, %w : tensor<4xf16>, !ktdp.access_tile<4xindex>
  scf.for %i = %c0 to %c1 step %c1 {
  }
  // expected-error @below {{this ktdp.load belongs to a compute group that already ended earlier in the block}}
  %x2 = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  ktdp.store %x2, %w : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @interleaved_loads() {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %a = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %b = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %c = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %d = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-note @below {{the other group starts here}}
  %x = ktdp.load %a : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  // expected-error @below {{the loads of two compute groups are interleaved}}
  %y = ktdp.load %b : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  ktdp.store %x, %c : tensor<4xf16>, !ktdp.access_tile<4xindex>
  ktdp.store %y, %d : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @store_without_load() {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %zero = arith.constant 0.000000e+00 : f16
  %z = tensor.splat %zero : tensor<4xf16>
  // expected-error @below {{this ktdp.store writes data computed from no ktdp.load; V1 compute groups start with a load}}
  ktdp.store %z, %t : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @store_of_another_group() {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %a = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %b = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %c = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %zero = arith.constant 0.000000e+00 : f16
  %z = tensor.splat %zero : tensor<4xf16>
  // expected-note @below {{the current group starts here}}
  %x = ktdp.load %a : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  // expected-error @below {{this ktdp.store belongs to a different compute group than the loads before it}}
  ktdp.store %z, %c : tensor<4xf16>, !ktdp.access_tile<4xindex>
  ktdp.store %x, %b : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @loop_inside_group(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %a = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %b = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %c = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %d = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-note @below {{first load}}
  %x = ktdp.load %a : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  // expected-error @below {{control flow inside a compute group}}
  scf.for %i = %c0 to %n step %c1 {
    %y = ktdp.load %c : !ktdp.access_tile<4xindex> -> tensor<4xf16>
    ktdp.store %y, %d : tensor<4xf16>, !ktdp.access_tile<4xindex>
  }
  // expected-note @below {{last store}}
  ktdp.store %x, %b : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @result_escapes() -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %a = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %b = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @below {{this value is computed inside a compute group but also used after it}}
  %x = ktdp.load %a : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  ktdp.store %x, %b : tensor<4xf16>, !ktdp.access_tile<4xindex>
  // expected-note @below {{used here}}
  return %x : tensor<4xf16>
}

// -----

// A group must sit in a function: its program copies the function's grid.
%x = "test.kernel_body"() ({
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %a = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  // expected-error @below {{compute group is not inside a func.func}}
  %y = ktdp.load %a : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  ktdp.store %y, %a : tensor<4xf16>, !ktdp.access_tile<4xindex>
  "test.end"() : () -> ()
}) : () -> i32
