// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect --device=sample -parallelize-loops-across-instances | filecheck %s

// Which loop around an SFU pipeline is spread over the sample device's two sub-cores
// (`docs/passes.md#parallelize-loops-across-instances`): among the parallel loops, outermost first, one whose trip
// count the 2 instances divide; else one with at least 2 iterations; else one whose trip
// count is unknown.

// Both loops split evenly (4 and 8 over 2): the outermost one wins.
// CHECK-LABEL: func.func @outermost_balanced(
// CHECK:         ktdf.parallel (%[[I:[^,]+]], %{{[^)]+}}) = (%{{.+}}) to (%[[C4:[^)]+]]) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:      scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.stage
// CHECK-NEXT:            "kernel.step"(%[[I]], %[[J]])
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK:         }
// CHECK:         return
func.func @outermost_balanced() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// The outer loop (5 iterations) does not split evenly over 2, the inner one (6) does:
// balance beats nesting.
// CHECK-LABEL: func.func @inner_balanced(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      ktdf.parallel (%[[J:[^,]+]], %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          ktdf.stage
// CHECK-NEXT:            "kernel.step"(%[[I]], %[[J]])
// CHECK:             ktdf.parallel_yield
// CHECK:           }
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @inner_balanced() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// No loop splits evenly; the outer one is too short (1 < 2), the inner one (7) is split
// into chunks of 4 and 3 (Decision 3: the trip count need not divide).
// CHECK-LABEL: func.func @imbalanced_fallback(
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      ktdf.parallel (%[[J:[^,]+]], %{{[^)]+}}) = (%[[C0:[^)]+]]) to (%[[C7:[^)]+]]) step (%{{.+}}) distribute(num_instances = 2) {
func.func @imbalanced_fallback() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c1_0 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A known trip count (3, uneven) is preferred to an unknown one, even further in.
// CHECK-LABEL: func.func @static_before_dynamic(
// CHECK-SAME:      %[[N:[^:]+]]: index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[N]] step
// CHECK-NEXT:      ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
func.func @static_before_dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Only the inner loop's trip count is unknown, and no static loop is long enough: the
// dynamic loop is taken.
// CHECK-LABEL: func.func @dynamic_last(
// CHECK-SAME:      %[[N:[^:]+]]: index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step
// CHECK-NEXT:      ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%[[N]]) step (%{{.+}}) distribute(num_instances = 2) {
func.func @dynamic_last(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  scf.for %i = %c0 to %c1_0 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Only parallel loops are spread: the outer reduction loop stays, the inner loop is taken.
// CHECK-LABEL: func.func @reduction_outer(
// CHECK:         scf.for
// CHECK-NEXT:      ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
func.func @reduction_outer() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  return
}

// -----

// Loops without a loop type are not known to be parallel.
// CHECK-LABEL: func.func @untyped_loops(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @untyped_loops() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } 
  } 
  return
}

// -----

// The bounds and step are kept: 2, 5, 8 (3 iterations) over 2 instances.
// CHECK-LABEL: func.func @offset_and_step(
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C11:.+]] = arith.constant 11 : index
// CHECK:         ktdf.parallel (%[[I:[^,]+]], %{{[^)]+}}) = (%[[C2]]) to (%[[C11]]) step (%[[C3]]) distribute(num_instances = 2) {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage
// CHECK-NEXT:          "kernel.step"(%[[I]])
func.func @offset_and_step() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  scf.for %i = %c2 to %c11 step %c3 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// One iteration cannot be spread over two instances.
// CHECK-LABEL: func.func @too_short(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
func.func @too_short() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A loop that never runs (upper bound below the lower one) has trip count 0.
// CHECK-LABEL: func.func @empty_loop(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
func.func @empty_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c8 to %c0 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// The loop's IV picks double-buffer copies: instances running at once would share the
// two copies, and the buffer-phase lowering needs the scf.for. It is not spread (upstream
// does not check this).
// CHECK-LABEL: func.func @double_buffered(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for %[[I:.+]] = 
// CHECK-NEXT:      ktdf.buffer_phase(%[[I]])
func.func @double_buffered() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %phase = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
    "kernel.use"(%phase) : (index) -> ()
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A loop carrying a value has results a ktdf.parallel cannot give; the next loop in
// the order is taken (upstream does not check this).
// CHECK-LABEL: func.func @carried_value(
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(
// CHECK-NEXT:      ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
func.func @carried_value(%init: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (index) {
    scf.for %j = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "kernel.step"(%i, %j) : (index, index) -> ()
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    %next = arith.addi %acc, %i : index
    scf.yield %next : index
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return %r : index
}

// -----

// The outer pipeline (a coarse stage of the sub-core units) is spread over its loop; the
// SFU pipeline inside that stage then already runs on both sub-cores, so its own loop stays.
// CHECK-LABEL: func.func @nested_pipelines(
// CHECK:         ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NOT:     ktdf.parallel (
// CHECK:         scf.for
// CHECK-NOT:     ktdf.parallel (
// CHECK:         ktdf.parallel_yield
// CHECK-NOT:     ktdf.parallel (
// CHECK:         return
func.func @nested_pipelines() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        scf.for %j = %c0 to %c4 step %c1 {
          ktdf.pipeline {
            ktdf.stage depends_in(none) depends_out(none) {
              "kernel.step"(%i, %j) : (index, index) -> ()
            } {applicable_units = ["SFU"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
