// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --wrap-program-dfir | filecheck %s

// Two programs. @first declares its input (-2) and an address derived from it (-4, the input
// plus 2048 bytes); both declarations, with the addition, move to the outer @first over its
// own argument. The constant 2048 is also used by the body, so it is copied rather than moved.
// @second declares nothing but is wrapped all the same. The declaration module is untouched.

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %[[K0:.*]]: index, %[[K1:.*]]: index)
// CHECK-NEXT:      call @first(%[[K1]])
// CHECK-NEXT:      call @second()
// CHECK:         func.func private @first(index)
// CHECK:         func.func private @second()

// CHECK-LABEL: module @first {
// CHECK:         func.func private @first_body()
// CHECK:         func.func @first(%[[BASE:.*]]: index) {
// CHECK-NEXT:      symbol.create_id %[[BASE]] {symbol_id = -2 : si64} : index
// CHECK:           %[[C2048:.*]] = arith.constant 2048 : index
// CHECK-NEXT:      %[[SUM:.*]] = arith.addi %[[BASE]], %[[C2048]] : index
// CHECK-NEXT:      symbol.create_id %[[SUM]] {symbol_id = -4 : si64} : index
// CHECK-NEXT:      call @first_body() : () -> ()
// CHECK:           return
// CHECK:         }
// CHECK-NEXT:    module {
// CHECK:           func.func @first_body() attributes {grid = [1]} {
// CHECK:             %[[KEPT:.*]] = arith.constant 2048 : index
// CHECK-NEXT:        %[[U:.*]] = dataflow.get_unit
// CHECK-NEXT:        dataflow.program_unit iter_arg : %{{.*}} -> (%[[U]]) : {
// CHECK-NEXT:          symbol.create_symbol {SymbolId = -4 : i64} : index
// CHECK-NEXT:          "test.stride"(%[[KEPT]]) : (index) -> ()
// CHECK:             }
// CHECK:             return
// CHECK:           }
// CHECK:         }
// CHECK:       }

// CHECK-LABEL: module @second {
// CHECK:         func.func private @second_body()
// CHECK:         func.func @second() {
// CHECK-NEXT:      call @second_body() : () -> ()
// CHECK:           return
// CHECK:         }
// CHECK-NEXT:    module {
// CHECK:           func.func @second_body() attributes {grid = [1]} {
module {
  module {
    func.func @kernel(%a: index, %b: index) {
      call @first(%b) : (index) -> ()
      call @second() : () -> ()
      return
    }
    func.func private @first(index)
    func.func private @second()
  }
  module @first {
    func.func private @first(%base: index) attributes {grid = [1]} {
      symbol.create_id %base {symbol_id = -2 : si64} : index
      %c2048 = arith.constant 2048 : index
      %sum = arith.addi %base, %c2048 : index
      symbol.create_id %sum {symbol_id = -4 : si64} : index
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
        %s = symbol.create_symbol {SymbolId = -4 : i64} : index
        "test.stride"(%c2048) : (index) -> ()
      }
      return
    }
  }
  module @second {
    func.func @second() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
        "test.work"() : () -> ()
      }
      return
    }
  }
}

// -----

// A program that computes with its argument stays one level; so does a program already
// wrapped, and a named module without DataflowIR.

// CHECK-LABEL: module @computes {
// CHECK:         func.func @computes(%{{.*}}: index)
// CHECK-LABEL: module @wrapped {
// CHECK:         func.func private @wrapped_body()
// CHECK:         func.func @wrapped()
// CHECK-NEXT:      call @wrapped_body()
// CHECK-LABEL: module @plain {
// CHECK:         func.func @plain()
module {
  module @computes {
    func.func @computes(%n: index) attributes {grid = [1]} {
      symbol.create_id %n {symbol_id = -1 : si64} : index
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
        "test.trips"(%n) : (index) -> ()
      }
      return
    }
  }
  module @wrapped {
    func.func private @wrapped_body()
    func.func @wrapped() {
      call @wrapped_body() : () -> ()
      return
    }
    module {
      func.func @wrapped_body() attributes {grid = [1]} {
        %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
        dataflow.program_unit iter_arg : %it -> (%u) : {
        }
        return
      }
    }
  }
  module @plain {
    func.func @plain() {
      return
    }
  }
}

// -----

module {
  // expected-error @below {{wrap-program-dfir: program 'lost' holds no function of its own name to compile from}}
  module @lost {
    func.func @other() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
  }
}

// -----

module {
  // expected-error @below {{wrap-program-dfir: 'taken' already holds a 'taken_body', which is the name the DataflowIR it is compiled from has to take}}
  module @taken {
    func.func @taken() attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
      }
      return
    }
    func.func @taken_body() {
      return
    }
  }
}

// -----

module {
  module @nested_declaration {
    func.func @nested_declaration(%n: index) attributes {grid = [1]} {
      %u = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      dataflow.program_unit iter_arg : %it -> (%u) : {
        // expected-error @below {{wrap-program-dfir: a symbol is declared outside the program's entry block, so what it is could not be moved out of the DataflowIR}}
        symbol.create_id %n {symbol_id = -1 : si64} : index
      }
      return
    }
  }
}
