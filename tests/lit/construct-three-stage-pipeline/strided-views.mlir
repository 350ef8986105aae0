// RUN: dfsched-opt %s --split-input-file --construct-three-stage-pipeline --device=sample --verify-diagnostics | filecheck %s

// The transfers address a tile through its view's own strides (README Decision 62): the
// memref type of a view says nothing of its layout, so a column-major view (strides [1, 32])
// or one with padded rows (strides [128, 1]) must not get row-major strides from its shape.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @column_major
// CHECK:         %[[A:.*]] = memref.memory_space_cast %{{.*}} : memref<32x64xf16> to memref<32x64xf16, "DDR">
// CHECK-NEXT:    memref.reinterpret_cast %[[A]] to offset: [%{{.*}}], sizes: [32, 64], strides: [1, 32] : {{.*}} to memref<32x64xf16, strided<[1, 32], offset: ?>, "DDR">
// CHECK:         %[[C:.*]] = memref.memory_space_cast %{{.*}} : memref<32x64xf16> to memref<32x64xf16, "DDR">
// CHECK-NEXT:    memref.reinterpret_cast %[[C]] to offset: [%{{.*}}], sizes: [32, 64], strides: [128, 1] : {{.*}} to memref<32x64xf16, strided<[128, 1], offset: ?>, "DDR">
func.func @column_major() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %a_address = arith.constant 0 : index
  %c_address = arith.constant 4096 : index
  %a = ktdp.construct_memory_view %a_address, sizes: [32, 64], strides: [1, 32] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %c = ktdp.construct_memory_view %c_address, sizes: [32, 64], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #order} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #order} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
  %y = math.exp %x : tensor<32x64xf16>
  ktdp.store %y, %tc : tensor<32x64xf16>, <32x64xindex>
  return
}

// -----

// A stride that is an operand but not a constant cannot address the transfers: a located error.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

func.func @unknown_stride(%stride: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %a_address = arith.constant 0 : index
  // expected-error @+1 {{memory view stride %stride is not a constant; construct-three-stage-pipeline needs the view's strides to build its transfers}}
  %a = ktdp.construct_memory_view %a_address, sizes: [32, 64], strides: [1, %stride] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #order} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
  %y = math.exp %x : tensor<32x64xf16>
  ktdp.store %y, %ta : tensor<32x64xf16>, <32x64xindex>
  return
}
