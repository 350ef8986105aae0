// RUN: dfsched-opt %s --device=sample -parallelize-loops-across-instances | filecheck %s
// RUN: dfsched-opt %s --device=sample -parallelize-loops-across-instances --disable-parallelize-loops-across-instances | filecheck %s --check-prefix=OFF

// A vector pipeline of one sub-core of the sample device (L1LU -> SFU -> L1SU) runs once
// per row of a 6-row tile. Both sub-cores have those units, so the rows are spread over
// two instances, three each: the loop becomes a ktdf.parallel with the same bounds and
// step, its IV is the parallel's first block argument, the instance id the second.

// CHECK-LABEL: func.func @scale_rows(
// CHECK-SAME:      %[[TILE:[^:]+]]: memref<6x64xf16, "L1">, %[[OUT:[^:]+]]: memref<6x64xf16, "L1">)
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[C6:.+]] = arith.constant 6 : index
// CHECK-NEXT:    ktdf.parallel (%[[ROW:[^,]+]], %[[INST:[^)]+]]) = (%[[C0]]) to (%[[C6]]) step (%[[C1]]) distribute(num_instances = 2) {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             %[[P:.+]]:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:          ktdf.data_transfer from %[[TILE]][%[[ROW]], 0] size [1, 64] to %[[P]]#0 size [64]
// CHECK:             } {applicable_units = ["L1LU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK:             } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[P]]#1 size [64] to %[[OUT]][%[[ROW]], 0] size [1, 64]
// CHECK:             } {applicable_units = ["L1SU"]}
// CHECK:           }
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK:         }
// CHECK:         return

// OFF-LABEL: func.func @scale_rows(
// OFF-NOT:     ktdf.parallel
// OFF:         scf.for
// OFF-NOT:     ktdf.parallel

func.func @scale_rows(%tile: memref<6x64xf16, "L1">, %out: memref<6x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %row = %c0 to %c6 step %c1 {
    ktdf.pipeline {
      %in_q, %out_q, %t0, %t1 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
        %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %f0, %f1, %k0, %k1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %tile[%row, 0] size [1, 64] to %in_q size [64] : memref<6x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        %w = arith.addf %v, %v : tensor<64xf16>
        ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%t1) depends_out(none) {
        ktdf.data_transfer from %out_q size [64] to %out[%row, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<6x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
