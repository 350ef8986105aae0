// RUN: dfsched-opt %s -split-input-file --tile-invariant-loop-bounds | filecheck %s

// Rows spread over a grid of 4 by a loop starting at the tile id: every tile runs 16 / 4 = 4
// iterations, so the loop counts them and the row is rebuilt from the tile id in the body.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @rows_by_tile
func.func @rows_by_tile(%a: index, %b: index) attributes {grid = [4, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %in = ktdp.construct_memory_view %a, sizes: [16, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %out = ktdp.construct_memory_view %b, sizes: [16, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  // CHECK:      ktdp.construct_memory_view %arg1
  // CHECK:      %[[ZERO:.*]] = arith.constant 0 : index
  // CHECK:      %[[TRIPS:.*]] = arith.constant 4 : index
  // CHECK:      %[[ONE:.*]] = arith.constant 1 : index
  // CHECK-NEXT: scf.for %[[K:.*]] = %[[ZERO]] to %[[TRIPS]] step %[[ONE]] {
  // CHECK-NEXT:   %[[SCALED:.*]] = arith.muli %[[K]], %c4 : index
  // CHECK-NEXT:   %[[ROW:.*]] = arith.addi %0, %[[SCALED]] : index
  // CHECK-NEXT:   ktdp.construct_access_tile %{{.*}}[%[[ROW]], %c0]
  scf.for %r = %t to %c16 step %c4 {
    %ti = ktdp.construct_access_tile %in[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ti : <1x64xindex> -> tensor<1x64xf16>
    %to = ktdp.construct_access_tile %out[%r, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %x, %to : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Bounds that do not read the tile id are left alone, as is a loop without memory accesses.

#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @untouched
func.func @untouched(%a: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
  scf.for %i = %c0 to %c2 step %c1 {
    %ti = ktdp.construct_access_tile %v[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    ktdp.store %x, %ti : tensor<64xf16>, <64xindex>
  }
  // CHECK: scf.for %{{.*}} = %0 to %c2 step %c1 {
  // CHECK-NEXT: arith.addi
  scf.for %i = %t to %c2 step %c1 {
    %s = arith.addi %i, %c1 : index
  }
  return
}

// -----

// Bounds through a clamp (`select` of a comparison, as the corpus' softmax_wide writes its end).

// CHECK-LABEL: func.func @clamped
// CHECK:      ktdp.construct_memory_view
// CHECK:      arith.constant 0 : index
// CHECK:      %[[TRIPS:.*]] = arith.constant 2 : index
// CHECK:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] step %[[ONE]]
#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @clamped(%a: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %start = arith.muli %t, %c2 : index
  %end_raw = arith.addi %start, %c2 : index
  %lt = arith.cmpi slt, %end_raw, %c4 : index
  %end = arith.select %lt, %end_raw, %c4 : index
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  scf.for %i = %start to %end step %c1 {
    %ti = ktdp.construct_access_tile %v[%i] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %ti : <64xindex> -> tensor<64xf16>
    ktdp.store %x, %ti : tensor<64xf16>, <64xindex>
  }
  return
}

// -----

// 10 elements over a grid of 4 by a loop starting at the tile id: tiles 0 and 1 run 3
// iterations, tiles 2 and 3 two. The loop counts the 2 every tile runs; the third follows as a
// copy of the body under a guard on its row, which only the first two tiles pass.

#set = affine_set<(d0) : (d0 >= 0, -d0 + 9 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @uneven
func.func @uneven(%a: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %v = ktdp.construct_memory_view %a, sizes: [10], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<10xf16>
  // CHECK:      %[[TRIPS:.*]] = arith.constant 2 : index
  // CHECK:      scf.for %[[K:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} {
  // CHECK:        ktdp.store
  // CHECK:      }
  // CHECK:      %[[THIRD:.*]] = arith.constant 2 : index
  // CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[THIRD]], %c4 : index
  // CHECK-NEXT: %[[ROW:.*]] = arith.addi %0, %[[SCALED]] : index
  // CHECK-NEXT: %[[HOLDS:.*]] = arith.cmpi slt, %[[ROW]], %c10 : index
  // CHECK-NEXT: scf.if %[[HOLDS]] {
  // CHECK-NEXT:   %[[SCALED2:.*]] = arith.muli %[[THIRD]], %c4 : index
  // CHECK-NEXT:   %[[ROW2:.*]] = arith.addi %0, %[[SCALED2]] : index
  // CHECK-NEXT:   %[[TILE:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW2]]]
  // CHECK-NEXT:   %[[X:.*]] = ktdp.load %[[TILE]]
  // CHECK-NEXT:   ktdp.store %[[X]], %[[TILE]]
  // CHECK:      }
  // CHECK:      return
  scf.for %i = %t to %c10 step %c4 {
    %ti = ktdp.construct_access_tile %v[%i] {access_tile_set = #one, access_tile_order = #id} : memref<10xf16> -> !ktdp.access_tile<1xindex>
    %x = ktdp.load %ti : <1xindex> -> tensor<1xf16>
    ktdp.store %x, %ti : tensor<1xf16>, <1xindex>
  }
  return
}

// -----

// More tiles than rows (issue 19): 4 rows over a grid of 6, one row per tile from tile 0 to 3,
// none on tiles 4 and 5. No iteration runs on every tile, so the loop itself goes and only the
// guarded copy of its first iteration remains (a loop of zero trips left its programs called
// nowhere, which failed in `wrap-program-dfir`).

#set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @more_tiles_than_rows
func.func @more_tiles_than_rows(%a: index) attributes {grid = [6]} {
  %t = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %v = ktdp.construct_memory_view %a, sizes: [4], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  // CHECK-NOT:  scf.for
  // CHECK:      %[[SCALED:.*]] = arith.muli %{{.*}}, %c6 : index
  // CHECK-NEXT: %[[ROW:.*]] = arith.addi %0, %[[SCALED]] : index
  // CHECK-NEXT: %[[HOLDS:.*]] = arith.cmpi slt, %[[ROW]], %c4 : index
  // CHECK-NEXT: scf.if %[[HOLDS]] {
  // CHECK:        ktdp.store
  // CHECK-NOT:  scf.for
  // CHECK:      return
  scf.for %i = %t to %c4 step %c6 {
    %ti = ktdp.construct_access_tile %v[%i] {access_tile_set = #one, access_tile_order = #id} : memref<4xf16> -> !ktdp.access_tile<1xindex>
    %x = ktdp.load %ti : <1xindex> -> tensor<1xf16>
    ktdp.store %x, %ti : tensor<1xf16>, <1xindex>
  }
  return
}

// -----

// A loop that runs on no tile (constant bounds, zero trips) is erased with the loops inside it;
// one without memory accesses is left to the canonicalizer.

#set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @no_iteration
// CHECK-NEXT:   arith.constant 0 : index
// CHECK-NEXT:   arith.constant 1 : index
// CHECK-NEXT:   ktdp.construct_memory_view
// CHECK-NEXT:   scf.for %{{.*}} = %c0 to %c0 step %c1 {
// CHECK-NEXT:     arith.addi
// CHECK-NEXT:   }
// CHECK-NEXT:   return
func.func @no_iteration(%a: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = ktdp.construct_memory_view %a, sizes: [4], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  scf.for %i = %c1 to %c0 step %c1 {
    scf.for %j = %c0 to %c1 step %c1 {
      scf.for %k = %c0 to %c1 step %c1 {
        %ti = ktdp.construct_access_tile %v[%k] {access_tile_set = #one, access_tile_order = #id} : memref<4xf16> -> !ktdp.access_tile<1xindex>
        %x = ktdp.load %ti : <1xindex> -> tensor<1xf16>
        ktdp.store %x, %ti : tensor<1xf16>, <1xindex>
      }
    }
  }
  scf.for %i = %c0 to %c0 step %c1 {
    %s = arith.addi %i, %c1 : index
  }
  return
}
