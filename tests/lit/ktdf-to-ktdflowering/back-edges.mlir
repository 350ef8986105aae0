// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering | filecheck %s

// Cross-iteration scratchpad dependencies. When a pipeline's last stage (L1SU) writes an L1
// buffer its first stage (L1LU) reads, and a loop around the pipeline with more than one
// iteration reaches the transfers (through their subscripts, or the conditions and bounds
// around them), the load stage waits for the previous iteration's store: a guarded signal at
// the start of the load stage (not on the first iteration) and at the end of the store
// stage (not on the last one).

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>

// A constant-address accumulator: only the condition around the load names the loop.
// CHECK-LABEL: func.func @accumulate
// CHECK:       %[[LU:.*]] = uniform.query_map
// CHECK:       %[[SFU:.*]] = uniform.query_map
// CHECK:       %[[SU:.*]] = uniform.query_map
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK:       scf.for %[[K:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[C0]] : index
// CHECK-NEXT:    ktdf_lowering.execute_on %[[LU]], %[[SFU]], %[[SU]] {
// CHECK:           ktdf_lowering.execute_on %[[LU]] {
// CHECK-NEXT:        %[[NOT_FIRST:.*]] = arith.cmpi ne, %[[K]], %[[C0]] : index
// CHECK-NEXT:        scf.if %[[NOT_FIRST]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[SU]], %[[LU]]
// CHECK:             }
// CHECK-NEXT:        scf.if %[[FIRST]] {
// CHECK:           ktdf_lowering.execute_on %[[SFU]] {
// CHECK:           ktdf_lowering.execute_on %[[SU]] {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK-NEXT:        %[[LAST:.*]] = arith.subi %[[C4]], %[[C1]] : index
// CHECK-NEXT:        %[[NOT_LAST:.*]] = arith.cmpi ne, %[[K]], %[[LAST]] : index
// CHECK-NEXT:        scf.if %[[NOT_LAST]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[SU]], %[[LU]]
// CHECK:             }
// CHECK:           }
// CHECK:         }
// CHECK:       }
func.func @accumulate(%acc: memref<1x64xf16, "L1">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    ktdf.pipeline {
      %q:4 = ktdf.private -> (!in, !out, !ktdf.token, !ktdf.token) {
        %fin = ktdf.fifo.allocate() -> !in
        %fout = ktdf.fifo.allocate() -> !out
        %t0 = ktdf.create_token : !ktdf.token
        %t1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %fin, %fout, %t0, %t1 : !in, !out, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#2) {
        scf.if %first {
          "test.zeros"(%q#0) : (!in) -> ()
        } else {
          ktdf.data_transfer from %acc[0, 0] size [1, 64] to %q#0 size [64] : memref<1x64xf16, "L1">, !in
        }
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%q#2) depends_out(%q#3) {
        %v = ktdf.read_from_fifo %q#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        ktdf.write_to_fifo %v, %q#1 : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%q#3) depends_out(none) {
        ktdf.data_transfer from %q#1 size [64] to %acc[0, 0] size [1, 64] : !out, memref<1x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}

// -----

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// Several loops: the guards combine every loop around the pipeline whose induction variable
// reaches the subscripts, in the order a last-in-first-out walk from the subscripts finds
// them (%j, then %i). A single-iteration loop (%u) is not a guard, nor is a loop inside the
// stage (%e). Written through a cast of the buffer, the store still counts.
// CHECK-LABEL: func.func @two_loops
// CHECK-SAME:  (%[[ACC:[^:]*]]: memref<?x3x64xf16, "L1">, %[[N:.*]]: index)
// CHECK:       %[[LU:.*]] = uniform.query_map
// CHECK:       uniform.query_map
// CHECK:       %[[SU:.*]] = uniform.query_map
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       arith.constant 8 : index
// CHECK-NEXT:  scf.for %[[I:[^ ]*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:    scf.for %[[U:[^ ]*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:[^ ]*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK:             ktdf_lowering.execute_on %[[LU]] {
// CHECK-NEXT:          %[[NJ:.*]] = arith.cmpi ne, %[[J]], %[[C0]] : index
// CHECK-NEXT:          %[[NI:.*]] = arith.cmpi ne, %[[I]], %[[C0]] : index
// CHECK-NEXT:          %[[BOTH:.*]] = arith.andi %[[NJ]], %[[NI]] : i1
// CHECK-NEXT:          scf.if %[[BOTH]] {
// CHECK-NEXT:            ktdf_lowering.signal %[[SU]], %[[LU]]
// CHECK:               }
// CHECK-NEXT:          scf.for
// CHECK:             ktdf_lowering.execute_on %[[SU]] {
// CHECK-NEXT:          memref.cast
// CHECK-NEXT:          ktdf.data_transfer
// CHECK-NEXT:          %[[LJ:.*]] = arith.subi %[[C3]], %[[C1]] : index
// CHECK-NEXT:          %[[NLJ:.*]] = arith.cmpi ne, %[[J]], %[[LJ]] : index
// CHECK-NEXT:          %[[LI:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:          %[[NLI:.*]] = arith.cmpi ne, %[[I]], %[[LI]] : index
// CHECK-NEXT:          %[[BOTH2:.*]] = arith.andi %[[NLJ]], %[[NLI]] : i1
// CHECK-NEXT:          scf.if %[[BOTH2]] {
// CHECK-NEXT:            ktdf_lowering.signal %[[SU]], %[[LU]]
// CHECK:               }
// CHECK:             }
func.func @two_loops(%acc: memref<?x3x64xf16, "L1">, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %u = %c0 to %c1 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        ktdf.pipeline {
          %q:3 = ktdf.private -> (!in, !ktdf.token, !ktdf.token) {
            %f = ktdf.fifo.allocate() -> !in
            %t0 = ktdf.create_token : !ktdf.token
            %t1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %f, %t0, %t1 : !in, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%q#1) {
            scf.for %e = %c0 to %c8 step %c1 {
              ktdf.data_transfer from %acc[%i + %u, %j, %e * 8] size [1, 1, 8] to %q#0 size [8] : memref<?x3x64xf16, "L1">, !in
            }
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%q#1) depends_out(%q#2) {
            "test.work"(%q#0) : (!in) -> ()
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%q#2) depends_out(none) {
            %view = memref.cast %acc : memref<?x3x64xf16, "L1"> to memref<?x?x64xf16, "L1">
            ktdf.data_transfer from %q#0 size [64] to %view[%i, %j, 0] size [1, 1, 64] : !in, memref<?x?x64xf16, "L1">
          } {applicable_units = ["L1SU"]}
        }
      }
    }
  }
  return
}

// -----

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// No back-edge: the store writes another buffer than the load reads; a one-stage pipeline;
// a loop inside the stages only (no loop around the pipeline reaches the transfers).
// CHECK-LABEL: func.func @independent
// CHECK-NOT:   arith.cmpi
// CHECK-NOT:   scf.if
// CHECK-NOT:   ktdf_lowering.signal
// CHECK:       return
func.func @independent(%src: memref<4x64xf16, "L1">, %dst: memref<4x64xf16, "L1">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %q:2 = ktdf.private -> (!in, !ktdf.token) {
        %f = ktdf.fifo.allocate() -> !in
        %t0 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %f, %t0 : !in, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%q#1) {
        ktdf.data_transfer from %src[%k, 0] size [1, 64] to %q#0 size [64] : memref<4x64xf16, "L1">, !in
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%q#1) depends_out(none) {
        ktdf.data_transfer from %q#0 size [64] to %dst[%k, 0] size [1, 64] : !in, memref<4x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %src[%k, 0] size [1, 64] to %src[%k, 0] size [1, 64] : memref<4x64xf16, "L1">, memref<4x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  ktdf.pipeline {
    %q:2 = ktdf.private -> (!in, !ktdf.token) {
      %f = ktdf.fifo.allocate() -> !in
      %t0 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %f, %t0 : !in, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%q#1) {
      scf.for %e = %c0 to %c4 step %c1 {
        ktdf.data_transfer from %src[%e, 0] size [1, 64] to %q#0 size [64] : memref<4x64xf16, "L1">, !in
      }
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%q#1) depends_out(none) {
      scf.for %e = %c0 to %c4 step %c1 {
        ktdf.data_transfer from %q#0 size [64] to %src[%e, 0] size [1, 64] : !in, memref<4x64xf16, "L1">
      }
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// The accumulator of every corelet: inside `ktdf.parallel` the guarded signals name the
// store and load units of both corelets.
// CHECK-LABEL: func.func @corelet_accumulate
// CHECK:       %[[LU0:.*]] = uniform.query_map
// CHECK:       %[[LU1:.*]] = uniform.query_map
// CHECK:       %[[SU0:.*]] = uniform.query_map
// CHECK:       %[[SU1:.*]] = uniform.query_map
// CHECK:       ktdf.parallel (%[[R:.*]], %{{.*}}) =
// CHECK-NEXT:    scf.for %[[K:[^ ]*]] =
// CHECK-NEXT:      arith.cmpi ugt, %[[K]]
// CHECK:           ktdf_lowering.execute_on %[[LU0]], %[[LU1]] {
// CHECK-NEXT:        %[[NF:.*]] = arith.cmpi ne, %[[K]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[NF]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[SU0]], %[[SU1]], %[[LU0]], %[[LU1]]
// CHECK:           ktdf_lowering.execute_on %[[SU0]], %[[SU1]] {
// CHECK-NEXT:        ktdf.data_transfer
// CHECK-NEXT:        arith.subi
// CHECK-NEXT:        arith.cmpi ne, %[[K]]
// CHECK-NEXT:        scf.if
// CHECK-NEXT:          ktdf_lowering.signal %[[SU0]], %[[SU1]], %[[LU0]], %[[LU1]]
func.func @corelet_accumulate(%acc: memref<2x64xf16, "L1">) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  ktdf.parallel (%r, %inst) = (%c0) to (%c2) step (%c1) distribute(num_instances = 2) {
    scf.for %k = %c0 to %c5 step %c1 {
      %later = arith.cmpi ugt, %k, %c0 : index
      ktdf.pipeline {
        %q:2 = ktdf.private -> (!in, !ktdf.token) {
          %f = ktdf.fifo.allocate() -> !in
          %t0 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %f, %t0 : !in, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%q#1) {
          scf.if %later {
            ktdf.data_transfer from %acc[%r, 0] size [1, 64] to %q#0 size [64] : memref<2x64xf16, "L1">, !in
          }
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%q#1) depends_out(none) {
          ktdf.data_transfer from %q#0 size [64] to %acc[%r, 0] size [1, 64] : !in, memref<2x64xf16, "L1">
        } {applicable_units = ["L1SU"]}
      }
    }
    ktdf.parallel_yield
  }
  return
}
