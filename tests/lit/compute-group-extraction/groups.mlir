// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// How a block's loads and stores form groups: a store and every load its data comes from
// are one group; stores sharing a load (or an access tile) join the same group; a group
// spans its block from its first load to its last store.

// A chain of compute ops between two loads and one store: one program, ops in order.
// CHECK-LABEL: func.func @chain()
// CHECK-NEXT:    call @local_schedule_0() : () -> ()
// CHECK:         return
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         %[[A:[a-zA-Z0-9_]+]] = ktdp.load
// CHECK-NEXT:    %[[B:[a-zA-Z0-9_]+]] = ktdp.load
// CHECK:         %[[E:[a-zA-Z0-9_]+]] = tensor.empty()
// CHECK-NEXT:    %[[S:[a-zA-Z0-9_]+]] = linalg.add ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E]] :
// CHECK-NEXT:    %[[P:[a-zA-Z0-9_]+]] = linalg.mul ins(%[[S]], %[[A]] : {{.*}}) outs(%[[E]] :
// CHECK-NEXT:    %[[D:[a-zA-Z0-9_]+]] = linalg.sub ins(%[[P]], %[[B]] : {{.*}}) outs(%[[E]] :
// CHECK:         ktdp.store %[[D]],
// CHECK:         return
// CHECK-NOT:   module @local_schedule_1
func.func @chain() {
  %c0 = arith.constant 0 : index
  %a_addr = arith.constant 0 : index
  %b_addr = arith.constant 512 : index
  %c_addr = arith.constant 1024 : index
  %a_view = ktdp.construct_memory_view %a_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b_view = ktdp.construct_memory_view %b_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c_view = ktdp.construct_memory_view %c_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %a_tile = ktdp.construct_access_tile %a_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %b_tile = ktdp.construct_access_tile %b_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %c_tile = ktdp.construct_access_tile %c_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %a_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %b = ktdp.load %b_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %s = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %p = linalg.mul ins(%s, %a : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %d = linalg.sub ins(%p, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %d, %c_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// Two stores that share a load form one group (one program, both stores inside it).
// CHECK-LABEL: func.func @shared_load()
// CHECK-NEXT:    call @local_schedule_0() : () -> ()
// CHECK:         return
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         ktdp.load
// CHECK:         ktdp.store
// CHECK:         ktdp.store
// CHECK:         return
// CHECK-NOT:   module @local_schedule_1
func.func @shared_load() {
  %c0 = arith.constant 0 : index
  %a_addr = arith.constant 0 : index
  %b_addr = arith.constant 512 : index
  %c_addr = arith.constant 1024 : index
  %a_view = ktdp.construct_memory_view %a_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b_view = ktdp.construct_memory_view %b_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c_view = ktdp.construct_memory_view %c_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %a_tile = ktdp.construct_access_tile %a_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %b_tile = ktdp.construct_access_tile %b_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %c_tile = ktdp.construct_access_tile %c_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %a_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %s = linalg.add ins(%a, %a : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %s, %b_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  %p = linalg.mul ins(%a, %a : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %p, %c_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// Two independent groups in one block: two programs, called in block order.
// CHECK-LABEL: func.func @two_groups()
// CHECK-NEXT:    call @local_schedule_0() : () -> ()
// CHECK-NEXT:    call @local_schedule_1() : () -> ()
// CHECK:         return
// CHECK-LABEL: module @local_schedule_0 {
// CHECK-NOT:     linalg.mul
// CHECK:         linalg.add
// CHECK-LABEL: module @local_schedule_1 {
// CHECK-NOT:     linalg.add
// CHECK:         linalg.mul
func.func @two_groups() {
  %c0 = arith.constant 0 : index
  %a_addr = arith.constant 0 : index
  %b_addr = arith.constant 512 : index
  %c_addr = arith.constant 1024 : index
  %d_addr = arith.constant 1536 : index
  %a_view = ktdp.construct_memory_view %a_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b_view = ktdp.construct_memory_view %b_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c_view = ktdp.construct_memory_view %c_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %d_view = ktdp.construct_memory_view %d_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %a_tile = ktdp.construct_access_tile %a_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %b_tile = ktdp.construct_access_tile %b_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %c_tile = ktdp.construct_access_tile %c_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %d_tile = ktdp.construct_access_tile %d_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %e = tensor.empty() : tensor<4x64xf16>
  %a = ktdp.load %a_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %s = linalg.add ins(%a, %a : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %s, %b_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  %c = ktdp.load %c_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %p = linalg.mul ins(%c, %c : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %p, %d_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// A group that reads back what the previous one stored, through the same access tile:
// the shared tile joins them into one program (as upstream does).
// CHECK-LABEL: func.func @through_memory()
// CHECK-NEXT:    call @local_schedule_0() : () -> ()
// CHECK:         return
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         ktdp.load
// CHECK:         linalg.add
// CHECK:         ktdp.store
// CHECK:         ktdp.load
// CHECK:         linalg.mul
// CHECK:         ktdp.store
// CHECK-NOT:   module @local_schedule_1
func.func @through_memory() {
  %c0 = arith.constant 0 : index
  %a_addr = arith.constant 0 : index
  %b_addr = arith.constant 512 : index
  %c_addr = arith.constant 1024 : index
  %a_view = ktdp.construct_memory_view %a_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b_view = ktdp.construct_memory_view %b_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c_view = ktdp.construct_memory_view %c_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %a_tile = ktdp.construct_access_tile %a_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %b_tile = ktdp.construct_access_tile %b_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %c_tile = ktdp.construct_access_tile %c_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %e = tensor.empty() : tensor<4x64xf16>
  %a = ktdp.load %a_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %s = linalg.add ins(%a, %a : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %s, %b_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  %b = ktdp.load %b_tile : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %p = linalg.mul ins(%b, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %p, %c_tile : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
