// RUN: dfsched-opt %s --allow-unregistered-dialect -p "wrap-program-dfir{expand-grids=false}" | filecheck %s
// RUN: dfsched-opt %s --allow-unregistered-dialect -p wrap-program-dfir | filecheck %s --check-prefix=PRINTED
// RUN: dfsched-opt %s --allow-unregistered-dialect -p wrap-program-dfir --verify-diagnostics | filecheck %s --check-prefix=PRINTED

// With `expand-grids=false` the pass leaves a uniform grid folded on its 2 cores, its marks in
// place (`-p` with the option prints the IR as it is). Run as the last pass of a `dfsched-opt`
// that only prints, the pass leaves the grid folded and the printer writes cores 2 and 3
// (Decision 123); with `--verify-diagnostics` (or `--report`) the pass replicates them in the
// IR: both print the same bytes.

// CHECK-LABEL: func.func @prog_body()
// CHECK-SAME:  attributes {dfsched.uniform_grid = [4], dfsched.uniform_grid_keys = [], grid = [2]}
// CHECK-NEXT:    dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
// CHECK-NEXT:    dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %{{.*}} -> (%0, %1) : {

// PRINTED-LABEL: func.func @prog_body() attributes {grid = [4]} {
// PRINTED-NEXT:    %0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
// PRINTED-NEXT:    %1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
// PRINTED-NEXT:    %2 = dataflow.get_unit {core = 2 : i32, name = "C2-l1", type = "l1"} : index
// PRINTED-NEXT:    %3 = dataflow.get_unit {core = 3 : i32, name = "C3-l1", type = "l1"} : index
// PRINTED-NEXT:    dataflow.program_unit iter_arg : %arg0 -> (%0, %1, %2, %3) : {
// PRINTED-NEXT:      %c5 = arith.constant 5 : index
// PRINTED-NEXT:      %4 = uniform.def_immutable_mapping([%0 -> %c5], [%1 -> %c5], [%2 -> %c5], [%3 -> %c5]):index
module {
  module @prog {
    func.func private @prog() attributes {dfsched.uniform_grid = [4], dfsched.uniform_grid_keys = [], grid = [2]} {
      %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
      %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index
      dataflow.program_unit iter_arg : %arg0 -> (%u0, %u1) : {
        %c5 = arith.constant 5 : index
        %off = uniform.def_immutable_mapping([%u0 -> %c5], [%u1 -> %c5]):index
        %o = uniform.query_map(map:%off, key:%arg0) : index
        "test.use"(%o) : (index) -> ()
      }
      return
    }
  }
}
