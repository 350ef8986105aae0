// Contractions a matrix unit cannot run (devices in matrix-units.mlir), each a located error on
// the contraction, the device named in a note (RUN line in ../matrix-unit.mlir).

// The unit accumulates f16 products in f16; the contraction wants an f32 result.
// ERR: matrix-unit-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the matrix unit of exec_unit 'CU' accumulates f16 products in f16, narrower than the contraction's f32 result (ktdf_arch.feature.matrix types)
// ERR-NEXT: %p = linalg.matmul
// ERR: matrix-units.mlir:{{[0-9]+}}:{{[0-9]+}}: note: in device 'narrow_accumulator'
module {
ktdf_arch.device @narrow_accumulator import("matrix-units.mlir")
func.func @matmul() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %b = ktdp.construct_memory_view %c256, sizes: [16, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %c = ktdp.construct_memory_view %c512, sizes: [8, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x16xf32>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf32> -> !ktdp.access_tile<8x16xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %y = ktdp.load %tb : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %e = tensor.empty() : tensor<8x16xf32>
  %p = linalg.matmul ins(%x, %y : tensor<8x16xf16>, tensor<16x16xf16>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  ktdp.store %p, %tc : tensor<8x16xf32>, !ktdp.access_tile<8x16xindex>
  return
}
}

// -----

// The unit's 4x4x4 tile does not fit its 8 lanes.
// ERR: matrix-unit-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the matrix unit of exec_unit 'CU' has a 4x4x4 tile whose A (M x K) operand holds 16 elements, more than its 8 f16 lanes (one vector per FIFO transfer)
// ERR-NEXT: %p = linalg.matmul
// ERR: matrix-units.mlir:{{[0-9]+}}:{{[0-9]+}}: note: in device 'wide_tile'
module {
ktdf_arch.device @wide_tile import("matrix-units.mlir")
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
}
