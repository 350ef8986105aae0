// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=3" --reduction-loop-exposure | filecheck %s

// The column sums of column-sum-fill.mlir cut into three chunks of 32 rows first. Each chunk
// pipeline then runs 32 steps:
// * load: the partial-sum transfer (from the second chunk on) stays outside the loop, which
//   reads row `chunk * 32 + J`;
// * compute: the chunk's seed (the fill on the first chunk, the partial after) stays in
//   front of the loop and seeds the accumulator;
// * store: the partial is written back on step 31 of every chunk.

// CHECK-LABEL: func.func @column_sums(
// CHECK-SAME:      %[[IN:.*]]: memref<4x96x1xf32, "L1">, %[[OUT:.*]]: memref<4x1xf32, "L1">)
// CHECK:         scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[CHUNK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %[[CHUNK]], %{{.*}} : index
// CHECK:             %[[C0:.*]] = arith.constant 0 : index
// CHECK:             %[[C1:.*]] = arith.constant 1 : index
// CHECK:             %[[LAST:.*]] = arith.constant 31 : index
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token) {
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK:                 %[[SLOT:.*]] = arith.divsi
// CHECK-NEXT:            scf.if %[[FIRST]] {
// CHECK:                 } else {
// CHECK-NEXT:              ktdf.data_transfer from %[[OUT]][%[[SLOT]], %{{.*}}] size [1, 1] to %[[P]]#1 size [1]
// CHECK:                 }
// CHECK:                 %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:            scf.for %[[J:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:              ktdf.data_transfer from %[[IN]][%[[SLOT]], %[[CHUNK]] * 32 + %[[J]], %{{.*}}] size [1, 1, 1] to %[[P]]#0 size [1] : memref<4x96x1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
// CHECK:                 } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:               } {applicable_units = ["L1LU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:            %[[SEED:.*]] = scf.if %[[FIRST]] -> (tensor<1xf32>) {
// CHECK:                   %[[BIAS:.*]] = arith.constant 1.500000e+00 : f32
// CHECK:                   %[[E:.*]] = tensor.empty() : tensor<1xf32>
// CHECK-NEXT:              %[[F:.*]] = linalg.fill ins(%[[BIAS]] : f32) outs(%[[E]] : tensor<1xf32>) -> tensor<1xf32>
// CHECK:                   scf.yield %[[F]] : tensor<1xf32>
// CHECK:                 } else {
// CHECK-NEXT:              %[[PART:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 1xf32> -> tensor<1xf32>
// CHECK:                   scf.yield %[[PART]] : tensor<1xf32>
// CHECK:                 }
// CHECK:                 %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:            scf.for %[[J:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[SEED]]) -> (tensor<1xf32>) {
// CHECK-NEXT:              %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 1xf32> -> tensor<1x1xf32>
// CHECK-NEXT:              %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x1xf32>) outs(%[[ACC]] : tensor<1xf32>) {
// CHECK:                   %[[IS_LAST:.*]] = arith.cmpi eq, %[[J]], %[[LAST]] : index
// CHECK-NEXT:              scf.if %[[IS_LAST]] {
// CHECK-NEXT:                ktdf.write_to_fifo %[[R]], %[[P]]#2
// CHECK:                   }
// CHECK:                   scf.yield %[[R]] : tensor<1xf32>
// CHECK:                 } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:               } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK:                 %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:            scf.for %[[J:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:                   %[[IS_LAST:.*]] = arith.cmpi eq, %[[J]], %[[LAST]] : index
// CHECK-NEXT:              scf.if %[[IS_LAST]] {
// CHECK-NEXT:                ktdf.data_transfer from %[[P]]#2 size [1] to %[[OUT]]
// CHECK:                   }
// CHECK:                 } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:               } {applicable_units = ["L1SU"]}

#cols = affine_map<(d0, d1) -> (d0, d1)>
#sums = affine_map<(d0, d1) -> (d1)>
func.func @column_sums(%in: memref<4x96x1xf32, "L1">, %out: memref<4x1xf32, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %c = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 96xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 96xf32>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 96xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%c, 0, 0] size [1, 96, 1] to %f#0 size [96] : memref<4x96x1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 96xf32>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %col = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 96xf32> -> tensor<96x1xf32>
        %bias = arith.constant 1.5 : f32
        %e = tensor.empty() : tensor<1xf32>
        %init = linalg.fill ins(%bias : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
        %sum = linalg.generic {indexing_maps = [#cols, #sums], iterator_types = ["reduction", "parallel"]} ins(%col : tensor<96x1xf32>) outs(%init : tensor<1xf32>) {
        ^bb0(%a: f32, %acc: f32):
          %n = arith.addf %acc, %a : f32
          linalg.yield %n : f32
        } -> tensor<1xf32>
        ktdf.write_to_fifo %sum, %f#1 : tensor<1xf32>, <"SFU" -> "L1SU", 1xf32>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%c, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, memref<4x1xf32, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}
