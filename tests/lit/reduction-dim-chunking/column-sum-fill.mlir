// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=3" | filecheck %s

// S[c] = 1.5 + sum_r A[r, c] for four columns of 96 rows: the reduction runs over the first
// dim and starts from a linalg.fill of a constant, as the Triton frontend writes it. Three
// chunks of 32 rows: the fill (and its constant) seed the first chunk only; later chunks
// continue from the partial sum.

// CHECK-LABEL: func.func @column_sums
// CHECK:         ktdf.stage depends_in(%[[OUTER:.*]]#2) depends_out(%[[OUTER]]#3) {
// CHECK-NEXT:      scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[N:.*]] = arith.constant 3 : index
// CHECK:           %[[C0:.*]] = arith.constant 0 : index
// CHECK:           %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[CHUNK:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %[[CHUNK]], %[[C0]] : index
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, !ktdf.token, !ktdf.token) {
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK:                 %[[SLOT:.*]] = arith.divsi
// CHECK-NEXT:            ktdf.data_transfer from %[[OUTER]]#0[%[[SLOT]], %[[CHUNK]] * 32, %{{.*}}] size [1, 32, 1] to %[[P]]#0 size [32] : memref<4x96x1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
// CHECK-NEXT:            scf.if %[[FIRST]] {
// CHECK:                 } else {
// CHECK-NEXT:              ktdf.data_transfer from %[[OUTER]]#1[%[[SLOT]], %{{.*}}] size [1, 1] to %[[P]]#1 size [1] : memref<4x1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf32>
// CHECK:                 }
// CHECK:               } {applicable_units = ["L1LU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:            %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 32xf32> -> tensor<32x1xf32>
// CHECK-NEXT:            %[[INIT:.*]] = scf.if %[[FIRST]] -> (tensor<1xf32>) {
// CHECK:                   %[[CST:.*]] = arith.constant 1.500000e+00 : f32
// CHECK:                   %[[E:.*]] = tensor.empty() : tensor<1xf32>
// CHECK-NEXT:              %[[F:.*]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<1xf32>) -> tensor<1xf32>
// CHECK:                   scf.yield %[[F]] : tensor<1xf32>
// CHECK:                 } else {
// CHECK-NEXT:              %[[S:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 1xf32> -> tensor<1xf32>
// CHECK:                   scf.yield %[[S]] : tensor<1xf32>
// CHECK:                 }
// CHECK-NEXT:            %[[R:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["reduction", "parallel"]} ins(%[[X]] : tensor<32x1xf32>) outs(%[[INIT]] : tensor<1xf32>) {
// CHECK:                 ktdf.write_to_fifo %[[R]], %[[P]]#2 : tensor<1xf32>, <"SFU" -> "L1SU", 1xf32>
// CHECK:               } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK:                 ktdf.data_transfer from %[[P]]#2 size [1] to %[[OUTER]]#1[%{{.*}}, %{{.*}}] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, memref<4x1xf32, "L1">
// The old pipeline and its fill are gone.
// CHECK-NOT:     linalg.fill
// CHECK-NOT:     96x1xf32>

#cols = affine_map<(d0, d1) -> (d0, d1)>
#sums = affine_map<(d0, d1) -> (d1)>
module {
  func.func @column_sums(%a: memref<96x4xf32, "DDR">, %s: memref<4xf32, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    ktdf.pipeline {
      %b:4 = ktdf.private -> (memref<4x96x1xf32, "L1">, memref<4x1xf32, "L1">, !ktdf.token, !ktdf.token) {
        %in = memref.alloc() : memref<4x96x1xf32, "L1">
        %out = memref.alloc() : memref<4x1xf32, "L1">
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %in, %out, %t0, %t1 : memref<4x96x1xf32, "L1">, memref<4x1xf32, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%b#2) {
        scf.for %c = %c0 to %c4 step %c1 {
          ktdf.data_transfer from %a[0, %c] size [96, 1] to %b#0[%c, 0, 0] size [1, 96, 1] : memref<96x4xf32, "DDR">, memref<4x96x1xf32, "L1">
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%b#2) depends_out(%b#3) {
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
              ktdf.data_transfer from %b#0[%c, 0, 0] size [1, 96, 1] to %f#0 size [96] : memref<4x96x1xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 96xf32>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%f#2) depends_out(%f#3) {
              %col = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 96xf32> -> tensor<96x1xf32>
              %bias = arith.constant 1.5 : f32
              %e = tensor.empty() : tensor<1xf32>
              %init = linalg.fill ins(%bias : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
              %sum = linalg.generic {indexing_maps = [#cols, #sums], iterator_types = ["reduction", "parallel"]} ins(%col : tensor<96x1xf32>) outs(%init : tensor<1xf32>) {
              ^bb0(%in: f32, %acc: f32):
                %n = arith.addf %acc, %in : f32
                linalg.yield %n : f32
              } -> tensor<1xf32>
              ktdf.write_to_fifo %sum, %f#1 : tensor<1xf32>, <"SFU" -> "L1SU", 1xf32>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%f#3) depends_out(none) {
              ktdf.data_transfer from %f#1 size [1] to %b#1[%c, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf32>, memref<4x1xf32, "L1">
            } {applicable_units = ["L1SU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      ktdf.stage depends_in(%b#3) depends_out(none) {
        scf.for %c = %c0 to %c4 step %c1 {
          ktdf.data_transfer from %b#1[%c, 0] size [1, 1] to %s[%c] size [1] : memref<4x1xf32, "L1">, memref<4xf32, "DDR">
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["MNISU"]}
    }
    return
  }
}
