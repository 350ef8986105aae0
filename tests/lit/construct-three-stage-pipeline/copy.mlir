// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s

// A direct copy (a loaded tile stored as loaded) runs through the compute unit: the pass puts
// an identity linalg.generic between the load and the store (README Decision 56), which then
// becomes the compute stage of an ordinary load/compute/store pipeline.

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @copy
// CHECK:         ktdf.pipeline
// CHECK:           ktdf.stage
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}} to %[[IN_SLOT:.*]] size
// CHECK:           ktdf.stage
// CHECK-NEXT:        %[[X:.*]] = ktdf.read_from_fifo %[[IN_SLOT]]
// CHECK:             %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:        %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>)
// CHECK:             ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK:               linalg.yield %[[IN]] : f16
// CHECK:             ktdf.write_to_fifo %[[Y]], %[[OUT_SLOT:[^ ]*]] :
// CHECK:           } {applicable_units = ["SFU"]}
// CHECK-NEXT:      ktdf.stage
// CHECK-NEXT:        ktdf.data_transfer from %[[OUT_SLOT]] size
func.func @copy() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c256, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}


// The store tile enumerates its view transposed (access_tile_order (d0, d1) -> (d1, d0)):
// its reinterpret_cast takes the view's strides permuted, [1, 64].
// CHECK-LABEL: func.func @copy_transposed
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [64, 4], strides: [4, 1]
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [64, 4], strides: [1, 64]
// CHECK:         ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer
// CHECK:         ktdf.stage
// CHECK-NEXT:      %[[IN:.*]] = ktdf.read_from_fifo
// CHECK:           linalg.generic
// CHECK:           ^bb0(%[[A:.*]]: f16, %{{.*}}: f16):
// CHECK:             linalg.yield %[[A]] : f16
#tall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#columns = affine_map<(d0, d1) -> (d1, d0)>
func.func @copy_transposed() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [64, 4], strides: [4, 1] {coordinate_set = #tall, memory_space = #ktdp.memory_space<global>} : memref<64x4xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #tall, access_tile_order = #order} : memref<64x4xf16> -> !ktdp.access_tile<64x4xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #columns} : memref<4x64xf16> -> !ktdp.access_tile<64x4xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
  ktdp.store %x, %tb : tensor<64x4xf16>, !ktdp.access_tile<64x4xindex>
  return
}
