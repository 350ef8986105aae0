// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s

// A tile reshaped between memory and compute (Decision 108): the 2x4x64 tile's rows are not one
// stride apart in DDR (4 of the view's 8 heads), so compute cannot read it as 8x64 there. Its
// copy in the scratchpad, row-major, is the collapsed tensor: the load is copied into an 8x64
// buffer (a loop over the tile's token and head moves one 64-element row a step, so both sides
// walk the same vectors), compute reads the buffer, writes its result into another, and the
// expand stored is the reverse copy, after the compute pipeline. Copies carry
// `dataflow_scheduler.reshaped_copy`: they are ordered with the compute op like a program's
// compute ops (Decision 47).

#view = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @rows_of_heads
// CHECK:         %[[IN:.*]] = memref.alloc() : memref<8x64xf16, "L1">
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc() : memref<8x64xf16, "L1">
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:            ktdf.data_transfer from %{{.*}}[%[[T]], %[[H]], 0] size [1, 1, 64] to %[[IN]][%[[T]] * 4 + %[[H]], 0] size [1, 64] : memref<2x4x64xf16, strided<[512, 64, 1], offset: ?>, "DDR">, memref<8x64xf16, "L1">
// CHECK-NEXT:          } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        } {dataflow_scheduler.reshaped_copy}
// CHECK:           ktdf.data_transfer from %[[IN]][%{{.*}}, %{{.*}}] size [1, 64] to %{{.*}} size [1, 64]
// CHECK:           ktdf.data_transfer from %{{.*}} size [1, 64] to %[[OUT]][%{{.*}}, %{{.*}}] size [1, 64]
// CHECK:         scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[H2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:            ktdf.data_transfer from %[[OUT]][%[[T2]] * 4 + %[[H2]], 0] size [1, 64] to %{{.*}}[%[[T2]], %[[H2]], 0] size [1, 1, 64]
// CHECK-NEXT:          } {applicable_units = ["MNISU"]}
// CHECK-NEXT:        } {dataflow_scheduler.reshaped_copy}

func.func @rows_of_heads() {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %b = ktdp.construct_memory_view %c4096, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4x8x64xf16> -> !ktdp.access_tile<2x4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4x8x64xf16> -> !ktdp.access_tile<2x4x64xindex>
  %x3 = ktdp.load %ta : !ktdp.access_tile<2x4x64xindex> -> tensor<2x4x64xf16>
  %x = tensor.collapse_shape %x3 [[0, 1], [2]] : tensor<2x4x64xf16> into tensor<8x64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %s = arith.mulf %v, %v : f16
    linalg.yield %s : f16
  } -> tensor<8x64xf16>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 4, 64] : tensor<8x64xf16> into tensor<2x4x64xf16>
  ktdp.store %y3, %tb : tensor<2x4x64xf16>, !ktdp.access_tile<2x4x64xindex>
  return
}
