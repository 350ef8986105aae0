// Write-after-read across pipelines (README Decision 43), on a batched 1024x128 by 128x64 contraction
// on the matrix_unit device (examples/batch_matmul.mlir with M grown to 1024, K to 128 and N to 64:
// since Decision 72's block steps the rows still take a loop and N still takes tiles, and A, 256 KiB,
// does not fit the scratchpad whole, so Decision 81 cannot load it once for all row blocks): broadcast
// promotion loads each row block of A once, in its own pipeline before the loop over N tiles
// (DMAR fills the single buffer), and the pipelines of that loop read it on MLD. Before the next
// row block's load overwrites the buffer, the readers must be done: a signal among the readers
// (both MLD corelets) and the writer (DMAR) ends the reader pipeline on the N loop's last
// iteration, except on the row loop's last.
// RUN: dfsched-opt --device=matrix_unit -p "ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,builtin.module(builtin.module(func.func(ktdfarch-apply-patterns{groups=pre_scheduling}))),path-expansion,scalar-broadcast-legalization,normalize-scf-for-loops,canonicalize,tile-scf-for-loops{tile-single-loops=true},canonicalize,loop-invariant-code-motion,stage-coarsening,reduction-dim-chunking,reduction-loop-exposure,map-reduction-partials,broadcast-promotion,double-buffering,parallelize-loops-across-instances,tile-size-selection,canonicalize,affine-min-canonicalization,subsume-linearize-index,address-assignment,normalize-grid-to-1d,ktdf-to-ktdflowering" %s | filecheck %s

// CHECK-DAG:   %[[DMAR:.*]] = uniform.query_map(map:%{{.*}}, key:%{{.*}}) : index
// CHECK:       scf.for %[[ROW:.*]] = %{{.*}} to %[[ROWS:.*]] step %[[ROW_STEP:[^ ]*]] {
// CHECK:         ktdf_lowering.execute_on %[[DMAR]] {
// CHECK:           ktdf.data_transfer from %{{.*}} to %{{.*}} : memref<1x1024x128xf16, strided<[131072, 128, 1], offset: ?>, "MEM">, memref<?x1x8x128xf16, "SPM">
// CHECK:         scf.for %[[COL:.*]] = %{{.*}} to %[[COLS:.*]] step %[[COL_STEP:[^ ]*]] {
// CHECK:           ktdf_lowering.execute_on %[[DMAR]], %[[MLD0:[^,]*]], %[[MLD1:[^,]*]],
// CHECK:             %[[LAST_ROW:.*]] = arith.subi %[[ROWS]], %[[ROW_STEP]] : index
// CHECK-NEXT:        %[[NOT_LAST_ROW:.*]] = arith.cmpi ne, %[[ROW]], %[[LAST_ROW]] : index
// CHECK-NEXT:        %[[LAST_COL:.*]] = arith.subi %[[COLS]], %[[COL_STEP]] : index
// CHECK-NEXT:        %[[IS_LAST_COL:.*]] = arith.cmpi eq, %[[COL]], %[[LAST_COL]] : index
// CHECK-NEXT:        %[[WHEN:.*]] = arith.andi %[[NOT_LAST_ROW]], %[[IS_LAST_COL]] : i1
// CHECK-NEXT:        scf.if %[[WHEN]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[MLD0]], %[[MLD1]], %[[DMAR]]

#a_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#b_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#c_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#a_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#b_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#c_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#row_major = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

module {
  func.func @batch_matmul() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 524288 : index
    %c_address = arith.constant 1048576 : index
    %batch = ktdp.get_compute_tile_id : index

    %a = ktdp.construct_memory_view %a_address, sizes: [2, 1024, 128], strides: [131072, 128, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<2x1024x128xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [2, 128, 64], strides: [8192, 64, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<2x128x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [2, 1024, 64], strides: [65536, 64, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<2x1024x64xf16>

    %a_tile = ktdp.construct_access_tile %a[%batch, %c0, %c0] {access_tile_set = #a_one, access_tile_order = #row_major} : memref<2x1024x128xf16> -> !ktdp.access_tile<1x1024x128xindex>
    %b_tile = ktdp.construct_access_tile %b[%batch, %c0, %c0] {access_tile_set = #b_one, access_tile_order = #row_major} : memref<2x128x64xf16> -> !ktdp.access_tile<1x128x64xindex>
    %x = ktdp.load %a_tile : <1x1024x128xindex> -> tensor<1x1024x128xf16>
    %y = ktdp.load %b_tile : <1x128x64xindex> -> tensor<1x128x64xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<1x1024x64xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<1x1024x64xf16>) -> tensor<1x1024x64xf16>
    %product = linalg.batch_matmul ins(%x, %y : tensor<1x1024x128xf16>, tensor<1x128x64xf16>) outs(%init : tensor<1x1024x64xf16>) -> tensor<1x1024x64xf16>

    %c_tile = ktdp.construct_access_tile %c[%batch, %c0, %c0] {access_tile_set = #c_one, access_tile_order = #row_major} : memref<2x1024x64xf16> -> !ktdp.access_tile<1x1024x64xindex>
    ktdp.store %product, %c_tile : tensor<1x1024x64xf16>, <1x1024x64xindex>
    return
  }
}
