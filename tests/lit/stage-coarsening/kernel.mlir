// RUN: dfsched-opt %s --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening | filecheck %s

// A kernel through the scheduler up to stage coarsening: Z = X - Y on 64x64 f16 matrices
// over a grid of 2 compute tiles, so each compute tile handles a 32x64 tile, 32 vectors of
// 64 lanes. Before coarsening every stage runs once per vector inside the row loop; after
// it, the DMA stages each move the whole 32x64 tile in one stage, and the middle stage
// runs the vector pipeline (scratchpad load -> subtract -> scratchpad store) row by row.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @sub() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %x_at = arith.constant 0 : index
    %y_at = arith.constant 8192 : index
    %z_at = arith.constant 16384 : index
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %c32 : index
    %x = ktdp.construct_memory_view %x_at, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %y = ktdp.construct_memory_view %y_at, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %z = ktdp.construct_memory_view %z_at, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #half, access_tile_order = #rows}
        : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %ty = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #half, access_tile_order = #rows}
        : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %vx = ktdp.load %tx : <32x64xindex> -> tensor<32x64xf16>
    %vy = ktdp.load %ty : <32x64xindex> -> tensor<32x64xf16>
    %init = tensor.empty() : tensor<32x64xf16>
    %d = linalg.sub ins(%vx, %vy : tensor<32x64xf16>, tensor<32x64xf16>) outs(%init : tensor<32x64xf16>) -> tensor<32x64xf16>
    %tz = ktdp.construct_access_tile %z[%row, %c0] {access_tile_set = #half, access_tile_order = #rows}
        : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %d, %tz : tensor<32x64xf16>, <32x64xindex>
    return
  }
}

// CHECK-LABEL: func.func @local_schedule_0()
// CHECK-NOT:     scf.for
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:5 = ktdf.private -> (memref<32x1x64xf16, "L1">, memref<32x1x64xf16, "L1">, memref<32x1x64xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for %[[R0:.+]] = %[[C0:.+]] to %[[C32:.+]] step %[[C1:[^ ]+]] {
// CHECK:               ktdf.data_transfer from %{{.+}} size [1, 64] to %[[P]]#0[%{{.+}}, 0, 0] size [1, 1, 64]
// CHECK:               ktdf.data_transfer from %{{.+}} size [1, 64] to %[[P]]#1[%{{.+}}, 0, 0] size [1, 1, 64]
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:        scf.for %[[R1:.+]] = %[[C0]] to %[[C32]] step %[[C1]] {
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 %[[Q:.+]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token)
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[Q]]#3) {
// CHECK:                 } {applicable_units = ["L1LU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#3) depends_out(%[[Q]]#4) {
// CHECK:                   arith.subf
// CHECK:                 } {applicable_units = ["SFU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#4) depends_out(none) {
// CHECK:                 } {applicable_units = ["L1SU"]}
// CHECK:               }
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK-NEXT:        scf.for %{{.+}} = %[[C0]] to %[[C32]] step %[[C1]] {
// CHECK:               ktdf.data_transfer from %[[P]]#2[%{{.+}}, 0, 0] size [1, 1, 64] to %{{.+}} size [1, 64]
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           } {applicable_units = ["MNISU"]}
// CHECK:         }
// CHECK:         return
