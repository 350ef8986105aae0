// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// Decision 52. Rows `pid*4` to `pid*4 + 4`: every tile of the grid runs 4 iterations, so the
// orchestrator's loop counts from zero and the row (`lb + %i`, the tile id with it) moves into
// the program.

// CHECK-LABEL: func.func @uniform_rows()
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[END:.*]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[ZERO]] to %[[END]] step %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_0(%[[I]])
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:         %[[LB:.*]] = arith.muli %[[TID]], %{{.*}} : index
// CHECK:         arith.addi %[[LB]], %arg0 : index
func.func @uniform_rows() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %lb = arith.muli %tid, %c4 : index
  %ub = arith.addi %lb, %c4 : index
  %v = ktdp.construct_memory_view %c0, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  scf.for %row = %lb to %ub step %c1 {
    %t = ktdp.construct_access_tile %v[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<1x16xindex>
    %x = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %y = arith.addf %x, %x : tensor<1x16xf16>
    ktdp.store %y, %t : tensor<1x16xf16>, <1x16xindex>
  }
  return
}

// -----

// Rows `pid` to 7 step 2 on 2 tiles: tile 0 runs 4 rows, tile 1 runs 3; the loop stays.

// CHECK-LABEL: func.func @uneven_rows()
// CHECK:         %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:         scf.for %{{.*}} = %[[TID]] to %{{.*}} step %{{.*}} {
func.func @uneven_rows() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %tid = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %c0, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  scf.for %row = %tid to %c7 step %c2 {
    %t = ktdp.construct_access_tile %v[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<1x16xindex>
    %x = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %y = arith.addf %x, %x : tensor<1x16xf16>
    ktdp.store %y, %t : tensor<1x16xf16>, <1x16xindex>
  }
  return
}
