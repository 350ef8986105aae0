// RUN: dfsched-opt %s -split-input-file --normalize-scf-for-loops --allow-unregistered-dialect | filecheck %s

// lb = 1: the loop runs 0..15; before it come the new lower bound, upper bound and step, and
// each use of the induction variable gets its own `iv + 1` right before it, even in nested
// regions. Attributes stay on the loop.
// CHECK-DAG:   #[[PLUS1:.*]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-LABEL: func.func @lower_bound
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C15:.*]] = arith.constant 15 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C15]] step %[[C1]] {
// CHECK-NEXT:      %[[A:.*]] = affine.apply #[[PLUS1]](%[[I]])
// CHECK-NEXT:      %[[B:.*]] = affine.apply #[[PLUS1]](%[[I]])
// CHECK-NEXT:      "test.use"(%[[A]], %[[B]]) : (index, index) -> ()
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          %[[C:.*]] = affine.apply #[[PLUS1]](%[[I]])
// CHECK-NEXT:          "test.use"(%[[C]]) : (index) -> ()
// CHECK:             }
// CHECK:           }
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @lower_bound() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c1 to %c16 step %c1 {
    "test.use"(%i, %i) : (index, index) -> ()
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.use"(%i) : (index) -> ()
      }
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// step = 64 over [0, 192): 3 trips, the index is `iv * 64`; a trip count that the step does
// not divide rounds up.
// CHECK-DAG:   #[[TIMES64:.*]] = affine_map<(d0) -> (d0 * 64)>
// CHECK-DAG:   #[[STEP3:.*]] = affine_map<(d0) -> (d0 * 3 + 2)>
// CHECK-LABEL: func.func @step
// CHECK:         arith.constant 192 : index
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[O:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[Z]] to %[[C3]] step %[[O]] {
// CHECK-NEXT:      %[[A:.*]] = affine.apply #[[TIMES64]](%[[I]])
// CHECK-NEXT:      "test.use"(%[[A]]) : (index) -> ()
// CHECK:         }
// CHECK:         arith.constant 0 : index
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[J:.*]] = %{{.*}} to %[[C4]] step %{{.*}} {
// CHECK-NEXT:      %[[B:.*]] = affine.apply #[[STEP3]](%[[J]])
// CHECK-NEXT:      "test.use"(%[[B]]) : (index) -> ()
func.func @step() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  scf.for %i = %c0 to %c192 step %c64 {
    "test.use"(%i) : (index) -> ()
  }
  scf.for %j = %c2 to %c12 step %c3 {
    "test.use"(%j) : (index) -> ()
  }
  return
}

// -----

// Bounds that are not constants: the trip count is an affine.apply before the loop.
// CHECK-DAG:   #[[TRIPS:.*]] = affine_map<()[s0] -> ((s0 - 2) ceildiv 4)>
// CHECK-DAG:   #[[IV:.*]] = affine_map<(d0) -> (d0 * 4 + 2)>
// CHECK-DAG:   #[[TRIPS2:.*]] = affine_map<()[s0, s1, s2] -> ((-s0 + s1) ceildiv s2)>
// CHECK-DAG:   #[[IV2:.*]] = affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[N:[^:]*]]: index, %[[L:[^:]*]]: index, %[[S:[^:]*]]: index)
// CHECK:         %[[UB:.*]] = affine.apply #[[TRIPS]]()[%[[N]]]
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT:      %[[A:.*]] = affine.apply #[[IV]](%[[I]])
// CHECK-NEXT:      "test.use"(%[[A]]) : (index) -> ()
// CHECK:         %[[UB2:.*]] = affine.apply #[[TRIPS2]]()[%[[L]], %[[N]], %[[S]]]
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[UB2]] step %{{.*}} {
// CHECK-NEXT:      %[[B:.*]] = affine.apply #[[IV2]](%[[J]])[%[[L]], %[[S]]]
func.func @dynamic(%n: index, %l: index, %s: index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c2 to %n step %c4 {
    "test.use"(%i) : (index) -> ()
  }
  scf.for %j = %l to %n step %s {
    "test.use"(%j) : (index) -> ()
  }
  return
}

// -----

// Loops that already count from 0 by 1 are left exactly as they are.
// CHECK-LABEL: func.func @already_normal
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C1]] {
// CHECK-NEXT:      "test.use"(%[[I]]) : (index) -> ()
// CHECK:         }
// CHECK:         return
func.func @already_normal(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// Integer-typed loops are normalized with arith ops and constants of the loop's type.
// CHECK-LABEL: func.func @integer_loop
// CHECK:         %[[C0:.*]] = arith.constant 0 : i32
// CHECK:         %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] : i32 {
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK-NEXT:      %[[A:.*]] = arith.addi %[[M]], %{{.*}} : i32
// CHECK-NEXT:      "test.use"(%[[A]]) : (i32) -> ()
func.func @integer_loop() {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c9 = arith.constant 9 : i32
  scf.for %i = %c1 to %c9 step %c2 : i32 {
    "test.use"(%i) : (i32) -> ()
  }
  return
}
