// RUN: dfsched-opt %s --reduction-loop-exposure | filecheck %s
// RUN: dfsched-opt %s --reduction-loop-exposure --reduction-loop-exposure | filecheck %s
// RUN: dfsched-opt %s --reduction-loop-exposure --disable-reduction-loop-exposure | filecheck %s --check-prefix=OFF

// Two rows of 48 f16 summed one row per batch iteration, straight from stage-coarsening
// (no chunking): every stage of the inner pipeline gets a reduction loop of 48 steps.
// * load: one element per step, at the loop IV in the row's reduction dim;
// * compute: the empty init seeds an accumulator carried by the loop, each step adds one
//   element, the sum goes to the output FIFO on step 47;
// * store: the transfer runs on step 47 only.
// The input slot shrinks from 48 elements to 1. Running the pass twice changes nothing more.

// OFF:         ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
// OFF-NOT:     reduction_loop

// CHECK-LABEL: func.func @row_sums(
// CHECK-SAME:      %[[IN:.*]]: memref<2x1x48xf16, "L1">, %[[OUT:.*]]: memref<2x1xf16, "L1">)
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[LAST:.*]] = arith.constant 47 : index
// CHECK:             %[[P:.*]]:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
// CHECK:             ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK:               %[[N:.*]] = arith.constant 48 : index
// CHECK-NEXT:          scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:            ktdf.data_transfer from %[[IN]][%[[ROW]], 0, %[[J]]] size [1, 1, 1] to %[[P]]#0 size [1] : memref<2x1x48xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
// CHECK:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:             } {applicable_units = ["L1LU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK:               %[[E:.*]] = tensor.empty() : tensor<1xf16>
// CHECK:               %[[N:.*]] = arith.constant 48 : index
// CHECK-NEXT:          %{{.*}} = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[E]]) -> (tensor<1xf16>) {
// CHECK-NEXT:            %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
// CHECK-NEXT:            %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x1xf16>) outs(%[[ACC]] : tensor<1xf16>) {
// CHECK:                 } -> tensor<1xf16>
// CHECK-NEXT:            %[[IS_LAST:.*]] = arith.cmpi eq, %[[J]], %[[LAST]] : index
// CHECK-NEXT:            scf.if %[[IS_LAST]] {
// CHECK-NEXT:              ktdf.write_to_fifo %[[R]], %[[P]]#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
// CHECK:                 }
// CHECK:                 scf.yield %[[R]] : tensor<1xf16>
// CHECK:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:             } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// CHECK:               %[[N:.*]] = arith.constant 48 : index
// CHECK-NEXT:          scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:            %[[IS_LAST:.*]] = arith.cmpi eq, %[[J]], %[[LAST]] : index
// CHECK-NEXT:            scf.if %[[IS_LAST]] {
// CHECK-NEXT:              ktdf.data_transfer from %[[P]]#1 size [1] to %[[OUT]][%[[ROW]], 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
// CHECK:                 }
// CHECK:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:             } {applicable_units = ["L1SU"]}
// CHECK-NOT:     reduction_loop

func.func @row_sums(%in: memref<2x1x48xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 48] to %f#0 size [48] : memref<2x1x48xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 48xf16> -> tensor<1x48xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x48xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
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
