// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s --check-prefix=SAMPLE
// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=quad_corelet | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=test_patterns | filecheck %s --check-prefix=SMALL

// The tile follows the compute unit's SIMD lanes for the result's element type: the sample
// SFU has 64 f16 lanes, quad_corelet's VPU 32 (and 16 f32), test_patterns' VEC 16 (and 8
// f32). Tile sizes walk the parallel dims right to left until they cover the lanes; a
// covered dim gets gcd(extent, remaining lanes), the others 1. The FIFO slots carry one
// tile. With only --device (no mem_space_mapping), global memory is the device's
// device-level memory (Decision 6): DDR, GMEM, MEM.

// 2x128 f16: [1, 64] / [1, 32] / [1, 16].
// SAMPLE-LABEL: func.func @rows
// SAMPLE:         arith.constant 1 : index
// SAMPLE:         arith.constant 64 : index
// SAMPLE:         %[[UB:.*]] = arith.constant 128 : index
// SAMPLE:         %[[STEP:.*]] = arith.constant 64 : index
// SAMPLE:         scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[STEP]] {
// SAMPLE:           ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// SAMPLE:           ktdf.data_transfer from %{{.*}} size [1, 64] to %{{.*}} size [1, 64]
// SAMPLE:           ktdf.read_from_fifo {{.*}} -> tensor<1x64xf16>
// QUAD-LABEL:   func.func @rows
// QUAD:           %[[UB:.*]] = arith.constant 128 : index
// QUAD:           %[[STEP:.*]] = arith.constant 32 : index
// QUAD:           scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[STEP]] {
// QUAD:             ktdf.private -> (!ktdf.fifo.slot<"GMEM" -> "VPU", 32xf16>, !ktdf.fifo.slot<"VPU" -> "GMEM", 32xf16>,
// QUAD:             ktdf.data_transfer from %{{.*}} size [1, 32] to %{{.*}} size [1, 32]
// QUAD:             ktdf.read_from_fifo {{.*}} -> tensor<1x32xf16>
// QUAD:           } {applicable_units = ["VPU"]}
// SMALL-LABEL:  func.func @rows
// SMALL:          %[[UB:.*]] = arith.constant 128 : index
// SMALL:          %[[STEP:.*]] = arith.constant 16 : index
// SMALL:          scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[STEP]] {
// SMALL:            ktdf.private -> (!ktdf.fifo.slot<"MEM" -> "VEC", 16xf16>, !ktdf.fifo.slot<"VEC" -> "MEM", 16xf16>,
// SMALL:            ktdf.read_from_fifo {{.*}} -> tensor<1x16xf16>
// SMALL:          } {applicable_units = ["VEC"]}

// 2x4x32 f16: [1, 2, 32] / [1, 1, 32] / [1, 1, 16], three loops, strides [128, 32, 1].
// SAMPLE-LABEL: func.func @cube
// SAMPLE-COUNT-3: scf.for
// SAMPLE:           ktdf.data_transfer from %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] size [1, 2, 32] to %{{.*}} size [1, 2, 32] : memref<2x4x32xf16, strided<[128, 32, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// QUAD-LABEL:   func.func @cube
// QUAD:             ktdf.data_transfer from %{{.*}} size [1, 1, 32] to %{{.*}} size [1, 1, 32] : memref<2x4x32xf16, strided<[128, 32, 1], offset: ?>, "GMEM">, !ktdf.fifo.slot<"GMEM" -> "VPU", 32xf16>
// SMALL-LABEL:  func.func @cube
// SMALL:            ktdf.data_transfer from %{{.*}} size [1, 1, 16] to %{{.*}} size [1, 1, 16] : memref<2x4x32xf16, strided<[128, 32, 1], offset: ?>, "MEM">, !ktdf.fifo.slot<"MEM" -> "VEC", 16xf16>

// 96 f16 (one dim): gcd(96, 64) = 32 on the sample device.
// SAMPLE-LABEL: func.func @vector
// SAMPLE:         %[[UB:.*]] = arith.constant 96 : index
// SAMPLE:         %[[STEP:.*]] = arith.constant 32 : index
// SAMPLE-NEXT:    ktdp.construct_memory_view
// SAMPLE:         scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[STEP]] {
// SAMPLE:           !ktdf.fifo.slot<"DDR" -> "SFU", 32xf16>
// SAMPLE-NOT:     scf.for
// SAMPLE:         return
// QUAD-LABEL:   func.func @vector
// QUAD:             !ktdf.fifo.slot<"GMEM" -> "VPU", 32xf16>
// SMALL-LABEL:  func.func @vector
// SMALL:            !ktdf.fifo.slot<"MEM" -> "VEC", 16xf16>

module {
  module @local_schedule_0 {
    func.func @rows() {
      %c0 = arith.constant 0 : index
      %a_addr = arith.constant 0 : index
      %b_addr = arith.constant 512 : index
      %a = ktdp.construct_memory_view %a_addr, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
      %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
      %y = math.exp %x : tensor<2x128xf16>
      ktdp.store %y, %tb : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
      return
    }
  }
  module @local_schedule_1 {
    func.func @cube() {
      %c0 = arith.constant 0 : index
      %a_addr = arith.constant 0 : index
      %b_addr = arith.constant 1024 : index
      %a = ktdp.construct_memory_view %a_addr, sizes: [2, 4, 32], strides: [128, 32, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4x32xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [2, 4, 32], strides: [128, 32, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4x32xf16>
      %ta = ktdp.construct_access_tile %a[%c0, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x4x32xf16> -> !ktdp.access_tile<2x4x32xindex>
      %tb = ktdp.construct_access_tile %b[%c0, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x4x32xf16> -> !ktdp.access_tile<2x4x32xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<2x4x32xindex> -> tensor<2x4x32xf16>
      %y = math.sqrt %x : tensor<2x4x32xf16>
      ktdp.store %y, %tb : tensor<2x4x32xf16>, !ktdp.access_tile<2x4x32xindex>
      return
    }
  }
  module @local_schedule_2 {
    func.func @vector() {
      %c0 = arith.constant 0 : index
      %b_addr = arith.constant 1024 : index
      %a = ktdp.construct_memory_view %c0, sizes: [96], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [96], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96xf16>
      %ta = ktdp.construct_access_tile %a[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<96xf16> -> !ktdp.access_tile<96xindex>
      %tb = ktdp.construct_access_tile %b[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<96xf16> -> !ktdp.access_tile<96xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<96xindex> -> tensor<96xf16>
      %y = arith.mulf %x, %x : tensor<96xf16>
      ktdp.store %y, %tb : tensor<96xf16>, !ktdp.access_tile<96xindex>
      return
    }
  }
}
