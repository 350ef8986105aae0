// DEFINE: %{chain} = --ensure-device-declaration --ktir-legality-check --compute-group-extraction --construct-three-stage-pipeline --path-expansion --scalar-broadcast-legalization --normalize-scf-for-loops --canonicalize --tile-scf-for-loops --canonicalize --loop-invariant-code-motion --stage-coarsening --double-buffering
// RUN: dfsched-opt %s --device=sample %{chain} | filecheck %s --check-prefixes=CHECK,SAMPLE
// RUN: dfsched-opt %s --device=quad_corelet %{chain} | filecheck %s --check-prefixes=CHECK,QUAD

// Decision 1 end to end: a KTIR kernel scheduled up to double buffering. Each compute tile
// multiplies 4 rows of two 64x128 f16 matrices. The row and vector loops are tiled; stage
// coarsening sinks the point loops into the stages and leaves the tile loops around the
// outer pipeline, whose private holds the two input tiles and the result tile in the
// scratchpad, allocated by path expansion in the device's plain memory kind ("L1" on the
// sample device, "SPAD" on quad_corelet). All three are double-buffered over the tile loops:
// the DMA load of the next tile overlaps the compute on this one.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[R0:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[R1:.+]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    arith.ceildivui
// SAMPLE-COUNT-6: memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x1x64xf16, "L1">
// QUAD-COUNT-6:   memref.alloc(%[[R0]], %[[R1]]) : memref<?x?x1x32xf16, "SPAD">
// CHECK-NEXT:    scf.for %[[TI:[^ ]+]] =
// CHECK:           scf.for %[[TJ:[^ ]+]] =
// CHECK-NEXT:        ktdf.tiling.derive_size
// CHECK-NEXT:        %[[PHASE:.+]] = ktdf.buffer_phase(%[[TI]], %[[TJ]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        ktdf.select_memref %[[PHASE]]
// CHECK-NEXT:        ktdf.select_memref %[[PHASE]]
// CHECK-NEXT:        ktdf.select_memref %[[PHASE]]
// CHECK-NEXT:        ktdf.pipeline modulo(size : 2) {
// CHECK:               ktdf.private -> (!ktdf.token, !ktdf.token) {
// CHECK-NOT:           memref.alloc
// CHECK:               ktdf.private_yield
// The nested vector pipeline moves vectors through FIFOs only.
// CHECK:               ktdf.pipeline {
// CHECK:                 ktdf.private -> (!ktdf.fifo.slot
// CHECK-COUNT-6:     memref.dealloc
// CHECK:         return

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#four_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mul() attributes {grid = [16]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 16384 : index
    %z_address = arith.constant 32768 : index
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %c4 : index
    %x = ktdp.construct_memory_view %x_address, sizes: [64, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [64, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %z = ktdp.construct_memory_view %z_address, sizes: [64, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %x_rows = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %y_rows = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %a = ktdp.load %x_rows : <4x128xindex> -> tensor<4x128xf16>
    %b = ktdp.load %y_rows : <4x128xindex> -> tensor<4x128xf16>
    %init = tensor.empty() : tensor<4x128xf16>
    %p = linalg.mul ins(%a, %b : tensor<4x128xf16>, tensor<4x128xf16>) outs(%init : tensor<4x128xf16>) -> tensor<4x128xf16>
    %z_rows = ktdp.construct_access_tile %z[%row, %c0] {access_tile_set = #four_rows, access_tile_order = #row_major} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %p, %z_rows : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
