// RUN: dfsched-opt %s --allow-unregistered-dialect --device=quad_corelet --ktdflowering-to-dfir | filecheck %s

// Four corelets (the quad_corelet device), rows 2, 4, ..., 10 (lower bound 2, step 2): five
// iterations, so corelet 0 runs two and the others one each. The loop counts from 0 by 1;
// the subscript takes the step (%j * 2) and each view starts at the corelet's first row:
// rows 2, 6, 8, 10, i.e. bytes 256, 768, 1024, 1280 (a row is 64 f16).

// CHECK-LABEL: func.func @four_corelets(
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C768:.*]] = arith.constant 768 : index
// CHECK-DAG:     %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-DAG:     %[[C1280:.*]] = arith.constant 1280 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[V0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-VLD-CL0"
// CHECK:         %[[V1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-VLD-CL1"
// CHECK:         %[[V2:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 2 : i32, name = "C0-VLD-CL2"
// CHECK:         %[[V3:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 3 : i32, name = "C0-VLD-CL3"
// CHECK:         dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[V0]], %[[V1]], %[[V2]], %[[V3]]) : {
// CHECK:           uniform.def_immutable_mapping([%[[V0]] -> %[[C2]]], [%[[V1]] -> %[[C1]]], [%[[V2]] -> %[[C1]]], [%[[V3]] -> %[[C1]]]):index
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C1]] {
// CHECK:             uniform.def_immutable_mapping([%[[V0]] -> %[[C256]]], [%[[V1]] -> %[[C768]]], [%[[V2]] -> %[[C1024]]], [%[[V3]] -> %[[C1280]]]):index
// CHECK-NEXT:        %[[Q:.*]] = uniform.query_map
// CHECK-NEXT:        %[[VIEW:.*]] = dataflow.get_logical_memory_view %{{.*}}, %[[Q]]
// CHECK-NEXT:        agen.vector_load %[[VIEW]][%[[J]] * 2, %{{.*}}]
func.func @four_corelets() attributes {grid = [1]} {
  %v0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-VLD-CL0", type = "VLD"} : index
  %v1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-VLD-CL1", type = "VLD"} : index
  %v2 = dataflow.get_unit {core = 0 : i32, corelet = 2 : i32, name = "C0-VLD-CL2", type = "VLD"} : index
  %v3 = dataflow.get_unit {core = 0 : i32, corelet = 3 : i32, name = "C0-VLD-CL3", type = "VLD"} : index
  %p0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-VPU-CL0", type = "VPU"} : index
  %p1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-VPU-CL1", type = "VPU"} : index
  %p2 = dataflow.get_unit {core = 0 : i32, corelet = 2 : i32, name = "C0-VPU-CL2", type = "VPU"} : index
  %p3 = dataflow.get_unit {core = 0 : i32, corelet = 3 : i32, name = "C0-VPU-CL3", type = "VPU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %m0 = uniform.def_immutable_mapping([%k0 -> %v0]):index
  %q0 = uniform.query_map(map:%m0, key:%tid) : index
  %m1 = uniform.def_immutable_mapping([%k0 -> %v1]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k0 -> %v2]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  %m3 = uniform.def_immutable_mapping([%k0 -> %v3]):index
  %q3 = uniform.query_map(map:%m3, key:%tid) : index
  %mp = uniform.def_immutable_mapping([%k0 -> %p0]):index
  %qp = uniform.query_map(map:%mp, key:%tid) : index
  %mp1 = uniform.def_immutable_mapping([%k0 -> %p1]):index
  %qp1 = uniform.query_map(map:%mp1, key:%tid) : index
  %mp2 = uniform.def_immutable_mapping([%k0 -> %p2]):index
  %qp2 = uniform.query_map(map:%mp2, key:%tid) : index
  %mp3 = uniform.def_immutable_mapping([%k0 -> %p3]):index
  %qp3 = uniform.query_map(map:%mp3, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  ktdf.parallel (%i, %inst) = (%c2) to (%c12) step (%c2) distribute(num_instances = 4) {
    ktdf_lowering.execute_on %q0, %q1, %q2, %q3, %qp, %qp1, %qp2, %qp3 {
      %a = arith.constant 0 : index
      %buf = builtin.unrealized_conversion_cast %a : index to memref<12x64xf16, "SPAD">
      %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"VLD" -> "VPU", 64xf16>
      ktdf_lowering.execute_on %q0, %q1, %q2, %q3 {
        ktdf.data_transfer from %buf[%i, %c0] size [1, 64] to %f size [64] : memref<12x64xf16, "SPAD">, !ktdf.fifo.slot<"VLD" -> "VPU", 64xf16>
      }
      ktdf_lowering.execute_on %qp, %qp1, %qp2, %qp3 {
        "test.vpu"() : () -> ()
      }
    }
    ktdf.parallel_yield
  }
  return
}
