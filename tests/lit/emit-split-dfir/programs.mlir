// RUN: rm -rf %t && mkdir -p %t
// RUN: dfsched-opt %s --allow-unregistered-dialect --emit-split-dfir=output-dir=%t/out | filecheck %s --check-prefix=IR
// RUN: ls %t/out | filecheck %s --check-prefix=FILES
// RUN: filecheck %s --input-file=%t/out/global.mlir --check-prefix=GLOBAL
// RUN: filecheck %s --input-file=%t/out/first.mlir --check-prefix=FIRST
// RUN: filecheck %s --input-file=%t/out/second.mlir --check-prefix=SECOND
// RUN: dfsched-opt %t/out/first.mlir --allow-unregistered-dialect | filecheck %s --check-prefix=FIRST

// Decision 2: every program is found, wrapped (@first, after wrap-program-dfir) or not
// (@second), however many there are; one file each, plus global.mlir for the kernel. The IR
// itself is printed unchanged.

// IR:      module @first {
// IR:        func.func private @first_body()

// FILES:      first.mlir
// FILES-NEXT: global.mlir
// FILES-NEXT: second.mlir

// The kernel and the programs' forward declarations (declarations stay private).
// GLOBAL:      module {
// GLOBAL:        func.func @kernel(%[[A:.*]]: index) {
// GLOBAL-NEXT:     call @first(%[[A]]) : (index) -> ()
// GLOBAL-NEXT:     call @second() : () -> ()
// GLOBAL:          return
// GLOBAL:        }
// GLOBAL:        func.func private @first(index)
// GLOBAL:        func.func private @second()
// GLOBAL:      }
// GLOBAL-NOT:  dataflow

// A wrapped program: what it is (its symbols) and the DataflowIR it is compiled from, both
// public, the private forward declaration of the body dropped.
// FIRST:      module {
// FIRST:        func.func @first(%[[B:.*]]: index) {
// FIRST-NEXT:     symbol.create_id %[[B]] {symbol_id = -1 : si64} : index
// FIRST-NEXT:     call @first_body() : () -> ()
// FIRST:          return
// FIRST:        }
// FIRST:        func.func @first_body() attributes {grid = [1]} {
// FIRST:          dataflow.program_unit
// FIRST-NOT:    func.func

// SECOND:      module {
// SECOND:        func.func @second() attributes {grid = [1]} {
// SECOND:          "test.second"() : () -> ()
// SECOND-NOT:    func.func
module {
  module {
    func.func @kernel(%a: index) {
      call @first(%a) : (index) -> ()
      call @second() : () -> ()
      return
    }
    func.func private @first(index)
    func.func private @second()
  }
  module @first {
    func.func private @first_body()
    func.func @first(%base: index) {
      symbol.create_id %base {symbol_id = -1 : si64} : index
      call @first_body() : () -> ()
      return
    }
    module {
      func.func @first_body() attributes {grid = [1]} {
        %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
        dataflow.program_unit iter_arg : %it -> (%u) : {
          "test.first"() : () -> ()
        }
        return
      }
    }
  }
  module @second {
    func.func private @second() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
        "test.second"() : () -> ()
      }
      return
    }
  }
}
