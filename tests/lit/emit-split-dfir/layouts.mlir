// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.mlir
// RUN: dfsched-opt %t/kernel.mlir --allow-unregistered-dialect --emit-split-dfir > /dev/null
// RUN: ls %t | filecheck %s --check-prefix=FILES
// RUN: filecheck %s --input-file=%t/local-schedule-0.mlir --check-prefix=IMPL
// RUN: filecheck %s --input-file=%t/global.mlir --check-prefix=GLOBAL

// Without output-dir the files go beside the input. The older layout (an unnamed module
// holding the programs' functions directly) gives one file per function with DataflowIR,
// named after it.

// FILES:      global.mlir
// FILES-NEXT: kernel.mlir
// FILES-NEXT: local-schedule-0.mlir
// FILES-NOT:  helper

// GLOBAL:     func.func @kernel()
// GLOBAL:     func.func private @"local-schedule-0"()
// IMPL:       module {
// IMPL:         func.func @"local-schedule-0"() attributes {grid = [1]} {
// IMPL:           dataflow.program_unit
module {
  module {
    func.func @kernel() attributes {grid = [1]} {
      call @"local-schedule-0"() : () -> ()
      return
    }
    func.func private @"local-schedule-0"()
  }
  module {
    func.func private @"local-schedule-0"() attributes {grid = [1]} {
      %0 = dataflow.get_unit {name = "ddr", type = "ddr"} : index
      dataflow.program_unit iter_arg : %arg0 -> (%0) : {
        "test.op"() : () -> ()
      }
      return
    }
    func.func private @helper() {
      return
    }
  }
}
