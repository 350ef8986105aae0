// RUN: dfsched-opt %s --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion | filecheck %s
// RUN: dfsched-opt %examples/row_bias.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,broadcast-promotion | filecheck %s --check-prefix=EARLY
// RUN: dfsched-opt %examples/row_bias.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,broadcast-promotion | filecheck %s --check-prefix=ORDER

// From KTIR, through the scheduler passes in pipeline order (the upstream order: stage
// coarsening first).

// Row scaling by a per-row factor, C[r, :] = A[r, :] + s[r], 4 rows of 128 per compute
// tile. Tiling leaves two tile loops around the pipeline (rows, then the two 64-column
// chunks); stage coarsening moves the point loops into the stages. s depends on the row
// tile only, so its loads leave the column-chunk loop: one sibling pipeline per row tile,
// whose stage keeps the row loop of the MNILU stage. The nested L1LU stage reads the new
// buffer; the MNILU stage still loads A.
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[S:.+]] = memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [4], strides: [1]
// CHECK:         scf.for %[[TI:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           %[[NEW:.+]] = memref.alloc(%{{.+}}) : memref<?x1xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:            %[[ROW:.+]] = ktdf.tiling.linearize_index [%[[TI]] : %{{.+}}], [%[[R]] : %{{.+}}] : index
// CHECK-NOT:             scf.for
// CHECK:                 ktdf.data_transfer from %[[S]][%[[ROW]]] size [1] to %[[NEW]][%{{.+}}, 0] size [1, 1]
// CHECK:               } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             ktdf.pipeline {
// CHECK:               ktdf.stage depends_in(none)
// CHECK-NOT:           ktdf.stage
// CHECK:                 ktdf.data_transfer from %{{.+}}[%{{.+}}, %{{.+}} * 64] size [1, 64] to
// CHECK-NOT:             ktdf.data_transfer from %[[S]]
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK:                     ktdf.data_transfer from %[[NEW]][%{{.+}}, 0] size [1, 1] to %{{.+}} size [1]
// CHECK:               } {applicable_units = ["L1LU", "SFU", "L1SU"]}

// The row bias of examples/row_bias.mlir (3 rows per tile, no tile loops). Before stage
// coarsening, the pipeline sits in the row loop and the bias is loaded once per program, by
// a sibling pipeline before it:
// EARLY-LABEL: func.func @local_schedule_0(
// EARLY:         %[[BIAS:.+]] = memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [64], strides: [1]
// EARLY:         %[[NEW:.+]] = memref.alloc() : memref<64xf16, "L1">
// EARLY-NEXT:    ktdf.pipeline {
// EARLY-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// EARLY-NEXT:        ktdf.data_transfer from %[[BIAS]][%{{.+}}] size [64] to %[[NEW]][0] size [64]
// EARLY:           } {applicable_units = ["MNILU"]}
// EARLY:         }
// EARLY-NEXT:    scf.for
// EARLY:           ktdf.data_transfer from %[[NEW]][0] size [64] to %{{.+}} size [64]
// In pipeline order, stage coarsening has already moved the row loop into the stages: the
// pipeline has no loop around it and the bias load sits in the MNILU stage's own loop, where
// upstream's pass leaves it (one load per row). dfsched's step 4 moves it before that loop,
// in the same stage: the bias is loaded once, the rows of A in the loop.
// ORDER-LABEL: func.func @local_schedule_0(
// ORDER-NOT:     memref.alloc() : memref<64xf16, "L1">
// ORDER:         ktdf.pipeline {
// ORDER:           ktdf.private
// ORDER:             memref.alloc() : memref<64xf16, "L1">
// ORDER:           ktdf.stage depends_in(none)
// ORDER-NEXT:        ktdf.data_transfer from %{{.+}} size [64] to %{{.+}}#1[0] size [64]
// ORDER-NEXT:        scf.for
// ORDER-NOT:           size [64] to %{{.+}}#1[0]
// ORDER:               ktdf.data_transfer from %{{.+}} size [1, 64] to %{{.+}}#0
// ORDER:             } {loop_type = #ktdf.loop_type<parallel_loop>}

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#tile2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tile1 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#per_row = affine_map<(d0, d1) -> (d0)>

module {
  func.func @row_offset() attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %a_address = arith.constant 0 : index
    %s_address = arith.constant 32768 : index
    %c_address = arith.constant 65536 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [128, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %s = ktdp.construct_memory_view %s_address, sizes: [128], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [128, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #tile2, access_tile_order = #row_major} : memref<128x128xf16> -> !ktdp.access_tile<4x128xindex>
    %s_rows = ktdp.construct_access_tile %s[%first_row] {access_tile_set = #tile1, access_tile_order = #in_order} : memref<128xf16> -> !ktdp.access_tile<4xindex>
    %x = ktdp.load %a_rows : <4x128xindex> -> tensor<4x128xf16>
    %b = ktdp.load %s_rows : <4xindex> -> tensor<4xf16>
    %init = tensor.empty() : tensor<4x128xf16>
    %r = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : tensor<4x128xf16>, tensor<4xf16>) outs(%init : tensor<4x128xf16>) {
    ^bb0(%v: f16, %o: f16, %out: f16):
      %t = arith.addf %v, %o : f16
      linalg.yield %t : f16
    } -> tensor<4x128xf16>
    %c_rows = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #tile2, access_tile_order = #row_major} : memref<128x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %r, %c_rows : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
