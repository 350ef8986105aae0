// RUN: dfsched-opt %s --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops,canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion | filecheck %s

// A matmul on the vector lanes (C = A B, 8x128 by 128x128, one compute tile), through the
// scheduler passes in pipeline order. Tiling leaves a row-tile loop around a loop over B's
// 64-column blocks; stage coarsening gives the MNILU stage that loads B the point loops of
// both (the rows of the tile, then its column blocks), and B's block depends on the column
// only. Step 4 moves the column loop, with the transfer it carries, before the row loop in
// the same stage: each block of B is loaded once per row tile, not once per row (DDR traffic
// 7.2x the compulsory before, on the sample device).
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.stage depends_in(none) depends_out(%{{.+}}) {{{$}}
// CHECK-NEXT:      scf.for %[[COL:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {{{$}}
// CHECK-NEXT:        %[[N:.+]] = ktdf.tiling.linearize_index [%{{.+}} : %{{.+}}], [%[[COL]] : %{{.+}}] : index
// CHECK:             ktdf.data_transfer from %{{.+}}[0, %[[N]] * 64] size [128, 64] to
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      scf.for
// CHECK-NOT:         ktdf.data_transfer
// CHECK:           } {applicable_units = ["MNILU"]}

#row_major = affine_map<(d0, d1) -> (d0, d1)>
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
module {
  func.func @matmul() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.000000e+00 : f16
    %a_address = arith.constant 0 : index
    %a = ktdp.construct_memory_view %a_address, sizes: [8, 128], strides: [128, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %a_all = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #a_set, access_tile_order = #row_major} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    %b_address = arith.constant 2048 : index
    %b = ktdp.construct_memory_view %b_address, sizes: [128, 128], strides: [128, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #b_set, access_tile_order = #row_major} : memref<128x128xf16> -> !ktdp.access_tile<128x128xindex>
    %c_address = arith.constant 34816 : index
    %c = ktdp.construct_memory_view %c_address, sizes: [8, 128], strides: [128, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %c_all = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = #c_set, access_tile_order = #row_major} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %a_all : <8x128xindex> -> tensor<8x128xf16>
    %y = ktdp.load %b_all : <128x128xindex> -> tensor<128x128xf16>
    %empty = tensor.empty() : tensor<8x128xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x128xf16>) -> tensor<8x128xf16>
    %product = linalg.matmul ins(%x, %y : tensor<8x128xf16>, tensor<128x128xf16>) outs(%init : tensor<8x128xf16>) -> tensor<8x128xf16>
    ktdp.store %product, %c_all : tensor<8x128xf16>, <8x128xindex>
    return
  }
}
