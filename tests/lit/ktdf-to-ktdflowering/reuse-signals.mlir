// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering | filecheck %s

// Write-after-read across iterations (dfsched; upstream only orders a loop's store stage
// before the next iteration's load stage). A pipeline in a loop reuses its single-buffered L1
// buffers every iteration: MNILU fills %buf that L1LU reads, L1SU fills %res that MNISU
// drains. The signal after the writer orders its writes before the reads of the same
// iteration; the writer of the next iteration must also wait until the reader is done: a
// guarded signal at the start of the writer stage (not on the first iteration) pairs with one
// at the end of the reader stage (not on the last), with the reader's then the writer's units.

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK-LABEL: func.func @tiles
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[SFU:.*]] = uniform.query_map
// CHECK:       %[[L1SU:.*]] = uniform.query_map
// CHECK:       %[[MNISU:.*]] = uniform.query_map
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:  scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]], %[[SFU]], %[[L1SU]], %[[MNISU]] {
// CHECK:           ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:        %[[NF1:.*]] = arith.cmpi ne, %[[I]], %[[C0]] : index
// CHECK-NEXT:        scf.if %[[NF1]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[L1LU]], %[[MNILU]]
// CHECK:             }
// CHECK-NEXT:        ktdf.data_transfer
// CHECK:           }
// CHECK-NEXT:      ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:      ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK-NEXT:        %[[L1:.*]] = arith.subi %[[C4]], %[[C1]] : index
// CHECK-NEXT:        %[[NL1:.*]] = arith.cmpi ne, %[[I]], %[[L1]] : index
// CHECK-NEXT:        scf.if %[[NL1]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[L1LU]], %[[MNILU]]
// CHECK:             }
// CHECK:           }
// CHECK-NEXT:      ktdf_lowering.execute_on %[[SFU]] {
// CHECK-NOT:         ktdf_lowering.signal
// CHECK:           ktdf_lowering.execute_on %[[L1SU]] {
// CHECK-NEXT:        %[[NF2:.*]] = arith.cmpi ne, %[[I]], %[[C0]] : index
// CHECK-NEXT:        scf.if %[[NF2]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[MNISU]], %[[L1SU]]
// CHECK:             }
// CHECK-NEXT:        ktdf.data_transfer
// CHECK:           }
// CHECK-NEXT:      ktdf_lowering.signal %[[L1SU]], %[[MNISU]]
// CHECK-NEXT:      ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK-NEXT:        %[[L2:.*]] = arith.subi %[[C4]], %[[C1]] : index
// CHECK-NEXT:        %[[NL2:.*]] = arith.cmpi ne, %[[I]], %[[L2]] : index
// CHECK-NEXT:        scf.if %[[NL2]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[MNISU]], %[[L1SU]]
// CHECK:             }
// CHECK:           }
// CHECK:         }
// CHECK:       }
func.func @tiles(%x: memref<4x64xf16, "DDR">, %y: memref<4x64xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
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
        ktdf.data_transfer from %x[%i, 0] size [1, 64] to %p#0[0] size [64] : memref<4x64xf16, "DDR">, memref<64xf16, "L1">
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
        ktdf.data_transfer from %p#1[0] size [64] to %y[%i, 0] size [1, 64] : memref<64xf16, "L1">, memref<4x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Two loops around the pipeline (and a single-iteration one, which is no guard): the buffer
// is reused on every iteration of the nest, so the guards are "not the first / last iteration
// of the nest": one comparison per loop, outermost first, combined with `arith.ori`.
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-LABEL: func.func @nest
// CHECK-SAME:  (%{{[^:]*}}: memref<?x64xf16, "DDR">, %[[N:.*]]: index)
// CHECK:       %[[MNILU:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:  scf.for %[[I:[^ ]*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:    scf.for %[[U:[^ ]*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:[^ ]*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK:             ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:          %[[NI:.*]] = arith.cmpi ne, %[[I]], %[[C0]] : index
// CHECK-NEXT:          %[[NJ:.*]] = arith.cmpi ne, %[[J]], %[[C0]] : index
// CHECK-NEXT:          %[[NOT_FIRST:.*]] = arith.ori %[[NI]], %[[NJ]] : i1
// CHECK-NEXT:          scf.if %[[NOT_FIRST]] {
// CHECK-NEXT:            ktdf_lowering.signal %[[L1LU]], %[[MNILU]]
// CHECK:               }
// CHECK-NEXT:          ktdf.data_transfer
// CHECK:             }
// CHECK-NEXT:        ktdf_lowering.signal %[[MNILU]], %[[L1LU]]
// CHECK-NEXT:        ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:          ktdf.data_transfer
// CHECK-NEXT:          "test.sink"
// CHECK-NEXT:          %[[LI:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:          %[[NLI:.*]] = arith.cmpi ne, %[[I]], %[[LI]] : index
// CHECK-NEXT:          %[[LJ:.*]] = arith.subi %[[C3]], %[[C1]] : index
// CHECK-NEXT:          %[[NLJ:.*]] = arith.cmpi ne, %[[J]], %[[LJ]] : index
// CHECK-NEXT:          %[[NOT_LAST:.*]] = arith.ori %[[NLI]], %[[NLJ]] : i1
// CHECK-NEXT:          scf.if %[[NOT_LAST]] {
// CHECK-NEXT:            ktdf_lowering.signal %[[L1LU]], %[[MNILU]]
// CHECK:               }
// CHECK:             }
func.func @nest(%x: memref<?x64xf16, "DDR">, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %u = %c0 to %c1 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        ktdf.pipeline {
          %p:3 = ktdf.private -> (memref<64xf16, "L1">, !in, !ktdf.token) {
            %a0 = arith.constant 0 : index
            %buf = builtin.unrealized_conversion_cast %a0 : index to memref<64xf16, "L1">
            %fin = ktdf.fifo.allocate() -> !in
            %t0 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %buf, %fin, %t0 : memref<64xf16, "L1">, !in, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%p#2) {
            ktdf.data_transfer from %x[%i, 0] size [1, 64] to %p#0[0] size [64] : memref<?x64xf16, "DDR">, memref<64xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%p#2) depends_out(none) {
            ktdf.data_transfer from %p#0[0] size [64] to %p#1 size [64] : memref<64xf16, "L1">, !in
            "test.sink"(%p#1) : (!in) -> ()
          } {applicable_units = ["L1LU"]}
        }
      }
    }
  }
  return
}

// -----

// Double-buffered (a `select_memref` of a `buffer_phase`): the writer of the next iteration
// fills the other copy, and it cannot come back to this one before the reader has passed
// the signal after the writer of that next iteration: no guarded signal. Nor is there one
// when the only loop runs once.
// CHECK-LABEL: func.func @double_buffered
// CHECK-NOT:   scf.if
// CHECK:       ktdf_lowering.signal
// CHECK-NOT:   scf.if
// CHECK-LABEL: func.func @one_iteration
// CHECK-NOT:   scf.if
// CHECK:       ktdf_lowering.signal
// CHECK-NOT:   scf.if
!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
func.func @double_buffered(%x: memref<?x64xf16, "DDR">, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = arith.constant 0 : index
  %b0 = builtin.unrealized_conversion_cast %a0 : index to memref<64xf16, "L1">
  %a1 = arith.constant 128 : index
  %b1 = builtin.unrealized_conversion_cast %a1 : index to memref<64xf16, "L1">
  scf.for %i = %c0 to %n step %c1 {
    %ph = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
    %buf = ktdf.select_memref %ph[%b0, %b1] : memref<64xf16, "L1">
    ktdf.pipeline modulo(size : 2) {
      %p:2 = ktdf.private -> (!in, !ktdf.token) {
        %fin = ktdf.fifo.allocate() -> !in
        %t0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %fin, %t0 : !in, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#1) {
        ktdf.data_transfer from %x[%i, 0] size [1, 64] to %buf[0] size [64] : memref<?x64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#1) depends_out(none) {
        ktdf.data_transfer from %buf[0] size [64] to %p#0 size [64] : memref<64xf16, "L1">, !in
        "test.sink"(%p#0) : (!in) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}
func.func @one_iteration(%x: memref<?x64xf16, "DDR">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    ktdf.pipeline {
      %p:3 = ktdf.private -> (memref<64xf16, "L1">, !in, !ktdf.token) {
        %a0 = arith.constant 0 : index
        %buf = builtin.unrealized_conversion_cast %a0 : index to memref<64xf16, "L1">
        %fin = ktdf.fifo.allocate() -> !in
        %t0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %buf, %fin, %t0 : memref<64xf16, "L1">, !in, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %x[%i, 0] size [1, 64] to %p#0[0] size [64] : memref<?x64xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%p#2) depends_out(none) {
        ktdf.data_transfer from %p#0[0] size [64] to %p#1 size [64] : memref<64xf16, "L1">, !in
        "test.sink"(%p#1) : (!in) -> ()
      } {applicable_units = ["L1LU"]}
    }
  }
  return
}
