// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=2,4" | filecheck %s --check-prefix=TWO
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=2,1" | filecheck %s --check-prefix=ONE
// RUN: dfsched-opt %s --reduction-dim-chunking="chunk-size-threshold=256" | filecheck %s --check-prefix=INFER
// RUN: dfsched-opt %s --reduction-dim-chunking="num-chunks=3,4" | filecheck %s --check-prefix=SKIP

// T[c] = sum_{a, b} X[a, c, b] over a 4x2x32 f32 block per batch iteration: two reduction
// dims that are not next to each other (iterators reduction, parallel, reduction).
//
// * num-chunks=2,4: a loop per dim, chunk offsets a * 2 and b * 8, first = both IVs zero;
// * num-chunks=2,1: only the first dim loops; the second is read whole, from 0 (as upstream,
//   its offset stays `0 * 32` in the map, with the loop-level zero as operand);
// * chunk-size-threshold=256 (the input is 1024 bytes): N = 4 for both dims, the smallest
//   count dividing 4 and 32 that brings a chunk to 256 bytes;
// * num-chunks=3,4: 3 does not divide 4, so the reduction is left alone.

// TWO:          ktdf.stage depends_in(%[[OUTER:.*]]#2) depends_out(%[[OUTER]]#3) {
// TWO-NEXT:       scf.for
// TWO:          %[[N0:.*]] = arith.constant 2 : index
// TWO:          %[[N1:.*]] = arith.constant 4 : index
// TWO:          %[[C0:.*]] = arith.constant 0 : index
// TWO:          %[[C1:.*]] = arith.constant 1 : index
// TWO-NEXT:     scf.for %[[I0:.*]] = %[[C0]] to %[[N0]] step %[[C1]] {
// TWO-NEXT:       scf.for %[[I1:.*]] = %[[C0]] to %[[N1]] step %[[C1]] {
// TWO-NEXT:         %[[E0:.*]] = arith.cmpi eq, %[[I0]], %[[C0]] : index
// TWO-NEXT:         %[[E1:.*]] = arith.cmpi eq, %[[I1]], %[[C0]] : index
// TWO-NEXT:         %[[FIRST:.*]] = arith.andi %[[E0]], %[[E1]] : i1
// TWO-NEXT:         ktdf.pipeline {
// TWO:                ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, !ktdf.token, !ktdf.token)
// TWO:                ktdf.data_transfer from %{{.*}}#0[%{{.*}}, %[[I0]] * 2, %[[L0:.*]], %[[I1]] * 8] size [1, 2, 2, 8] to %{{.*}}#0 size [32] : memref<2x4x2x32xf32, "L1">
// TWO:                scf.if %[[FIRST]] {
// TWO:                ktdf.read_from_fifo %{{.*}}#0 : <"L1LU" -> "SFU", 32xf32> -> tensor<2x2x8xf32>
// TWO-NEXT:           scf.if %[[FIRST]] -> (tensor<2xf32>) {

// ONE:          ktdf.stage depends_in(%[[OUTER:.*]]#2) depends_out(%[[OUTER]]#3) {
// ONE-NEXT:       scf.for
// ONE:          %[[N0:.*]] = arith.constant 2 : index
// ONE:          %[[N1:.*]] = arith.constant 1 : index
// ONE:          %[[C0:.*]] = arith.constant 0 : index
// ONE:          %[[C1:.*]] = arith.constant 1 : index
// ONE-NEXT:     scf.for %[[I0:.*]] = %[[C0]] to %[[N0]] step %[[C1]] {
// ONE-NEXT:       %[[FIRST:.*]] = arith.cmpi eq, %[[I0]], %[[C0]] : index
// ONE-NEXT:       ktdf.pipeline {
// ONE:              ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 128xf32>, !ktdf.fifo.slot<"L1LU" -> "SFU", 2xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, !ktdf.token, !ktdf.token)
// ONE:              ktdf.data_transfer from %{{.*}}#0[%{{.*}}, %[[I0]] * 2, %[[L0:.*]], %[[C0]] * 32] size [1, 2, 2, 32] to %{{.*}}#0 size [128]
// ONE:              ktdf.read_from_fifo %{{.*}}#0 : <"L1LU" -> "SFU", 128xf32> -> tensor<2x2x32xf32>

// INFER:        ktdf.stage depends_in(%[[OUTER:.*]]#2) depends_out(%[[OUTER]]#3) {
// INFER-NEXT:     scf.for
// INFER:        %[[N0:.*]] = arith.constant 4 : index
// INFER:        %[[N1:.*]] = arith.constant 4 : index
// INFER:        ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 16xf32>,
// INFER:        ktdf.data_transfer from %{{.*}}#0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} * 8] size [1, 1, 2, 8] to %{{.*}}#0 size [16]

// SKIP-NOT:     scf.if
// SKIP:         ktdf.read_from_fifo %{{.*}}#0 : <"L1LU" -> "SFU", 256xf32> -> tensor<4x2x32xf32>
// SKIP-NOT:     scf.if

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d1)>
module {
  func.func @block_sums(%x: memref<2x4x2x32xf32, "DDR">, %t: memref<2x2xf32, "DDR">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    ktdf.pipeline {
      %b:4 = ktdf.private -> (memref<2x4x2x32xf32, "L1">, memref<2x2xf32, "L1">, !ktdf.token, !ktdf.token) {
        %in = memref.alloc() : memref<2x4x2x32xf32, "L1">
        %out = memref.alloc() : memref<2x2xf32, "L1">
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %in, %out, %t0, %t1 : memref<2x4x2x32xf32, "L1">, memref<2x2xf32, "L1">, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%b#2) {
        scf.for %i = %c0 to %c2 step %c1 {
          ktdf.data_transfer from %x[%i, 0, 0, 0] size [1, 4, 2, 32] to %b#0[%i, 0, 0, 0] size [1, 4, 2, 32] : memref<2x4x2x32xf32, "DDR">, memref<2x4x2x32xf32, "L1">
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%b#2) depends_out(%b#3) {
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
              ktdf.data_transfer from %b#0[%i, 0, 0, 0] size [1, 4, 2, 32] to %f#0 size [256] : memref<2x4x2x32xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf32>
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%f#2) depends_out(%f#3) {
              %blk = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 256xf32> -> tensor<4x2x32xf32>
              %init = tensor.empty() : tensor<2xf32>
              %sum = linalg.generic {indexing_maps = [#id, #out], iterator_types = ["reduction", "parallel", "reduction"]} ins(%blk : tensor<4x2x32xf32>) outs(%init : tensor<2xf32>) {
              ^bb0(%in: f32, %acc: f32):
                %n = arith.addf %acc, %in : f32
                linalg.yield %n : f32
              } -> tensor<2xf32>
              ktdf.write_to_fifo %sum, %f#1 : tensor<2xf32>, <"SFU" -> "L1SU", 2xf32>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%f#3) depends_out(none) {
              ktdf.data_transfer from %f#1 size [2] to %b#1[%i, 0] size [1, 2] : !ktdf.fifo.slot<"SFU" -> "L1SU", 2xf32>, memref<2x2xf32, "L1">
            } {applicable_units = ["L1SU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      ktdf.stage depends_in(%b#3) depends_out(none) {
        scf.for %i = %c0 to %c2 step %c1 {
          ktdf.data_transfer from %b#1[%i, 0] size [1, 2] to %t[%i, 0] size [1, 2] : memref<2x2xf32, "L1">, memref<2x2xf32, "DDR">
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["MNISU"]}
    }
    return
  }
}
