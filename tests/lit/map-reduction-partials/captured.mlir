// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=2" --reduction-loop-exposure="lane-wide=false" --map-reduction-partials --device=sample | filecheck %s
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=2" --reduction-loop-exposure --map-reduction-partials --device=sample | filecheck %s --check-prefix=LANES

// S[r] = sum_j 0.5 * A[r, j]: the generic's body uses a constant defined in the compute
// stage. Each rebuilt compute stage keeps a copy of it in front of the reduction, so the
// body still sees it after chunking, loop exposure and the move to a buffer.
// Lane-wide (Decision 65; the default, LANES): each chunk of 32 is one step into 32 partials
// whose body keeps the constant; the lane combine on the chunk's last step only adds, into
// the accumulator the previous chunk's partial result was copied into.

// LANES-LABEL: func.func @half_sums
// LANES:         %[[ACC:.*]] = memref.alloc() : memref<1xf16, "SFU_REG">
// LANES:         %[[LANES:.*]] = memref.alloc() : memref<1x32xf16, "SFU_REG">
// LANES:           memref.copy %{{.*}}, %[[ACC]]
// LANES:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
// LANES:         linalg.fill ins(%{{.*}} : f16) outs(%[[LANES]] : memref<1x32xf16, "SFU_REG">)
// LANES:           linalg.generic {{.*}} outs(%[[LANES]] : memref<1x32xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 32 : index} {
// LANES:           ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16):
// LANES-NEXT:        %[[M:.*]] = arith.mulf %[[A]], %[[HALF]] : f16
// LANES:             linalg.generic {{.*}} ins(%[[LANES]] : memref<1x32xf16, "SFU_REG">) outs(%[[ACC]] : memref<1xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 32 : index} {
// LANES:             ^bb0(%[[IN:.*]]: f16, %[[OUT:.*]]: f16):
// LANES-NEXT:          arith.addf %[[OUT]], %[[IN]] : f16

// CHECK-LABEL: func.func @half_sums
// CHECK:         ktdf.stage depends_in(%[[P:.*]]#3) depends_out(%[[P]]#4) {
// CHECK:           %[[ACC:.*]] = memref.alloc() : memref<1xf16, "SFU_REG">
// CHECK-NEXT:      scf.if
// CHECK:             memref.copy
// CHECK:           }
// CHECK:           %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
// CHECK:           %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        %[[X:.*]] = ktdf.read_from_fifo
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[X]] : memref<1x1xf16>) outs(%[[ACC]] : memref<1xf16, "SFU_REG">) {
// CHECK:             ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16):
// CHECK-NEXT:          %[[M:.*]] = arith.mulf %[[A]], %[[HALF]] : f16
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[B]], %[[M]] : f16
// CHECK:               linalg.yield %[[S]] : f16

func.func @half_sums(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %half = arith.constant 0.5 : f16
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %m = arith.mulf %a, %half : f16
          %n = arith.addf %b, %m : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}
