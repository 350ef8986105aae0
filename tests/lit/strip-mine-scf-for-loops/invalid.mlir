// RUN: not dfsched-opt %s --strip-mine-scf-for-loops="strip-mine-size=0" 2>&1 | filecheck %s
// RUN: not dfsched-opt %s --strip-mine-scf-for-loops="strip-mine-size=-4" 2>&1 | filecheck %s --check-prefix=NEG
// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --strip-mine-scf-for-loops="strip-mine-size=8"

// A static size below one is rejected before anything changes (the error is on the module).

// CHECK: error: Strip-mine size must be positive: 0
// NEG: error: Strip-mine size must be positive: -4
func.func @sized(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %i : index
  }
  return
}

// -----

// Loops carrying values are not strip-mined.

func.func @carried(%n: index, %x: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{strip-mine-scf-for-loops: loops with iter_args cannot be strip-mined}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (index) {
    %t = arith.addi %a, %i : index
    scf.yield %t : index
  }
  return %r : index
}

// -----

func.func @integer_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{strip-mine-scf-for-loops: loops over i32 cannot be strip-mined}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  }
  return
}
