// RUN: dfsched-opt %s -split-input-file --device=sample --ktdf-to-ktdflowering | filecheck %s

// A program of several compute ops (Decision 47): its pipelines follow each other in the entry
// block, and every stage of a later one comes after the earlier one's last stages. Where the
// two conflict in memory (MNILU writes L1 that L1LU reads; L1SU writes L1 that L1LU reads), a
// signal follows the earlier pipeline, outside every execute_on, so every unit of both sees it.

// CHECK-LABEL: func.func @two_compute_ops
// CHECK:         %[[MNILU:.*]] = uniform.query_map
// CHECK:         %[[L1LU:.*]] = uniform.query_map
// CHECK:         %[[SFU:.*]] = uniform.query_map
// CHECK:         %[[L1SU:.*]] = uniform.query_map
// CHECK:         ktdf_lowering.execute_on %[[MNILU]] {
// CHECK:         ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[L1LU]], %[[SFU]], %[[L1SU]] {
// CHECK:         ktdf_lowering.signal %[[L1SU]], %[[L1LU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[L1LU]], %[[SFU]], %[[L1SU]] {
// CHECK-NOT:     ktdf_lowering.signal
// CHECK:         return
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
func.func @two_compute_ops(%x: memref<64xf16, "DDR">) attributes {grid = [2]} {
  %rows = memref.alloc() : memref<64xf16, "L1">
  %twice = memref.alloc() : memref<64xf16, "L1">
  %four = memref.alloc() : memref<64xf16, "L1">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0] size [64] to %rows[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
  }
  ktdf.pipeline {
    %in_q, %out_q, %t0, %t1 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
      %f0 = ktdf.fifo.allocate() -> !in
      %f1 = ktdf.fifo.allocate() -> !out
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f0, %f1, %k0, %k1 : !in, !out, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %rows[0] size [64] to %in_q size [64] : memref<64xf16, "L1">, !in
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %w = arith.addf %v, %v : tensor<64xf16>
      ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t1) depends_out(none) {
      ktdf.data_transfer from %out_q size [64] to %twice[0] size [64] : !out, memref<64xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  ktdf.pipeline {
    %in_q, %out_q, %t0, %t1 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
      %f0 = ktdf.fifo.allocate() -> !in
      %f1 = ktdf.fifo.allocate() -> !out
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f0, %f1, %k0, %k1 : !in, !out, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %twice[0] size [64] to %in_q size [64] : memref<64xf16, "L1">, !in
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %w = arith.addf %v, %v : tensor<64xf16>
      ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t1) depends_out(none) {
      ktdf.data_transfer from %out_q size [64] to %four[0] size [64] : !out, memref<64xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// One compute op after a hoisted load (broadcast-promotion's form): upstream's DAG, no signal
// between the two pipelines (the load's DMA unit orders them).
// CHECK-LABEL: func.func @one_compute_op
// CHECK-NOT:     ktdf_lowering.signal
// CHECK:         return
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
func.func @one_compute_op(%x: memref<64xf16, "DDR">) attributes {grid = [2]} {
  %rows = memref.alloc() : memref<64xf16, "L1">
  %twice = memref.alloc() : memref<64xf16, "L1">
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %x[0] size [64] to %rows[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
  }
  ktdf.pipeline {
    %in_q, %out_q, %t0, %t1 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
      %f0 = ktdf.fifo.allocate() -> !in
      %f1 = ktdf.fifo.allocate() -> !out
      %k0 = ktdf.create_token : !ktdf.token
      %k1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f0, %f1, %k0, %k1 : !in, !out, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t0) {
      ktdf.data_transfer from %rows[0] size [64] to %in_q size [64] : memref<64xf16, "L1">, !in
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%t0) depends_out(%t1) {
      %v = ktdf.read_from_fifo %in_q : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %w = arith.addf %v, %v : tensor<64xf16>
      ktdf.write_to_fifo %w, %out_q : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%t1) depends_out(none) {
      ktdf.data_transfer from %out_q size [64] to %twice[0] size [64] : !out, memref<64xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}
