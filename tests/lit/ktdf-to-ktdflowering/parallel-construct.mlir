// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering | filecheck %s

// A compute stage inside a `ktdf.parallel` over 2 instances on 3 cores: one SFU unit per
// corelet and core (corelet-major), one map and query per corelet. Non-parallel units come
// first. The parallel op stays; the pipeline inside it becomes execute_ons of both
// corelets' queries.

// CHECK-LABEL: func.func @parallel_compute
// CHECK-NEXT:  %[[M0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
// CHECK:       %[[M1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnilu", type = "mnilu"} : index
// CHECK:       %[[M2:.*]] = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-mnilu", type = "mnilu"} : index
// CHECK:       %[[S00:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu-CL0", type = "sfu"} : index
// CHECK:       %[[S10:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu-CL0", type = "sfu"} : index
// CHECK:       %[[S20:.*]] = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-sfu-CL0", type = "sfu"} : index
// CHECK:       %[[S01:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-sfu-CL1", type = "sfu"} : index
// CHECK:       %[[S11:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 1 : i32, name = "C1-sfu-CL1", type = "sfu"} : index
// CHECK:       %[[S21:.*]] = dataflow.get_unit {core = 2 : i32, corelet = 1 : i32, name = "C2-sfu-CL1", type = "sfu"} : index
// CHECK-NEXT:  %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:       %[[A0:.*]] = arith.constant 0 : index
// CHECK:       %[[A1:.*]] = arith.constant 1 : index
// CHECK:       %[[A2:.*]] = arith.constant 2 : index
// CHECK:       %[[MAPM:.*]] = uniform.def_immutable_mapping([%[[A0]] -> %[[M0]]], [%[[A1]] -> %[[M1]]], [%[[A2]] -> %[[M2]]]):index
// CHECK-NEXT:  %[[MNILU:.*]] = uniform.query_map(map:%[[MAPM]], key:%[[TID]]) : index
// CHECK:       %[[B0:.*]] = arith.constant 0 : index
// CHECK:       %[[B1:.*]] = arith.constant 1 : index
// CHECK:       %[[B2:.*]] = arith.constant 2 : index
// CHECK:       %[[MAP0:.*]] = uniform.def_immutable_mapping([%[[B0]] -> %[[S00]]], [%[[B1]] -> %[[S10]]], [%[[B2]] -> %[[S20]]]):index
// CHECK-NEXT:  %[[CL0:.*]] = uniform.query_map(map:%[[MAP0]], key:%[[TID]]) : index
// CHECK:       %[[D0:.*]] = arith.constant 0 : index
// CHECK:       %[[D1:.*]] = arith.constant 1 : index
// CHECK:       %[[D2:.*]] = arith.constant 2 : index
// CHECK:       %[[MAP1:.*]] = uniform.def_immutable_mapping([%[[D0]] -> %[[S01]]], [%[[D1]] -> %[[S11]]], [%[[D2]] -> %[[S21]]]):index
// CHECK-NEXT:  %[[CL1:.*]] = uniform.query_map(map:%[[MAP1]], key:%[[TID]]) : index
// CHECK:       ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:    ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:      "test.load"
// CHECK:         }
// CHECK:       }
// CHECK-NEXT:  ktdf.parallel (%[[IV:.*]], %[[INST:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) distribute(num_instances = 2) {
// CHECK-NEXT:    ktdf_lowering.execute_on %[[CL0]], %[[CL1]] {
// CHECK-NEXT:      ktdf_lowering.execute_on %[[CL0]], %[[CL1]] {
// CHECK-NEXT:        "test.compute"(%[[IV]], %[[INST]])
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    ktdf.parallel_yield
// CHECK:       }
func.func @parallel_compute() attributes {grid = [3]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
  }
  ktdf.parallel (%i, %inst) = (%c0) to (%c6) step (%c1) distribute(num_instances = 2) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.compute"(%i, %inst) : (index, index) -> ()
      } {applicable_units = ["SFU"]}
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// Two parallel ops, and a stage outside both that uses SFU: a kind only used in parallel
// regions takes the corelet units of the first parallel op in IR order (Decision 5). Each
// parallel op has its own units; the one written first comes first. A parallel op may use
// fewer instances than the device has (here 1 of 2).
// CHECK-LABEL: func.func @two_parallels
// CHECK:       name = "C0-sfu-CL0"
// CHECK-NEXT:  name = "C0-sfu-CL1"
// CHECK-NEXT:  name = "C0-l1lu-CL0"
// CHECK-NEXT:  name = "C0-sfu-CL0"
// CHECK-NEXT:  ktdp.get_compute_tile_id
// CHECK:       %[[FIRST0:.*]] = uniform.query_map
// CHECK:       %[[FIRST1:.*]] = uniform.query_map
// CHECK:       %[[L1LU:.*]] = uniform.query_map
// CHECK:       %[[SECOND0:.*]] = uniform.query_map
// CHECK:       ktdf.parallel (
// CHECK-NEXT:    ktdf_lowering.execute_on %[[FIRST0]], %[[FIRST1]] {
// CHECK:       ktdf.parallel (
// CHECK-NEXT:    ktdf_lowering.execute_on %[[L1LU]], %[[SECOND0]] {
// CHECK:       ktdf_lowering.execute_on %[[FIRST0]], %[[FIRST1]] {
// CHECK-NEXT:    ktdf_lowering.execute_on %[[FIRST0]], %[[FIRST1]] {
// CHECK-NEXT:      "test.after"
func.func @two_parallels() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.first"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
    ktdf.parallel_yield
  }
  ktdf.parallel (%j, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 1) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.second"(%j) : (index) -> ()
      } {applicable_units = ["L1LU", "SFU"]}
    }
    ktdf.parallel_yield
  }
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      "test.after"() : () -> ()
    } {applicable_units = ["SFU"]}
  }
  return
}
