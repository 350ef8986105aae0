// RUN: dfsched-opt %s -allow-unregistered-dialect > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -allow-unregistered-dialect > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | dfsched-opt -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// ktdf.parallel and its always-printed terminator ktdf.parallel_yield.

// One loop over two instances; block arguments print without types, num_instances only
// inside distribute(...), other attributes after the region.
// CHECK-LABEL: func.func @one_dim
// CHECK-SAME:    (%[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[ST:[^:]*]]: index)
// CHECK-NEXT:    ktdf.parallel (%[[M:[^,]*]], %[[INST:[^)]*]]) = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) distribute(num_instances = 2) {
// CHECK-NEXT:      "probe.body"(%[[M]], %[[INST]]) : (index, index) -> ()
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK-NEXT:    } {origin = "parallelize"}
// GENERIC-LABEL: sym_name = "one_dim"
// GENERIC:         "ktdf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}) <{num_instances = 2 : i64}> ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: index, %{{.*}}: index):
// GENERIC:           "ktdf.parallel_yield"() : () -> ()
func.func @one_dim(%lb: index, %ub: index, %st: index) {
  ktdf.parallel (%m, %inst) = (%lb) to (%ub) step (%st) distribute(num_instances = 2) {
    "probe.body"(%m, %inst) : (index, index) -> ()
    ktdf.parallel_yield
  } {origin = "parallelize"}
  return
}

// Two loops over four instances, wrapping a pipeline; an empty body keeps its yield.
// CHECK-LABEL: func.func @two_dims
// CHECK:         ktdf.parallel (%[[P:[^,]*]], %[[Q:[^,]*]], %[[I:[^)]*]]) = (%[[C0:[^,]*]], %[[C0]]) to (%{{[^,]*}}, %{{[^)]*}}) step (%[[C1:[^,]*]], %[[C1]]) distribute(num_instances = 4) {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          "probe.work"(%[[P]], %[[Q]], %[[I]])
// CHECK-NEXT:        } {applicable_units = ["SFU"]}
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.parallel_yield
// CHECK-NEXT:    }
// CHECK-NEXT:    ktdf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) distribute(num_instances = 1) {
// CHECK-NEXT:      ktdf.parallel_yield {note = "kept"}
// CHECK-NEXT:    }
func.func @two_dims() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  ktdf.parallel (%p, %q, %inst) = (%c0, %c0) to (%c6, %c9) step (%c1, %c1)
                                  distribute(num_instances = 4) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "probe.work"(%p, %q, %inst) : (index, index, index) -> ()
      } {applicable_units = ["SFU"]}
    }
    ktdf.parallel_yield
  }
  ktdf.parallel (%x, %i) = (%c0) to (%c1) step (%c1) distribute(num_instances = 1) {
    ktdf.parallel_yield {note = "kept"}
  }
  return
}
