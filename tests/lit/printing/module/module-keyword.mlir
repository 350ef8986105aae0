// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect | dfsched-opt --split-input-file --allow-unregistered-dialect | filecheck %s

// The top-level module is printed, with MLIR's `module` spelling (builtin is the default dialect
// at the top level), its name and its attributes sorted.

// CHECK-LABEL: {{^}}module {
// CHECK-NEXT:    func.func @only_a_function() {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:  }{{$}}
func.func @only_a_function() {
  func.return
}

// -----

// CHECK-LABEL: {{^}}module @named attributes {dfs.a = "first", dfs.z = 3 : i32} {
// CHECK-NEXT:    module @inner {
// CHECK-NEXT:    }
// CHECK-NEXT:    module attributes {dfs.unit} {
// CHECK-NEXT:      "test.op"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:  }{{$}}
builtin.module @named attributes {dfs.z = 3 : i32, dfs.a = "first"} {
  builtin.module @inner {
  }
  module attributes {dfs.unit} {
    "test.op"() : () -> ()
  }
}

// -----

// `return` drops `func.` only directly inside `func.func` (its default dialect); `func.call` keeps
// it in an scf region and at module level, `call` does not. Builtin ops keep `builtin.` in a function.
// The two values at module level take %0 and %1, so the functions' values start at %2.

// CHECK-LABEL: func.func @callee() -> i64 {
// CHECK-NEXT:      %2 = builtin.unrealized_conversion_cast to i64
// CHECK-NEXT:      return %2 : i64
// CHECK-LABEL: func.func @caller(
// CHECK-NEXT:      %2 = call @callee() : () -> i64
// CHECK:           scf.for
// CHECK-NEXT:        %3 = func.call @callee() : () -> i64
// CHECK:         return
// CHECK:         %0 = unrealized_conversion_cast to i32
// CHECK-NEXT:    %1 = func.call @callee() : () -> i64
func.func @callee() -> i64 {
  %0 = builtin.unrealized_conversion_cast to i64
  return %0 : i64
}
func.func @caller(%n: index) {
  %0 = func.call @callee() : () -> i64
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
    %1 = func.call @callee() : () -> i64
  }
  return
}
%top = builtin.unrealized_conversion_cast to i32
%r = func.call @callee() : () -> i64
