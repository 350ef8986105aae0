// RUN: dfsched-opt %s -split-input-file --construct-three-stage-pipeline --device=sample | filecheck %s

// Several compute ops per program: one loop nest and pipeline per compute op, in program order.
// A value two pipelines share stays in the scratchpad (`ct_local`'s memory, L1 here): a load
// read by several compute ops is copied there once by a one-stage pipeline on the DMA unit,
// and an intermediate is written there by its producer's store stage. An intermediate a
// consumer broadcasts along its innermost loop keeps a trailing unit dim, read at 0.

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>

// Each row minus its maximum: a reduction from -inf, then an elementwise op reading the
// maxima broadcast along the row.
// CHECK-LABEL: func.func @centre_rows
// CHECK:         %[[ROWS:.*]] = memref.alloc() : memref<4x64xf16, "L1">
// CHECK:         %[[MAX:.*]] = memref.alloc() : memref<4x1xf16, "L1">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[0, 0] size [4, 64] to %[[ROWS]][0, 0] size [4, 64] : memref<4x64xf16, strided<[64, 1], offset: ?>, "DDR">, memref<4x64xf16, "L1">
// CHECK:           } {applicable_units = ["MNILU"]}
// the reduction reads the rows from the scratchpad, starts from -inf and keeps its maxima there
// CHECK:           ktdf.data_transfer from %[[ROWS]][%{{.*}}, 0] size [4, 64] to %{{.*}} size [4, 64]
// CHECK:           %[[EMPTY:.*]] = tensor.empty() : tensor<4xf16>
// CHECK-NEXT:      %[[INIT:.*]] = linalg.fill ins(%cst : f16) outs(%[[EMPTY]] : tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT:      linalg.generic {{.*}} outs(%[[INIT]] : tensor<4xf16>)
// CHECK:           ktdf.data_transfer from %{{.*}} size [4, 1] to %[[MAX]][%{{.*}}, 0] size [4, 1]
// the elementwise op reads both from the scratchpad and stores to DDR
// CHECK:           ktdf.data_transfer from %[[ROWS]][%{{.*}}, %{{.*}}] size [1, 64] to %{{.*}} size [1, 64]
// CHECK-NEXT:      ktdf.data_transfer from %[[MAX]][%{{.*}}, 0] size [1, 1] to %{{.*}} size [1, 1]
// CHECK:           ktdf.read_from_fifo %{{.*}} -> tensor<1x1xf16>
// CHECK:           linalg.generic {indexing_maps = [#map, #map2, #map]
// CHECK:           ktdf.data_transfer from %{{.*}} size [1, 64] to %{{.*}}[%{{.*}}, %{{.*}}] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
func.func @centre_rows() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %neg_inf = arith.constant 0xFC00 : f16
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4xf16>
  %init = linalg.fill ins(%neg_inf : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %max = linalg.reduce { arith.maximumf } ins(%x : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
  %e2 = tensor.empty() : tensor<4x64xf16>
  %centred = linalg.generic {indexing_maps = [#order, #per_row, #order], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x64xf16>, tensor<4xf16>) outs(%e2 : tensor<4x64xf16>) {
  ^bb0(%v: f16, %m: f16, %o: f16):
    %d = arith.subf %v, %m : f16
    linalg.yield %d : f16
  } -> tensor<4x64xf16>
  ktdp.store %centred, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
