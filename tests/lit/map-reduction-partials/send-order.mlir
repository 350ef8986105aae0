// RUN: dfsched-opt %s --map-reduction-partials --device=sample | filecheck %s

// The slots between two units are one ordered FIFO in DataflowIR (README Decision 73): when a
// load stage sends B's row before A's element (here written by hand after reduction-loop-exposure,
// which itself sends in the contraction's operand order, Decision 69), the compute stage reads
// them in the order they are sent, whatever the generic's operand order.

// CHECK-LABEL: func.func @sent_b_first(
// CHECK:         linalg.fill
// CHECK:         scf.for
// CHECK-NEXT:      %[[Y:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> memref<1x64xf16>
// CHECK-NEXT:      %[[X:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 1xf16> -> memref<1x1xf16>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[X]], %[[Y]] : memref<1x1xf16>, memref<1x64xf16>)
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @sent_b_first(%arg0: memref<2x64xf16, "L1">, %arg1: memref<64x64xf16, "L1">, %arg2: memref<2x64xf16, "L1">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %arg3 = %c0 to %c2 step %c1 {
      %c0_0 = arith.constant 0 : index
      %c1_1 = arith.constant 1 : index
      %c63 = arith.constant 63 : index
      ktdf.pipeline {
        %0:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %1:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %3 = ktdf.create_token : !ktdf.token
          %4 = ktdf.create_token : !ktdf.token
          %5 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %1#0, %1#1, %2, %3, %4, %5 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%0#3) {
          %c64 = arith.constant 64 : index
          scf.for %arg4 = %c0_0 to %c64 step %c1_1 {
            ktdf.data_transfer from %arg1[%arg4, 0] size [1, 64] to %0#1 size [1, 64] : memref<64x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            ktdf.data_transfer from %arg0[%arg3, %arg4] size [1, 1] to %0#0 size [1, 1] : memref<2x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
          } {loop_type = #ktdf.loop_type<reduction_loop>}
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%0#3) depends_out(%0#4) {
          %1 = tensor.empty() : tensor<1x64xf16>
          %c64 = arith.constant 64 : index
          %2 = scf.for %arg4 = %c0_0 to %c64 step %c1_1 iter_args(%arg5 = %1) -> (tensor<1x64xf16>) {
            %3 = ktdf.read_from_fifo %0#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
            %4 = ktdf.read_from_fifo %0#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %5 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<1x1xf16>, tensor<1x64xf16>) outs(%arg5 : tensor<1x64xf16>) {
            ^bb0(%in: f16, %in_2: f16, %out: f16):
              %7 = arith.mulf %in, %in_2 : f16
              %8 = arith.addf %out, %7 : f16
              linalg.yield %8 : f16
            } -> tensor<1x64xf16>
            %6 = arith.cmpi eq, %arg4, %c63 : index
            scf.if %6 {
              ktdf.write_to_fifo %5, %0#2 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
            }
            scf.yield %5 : tensor<1x64xf16>
          } {loop_type = #ktdf.loop_type<reduction_loop>}
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%0#4) depends_out(%0#5) {
          %c64 = arith.constant 64 : index
          scf.for %arg4 = %c0_0 to %c64 step %c1_1 {
            %1 = arith.cmpi eq, %arg4, %c63 : index
            scf.if %1 {
              ktdf.data_transfer from %0#2 size [1, 64] to %arg2[%arg3, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<2x64xf16, "L1">
            }
          } {loop_type = #ktdf.loop_type<reduction_loop>}
        } {applicable_units = ["L1SU"]}
      }
    }
    return
  }
}
