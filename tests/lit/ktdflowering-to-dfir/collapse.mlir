// RUN: dfsched-opt %s --device=sample --allow-unregistered-dialect --ktdflowering-to-dfir | filecheck %s

// Arithmetic over per-unit constants folds into the lookups. The tile id becomes a lookup
// of each unit's core (0, 1); times 3 gives [0, 3]; 10 minus that [10, 7] (the constant on
// the left); its remainder and quotient by 4 [2, 3] and [2, 1]; the sum of those two lookups
// over the same key [4, 4]. A lookup keyed by something else is not merged: that addition
// stays.

// CHECK-LABEL: func.func @collapse(
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK:         %[[U0:.*]] = dataflow.get_unit {core = 0 : i32
// CHECK:         %[[U1:.*]] = dataflow.get_unit {core = 1 : i32
// CHECK:         %[[OTHER:.*]] = uniform.query_map(map:%{{.*}}, key:%{{.*}}) : index
// CHECK:         dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[U0]], %[[U1]]) : {
// CHECK-DAG:       %[[MA:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %{{.*}}], [%[[U1]] -> %[[C3]]]):index
// CHECK-DAG:       %[[MB:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C10]]], [%[[U1]] -> %[[C7]]]):index
// CHECK-DAG:       %[[MC:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C2]]], [%[[U1]] -> %[[C3]]]):index
// CHECK-DAG:       %[[MD:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C2]]], [%[[U1]] -> %[[C1]]]):index
// CHECK-DAG:       %[[ME:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C4]]], [%[[U1]] -> %[[C4]]]):index
// CHECK-DAG:       %[[A:.*]] = uniform.query_map(map:%[[MA]], key:%[[IT]]) : index
// CHECK-DAG:       %[[B:.*]] = uniform.query_map(map:%[[MB]], key:%[[IT]]) : index
// CHECK-DAG:       %[[C:.*]] = uniform.query_map(map:%[[MC]], key:%[[IT]]) : index
// CHECK-DAG:       %[[D:.*]] = uniform.query_map(map:%[[MD]], key:%[[IT]]) : index
// CHECK-DAG:       %[[E:.*]] = uniform.query_map(map:%[[ME]], key:%[[IT]]) : index
// CHECK-DAG:       %[[F:.*]] = arith.addi %[[A]], %[[OTHER]] : index
// CHECK:           "test.use"(%[[B]], %[[C]], %[[D]], %[[E]], %[[F]])
// CHECK-NOT:       arith.muli
// CHECK-NOT:       arith.subi
// CHECK-NOT:       arith.remui
// CHECK-NOT:       arith.divui
func.func @collapse() attributes {grid = [2]} {
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %m = uniform.def_immutable_mapping([%k0 -> %u0], [%k1 -> %u1]):index
  %q = uniform.query_map(map:%m, key:%tid) : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %vals = uniform.def_immutable_mapping([%u0 -> %c100], [%u1 -> %c200]):index
  %other = uniform.query_map(map:%vals, key:%tid) : index
  %t = ktdp.get_compute_tile_id : index
  ktdf_lowering.execute_on %q {
    %a = arith.muli %t, %c3 : index
    %b = arith.subi %c10, %a : index
    %c = arith.remui %b, %c4 : index
    %d = arith.divui %b, %c4 : index
    %e = arith.addi %c, %d : index
    %f = arith.addi %a, %other : index
    "test.use"(%b, %c, %d, %e, %f) : (index, index, index, index, index) -> ()
  }
  return
}
