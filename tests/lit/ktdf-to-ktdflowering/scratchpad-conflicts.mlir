// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering | filecheck %s

// The five stages of an elementwise kernel on two cores. A signal follows a stage whose unit
// writes a memory the next stage's unit reads: MNILU writes L1 and L1LU reads it, L1SU writes
// L1 and MNISU reads it. L1LU -> SFU and SFU -> L1SU go through FIFOs: no signal. The
// pipeline's execute_on lists the stages' units in stage order.

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK-LABEL: func.func @elementwise
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       arith.constant 0 : index
// CHECK:       arith.constant 1 : index
// CHECK:       uniform.def_immutable_mapping
// CHECK-NEXT:  %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[SFU:.*]] = uniform.query_map
// CHECK:       %[[L1SU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]], %[[SFU]], %[[L1SU]], %[[MNISU]] {
// CHECK:         %[[A0:.*]] = arith.constant 0 : index
// CHECK:         %[[BUF:.*]] = builtin.unrealized_conversion_cast %[[A0]] : index to memref<64xf16, "L1">
// CHECK:         %[[A1:.*]] = arith.constant 128 : index
// CHECK:         %[[RES:.*]] = builtin.unrealized_conversion_cast %[[A1]] : index to memref<64xf16, "L1">
// CHECK:         %[[FIN:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK:         %[[FOUT:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK-COUNT-4: ktdf.create_token
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} to %[[BUF]]
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:      ktdf.data_transfer from %[[BUF]]{{.*}} to %[[FIN]]
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.execute_on %[[SFU]] {
// CHECK-NEXT:      ktdf.read_from_fifo %[[FIN]]
// CHECK:           tensor.empty
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      ktdf.write_to_fifo
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.execute_on %[[L1SU]] {
// CHECK-NEXT:      ktdf.data_transfer from %[[FOUT]]{{.*}} to %[[RES]]
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[L1SU]], %[[MNISU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:      ktdf.data_transfer from %[[RES]]
// CHECK:         }
// CHECK:       }
// CHECK:       return
func.func @elementwise(%x: memref<2x64xf16, "DDR">, %y: memref<2x64xf16, "DDR">) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  ktdf.pipeline {
    %p:8 = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "L1">, !in, !out, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
      %a0 = arith.constant 0 : index
      %buf = builtin.unrealized_conversion_cast %a0 : index to memref<64xf16, "L1">
      %a1 = arith.constant 128 : index
      %res = builtin.unrealized_conversion_cast %a1 : index to memref<64xf16, "L1">
      %fin = ktdf.fifo.allocate() -> !in
      %fout = ktdf.fifo.allocate() -> !out
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      %t2 = ktdf.create_token : !ktdf.token
      %t3 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %buf, %res, %fin, %fout, %t0, %t1, %t2, %t3 : memref<64xf16, "L1">, memref<64xf16, "L1">, !in, !out, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#4) {
      ktdf.data_transfer from %x[%t, 0] size [1, 64] to %p#0[0] size [64] : memref<2x64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#4) depends_out(%p#5) {
      ktdf.data_transfer from %p#0[0] size [64] to %p#2 size [64] : memref<64xf16, "L1">, !in
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#5) depends_out(%p#6) {
      %v = ktdf.read_from_fifo %p#2 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
      %e = tensor.empty() : tensor<64xf16>
      %r = linalg.exp ins(%v : tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
      ktdf.write_to_fifo %r, %p#3 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#6) depends_out(%p#7) {
      ktdf.data_transfer from %p#3 size [64] to %p#1[0] size [64] : !out, memref<64xf16, "L1">
    } {applicable_units = ["L1SU"]}
    ktdf.stage depends_in(%p#7) depends_out(none) {
      ktdf.data_transfer from %p#1[0] size [64] to %y[%t, 0] size [1, 64] : memref<64xf16, "L1">, memref<2x64xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  return
}

// -----

// One producer, two consumers (a fork): two signals anchored after the same stage. Edges
// are taken in IR order (the consumer written first first) and each signal goes right after
// the anchor, so the later one ends up closer to it. Units are made in the order stages use
// them (L1LU first), but the pipeline's execute_on lists them in the topological order of
// the stages (MNILU first); the stages' execute_ons stay where the stages were.

// CHECK-LABEL: func.func @fork
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]], %[[MNISU]] {
// CHECK:         ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:      "test.to_fifo"
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:      "test.load"
// CHECK:         }
// CHECK-NEXT:    ktdf_lowering.signal %[[MNILU]], %[[MNISU]]
// CHECK-NEXT:    ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:      "test.store"
// CHECK:         }
// CHECK:       }
func.func @fork() attributes {grid = [1]} {
  ktdf.pipeline {
    %p:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t0, %t1 : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(%p#0) depends_out(none) {
      "test.to_fifo"() : () -> ()
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(none) depends_out(%p#0, %p#1) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%p#1) depends_out(none) {
      "test.store"() : () -> ()
    } {applicable_units = ["MNISU"]}
  }
  return
}

// -----

// DDR is a memory too: MNISU writes it and MNILU reads it, so a load stage that waits for a
// store stage is signalled. Units of a stage with several kinds are all listed.
// CHECK-LABEL: func.func @store_then_load
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:    "test.store"
// CHECK:       }
// CHECK-NEXT:  ktdf_lowering.signal %[[MNISU]], %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:  ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]] {
// CHECK-NEXT:    "test.load"
func.func @store_then_load() attributes {grid = [1]} {
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      %t0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t0 : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t) {
      "test.store"() : () -> ()
    } {applicable_units = ["MNISU"]}
    ktdf.stage depends_in(%t) depends_out(none) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU", "L1LU"]}
  }
  return
}

// -----

// Two tokens between the same two stages are one dependency: one signal (upstream would
// insert it twice).
// CHECK-LABEL: func.func @two_tokens
// CHECK:       ktdf_lowering.signal
// CHECK-NOT:   ktdf_lowering.signal
// CHECK:       return
func.func @two_tokens() attributes {grid = [1]} {
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      %b = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %b : !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t#0, %t#1) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t#0, %t#1) depends_out(none) {
      "test.to_fifo"() : () -> ()
    } {applicable_units = ["L1LU"]}
  }
  return
}
