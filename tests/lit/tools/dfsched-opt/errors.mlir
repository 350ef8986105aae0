// Bad input ends in a located diagnostic and a non-zero exit, never a Python traceback,
// and no output file is left behind.
// RUN: not dfsched-opt %s -o %t.out 2>&1 | filecheck %s
// RUN: not test -e %t.out
// RUN: not dfsched-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not dfsched-opt %s -no-such-pass 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not dfsched-opt %s --pass-pipeline='builtin.module(nosuch)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not dfsched-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | filecheck %s --check-prefix=SYNTAX

func.func @f() {
  %x = "nodialect.op"() : () -> i32
  func.return
}

// CHECK: errors.mlir:[[# @LINE - 4]]:8: error: unregistered operation 'nodialect.op'
// CHECK-NOT: Traceback
// MISSING: error: could not open input file
// FLAG: error: unrecognized arguments: -no-such-pass
// UNKNOWN: error: 'nosuch' does not refer to a registered pass
// SYNTAX: error: invalid pass pipeline
