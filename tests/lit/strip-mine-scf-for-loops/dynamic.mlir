// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --strip-mine-scf-for-loops | filecheck %s
// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --strip-mine-scf-for-loops=normalize-loops=false | filecheck %s --check-prefix=DENORM

// Dynamic mode: every single outermost loop (a nest of depth one with no loop around it,
// parallel or not) gets its own ktdf.tiling.reserve_size right before it and is strip-mined
// with it; by default both loops are then normalized.

// CHECK-DAG:   #[[TRIPS:.*]] = affine_map<()[s0] -> (96 ceildiv s0)>
// CHECK-DAG:   #[[START:.*]] = affine_map<(d0)[s0] -> (d0 * s0)>
// CHECK-DAG:   #[[LEN:.*]] = affine_map<(d0)[s0, s1] -> (-(d0 * s1) + s0)>
// CHECK-DAG:   #[[ELEM:.*]] = affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>
// CHECK-LABEL: func.func @single(
// CHECK-SAME:      %[[A:[^:]*]]: memref<96xf16>) {
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[C96:.*]] = arith.constant 96 : index
// CHECK-NEXT:    %[[R:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[C1]], %[[R]] : index
// CHECK-NEXT:    %[[N:.*]] = affine.apply #[[TRIPS]]()[%[[STEP]]]
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[O:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[T:.*]] = %[[Z]] to %[[N]] step %[[O]] {
// CHECK-NEXT:      %[[FIRST:.*]] = affine.apply #[[START]](%[[T]])[%[[STEP]]]
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[FIRST]], %[[STEP]] : index
// CHECK-NEXT:      %[[END:.*]] = arith.minsi %[[C96]], %[[NEXT]] : index
// CHECK-NEXT:      affine.apply #[[START]](%[[T]])[%[[STEP]]]
// CHECK-NEXT:      %[[LENGTH:.*]] = affine.apply #[[LEN]](%[[T]])[%[[END]], %[[STEP]]]
// CHECK:           %[[Z2:.*]] = arith.constant 0 : index
// CHECK:           %[[O2:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[P:.*]] = %[[Z2]] to %[[LENGTH]] step %[[O2]] {
// CHECK-NEXT:        %[[I:.*]] = affine.apply #[[ELEM]](%[[P]], %[[T]])[%[[STEP]]]
// CHECK-NEXT:        memref.load %[[A]][%[[I]]] : memref<96xf16>
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}

// DENORM-LABEL: func.func @single(
// DENORM:         %[[C1:.*]] = arith.constant 1 : index
// DENORM:         %[[C96:.*]] = arith.constant 96 : index
// DENORM-NEXT:    %[[R:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// DENORM-NEXT:    %[[STEP:.*]] = arith.muli %[[C1]], %[[R]] : index
// DENORM-NEXT:    scf.for %[[T:.*]] = %{{.*}} to %[[C96]] step %[[STEP]] {
// DENORM-NEXT:      %[[NEXT:.*]] = arith.addi %[[T]], %[[STEP]] : index
// DENORM-NEXT:      %[[END:.*]] = arith.minsi %[[C96]], %[[NEXT]] : index
// DENORM-NEXT:      scf.for %[[P:.*]] = %[[T]] to %[[END]] step %[[C1]] {
// DENORM-NEXT:        memref.load %{{.*}}[%[[P]]] : memref<96xf16>
func.func @single(%A: memref<96xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  scf.for %i = %c0 to %c96 step %c1 {
    %v = memref.load %A[%i] : memref<96xf16>
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// An imperfect nest: only its outer loop is strip-mined (the inner one has a loop around it);
// sibling loops get one placeholder each.

// CHECK-LABEL: func.func @imperfect_and_siblings(
// CHECK:         %[[R0:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    arith.muli %{{.*}}, %[[R0]] : index
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             "test.prologue"
// CHECK-NEXT:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          "test.body"
// CHECK:             }
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    %[[R1:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    arith.muli %{{.*}}, %[[R1]] : index
// CHECK:         "test.sibling"
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK:         return
func.func @imperfect_and_siblings(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    "test.prologue"() : () -> ()
    scf.for %j = %c0 to %m step %c1 {
      "test.body"() : () -> ()
    }
  }
  scf.for %k = %c0 to %m step %c1 {
    "test.sibling"() : () -> ()
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}

// -----

// Not strip-mining candidates: a perfect nest of parallel loops (a tiling candidate), and a
// single loop with a loop around it, even through a pipeline and a stage (only the outer loop,
// a lone outermost loop, is strip-mined there).

// CHECK-LABEL: func.func @not_candidates(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        "test.body"
// CHECK:         %[[R:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    arith.muli %{{.*}}, %[[R]] : index
// CHECK:         ktdf.stage
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        "test.body"
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK:         return
func.func @not_candidates(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      "test.body"() : () -> ()
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %i = %c0 to %n step %c1 {
    "test.outer"() : () -> ()
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        scf.for %j = %c0 to %n step %c1 {
          "test.body"() : () -> ()
        }
      }
    }
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}
