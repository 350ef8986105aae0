// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --bind-kernel-arguments

// An argument the schedule needs (a size, not a buffer address) and nothing bound.
// expected-error @below {{kernel argument %n (index) is a scalar the schedule needs (it is not a buffer address): bind it with --bind n=VALUE}}
func.func @needs_n(%x_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
