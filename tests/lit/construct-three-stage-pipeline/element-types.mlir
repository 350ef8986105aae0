// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=quad_corelet | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=test_patterns | filecheck %s --check-prefix=SMALL
// RUN: not dfsched-opt %s --construct-three-stage-pipeline --device=sample 2>&1 | filecheck %s --check-prefix=SAMPLE

// The lanes are read for the element type of the compute op's result: f32 uses the f32
// lanes (16 on quad_corelet's VPU, 8 on test_patterns' VEC). The sample SFU declares only
// f16 lanes: an f32 kernel is an error naming the type and the unit (Decision 7), on the
// compute op, with the device in a note.

// QUAD-LABEL:   func.func @wide
// QUAD:             !ktdf.fifo.slot<"GMEM" -> "VPU", 16xf32>
// QUAD:             ktdf.read_from_fifo {{.*}} -> tensor<1x16xf32>
// QUAD:             math.exp %{{.*}} : f32
// SMALL-LABEL:  func.func @wide
// SMALL:            !ktdf.fifo.slot<"MEM" -> "VEC", 8xf32>
// SMALL:            ktdf.read_from_fifo {{.*}} -> tensor<1x8xf32>

// SAMPLE:      element-types.mlir:32:12: error: exec_unit 'SFU' declares no SIMD lanes for element type f32
// SAMPLE-NEXT:       %y = math.exp %x : tensor<4x32xf32>
// SAMPLE:      sample_device.mlir:{{[0-9]+}}:{{[0-9]+}}: note: in device 'sample_device'

module {
  module @local_schedule_3 {
    func.func @wide() {
      %c0 = arith.constant 0 : index
      %b_addr = arith.constant 1024 : index
      %a = ktdp.construct_memory_view %c0, sizes: [4, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %b = ktdp.construct_memory_view %b_addr, sizes: [4, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf32>
      %y = math.exp %x : tensor<4x32xf32>
      ktdp.store %y, %tb : tensor<4x32xf32>, !ktdp.access_tile<4x32xindex>
      return
    }
  }
}
