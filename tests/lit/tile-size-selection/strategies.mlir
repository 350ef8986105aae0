// The three strategies of tile-size-selection (Decision 11) on one small kernel: C = A + B over
// 256 rows of 64 f16 on the sample device with a 32 KiB L1 (Inputs/small_l1.mlir), so the row
// loop is tiled and its six double-buffered L1 copies (128 bytes a row) allow at most 42 rows:
// the candidates are the divisors of 256 up to 32.
//
// DEFINE: %{before} = ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops{tile-single-loops=true},canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances
// RUN: dfsched-opt %s --device=%S/Inputs/small_l1.mlir -p '%{before},tile-size-selection{strategy=largest},canonicalize' | filecheck %s --check-prefix=LARGEST
// RUN: dfsched-opt %s --device=%S/Inputs/small_l1.mlir -p '%{before},tile-size-selection,canonicalize' | filecheck %s --check-prefix=MODEL
// RUN: dfsched-opt %s --device=%S/Inputs/small_l1.mlir -p '%{before},tile-size-selection{strategy=model},canonicalize' | filecheck %s --check-prefix=MODEL
// RUN: dfsched-opt %s --device=%S/Inputs/small_l1.mlir -p '%{before},tile-size-selection{strategy=search search-limit=2},canonicalize' | filecheck %s --check-prefix=SEARCH
// RUN: not dfsched-opt %s --device=%S/Inputs/small_l1.mlir -p 'tile-size-selection{strategy=fastest}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not dfsched-opt %s --device=%S/Inputs/small_l1.mlir -p 'tile-size-selection{search-limit=-1}' 2>&1 | filecheck %s --check-prefix=BAD-LIMIT

// largest: 32 rows, 8 tiles.
// LARGEST-LABEL: func.func @local_schedule_0(
// LARGEST-COUNT-6: memref.alloc() : memref<32x1x64xf16, "L1">
// LARGEST:         scf.for %{{.*}} = %{{.*}} to %c8 step

// model (the default): per tile the load, the corelets' compute and the store take about 2, 3
// and 2 cycles a row, so fill and drain cost ~4 cycles a row of the tile while every tile adds
// a handshake: 8 rows (32 tiles) is the predicted minimum, and the simulator agrees (1133
// cycles; 32 rows: 1205, 4 rows: 1177).
// MODEL-LABEL: func.func @local_schedule_0(
// MODEL-COUNT-6: memref.alloc() : memref<8x1x64xf16, "L1">
// MODEL:         scf.for %{{.*}} = %{{.*}} to %c32 step

// search: the 2 best by the model (8 and 4 rows) and the largest (32) compiled and simulated:
// 8 rows is the fastest.
// SEARCH-LABEL: func.func @local_schedule_0(
// SEARCH-COUNT-6: memref.alloc() : memref<8x1x64xf16, "L1">
// SEARCH:         scf.for %{{.*}} = %{{.*}} to %c32 step

// BAD: error: invalid options for pass 'tile-size-selection': strategy must be one of largest, model, search, not 'fastest'
// BAD-LIMIT: error: invalid options for pass 'tile-size-selection': search-limit must be 0 (all) or positive

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rows() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %in0_address = arith.constant 0 : index
    %in0 = ktdp.construct_memory_view %in0_address, sizes: [256, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %in0_all = ktdp.construct_access_tile %in0[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<256x64xf16> -> !ktdp.access_tile<256x64xindex>
    %in1_address = arith.constant 32768 : index
    %in1 = ktdp.construct_memory_view %in1_address, sizes: [256, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %in1_all = ktdp.construct_access_tile %in1[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<256x64xf16> -> !ktdp.access_tile<256x64xindex>
    %out_address = arith.constant 65536 : index
    %out = ktdp.construct_memory_view %out_address, sizes: [256, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %out_all = ktdp.construct_access_tile %out[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<256x64xf16> -> !ktdp.access_tile<256x64xindex>
    %in0_v = ktdp.load %in0_all : <256x64xindex> -> tensor<256x64xf16>
    %in1_v = ktdp.load %in1_all : <256x64xindex> -> tensor<256x64xf16>
    %sum1 = arith.addf %in0_v, %in1_v : tensor<256x64xf16>
    ktdp.store %sum1, %out_all : tensor<256x64xf16>, <256x64xindex>
    return
  }
}

