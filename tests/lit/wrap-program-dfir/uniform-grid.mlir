// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --wrap-program-dfir | filecheck %s

// A program `ktdf-to-ktdflowering{uniform-grid-cores=2}` lowered on 2 of its 4 cores (Decision
// 121): each run of per-core units gets cores 2 and 3 after it, each run of mapping entries
// and program-unit operands on them one per core (a value shared by the run's cores stays
// shared), and the index constant 2, which numbers a core, moves to where the core keys leave it.

// CHECK-LABEL: func.func @prog_body() attributes {grid = [4]} {
// CHECK-NEXT:    %c5 = arith.constant 5 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
// CHECK-NEXT:    %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
// CHECK-NEXT:    %[[U2:.*]] = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-l1lu", type = "l1lu"} : index
// CHECK-NEXT:    %[[U3:.*]] = dataflow.get_unit {core = 3 : i32, corelet = 0 : i32, name = "C3-l1lu", type = "l1lu"} : index
// CHECK-NEXT:    %[[M0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
// CHECK-NEXT:    %[[M1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
// CHECK-NEXT:    %[[M2:.*]] = dataflow.get_unit {core = 2 : i32, name = "C2-l1", type = "l1"} : index
// CHECK-NEXT:    %[[M3:.*]] = dataflow.get_unit {core = 3 : i32, name = "C3-l1", type = "l1"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %{{.*}} -> (%[[U0]], %[[U1]], %[[U2]], %[[U3]]) : {
// CHECK-NEXT:      uniform.def_immutable_mapping([%[[U0]] -> %[[M0]]], [%[[U1]] -> %[[M1]]], [%[[U2]] -> %[[M2]]], [%[[U3]] -> %[[M3]]]):index
// CHECK:           uniform.def_immutable_mapping([%[[U0]] -> %c5], [%[[U1]] -> %c5], [%[[U2]] -> %c5], [%[[U3]] -> %c5]):index
// CHECK-NOT:   dfsched.uniform_grid
module {
  module @prog {
    func.func private @prog() attributes {dfsched.uniform_grid = [4], dfsched.uniform_grid_keys = [2 : index], grid = [2]} {
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %c0 = arith.constant 0 : index
      %u0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
      %m0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      %m1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
      dataflow.program_unit iter_arg : %arg0 -> (%u0, %u1) : {
        %map = uniform.def_immutable_mapping([%u0 -> %m0], [%u1 -> %m1]):index
        %mem = uniform.query_map(map:%map, key:%arg0) : index
        %off = uniform.def_immutable_mapping([%u0 -> %c5], [%u1 -> %c5]):index
        %o = uniform.query_map(map:%off, key:%arg0) : index
        "test.use"(%mem, %o, %c2, %c0) : (index, index, index, index) -> ()
      }
      return
    }
  }
}

// -----

module {
  module @prog {
    func.func private @prog() attributes {dfsched.uniform_grid = [4], dfsched.uniform_grid_keys = [], grid = [2]} {
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
      // expected-error @below {{cannot replicate a grid whose per-core units 'arith.addi' reads (only mappings and program units may name them)}}
      %sum = arith.addi %u0, %u1 : index
      return
    }
  }
}

// -----

module {
  module @prog {
    func.func private @prog() attributes {dfsched.uniform_grid = [4], dfsched.uniform_grid_keys = [], grid = [2]} {
      // expected-error @below {{cannot replicate a grid: the per-core units from 'C1-l1' are not one per core of the 2 it was lowered on}}
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      return
    }
  }
}

// -----

module {
  module @prog {
    func.func private @prog() attributes {dfsched.uniform_grid = [4], dfsched.uniform_grid_keys = [], grid = [2]} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
      // expected-error @below {{cannot replicate a grid: 'uniform.def_immutable_mapping' maps per-core units to values that differ between cores}}
      %map = uniform.def_immutable_mapping([%u0 -> %c0], [%u1 -> %c1]):index
      "test.use"(%map) : (index) -> ()
      return
    }
  }
}

// -----

module {
  module @prog {
    // expected-error @below {{cannot replicate a grid: 'dfsched.uniform_grid' must be a 1-D grid larger than 'grid', with 'dfsched.uniform_grid_keys' an array of integers}}
    func.func private @prog() attributes {dfsched.uniform_grid = [4], grid = [2]} {
      return
    }
  }
}
