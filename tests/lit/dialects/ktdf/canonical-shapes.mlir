// RUN: dfsched-opt %s -split-input-file > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -split-input-file > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -split-input-file --print-op-generic | dfsched-opt -split-input-file | filecheck %s

// The ScheduleIR shapes the scheduler passes build and consume (`docs/dialects.md#ktdf`),
// written as our own kernels: each parses, verifies and prints in upstream's
// syntax.

// A three-stage pipeline per row: DMA-in to a FIFO, a compute stage on the SFU, DMA-out.
// CHECK-LABEL: func.func @three_stages
// CHECK-SAME:    (%[[SRC:[^:]*]]: memref<8x32xf32, "L1">, %[[DST:[^:]*]]: memref<8x32xf32, "L1">)
// CHECK:         scf.for %[[ROW:[^ ]*]] =
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        %{{.*}} = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, !ktdf.token, !ktdf.token) {
// CHECK-NEXT:          %[[IN:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
// CHECK-NEXT:          %[[OUT:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>
// CHECK-NEXT:          %[[T0:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:          %[[T1:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:          ktdf.private_yield %[[IN]], %[[OUT]], %[[T0]], %[[T1]] : !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, !ktdf.token, !ktdf.token
// CHECK-NEXT:        }
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(%[[LOADED:[^)]*]]) {
// CHECK-NEXT:          ktdf.data_transfer from %[[SRC]][%[[ROW]], 0] size [1, 32] to %[[SLOT_IN:[^ ]*]] size [32] : memref<8x32xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
// CHECK-NEXT:        } {applicable_units = ["L1LU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[LOADED]]) depends_out(%[[COMPUTED:[^)]*]]) {
// CHECK-NEXT:          %[[A:.*]] = ktdf.read_from_fifo %[[SLOT_IN]] : <"L1LU" -> "SFU", 32xf32> -> tensor<32xf32>
// CHECK-NEXT:          %[[E:.*]] = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:          %[[R:.*]] = linalg.sqrt ins(%[[A]] : tensor<32xf32>) outs(%[[E]] : tensor<32xf32>) -> tensor<32xf32>
// CHECK-NEXT:          ktdf.write_to_fifo %[[R]], %[[SLOT_OUT:[^ ]*]] : tensor<32xf32>, <"SFU" -> "L1SU", 32xf32>
// CHECK-NEXT:        } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[COMPUTED]]) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[SLOT_OUT]] size [32] to %[[DST]][%[[ROW]], 0] size [1, 32] : !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, memref<8x32xf32, "L1">
// CHECK-NEXT:        } {applicable_units = ["L1SU"]}
// CHECK-NEXT:      }
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @three_stages(%src: memref<8x32xf32, "L1">, %dst: memref<8x32xf32, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %row = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      %r:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, !ktdf.token, !ktdf.token) {
        %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
        %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>
        %loaded = ktdf.create_token : !ktdf.token
        %computed = ktdf.create_token : !ktdf.token
        ktdf.private_yield %in, %out, %loaded, %computed : !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%r#2) {
        ktdf.data_transfer from %src[%row, 0] size [1, 32] to %r#0 size [32] : memref<8x32xf32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%r#2) depends_out(%r#3) {
        %a = ktdf.read_from_fifo %r#0 : <"L1LU" -> "SFU", 32xf32> -> tensor<32xf32>
        %e = tensor.empty() : tensor<32xf32>
        %s = linalg.sqrt ins(%a : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
        ktdf.write_to_fifo %s, %r#1 : tensor<32xf32>, <"SFU" -> "L1SU", 32xf32>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%r#3) depends_out(none) {
        ktdf.data_transfer from %r#1 size [32] to %dst[%row, 0] size [1, 32] : !ktdf.fifo.slot<"SFU" -> "L1SU", 32xf32>, memref<8x32xf32, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A coarsened outer stage that streams tiles from DDR and runs an inner pipeline per
// tile; its units are the union of the inner stages' units.
// CHECK-LABEL: func.func @nested
// CHECK-SAME:    (%[[DDR:[^:]*]]: memref<?xbf16, "DDR">, %[[TILES:[^:]*]]: index)
// CHECK:         ktdf.pipeline {
// CHECK-NEXT:      %[[DONE:.*]] = ktdf.private -> (!ktdf.token) {
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[DONE]]) {
// CHECK-NEXT:        scf.for %[[T:[^ ]*]] =
// CHECK-NEXT:          ktdf.pipeline {
// CHECK-NEXT:            %{{.*}} = ktdf.private -> (memref<128xbf16, "L1">, !ktdf.token) {
// CHECK-NEXT:              %[[BUF:.*]] = memref.alloc() : memref<128xbf16, "L1">
// CHECK-NEXT:              %[[TOK:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:              ktdf.private_yield %[[BUF]], %[[TOK]] : memref<128xbf16, "L1">, !ktdf.token
// CHECK-NEXT:            }
// CHECK-NEXT:            ktdf.stage depends_in(none) depends_out(%[[READY:[^)]*]]) {
// CHECK-NEXT:              ktdf.data_transfer from %[[DDR]][%[[T]] * 128] size [128] to %[[L1:[a-z0-9_#]+]][0] size [128] : memref<?xbf16, "DDR">, memref<128xbf16, "L1">
// CHECK-NEXT:            } {applicable_units = ["MNILU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[READY]]) depends_out(none) {
// CHECK-NEXT:              func.call @consume(%[[L1]]) : (memref<128xbf16, "L1">) -> ()
// CHECK-NEXT:            } {applicable_units = ["L1LU"]}
// CHECK-NEXT:          }
// CHECK-NEXT:        } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      } {applicable_units = ["MNILU", "L1LU"]}
// CHECK-NEXT:    }
func.func private @consume(memref<128xbf16, "L1">)
func.func @nested(%ddr: memref<?xbf16, "DDR">, %tiles: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf.pipeline {
    %done = ktdf.private -> (!ktdf.token) {
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%done) {
      scf.for %tile = %c0 to %tiles step %c1 {
        ktdf.pipeline {
          %buf, %ready = ktdf.private -> (memref<128xbf16, "L1">, !ktdf.token) {
            %b = memref.alloc() : memref<128xbf16, "L1">
            %k = ktdf.create_token : !ktdf.token
            ktdf.private_yield %b, %k : memref<128xbf16, "L1">, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%ready) {
            ktdf.data_transfer from %ddr[%tile * 128] size [128] to %buf[0] size [128] : memref<?xbf16, "DDR">, memref<128xbf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%ready) depends_out(none) {
            func.call @consume(%buf) : (memref<128xbf16, "L1">) -> ()
          } {applicable_units = ["L1LU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {applicable_units = ["MNILU", "L1LU"]}
  }
  return
}

// -----

// A loop distributed over two instances (corelets) around a pipeline.
// CHECK-LABEL: func.func @distributed
// CHECK:         ktdf.parallel (%[[M:[^,]*]], %[[INST:[^)]*]]) = (%{{[^)]*}}) to (%{{[^)]*}}) step (%{{[^)]*}}) distribute(num_instances = 2) {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          func.call @row(%[[M]], %[[INST]]) : (index, index) -> ()
// CHECK-NEXT:        } {applicable_units = ["SFU"]}
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK-NEXT:    }
func.func private @row(index, index)
func.func @distributed() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  ktdf.parallel (%m, %inst) = (%c0) to (%c32) step (%c1) distribute(num_instances = 2) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        func.call @row(%m, %inst) : (index, index) -> ()
      } {applicable_units = ["SFU"]}
    }
    ktdf.parallel_yield
  }
  return
}
