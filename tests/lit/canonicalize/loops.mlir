// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | dfsched-opt -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// A loop that runs once is replaced by its body, its induction variable by the lower bound.
// CHECK-LABEL: func.func @single_iteration
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    "test.use"(%[[C3]]) : (index) -> ()
// CHECK-NEXT:    return
func.func @single_iteration() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c3 to %c4 step %c64 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// The step may exceed the trip span (64 to 128 step 64 is one trip); the body keeps its
// ktdf structure and ops that use the IV see the lower bound.
// CHECK-LABEL: func.func @single_iteration_pipeline
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NOT:     scf.for
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        "test.use"(%[[C64]], %[[N]]) : (index, index) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @single_iteration_pipeline(%n: index) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c64 to %c128 step %c64 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.use"(%i, %n) : (index, index) -> ()
      }
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Loops that never run go away; with iter_args, their results are the initial values.
// CHECK-LABEL: func.func @zero_trip
// CHECK-SAME:    (%[[N:[^:]*]]: index, %[[X:[^:]*]]: f32)
// CHECK-NOT:     scf.for
// CHECK:         "test.use"(%[[X]]) : (f32) -> ()
// CHECK-NEXT:    return
func.func @zero_trip(%n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c8 to %c0 step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  scf.for %i = %n to %n step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  %r = scf.for %i = %c8 to %c8 step %c1 iter_args(%acc = %x) -> f32 {
    %y = arith.addf %acc, %acc : f32
    scf.yield %y : f32
  }
  "test.use"(%r) : (f32) -> ()
  return
}

// -----

// A single trip counted from an SSA value: `ub = lb + c` with c <= step.
// CHECK-LABEL: func.func @single_iteration_offset
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NOT:     scf.for
// CHECK:         "test.use"(%[[N]]) : (index) -> ()
func.func @single_iteration_offset(%n: index) {
  %c2 = arith.constant 2 : index
  %ub = arith.addi %n, %c2 : index
  scf.for %i = %n to %ub step %c2 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// Loops with several trips stay; an empty one that only forwards outside values is folded.
// CHECK-LABEL: func.func @several_trips
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      "test.use"(%[[I]]) : (index) -> ()
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
// CHECK:         "test.use"(%[[X]]) : (f32) -> ()
func.func @several_trips(%x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> f32 {
    scf.yield %x : f32
  }
  "test.use"(%r) : (f32) -> ()
  return
}

// -----

// Unknown trip counts stay as they are.
// CHECK-LABEL: func.func @unknown_trips
// CHECK:         scf.for
// CHECK:         scf.for
func.func @unknown_trips(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  scf.for %i = %c0 to %c4 step %n {
    "test.use"(%i) : (index) -> ()
  }
  return
}
