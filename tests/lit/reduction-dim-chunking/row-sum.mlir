// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=8" | filecheck %s --check-prefixes=CHECK,N8
// RUN: dfsched-opt %s --reduction-dim-chunking="chunk-size-threshold=256" | filecheck %s --check-prefixes=CHECK,N4
// RUN: dfsched-opt %s --reduction-dim-chunking="chunk-size-threshold=100" | filecheck %s --check-prefixes=CHECK,N16
// RUN: dfsched-opt %s --reduction-dim-chunking | filecheck %s --check-prefix=NOOP
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=1" | filecheck %s --check-prefix=NOOP
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=3" | filecheck %s --check-prefix=NOOP
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=8" --disable-reduction-dim-chunking | filecheck %s --check-prefix=NOOP

// S[r] = sum_j A[r, j] over three rows of 512 f16, in the shape stage-coarsening leaves:
// the coarse stage's batch loop (one row per iteration) holds the inner load / compute /
// store pipeline, which moves a whole row (1024 bytes) through one FIFO slot.
//
// * num-chunks=8: eight chunks of 64 elements;
// * chunk-size-threshold=256: the smallest N with 1024 / N <= 256 is 4 (chunks of 128);
// * chunk-size-threshold=100: 1024 / N <= 100 needs N >= 11, and N must divide 512: 16;
// * the default threshold (1 MiB) needs one chunk, and one chunk (or a count that does not
//   divide 512) leaves the IR as it is.

// NOOP-LABEL: func.func @row_sums
// NOOP-NOT:     scf.if
// NOOP:         ktdf.data_transfer from %{{.*}}#0[%{{.*}}, 0, 0] size [1, 1, 512] to %{{.*}}#0 size [512]
// NOOP-NOT:     scf.if

// CHECK-LABEL: func.func @row_sums
// CHECK:         ktdf.stage depends_in(%[[OUTER:.*]]#2) depends_out(%[[OUTER]]#3) {
// CHECK-NEXT:      scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// N8:                %[[NC:.*]] = arith.constant 8 : index
// N4:                %[[NC:.*]] = arith.constant 4 : index
// N16:               %[[NC:.*]] = arith.constant 16 : index
// CHECK:             %[[C0:.*]] = arith.constant 0 : index
// CHECK:             %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:        scf.for %[[CHUNK:.*]] = %[[C0]] to %[[NC]] step %[[C1]] {
// CHECK-NEXT:          %[[FIRST:.*]] = arith.cmpi eq, %[[CHUNK]], %[[C0]] : index
// CHECK-NEXT:          ktdf.pipeline {
// N8:                    %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
// N4:                    %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
// N16:                   %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 32xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {

// The load stage: one chunk of the row, at chunk * size, and the running sum from the
// second chunk on.
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK:                   %[[L0:.*]] = arith.constant 0 : index
// CHECK:                   %[[L1:.*]] = arith.constant 1 : index
// CHECK-NEXT:              %[[LSUB:.*]] = arith.subi %[[ROW]], %[[L0]] : index
// CHECK-NEXT:              %[[LSLOT:.*]] = arith.divsi %[[LSUB]], %[[L1]] : index
// N8-NEXT:                 ktdf.data_transfer from %[[OUTER]]#0[%[[LSLOT]], %[[L0]], %[[CHUNK]] * 64] size [1, 1, 64] to %[[P]]#0 size [64] : memref<3x1x512xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// N4-NEXT:                 ktdf.data_transfer from %[[OUTER]]#0[%[[LSLOT]], %[[L0]], %[[CHUNK]] * 128] size [1, 1, 128] to %[[P]]#0 size [128] : memref<3x1x512xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 128xf16>
// N16-NEXT:                ktdf.data_transfer from %[[OUTER]]#0[%[[LSLOT]], %[[L0]], %[[CHUNK]] * 32] size [1, 1, 32] to %[[P]]#0 size [32] : memref<3x1x512xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf16>
// CHECK-NEXT:              scf.if %[[FIRST]] {
// CHECK:                   } else {
// CHECK-NEXT:                ktdf.data_transfer from %[[OUTER]]#1[%[[LSLOT]], %[[L0]]] size [1, 1] to %[[P]]#1 size [1] : memref<3x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
// CHECK:                   }
// CHECK:                 } {applicable_units = ["L1LU"]}

// The compute stage starts from the init on the first chunk, from the partial after.
// CHECK-NEXT:            ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// N8-NEXT:                 %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// N4-NEXT:                 %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 128xf16> -> tensor<1x128xf16>
// N16-NEXT:                %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 32xf16> -> tensor<1x32xf16>
// CHECK-NEXT:              %[[INIT:.*]] = scf.if %[[FIRST]] -> (tensor<1xf16>) {
// CHECK:                     %[[E:.*]] = tensor.empty() : tensor<1xf16>
// CHECK:                     scf.yield %[[E]] : tensor<1xf16>
// CHECK:                   } else {
// CHECK-NEXT:                %[[S:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1xf16>
// CHECK:                     scf.yield %[[S]] : tensor<1xf16>
// CHECK:                   }
// CHECK-NEXT:              %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x{{[0-9]+}}xf16>) outs(%[[INIT]] : tensor<1xf16>) {
// CHECK:                   } -> tensor<1xf16>
// CHECK-NEXT:              ktdf.write_to_fifo %[[R]], %[[P]]#2 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
// CHECK:                 } {applicable_units = ["SFU"]}

// The store stage writes the partial back after every chunk.
// CHECK-NEXT:            ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK:                   ktdf.data_transfer from %[[P]]#2 size [1] to %[[OUTER]]#1[{{.+}}] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<3x1xf16, "L1">
// CHECK:                 } {applicable_units = ["L1SU"]}
// CHECK:         } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NOT:     ktdf.fifo.slot<"L1LU" -> "SFU", 512xf16>

#rows = affine_map<(d0, d1) -> (d0, d1)>
#sums = affine_map<(d0, d1) -> (d0)>
module {
  func.func @row_sums(%a: memref<3x512xf16, "DDR">, %s: memref<3xf16, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    ktdf.pipeline {
      %b:4 = ktdf.private -> (memref<3x1x512xf16, "L1">, memref<3x1xf16, "L1">, !ktdf.token, !ktdf.token) {
        %in = memref.alloc() : memref<3x1x512xf16, "L1">
        %out = memref.alloc() : memref<3x1xf16, "L1">
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %in, %out, %t0, %t1 : memref<3x1x512xf16, "L1">, memref<3x1xf16, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%b#2) {
        scf.for %r = %c0 to %c3 step %c1 {
          ktdf.data_transfer from %a[%r, 0] size [1, 512] to %b#0[%r, 0, 0] size [1, 1, 512] : memref<3x512xf16, "DDR">, memref<3x1x512xf16, "L1">
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%b#2) depends_out(%b#3) {
        scf.for %r = %c0 to %c3 step %c1 {
          ktdf.pipeline {
            %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 512xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
              %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 512xf16>
              %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
              %u0 = ktdf.create_token : !ktdf.token
              %u1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 512xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%f#2) {
              ktdf.data_transfer from %b#0[%r, 0, 0] size [1, 1, 512] to %f#0 size [512] : memref<3x1x512xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 512xf16>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%f#2) depends_out(%f#3) {
              %row = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 512xf16> -> tensor<1x512xf16>
              %init = tensor.empty() : tensor<1xf16>
              %sum = linalg.generic {indexing_maps = [#rows, #sums], iterator_types = ["parallel", "reduction"]} ins(%row : tensor<1x512xf16>) outs(%init : tensor<1xf16>) {
              ^bb0(%in: f16, %acc: f16):
                %n = arith.addf %acc, %in : f16
                linalg.yield %n : f16
              } -> tensor<1xf16>
              ktdf.write_to_fifo %sum, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%f#3) depends_out(none) {
              ktdf.data_transfer from %f#1 size [1] to %b#1[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<3x1xf16, "L1">
            } {applicable_units = ["L1SU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      ktdf.stage depends_in(%b#3) depends_out(none) {
        scf.for %r = %c0 to %c3 step %c1 {
          ktdf.data_transfer from %b#1[%r, 0] size [1, 1] to %s[%r] size [1] : memref<3x1xf16, "L1">, memref<3xf16, "DDR">
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["MNISU"]}
    }
    return
  }
}
