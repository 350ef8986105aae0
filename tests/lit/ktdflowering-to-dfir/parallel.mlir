// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --device=sample --ktdflowering-to-dfir | filecheck %s

// Two corelets share four rows of an L1 buffer at byte 256: each runs two iterations of a
// loop from 0, and corelet 1's view starts two rows (2 x 64 f16 = 256 bytes) further.

// CHECK-LABEL: func.func @even(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[L0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0"
// CHECK:         %[[L1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1"
// CHECK:         dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[L0]], %[[L1]]) : {
// CHECK:           scf.for %[[J:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK:             %[[OFF:.*]] = uniform.def_immutable_mapping([%[[L0]] -> %[[C0]]], [%[[L1]] -> %[[C256]]]):index
// CHECK-NEXT:        %[[Q:.*]] = uniform.query_map(map:%[[OFF]], key:%[[IT]]) : index
// CHECK-NEXT:        %[[START:.*]] = arith.addi %[[Q]], %[[C256]] : index
// CHECK-NEXT:        %[[VIEW:.*]] = dataflow.get_logical_memory_view %{{.*}}, %[[START]] {layout_map = #{{.*}}} : index, index, memref<4x64xf16>
// CHECK-NEXT:        %[[V:.*]] = agen.vector_load %[[VIEW]][%[[J]], %[[C0]]]
// CHECK:             dataflow.send %{{.*}}, %[[V]] : vector<64xf16>
// CHECK:           }
// CHECK:         }
// The other kind's program runs the same split loop.
// CHECK-NEXT:    dataflow.program_unit
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:        "test.sfu"
// CHECK-NOT:     ktdf.parallel
func.func @even() attributes {grid = [1]} {
  %l0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0", type = "L1LU"} : index
  %l1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1", type = "L1LU"} : index
  %s0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-SFU-CL0", type = "SFU"} : index
  %s1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-SFU-CL1", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %m0 = uniform.def_immutable_mapping([%k0 -> %l0]):index
  %q0 = uniform.query_map(map:%m0, key:%tid) : index
  %m1 = uniform.def_immutable_mapping([%k0 -> %l1]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %n0 = uniform.def_immutable_mapping([%k0 -> %s0]):index
  %r0 = uniform.query_map(map:%n0, key:%tid) : index
  %n1 = uniform.def_immutable_mapping([%k0 -> %s1]):index
  %r1 = uniform.query_map(map:%n1, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    ktdf_lowering.execute_on %q0, %q1, %r0, %r1 {
      %buf = builtin.unrealized_conversion_cast %c256 : index to memref<4x64xf16, "L1">
      %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf_lowering.execute_on %q0, %q1 {
        ktdf.data_transfer from %buf[%i, %c0] size [1, 64] to %f size [64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      }
      ktdf_lowering.execute_on %r0, %r1 {
        "test.sfu"() : () -> ()
      }
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// Three rows over two corelets (Decision 3: a trip count the instances do not divide):
// corelet 0 runs rows 0-1, corelet 1 row 2; the loop bound is a per-unit lookup.

// CHECK-LABEL: func.func @uneven(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[L0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0"
// CHECK:         %[[L1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1"
// CHECK:         dataflow.program_unit iter_arg : %[[IT:.*]] -> (%[[L0]], %[[L1]]) : {
// CHECK:           %[[TRIPS:.*]] = uniform.def_immutable_mapping([%[[L0]] -> %[[C2]]], [%[[L1]] -> %[[C1]]]):index
// CHECK-NEXT:      %[[N:.*]] = uniform.query_map(map:%[[TRIPS]], key:%[[IT]]) : index
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:             uniform.def_immutable_mapping([%[[L0]] -> %[[C0]]], [%[[L1]] -> %[[C256]]]):index
func.func @uneven() attributes {grid = [1]} {
  %l0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-L1LU-CL0", type = "L1LU"} : index
  %l1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1", type = "L1LU"} : index
  %s0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-SFU-CL0", type = "SFU"} : index
  %s1 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-SFU-CL1", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %m0 = uniform.def_immutable_mapping([%k0 -> %l0]):index
  %q0 = uniform.query_map(map:%m0, key:%tid) : index
  %m1 = uniform.def_immutable_mapping([%k0 -> %l1]):index
  %q1 = uniform.query_map(map:%m1, key:%tid) : index
  %n0 = uniform.def_immutable_mapping([%k0 -> %s0]):index
  %r0 = uniform.query_map(map:%n0, key:%tid) : index
  %n1 = uniform.def_immutable_mapping([%k0 -> %s1]):index
  %r1 = uniform.query_map(map:%n1, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  ktdf.parallel (%i, %inst) = (%c0) to (%c3) step (%c1) distribute(num_instances = 2) {
    ktdf_lowering.execute_on %q0, %q1, %r0, %r1 {
      %a = arith.constant 0 : index
      %buf = builtin.unrealized_conversion_cast %a : index to memref<3x64xf16, "L1">
      %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf_lowering.execute_on %q0, %q1 {
        ktdf.data_transfer from %buf[%i, %c0] size [1, 64] to %f size [64] : memref<3x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      }
      ktdf_lowering.execute_on %r0, %r1 {
        "test.sfu"() : () -> ()
      }
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// Errors. The instance id may not be used, nor the induction variable by anything else
// than vector loads and stores; the bounds must be constants; each unit must be one of
// the instances.

func.func @instance_used() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{instance_id expected to have no uses for lowering to scf.for}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    "test.use"(%inst) : (index) -> ()
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @iv_used_elsewhere() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{loop_iv can only be used in agen.vector_load/store operations}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    "test.use"(%i) : (index) -> ()
    ktdf.parallel_yield
  }
  return
}

// -----

func.func @dynamic_bound(%n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{Upper bound must be a constant for lowering}}
  ktdf.parallel (%i, %inst) = (%c0) to (%n) step (%c1) distribute(num_instances = 2) {
    "test.body"() : () -> ()
    ktdf.parallel_yield
  }
  return
}

// -----

// Outside a program unit nothing tells the instances apart: fine while they all run the
// same number of iterations, an error otherwise.
func.func @no_units_uneven() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @below {{a ktdf.parallel outside a dataflow.program_unit cannot tell its instances apart}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c3) step (%c1) distribute(num_instances = 2) {
    "test.body"() : () -> ()
    ktdf.parallel_yield
  }
  return
}

// -----

// A unit of corelet 2 is no instance of a two-instance construct.
func.func @corelet_out_of_range() attributes {grid = [1]} {
  %s0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-SFU-CL0", type = "SFU"} : index
  %s2 = dataflow.get_unit {core = 0 : i32, corelet = 2 : i32, name = "C0-SFU-CL2", type = "SFU"} : index
  %tid = ktdp.get_compute_tile_id : index
  %k0 = arith.constant 0 : index
  %m0 = uniform.def_immutable_mapping([%k0 -> %s0]):index
  %q0 = uniform.query_map(map:%m0, key:%tid) : index
  %m2 = uniform.def_immutable_mapping([%k0 -> %s2]):index
  %q2 = uniform.query_map(map:%m2, key:%tid) : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{corelet ID must be in [0, 2) to run one instance of a ktdf.parallel with num_instances = 2, got 2}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c4) step (%c1) distribute(num_instances = 2) {
    ktdf_lowering.execute_on %q0, %q2 {
      "test.body"() : () -> ()
    }
    ktdf.parallel_yield
  }
  return
}
