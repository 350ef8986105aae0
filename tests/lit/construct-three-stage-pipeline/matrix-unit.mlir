// RUN: dfsched-opt %s --split-input-file --construct-three-stage-pipeline --device=matrix_unit | filecheck %s
// RUN: not dfsched-opt %S/Inputs/matrix-unit-errors.mlir --split-input-file --construct-three-stage-pipeline 2>&1 | filecheck %S/Inputs/matrix-unit-errors.mlir --check-prefix=ERR

// A contraction the compute unit's matrix unit takes (matrix_unit: 4x8x4, f16 -> f32) is tiled
// to an M x N output block of whole unit tiles, not to the vector width, and marked with the
// block it runs with: the most unit tiles per streamed operand whose accumulator (f32, plus
// its f16 copy, double-buffered: 12 bytes an element) fits the unit's 2048-byte ACC. Here the
// whole 8x16 output (1536 bytes), K stepped by the unit's 4.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[M:.*]] {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[N:.*]] {
// CHECK:             ktdf.private -> (!ktdf.fifo.slot<"MEM" -> "MXU", 128xf16>, !ktdf.fifo.slot<"MEM" -> "MXU", 256xf16>, !ktdf.fifo.slot<"MXU" -> "MEM", 128xf16>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x16xf16>) outs(%{{.*}} : tensor<8x16xf16>) attrs = {dfsched.matrix_tile = array<i64: 8, 16, 4>}
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
// tile as their unit (6 rows -> 3, 12 columns -> 6, K = 6 -> 3); the block is whole multiples
// of that: the whole 6x12 output (864 bytes of ACC).
// CHECK-LABEL: func.func @odd_sizes
// CHECK:         attrs = {dfsched.matrix_tile = array<i64: 6, 12, 3>}
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

// -----

// The accumulator bounds the block: a 64x64 output would take 8x16 blocks (128 elements,
// 1536 bytes of ACC; 8x32 or 16x16 would need 3072), the most unit tiles per streamed
// operand among those that fit, the wider N on a tie.
// CHECK-LABEL: func.func @accumulator_bound
// CHECK:         attrs = {dfsched.matrix_tile = array<i64: 8, 16, 4>}
func.func @accumulator_bound() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 8192 : index
  %c512 = arith.constant 16384 : index
  %a = ktdp.construct_memory_view %c0, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %b = ktdp.construct_memory_view %c256, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %c = ktdp.construct_memory_view %c512, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %y = ktdp.load %tb : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf16>
  %p = linalg.matmul ins(%x, %y : tensor<64x64xf16>, tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  ktdp.store %p, %tc : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}

// -----

// A program's contractions share the accumulator memory: three 64x64 products of one loaded
// operand (one program) would each take 8x16 blocks (768 bytes of ACC, 2304 together, more than
// its 2048), so each plans again within a third of it: 4x8 blocks (one unit tile each).
// CHECK-LABEL: func.func @shared_accumulators
// CHECK-COUNT-3: attrs = {dfsched.matrix_tile = array<i64: 4, 8, 4>}
// CHECK-NOT:     dfsched.matrix_tile
func.func @shared_accumulators() {
  %c0 = arith.constant 0 : index
  %ax = arith.constant 0 : index
  %vx = ktdp.construct_memory_view %ax, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %vx[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %ay = arith.constant 8192 : index
  %vy = ktdp.construct_memory_view %ay, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %ty = ktdp.construct_access_tile %vy[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %az = arith.constant 16384 : index
  %vz = ktdp.construct_memory_view %az, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tz = ktdp.construct_access_tile %vz[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %aw = arith.constant 24576 : index
  %vw = ktdp.construct_memory_view %aw, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tw = ktdp.construct_access_tile %vw[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %ap = arith.constant 32768 : index
  %vp = ktdp.construct_memory_view %ap, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tp = ktdp.construct_access_tile %vp[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %aq = arith.constant 40960 : index
  %vq = ktdp.construct_memory_view %aq, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tq = ktdp.construct_access_tile %vq[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %ar = arith.constant 49152 : index
  %vr = ktdp.construct_memory_view %ar, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tr = ktdp.construct_access_tile %vr[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %tx : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %y = ktdp.load %ty : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %z = ktdp.load %tz : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %w = ktdp.load %tw : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %ep = tensor.empty() : tensor<64x64xf16>
  %p = linalg.matmul ins(%x, %y : tensor<64x64xf16>, tensor<64x64xf16>) outs(%ep : tensor<64x64xf16>) -> tensor<64x64xf16>
  ktdp.store %p, %tp : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  %eq = tensor.empty() : tensor<64x64xf16>
  %q = linalg.matmul ins(%x, %z : tensor<64x64xf16>, tensor<64x64xf16>) outs(%eq : tensor<64x64xf16>) -> tensor<64x64xf16>
  ktdp.store %q, %tq : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  %er = tensor.empty() : tensor<64x64xf16>
  %r = linalg.matmul ins(%x, %w : tensor<64x64xf16>, tensor<64x64xf16>) outs(%er : tensor<64x64xf16>) -> tensor<64x64xf16>
  ktdp.store %r, %tr : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}
