// RUN: dfsched-opt %s -split-input-file > %t.before
// RUN: dfsched-opt %s -split-input-file --compute-group-extraction > %t.after
// RUN: diff %t.before %t.after
// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// Without a ktdp.store there is no compute group: the module is left exactly as it was
// (no orchestrator, no programs, nothing erased).

// CHECK-NOT: local_schedule
// CHECK-LABEL: func.func @index_math
// CHECK: arith.muli
func.func @index_math(%id: index) -> index {
  %c64 = arith.constant 64 : index
  %unused = arith.constant 7 : index
  %m = arith.muli %id, %c64 : index
  return %m : index
}

// -----

// Loads alone (no store in the block) do not form a group either.
// CHECK-LABEL: func.func @load_only
// CHECK: ktdp.load
// CHECK-NOT: local_schedule
func.func @load_only() -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  return %x : tensor<4xf16>
}
