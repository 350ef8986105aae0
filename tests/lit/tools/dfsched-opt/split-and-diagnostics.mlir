// RUN: dfsched-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
// RUN: not dfsched-opt %s --split-input-file -allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=LOC

// Verifier errors are reported on the offending op, with its source line and a caret.

func.func @return_not_last() {
  // expected-error @below {{must be the last operation in its parent block}}
  func.return
  "test.after"() : () -> ()
}
// LOC: split-and-diagnostics.mlir:[[# @LINE - 3]]:3: error: 'func.return' op
// LOC-NEXT: {{^}}  func.return
// LOC-NEXT: {{^}}  ^

// -----

func.func @wrong_operand_count(%a: i32) -> i32 {
  // expected-error @+1 {{Expected 2 operands, but got 1}}
  %b = "arith.addi"(%a) : (i32) -> i32
  func.return %b : i32
}
// LOC: split-and-diagnostics.mlir:[[# @LINE - 3]]:8: error: 'arith.addi' op Expected 2 operands
