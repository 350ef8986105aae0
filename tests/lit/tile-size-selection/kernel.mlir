// RUN: dfsched-opt %s --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,double-buffering,parallelize-loops-across-instances,tile-size-selection{strategy=largest},canonicalize | filecheck %s

// One compute tile adds two 8192x128 f16 matrices: 2 MiB per operand, far more than the
// sample device's 1 MiB L1. Through the scheduling passes the rows x 64-column-blocks nest is
// tiled, its L1 buffers grow with the tile and are double-buffered (A, B and C: six buffers of
// rows x 2 x 1 x 64 f16). Selection keeps both column blocks (the innermost dimension first)
// and takes 512 rows: 6 x 128 KiB = 768 KiB fits, 1024 rows (1.5 MiB) would not.

// CHECK-LABEL: func.func @add
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK-COUNT-6: memref.alloc() : memref<512x2x1x64xf16, "L1">
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK:         ktdf.parallel ({{.*}}) = ({{.*}}) to (%c512) step ({{.*}}) distribute(num_instances = 2)
// CHECK-NOT:     ktdf.tiling.reserve_size

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 8191 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @add() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 2097152 : index
    %c_address = arith.constant 4194304 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [8192, 128], strides: [128, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<8192x128xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [8192, 128], strides: [128, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<8192x128xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [8192, 128], strides: [128, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<8192x128xf16>
    %a_all = ktdp.construct_access_tile %a[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<8192x128xf16> -> !ktdp.access_tile<8192x128xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<8192x128xf16> -> !ktdp.access_tile<8192x128xindex>
    %x = ktdp.load %a_all : <8192x128xindex> -> tensor<8192x128xf16>
    %y = ktdp.load %b_all : <8192x128xindex> -> tensor<8192x128xf16>
    %init = tensor.empty() : tensor<8192x128xf16>
    %sum = linalg.add ins(%x, %y : tensor<8192x128xf16>, tensor<8192x128xf16>)
                      outs(%init : tensor<8192x128xf16>) -> tensor<8192x128xf16>
    %c_all = ktdp.construct_access_tile %c[%c0, %c0] {
      access_tile_set = #matrix, access_tile_order = #row_major
    } : memref<8192x128xf16> -> !ktdp.access_tile<8192x128xindex>
    ktdp.store %sum, %c_all : tensor<8192x128xf16>, <8192x128xindex>
    return
  }
}
