// RUN: dfsched-opt %s --reduction-loop-exposure --map-reduction-partials --device=sample | filecheck %s

// Block sums over two reduction dims: the accumulator is carried through two nested
// reduction loops; both lose it, and the write on the last step sends the buffer.

// CHECK-LABEL: func.func @block_sums(
// CHECK:         ktdf.stage depends_in(%[[P:.*]]#2) depends_out(%[[P]]#3) {
// CHECK:           %[[ACC:.*]] = memref.alloc() : memref<2xf32, "SFU_REG">
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      linalg.fill ins(%[[ZERO]] : f32) outs(%[[ACC]] : memref<2xf32, "SFU_REG">)
// CHECK:           %[[NA:.*]] = arith.constant 4 : index
// CHECK:           %[[NB:.*]] = arith.constant 32 : index
// CHECK-NEXT:      scf.for %[[A:.*]] = %{{.*}} to %[[NA]] step %{{.*}} {
// CHECK-NEXT:        scf.for %[[B:.*]] = %{{.*}} to %[[NB]] step %{{.*}} {
// CHECK-NEXT:          %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 2xf32> -> memref<1x2x1xf32>
// CHECK-NEXT:          linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["reduction", "parallel", "reduction"]} ins(%[[X]] : memref<1x2x1xf32>) outs(%[[ACC]] : memref<2xf32, "SFU_REG">) {
// CHECK:               arith.andi
// CHECK-NEXT:          scf.if
// CHECK-NEXT:            ktdf.write_to_fifo %[[ACC]], %[[P]]#1 : memref<2xf32, "SFU_REG">
// CHECK:               }
// CHECK:             } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NOT:     tensor<

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
