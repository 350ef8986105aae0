// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --compute-group-extraction | filecheck %s

// A tile loaded outside the loop that reads it (Decision 51): the load is repeated in the loop
// body, before its first user, so the group of the store stays in one block and the program
// loads the tile itself; the outer load goes.

// CHECK-LABEL: func.func @kernel(
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_0(%arg0, %[[I]], %arg1)
// CHECK-NOT:     ktdp.load
// CHECK-LABEL: module @local_schedule_0
// CHECK:         ktdp.load
// CHECK:         ktdp.load
// CHECK:         arith.mulf
// CHECK:         ktdp.store
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#r = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @kernel(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #r, access_tile_order = #id} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %first = ktdp.load %t0 : <1x64xindex> -> tensor<1x64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %ti = ktdp.construct_access_tile %x[%i, %c0] {access_tile_set = #r, access_tile_order = #id} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %row = ktdp.load %ti : <1x64xindex> -> tensor<1x64xf16>
    %p = arith.mulf %row, %first : tensor<1x64xf16>
    %to = ktdp.construct_access_tile %y[%i, %c0] {access_tile_set = #r, access_tile_order = #id} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %p, %to : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A store in the loop may write what the outer load read (the same buffer): the load cannot
// move past it, and the group spanning two blocks is reported as before.
#m2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#r2 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%x_ptr: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #m2, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #r2, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-note @below {{the load is here}}
  %first = ktdp.load %t0 : <1x64xindex> -> tensor<1x64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %ti = ktdp.construct_access_tile %x[%i, %c0] {access_tile_set = #r2, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %row = ktdp.load %ti : <1x64xindex> -> tensor<1x64xf16>
    %p = arith.mulf %row, %first : tensor<1x64xf16>
    // expected-error @below {{the data of this ktdp.store comes from a ktdp.load in another block}}
    ktdp.store %p, %ti : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Compute on loaded tiles whose only reader is in a branch (Triton's `y = x + x` before
// `if pid == 0: store y`) moves into the branch, and the load it reads is repeated there: the
// program is called inside the branch.

// CHECK-LABEL: func.func @stored_in_branch(
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_0(
// CHECK-NOT:     ktdp.load
// CHECK-LABEL: module @local_schedule_0
// CHECK:         ktdp.load
// CHECK:         arith.addf
// CHECK:         ktdp.store
#r3 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @stored_in_branch(%x_ptr: index, %y_ptr: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %pid = ktdp.get_compute_tile_id : index
  %x = ktdp.construct_memory_view %x_ptr, sizes: [1, 64], strides: [64, 1] {coordinate_set = #r3, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %y = ktdp.construct_memory_view %y_ptr, sizes: [1, 64], strides: [64, 1] {coordinate_set = #r3, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #r3, access_tile_order = #id3} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = #r3, access_tile_order = #id3} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %s = arith.addf %v, %v : tensor<1x64xf16>
  %first = arith.cmpi eq, %pid, %c0 : index
  scf.if %first {
    ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A view whose start depends on the tile id is bounded by the grid: tile t reads bytes
// [128 t, 128 t + 128), so on a grid of 4 it never reaches the store at byte 512 and its load
// is repeated in the branch.

// CHECK-LABEL: func.func @tile_bounded(
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_0(
#r4 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id4 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_bounded() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %pid = ktdp.get_compute_tile_id : index
  %base = arith.muli %pid, %c128 : index
  %x = ktdp.construct_memory_view %base, sizes: [1, 64], strides: [64, 1] {coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %y = ktdp.construct_memory_view %c512, sizes: [1, 64], strides: [64, 1] {coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #r4, access_tile_order = #id4} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = #r4, access_tile_order = #id4} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %first = arith.cmpi eq, %pid, %c0 : index
  scf.if %first {
    %s = arith.addf %v, %v : tensor<1x64xf16>
    ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// On a grid of 5, tile 4 reads bytes [512, 640): the store may write them, the load stays and
// the group across blocks is reported.
#r5 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id5 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_overlaps() attributes {grid = [5]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %pid = ktdp.get_compute_tile_id : index
  %base = arith.muli %pid, %c128 : index
  %x = ktdp.construct_memory_view %base, sizes: [1, 64], strides: [64, 1] {coordinate_set = #r5, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %y = ktdp.construct_memory_view %c512, sizes: [1, 64], strides: [64, 1] {coordinate_set = #r5, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #r5, access_tile_order = #id5} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = #r5, access_tile_order = #id5} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-note @below {{the load is here}}
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %first = arith.cmpi eq, %pid, %c0 : index
  scf.if %first {
    %s = arith.addf %v, %v : tensor<1x64xf16>
    // expected-error @below {{the data of this ktdp.store comes from a ktdp.load in another block}}
    ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
