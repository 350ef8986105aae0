// RUN: dfsched-opt %s --path-expansion --device=sample | filecheck %s

// C = A + B on a 2x128 f16 tile in DDR, as construct-three-stage-pipeline leaves it: one load
// stage moving both operands straight from DDR into FIFOs of the SFU, the add on the SFU,
// one store stage draining the result FIFO straight into DDR. The sample device has no
// such datapaths: DDR reaches the SFU through MNILU, the L1 scratchpad and L1LU, and the
// result goes back through L1SU, L1 and MNISU. The pipeline becomes five stages, one per
// unit, with a 1x64 L1 buffer where each route stops in L1.

// Upstream builds the buffer subscripts from a constant 0 per adapted transfer and leaves
// the constants behind (canonicalize removes them): three adapted transfers, three zeros.
// CHECK-LABEL: func.func @add_tile(
// CHECK-SAME:      %[[A:[a-z0-9_]+]]: memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, %[[B:[a-z0-9_]+]]: memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, %[[C:[a-z0-9_]+]]: memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">)
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 0 : index
// CHECK:         %{{.*}} = arith.constant 0 : index
// CHECK:         %{{.*}} = arith.constant 1 : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {

// The private: the new buffers and FIFOs in the order the stages first use them, then
// one token per stage that has a successor. The old DDR FIFOs and tokens are gone.
// CHECK:               %[[P:.*]]:10 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {

// MNILU: the original load stage, each transfer now ending in its L1 buffer.
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#6) {
// CHECK-NEXT:            ktdf.data_transfer from %[[A]][%[[I]], %[[J]]] size [1, 64] to %[[P]]#0[0, 0] size [1, 64] : memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:            ktdf.data_transfer from %[[B]][%[[I]], %[[J]]] size [1, 64] to %[[P]]#1[0, 0] size [1, 64] : memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, memref<1x64xf16, "L1">
// CHECK:               } {applicable_units = ["MNILU"]}

// L1LU: a new stage, L1 buffers into the SFU's FIFOs (the FIFO side sized by the slot).
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#6) depends_out(%[[P]]#7) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#0[0, 0] size [1, 64] to %[[P]]#2 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#1[0, 0] size [1, 64] to %[[P]]#3 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:               } {applicable_units = ["L1LU"]}

// SFU: the compute stage, reading and writing the retyped FIFOs.
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#7) depends_out(%[[P]]#8) {
// CHECK-NEXT:            %[[X:.*]] = ktdf.read_from_fifo %[[P]]#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:            %[[Y:.*]] = ktdf.read_from_fifo %[[P]]#3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK:                 %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:            %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>)
// CHECK:                 ktdf.write_to_fifo %[[SUM]], %[[P]]#4 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK:               } {applicable_units = ["SFU"]}

// L1SU: a new stage, the result FIFO into its L1 buffer.
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#8) depends_out(%[[P]]#9) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#4 size [64] to %[[P]]#5[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
// CHECK:               } {applicable_units = ["L1SU"]}

// MNISU: the original store stage, now reading the L1 buffer.
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#9) depends_out(none) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#5[0, 0] size [1, 64] to %[[C]][%[[I]], %[[J]]] size [1, 64] : memref<1x64xf16, "L1">, memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">
// CHECK:               } {applicable_units = ["MNISU"]}
// CHECK:             }
// CHECK:         return

#id = affine_map<(d0, d1) -> (d0, d1)>
!tile = memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">
module {
  func.func @add_tile(%a: !tile, %b: !tile, %c: !tile) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c128 step %c64 {
        ktdf.pipeline {
          %p:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
            %in:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
            %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            %t2 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %in#0, %in#1, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%p#3) {
            ktdf.data_transfer from %a[%i, %j] size [1, 64] to %p#0 size [1, 64] : memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
            ktdf.data_transfer from %b[%i, %j] size [1, 64] to %p#1 size [1, 64] : memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
          }
          ktdf.stage depends_in(%p#3) depends_out(%p#4) {
            %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %y = ktdf.read_from_fifo %p#1 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %e = tensor.empty() : tensor<1x64xf16>
            %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
            ^bb0(%u: f16, %v: f16, %w: f16):
              %s = arith.addf %u, %v : f16
              linalg.yield %s : f16
            } -> tensor<1x64xf16>
            ktdf.write_to_fifo %sum, %p#2 : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%p#4) depends_out(%p#5) {
            ktdf.data_transfer from %p#2 size [1, 64] to %c[%i, %j] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">
          }
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    return
  }
}
