// RUN: dfsched-opt %s -split-input-file --device=sample -parallelize-loops-across-instances | filecheck %s

// A function whose entry block runs several computing pipelines one after the other (a
// program of several compute ops, Decision 47) stays on one corelet: none of its loops is
// spread. One such pipeline alone is spread as usual.

// CHECK-LABEL: func.func @two_in_sequence(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
module {
  func.func @two_in_sequence(%a: memref<6x64xf16, "L1">, %b: memref<6x64xf16, "L1">, %c: memref<6x64xf16, "L1">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        scf.for %row = %c0 to %c6 step %c1 {
          ktdf.pipeline {
            %in_q, %out_q, %t0, %t1 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
              %f0 = ktdf.fifo.allocate() -> !in
              %f1 = ktdf.fifo.allocate() -> !out
              %k0 = ktdf.create_token : !ktdf.token
              %k1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %f0, %f1, %k0, %k1 : !in, !out, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              ktdf.data_transfer from %a[%row, 0] size [1, 64] to %in_q size [64] : memref<6x64xf16, "L1">, !in
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
              %w = arith.addf %v, %v : tensor<64xf16>
              ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%t1) depends_out(none) {
              ktdf.data_transfer from %out_q size [64] to %b[%row, 0] size [1, 64] : !out, memref<6x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    }
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        scf.for %row = %c0 to %c6 step %c1 {
          ktdf.pipeline {
            %in_q, %out_q, %t0, %t1 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
              %f0 = ktdf.fifo.allocate() -> !in
              %f1 = ktdf.fifo.allocate() -> !out
              %k0 = ktdf.create_token : !ktdf.token
              %k1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %f0, %f1, %k0, %k1 : !in, !out, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              ktdf.data_transfer from %b[%row, 0] size [1, 64] to %in_q size [64] : memref<6x64xf16, "L1">, !in
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
              %w = arith.addf %v, %v : tensor<64xf16>
              ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%t1) depends_out(none) {
              ktdf.data_transfer from %out_q size [64] to %c[%row, 0] size [1, 64] : !out, memref<6x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @alone(
// CHECK:         ktdf.parallel
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
module {
  func.func @alone(%a: memref<6x64xf16, "L1">, %b: memref<6x64xf16, "L1">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        scf.for %row = %c0 to %c6 step %c1 {
          ktdf.pipeline {
            %in_q, %out_q, %t0, %t1 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
              %f0 = ktdf.fifo.allocate() -> !in
              %f1 = ktdf.fifo.allocate() -> !out
              %k0 = ktdf.create_token : !ktdf.token
              %k1 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %f0, %f1, %k0, %k1 : !in, !out, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              ktdf.data_transfer from %a[%row, 0] size [1, 64] to %in_q size [64] : memref<6x64xf16, "L1">, !in
            } {applicable_units = ["L1LU"]}
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
              %w = arith.addf %v, %v : tensor<64xf16>
              ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%t1) depends_out(none) {
              ktdf.data_transfer from %out_q size [64] to %b[%row, 0] size [1, 64] : !out, memref<6x64xf16, "L1">
            } {applicable_units = ["L1SU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    }
    return
  }
}
