// RUN: dfsched-opt %s > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: dfsched-opt %s -cse | filecheck %s --check-prefix=CSE

// uniform ops: immutable maps (printed without spaces around `:`), queries, and the
// per-unit-list region ops.

// CHECK-LABEL: func.func @maps
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[F:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[U0:.*]] = dataflow.get_unit {name = "a", type = "lu"} : index
// CHECK-NEXT:    %[[U1:.*]] = dataflow.get_unit {name = "b", type = "lu"} : index
// CHECK-NEXT:    %[[M:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C0]]], [%[[U1]] -> %[[C3]]]):index
// CHECK-NEXT:    %[[MF:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[F]]]):index, f32
// CHECK-NEXT:    %{{.*}} = uniform.query_map(map:%[[M]], key:%[[U1]]) : index
// CHECK-NEXT:    %{{.*}} = uniform.query_map(map:%[[MF]], key:%[[U0]]) : f32
// GENERIC-LABEL: sym_name = "maps"
// GENERIC:         "uniform.def_immutable_mapping"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 2>}> : (index, index, index, index) -> index
// Identical maps are one value (the op has no memory effect).
// CSE-LABEL: func.func @maps
// CSE:         uniform.def_immutable_mapping([%{{.*}} -> %{{.*}}], [%{{.*}} -> %{{.*}}]):index
// CSE-NOT:     uniform.def_immutable_mapping([%{{.*}} -> %{{.*}}], [%{{.*}} -> %{{.*}}]):index
func.func @maps() -> (index, f32, index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 0.5 : f32
  %u0 = dataflow.get_unit {name = "a", type = "lu"} : index
  %u1 = dataflow.get_unit {name = "b", type = "lu"} : index
  %m = uniform.def_immutable_mapping( [%u0 -> %c0] , [%u1 -> %c3] ) : index
  %mf = uniform.def_immutable_mapping([%u0 -> %f]) : index, f32
  %q = uniform.query_map( map : %m, key : %u1 ) : index
  %qf = uniform.query_map(map:%mf, key:%u0) : f32
  %again = uniform.def_immutable_mapping([%u0 -> %c0], [%u1 -> %c3]):index
  %q2 = uniform.query_map(map:%again, key:%u1) : index
  return %q, %qf, %q2 : index, f32, index
}

// CHECK-LABEL: func.func @regions
// CHECK:         %[[U0:.*]] = dataflow.get_unit {name = "a", type = "lu"} : index
// CHECK-NEXT:    %[[U1:.*]] = dataflow.get_unit {name = "b", type = "lu"} : index
// CHECK-NEXT:    %[[U2:.*]] = dataflow.get_unit {name = "c", type = "lu"} : index
// CHECK-NEXT:    %[[G:.*]] = dataflow.create_group(%[[U2]] : index) : index
// CHECK-NEXT:    %{{.*}} = uniform.uniformize_regions -> index {
// CHECK-NEXT:      (%[[A:.*]] -> %[[U0]], %[[U1]]){
// CHECK-NEXT:        uniform.yield %[[A]] : index
// CHECK-NEXT:      }
// CHECK-NEXT:      (%[[B:.*]] -> %[[G]]){
// CHECK-NEXT:        uniform.yield %[[B]] : index
// CHECK-NEXT:      }
// CHECK-NEXT:    } {regIndices = [0 : i32, 1 : i32]}
// CHECK-NEXT:    uniform.uniformize_regions -> () {
// CHECK-NEXT:      (%{{.*}} -> %[[U2]]){
// CHECK-NEXT:        uniform.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    uniform.equalize_pattern {
// CHECK-NEXT:      (%[[X:.*]] -> %[[U0]]){
// CHECK-NEXT:        %{{.*}} = arith.addi %[[X]], %[[X]] : index
// CHECK-NEXT:        uniform.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      (%[[Y:.*]] -> %[[U1]]){
// CHECK-NEXT:        %{{.*}} = arith.addi %[[Y]], %[[Y]] : index
// CHECK-NEXT:        uniform.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "regions"
// GENERIC:         "uniform.uniformize_regions"(%{{.*}}, %{{.*}}, %{{.*}}) <{list_sizes = [2 : i32, 1 : i32], regIndices = [0 : i32, 1 : i32]}> ({
// GENERIC:         }) : (index, index, index) -> index
func.func @regions() {
  %u0 = dataflow.get_unit {name = "a", type = "lu"} : index
  %u1 = dataflow.get_unit {name = "b", type = "lu"} : index
  %u2 = dataflow.get_unit {name = "c", type = "lu"} : index
  %g = dataflow.create_group(%u2 : index) : index
  %r = uniform.uniformize_regions -> (index) {
    (%a -> %u0, %u1) {
      uniform.yield %a : index
    }
    (%b -> %g) {
      uniform.yield %b : index
    }
  } {regIndices = [0 : i32, 1 : i32]}
  uniform.uniformize_regions -> () {
    (%c -> %u2) {
    }
  }
  uniform.equalize_pattern {
    (%x -> %u0) {
      %s = arith.addi %x, %x : index
    }
    (%y -> %u1) {
      %t = arith.addi %y, %y : index
    }
  }
  return
}

// uniform.yield also terminates a plain function body.
// CHECK-LABEL: func.func @bare_yield
// CHECK-NEXT:    uniform.yield
// CHECK-NEXT:  }
func.func @bare_yield() {
  uniform.yield
}
