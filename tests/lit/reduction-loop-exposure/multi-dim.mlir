// RUN: dfsched-opt %s --reduction-loop-exposure | filecheck %s
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=2,4" --reduction-loop-exposure | filecheck %s --check-prefix=CHUNKED

// T[c] = sum_{a, b} X[a, c, b] on 4x2x32 f32 blocks: two reduction dims (0 and 2) around a
// parallel one. Each stage gets two nested loops, over a (4) and b (32); a step reads the
// two parallel elements X[a, :, b] (a 1x2x1 slice, 2 of the 256 elements), the load
// addresses dims 1 and 3 of the scratchpad buffer (dim 0 is the batch slot), and "last" is
// a == 3 and b == 31.
// After chunking into 2 x 4 chunks of 2 x 8, the loops run 2 and 8 steps and the load adds
// them to the chunk offsets.

// CHECK-LABEL: func.func @block_sums(
// CHECK-SAME:      %[[IN:.*]]: memref<2x4x2x32xf32, "L1">
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[C0:.*]] = arith.constant 0 : index
// CHECK:           %[[C1:.*]] = arith.constant 1 : index
// CHECK:           %[[LAST_A:.*]] = arith.constant 3 : index
// CHECK:           %[[LAST_B:.*]] = arith.constant 31 : index
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             %[[P:.*]]:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 2xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, !ktdf.token, !ktdf.token) {
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK:               %[[NA:.*]] = arith.constant 4 : index
// CHECK:               %[[NB:.*]] = arith.constant 32 : index
// CHECK-NEXT:          scf.for %[[A:.*]] = %[[C0]] to %[[NA]] step %[[C1]] {
// CHECK-NEXT:            scf.for %[[BB:.*]] = %[[C0]] to %[[NB]] step %[[C1]] {
// CHECK-NEXT:              ktdf.data_transfer from %[[IN]][%[[B]], %[[A]], 0, %[[BB]]] size [1, 1, 2, 1] to %[[P]]#0 size [2] : memref<2x4x2x32xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf32>
// CHECK:                 } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:             } {applicable_units = ["L1LU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK:               %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK:               %[[NA:.*]] = arith.constant 4 : index
// CHECK:               %[[NB:.*]] = arith.constant 32 : index
// CHECK-NEXT:          %{{.*}} = scf.for %[[A:.*]] = %[[C0]] to %[[NA]] step %[[C1]] iter_args(%[[ACC_A:.*]] = %[[E]]) -> (tensor<2xf32>) {
// CHECK-NEXT:            %[[INNER:.*]] = scf.for %[[BB:.*]] = %[[C0]] to %[[NB]] step %[[C1]] iter_args(%[[ACC_B:.*]] = %[[ACC_A]]) -> (tensor<2xf32>) {
// CHECK-NEXT:              %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 2xf32> -> tensor<1x2x1xf32>
// CHECK-NEXT:              %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x2x1xf32>) outs(%[[ACC_B]] : tensor<2xf32>) {
// CHECK:                   %[[EA:.*]] = arith.cmpi eq, %[[A]], %[[LAST_A]] : index
// CHECK-NEXT:              %[[EB:.*]] = arith.cmpi eq, %[[BB]], %[[LAST_B]] : index
// CHECK-NEXT:              %[[IS_LAST:.*]] = arith.andi %[[EA]], %[[EB]] : i1
// CHECK-NEXT:              scf.if %[[IS_LAST]] {
// CHECK-NEXT:                ktdf.write_to_fifo %[[R]], %[[P]]#1 : tensor<2xf32>, <"SFU" -> "L1SU", 2xf32>
// CHECK:                   }
// CHECK:                   scf.yield %[[R]] : tensor<2xf32>
// CHECK:                 } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:                 scf.yield %[[INNER]] : tensor<2xf32>
// CHECK:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:             } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// CHECK:               %[[NA:.*]] = arith.constant 4 : index
// CHECK:               %[[NB:.*]] = arith.constant 32 : index
// CHECK-NEXT:          scf.for %[[A:.*]] = %[[C0]] to %[[NA]] step %[[C1]] {
// CHECK-NEXT:            scf.for %[[BB:.*]] = %[[C0]] to %[[NB]] step %[[C1]] {
// CHECK-NEXT:              %[[EA:.*]] = arith.cmpi eq, %[[A]], %[[LAST_A]] : index
// CHECK-NEXT:              %[[EB:.*]] = arith.cmpi eq, %[[BB]], %[[LAST_B]] : index
// CHECK-NEXT:              %[[IS_LAST:.*]] = arith.andi %[[EA]], %[[EB]] : i1
// CHECK-NEXT:              scf.if %[[IS_LAST]] {
// CHECK-NEXT:                ktdf.data_transfer from %[[P]]#1 size [2]

// CHUNKED-LABEL: func.func @block_sums(
// CHUNKED:       scf.for %[[BATCH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHUNKED:       scf.for %[[CA:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHUNKED-NEXT:    scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHUNKED:           arith.andi
// CHUNKED:           arith.constant 0 : index
// CHUNKED:           arith.constant 1 : index
// CHUNKED:           %[[LAST_A:.*]] = arith.constant 1 : index
// CHUNKED:           %[[LAST_B:.*]] = arith.constant 7 : index
// CHUNKED-NEXT:      ktdf.pipeline {
// CHUNKED:             ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 2xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, !ktdf.token, !ktdf.token)
// CHUNKED:             scf.for %[[A:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHUNKED-NEXT:          scf.for %[[BB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHUNKED-NEXT:            ktdf.data_transfer from %{{.*}}[%{{.*}}, %[[CA]] * 2 + %[[A]], %{{.*}}, %[[CB]] * 8 + %[[BB]]] size [1, 1, 2, 1] to %{{.*}}#0 size [2]

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d1)>
func.func @block_sums(%in: memref<2x4x2x32xf32, "L1">, %out: memref<2x2xf32, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 256xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, !ktdf.token, !ktdf.token) {
        %v = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf32>
        %w = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %v, %w, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%i, 0, 0, 0] size [1, 4, 2, 32] to %f#0 size [256] : memref<2x4x2x32xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf32>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %blk = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 256xf32> -> tensor<4x2x32xf32>
        %init = tensor.empty() : tensor<2xf32>
        %sum = linalg.generic {indexing_maps = [#id, #out], iterator_types = ["reduction", "parallel", "reduction"]} ins(%blk : tensor<4x2x32xf32>) outs(%init : tensor<2xf32>) {
        ^bb0(%a: f32, %acc: f32):
          %n = arith.addf %acc, %a : f32
          linalg.yield %n : f32
        } -> tensor<2xf32>
        ktdf.write_to_fifo %sum, %f#1 : tensor<2xf32>, <"SFU" -> "L1SU", 2xf32>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [2] to %out[%i, 0] size [1, 2] : !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, memref<2x2xf32, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}
