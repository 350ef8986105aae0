// RUN: dfsched-opt %s --split-input-file --construct-three-stage-pipeline --device=matrix_unit | filecheck %s
// RUN: not dfsched-opt %S/Inputs/matrix-unit-errors.mlir --split-input-file --construct-three-stage-pipeline 2>&1 | filecheck %S/Inputs/matrix-unit-errors.mlir --check-prefix=ERR

// A contraction the compute unit's matrix unit takes (matrix_unit: 4x8x4, f16 -> f32) is tiled
// to the unit's M x N output tile, not to the vector width, and marked with the tile it runs
// with (here the full 4x8x4: 8 rows, 16 columns and K = 16 are multiples of it).
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[M:.*]] {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[N:.*]] {
// CHECK:             ktdf.private -> (!ktdf.fifo.slot<"MEM" -> "MXU", 64xf16>, !ktdf.fifo.slot<"MEM" -> "MXU", 128xf16>, !ktdf.fifo.slot<"MXU" -> "MEM", 32xf16>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x16xf16>, tensor<16x8xf16>) outs(%{{.*}} : tensor<4x8xf16>) attrs = {dfsched.matrix_tile = array<i64: 4, 8, 4>}
func.func @matmul() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %b = ktdp.construct_memory_view %c256, sizes: [16, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %c = ktdp.construct_memory_view %c512, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %y = ktdp.load %tb : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %e = tensor.empty() : tensor<8x16xf16>
  %p = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x16xf16>) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
  ktdp.store %p, %tc : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  return
}

// -----

// Extents that are not multiples of the unit's tile take its largest divisor within the
// tile: 6 rows -> M = 3, 12 columns -> N = 6, K = 6 -> 3.
// CHECK-LABEL: func.func @odd_sizes
// CHECK:         attrs = {dfsched.matrix_tile = array<i64: 3, 6, 3>}
func.func @odd_sizes() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [6, 6], strides: [6, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 5 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x6xf16>
  %b = ktdp.construct_memory_view %c256, sizes: [6, 12], strides: [12, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 11 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x12xf16>
  %c = ktdp.construct_memory_view %c512, sizes: [6, 12], strides: [12, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 11 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x12xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 5 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<6x6xf16> -> !ktdp.access_tile<6x6xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 11 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<6x12xf16> -> !ktdp.access_tile<6x12xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 11 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<6x12xf16> -> !ktdp.access_tile<6x12xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<6x6xindex> -> tensor<6x6xf16>
  %y = ktdp.load %tb : !ktdp.access_tile<6x12xindex> -> tensor<6x12xf16>
  %e = tensor.empty() : tensor<6x12xf16>
  %p = linalg.matmul ins(%x, %y : tensor<6x6xf16>, tensor<6x12xf16>) outs(%e : tensor<6x12xf16>) -> tensor<6x12xf16>
  ktdp.store %p, %tc : tensor<6x12xf16>, !ktdp.access_tile<6x12xindex>
  return
}
