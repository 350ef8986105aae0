// RUN: dfsched-opt %s -split-input-file --construct-three-stage-pipeline --device=sample | filecheck %s

// An indirect load is split once more: the address program (load the indices, idx32toaddr
// with the table's base and row stride in bytes, store into an i32 buffer in L1, the memory
// the sample's DMA units read address lists from), then the program's own pipeline around a
// `ktdf.indirect_view` of the table.

// CHECK-LABEL: func.func @gather
// CHECK:         %[[LIST:.*]] = memref.alloc() : memref<8xi32, "L1">
// CHECK:         ktdf.pipeline {
// CHECK:           ktdf.data_transfer from %{{.*}}[%{{.*}}] size [8] to %{{.*}} size [8] : memref<8xi32, strided<[1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 8xi32>
// CHECK:           spyreop.idx32toaddr %{{.*}} base %{{.*}} stride %{{.*}}
// CHECK:           ktdf.data_transfer from %{{.*}} size [8] to %[[LIST]][%{{.*}}] size [8] : !ktdf.fifo.slot<"SFU" -> "L1", 8xi32>, memref<8xi32, "L1">
// CHECK:         %[[TABLE:.*]] = memref.memory_space_cast %{{.*}} : memref<128x64xf16> to memref<128x64xf16, "DDR">
// CHECK:         %[[ROWS:.*]] = ktdf.indirect_view %[[TABLE]][%[[LIST]]] offset %{{.*}} {list_map = #{{.*}}} : memref<128x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf16, strided<[0, 1], offset: ?>, "DDR">
// CHECK:         ktdf.data_transfer from %[[ROWS]][%{{.*}}, %{{.*}}] size [1, 64] to %{{.*}} size [1, 64]

#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %ta = arith.constant 0 : index
  %ia = arith.constant 16384 : index
  %oa = arith.constant 16512 : index
  %table = ktdp.construct_memory_view %ta, sizes: [128, 64], strides: [64, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %ids = ktdp.construct_memory_view %ia, sizes: [8], strides: [1] {coordinate_set = #ids_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %out = ktdp.construct_memory_view %oa, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %table[ind(%ids[%r]), (%c)] {variables_space_set = #rows, variables_space_order = #id2} : memref<128x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %x = ktdp.load %t : <8x64xindex> -> tensor<8x64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %y = linalg.add ins(%x, %x : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %to = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  ktdp.store %y, %to : tensor<8x64xf16>, <8x64xindex>
  return
}

// -----

// A scatter: the store stage writes the indirect view; the base (1056) and the row stride
// (128 bytes) are the idx32toaddr constants.

// CHECK-LABEL: func.func @scatter
// CHECK-DAG:     arith.constant 1056 : i32
// CHECK-DAG:     arith.constant 128 : i32
// CHECK:         %[[ROWS:.*]] = ktdf.indirect_view
// CHECK:         ktdf.data_transfer from %{{.*}} size [1, 64] to %[[ROWS]][%{{.*}}, %{{.*}}] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<8x64xf16, strided<[0, 1], offset: ?>, "DDR">

#cache_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slots_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scatter() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %ka = arith.constant 0 : index
  %sa = arith.constant 1024 : index
  %ca = arith.constant 1056 : index
  %keys = ktdp.construct_memory_view %ka, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %slots = ktdp.construct_memory_view %sa, sizes: [8], strides: [1] {coordinate_set = #slots_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %cache = ktdp.construct_memory_view %ca, sizes: [16, 64], strides: [64, 1] {coordinate_set = #cache_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tk = ktdp.construct_access_tile %keys[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %k = ktdp.load %tk : <8x64xindex> -> tensor<8x64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %y = linalg.add ins(%k, %k : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %cache[ind(%slots[%r]), (%c)] {variables_space_set = #rows, variables_space_order = #id2} : memref<16x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  ktdp.store %y, %t : tensor<8x64xf16>, <8x64xindex>
  return
}
