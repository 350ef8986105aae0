// RUN: dfsched-opt %s --split-input-file --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops{tile-single-loops=true},canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,double-buffering,parallelize-loops-across-instances,tile-size-selection{strategy=largest},canonicalize | filecheck %s

// One compute tile adds rows of 64 f16 (one vector per row, so a single loop over the rows).
// The sample device's L1 holds 1 MiB.

// 3000 rows: A, B and C whole would take 3 x 3000 x 128 bytes = 1,152,000 bytes, too much,
// so the row loop is tiled. The tile's L1 buffers are double-buffered (six of them), and the
// largest row count dividing 3000 that fits is 1000 (6 x 1000 x 128 = 768,000 bytes; 1500
// would need 1,152,000): 3 tiles, each spread over the 2 corelets.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK-COUNT-6: memref.alloc() : memref<1000x1x64xf16, "L1">
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[T:[^ ]+]] = %{{[^ ]+}} to %c3 step
// CHECK-NEXT:      ktdf.buffer_phase(%[[T]]) {num_phases = 2 : i64}
// CHECK:           ktdf.pipeline modulo(size : 2) {
// CHECK:             ktdf.parallel ({{.*}}) = ({{.*}}) to (%c1000) step ({{.*}}) distribute(num_instances = 2)
// CHECK-NOT:     ktdf.tiling.reserve_size

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2999 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 384000 : index
    %c_address = arith.constant 768000 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [3000, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<3000x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [3000, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<3000x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [3000, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<3000x64xf16>
    %a_all = ktdp.construct_access_tile %a[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<3000x64xf16> -> !ktdp.access_tile<3000x64xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<3000x64xf16> -> !ktdp.access_tile<3000x64xindex>
    %c_all = ktdp.construct_access_tile %c[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<3000x64xf16> -> !ktdp.access_tile<3000x64xindex>
    %x = ktdp.load %a_all : <3000x64xindex> -> tensor<3000x64xf16>
    %y = ktdp.load %b_all : <3000x64xindex> -> tensor<3000x64xf16>
    %init = tensor.empty() : tensor<3000x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<3000x64xf16>, tensor<3000x64xf16>)
                      outs(%init : tensor<3000x64xf16>) -> tensor<3000x64xf16>
    ktdp.store %sum, %c_all : tensor<3000x64xf16>, <3000x64xindex>
    return
  }
}

// -----

// 2048 rows: the three whole buffers take 3 x 2048 x 128 bytes = 786,432 bytes, which fits,
// so the row loop is not tiled (as upstream): stage coarsening grows the L1 buffers to all
// 2048 rows, the outer pipeline has no loop around it to double-buffer over, and there is
// no placeholder to choose.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NOT:     ktdf.tiling
// CHECK-NOT:     modulo
// CHECK:         ktdf.pipeline {
// CHECK-COUNT-3:   memref.alloc() : memref<2048x1x64xf16, "L1">
// CHECK-NOT:     memref.alloc() : {{.*}}"L1"
// CHECK:         ktdf.parallel ({{.*}}) = ({{.*}}) to (%c2048) step ({{.*}}) distribute(num_instances = 2)
// CHECK-NOT:     modulo

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 262144 : index
    %c_address = arith.constant 524288 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [2048, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<2048x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [2048, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<2048x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [2048, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<2048x64xf16>
    %a_all = ktdp.construct_access_tile %a[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<2048x64xf16> -> !ktdp.access_tile<2048x64xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<2048x64xf16> -> !ktdp.access_tile<2048x64xindex>
    %c_all = ktdp.construct_access_tile %c[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<2048x64xf16> -> !ktdp.access_tile<2048x64xindex>
    %x = ktdp.load %a_all : <2048x64xindex> -> tensor<2048x64xf16>
    %y = ktdp.load %b_all : <2048x64xindex> -> tensor<2048x64xf16>
    %init = tensor.empty() : tensor<2048x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<2048x64xf16>, tensor<2048x64xf16>)
                      outs(%init : tensor<2048x64xf16>) -> tensor<2048x64xf16>
    ktdp.store %sum, %c_all : tensor<2048x64xf16>, <2048x64xindex>
    return
  }
}
