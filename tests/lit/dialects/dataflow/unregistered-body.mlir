// RUN: dfsched-opt %s -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect | dfsched-opt -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// A body ending in an unregistered op still gets its implicit dataflow.return (as in
// MLIR, an unknown op is not taken for a terminator), and the return stays hidden.

// CHECK-LABEL: func.func @opaque_body
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}) : {
// CHECK-NEXT:      "test.op"() : () -> ()
// CHECK-NEXT:    }
// GENERIC:       "test.op"() : () -> ()
// GENERIC-NEXT:  "dataflow.return"() : () -> ()
func.func @opaque_body() {
  %u = dataflow.get_unit {name = "DDR", type = "DDR"} : index
  dataflow.program_unit iter_arg : %arg0 -> (%u) : {
    "test.op"() : () -> ()
  }
  return
}
