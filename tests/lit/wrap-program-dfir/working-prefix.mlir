// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --wrap-program-dfir | filecheck %s

// A program `ktdf-to-ktdflowering{working-prefix=true}` lowered on the 2 cores of its grid of
// 8 that launch it (Decision 122) gets its grid back; its units stay those of cores 0 and 1.

// CHECK-LABEL: func.func @prog_body() attributes {grid = [8]} {
// CHECK-NEXT:    dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
// CHECK-NEXT:    dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
// CHECK-NEXT:    dataflow.program_unit
// CHECK-NOT:   dfsched.working_prefix_grid
module {
  module @prog {
    func.func private @prog() attributes {dfsched.working_prefix_grid = [8], grid = [2]} {
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
      dataflow.program_unit iter_arg : %arg0 -> (%u0, %u1) : {
        "test.use"(%arg0) : (index) -> ()
      }
      return
    }
  }
}

// -----

module {
  module @prog {
    // expected-error @below {{cannot restore a grid: 'dfsched.working_prefix_grid' must be a 1-D grid larger than 'grid'}}
    func.func private @prog() attributes {dfsched.working_prefix_grid = [2], grid = [2]} {
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      dataflow.program_unit iter_arg : %arg0 -> (%u0) : {
        "test.use"(%arg0) : (index) -> ()
      }
      return
    }
  }
}
