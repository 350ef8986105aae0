// A --bind the kernel cannot take is a located error on the kernel, exit status 1.
// RUN: not dfsched-opt %s --bind-kernel-arguments --bind nope=1 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not dfsched-opt %s --bind-kernel-arguments --bind n=1.5 2>&1 | filecheck %s --check-prefix=NOTINT
// RUN: not dfsched-opt %s --bind-kernel-arguments --bind n=4 --bind alpha=fast 2>&1 | filecheck %s --check-prefix=NOTFLOAT
// RUN: not dfsched-opt %s --bind-kernel-arguments --bind n 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not dfsched-opt %s --bind-kernel-arguments --bind n=4 --bind alpha=1e9 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not dfsched-opt %s --bind-kernel-arguments --bind t=1 2>&1 | filecheck %s --check-prefix=TENSOR

// UNKNOWN: bad-bindings.mlir:[[# @LINE + 7]]:1: error: --bind nope=...: @k has no argument 'nope' (its arguments: x_ptr, n, alpha, t)
// NOTINT: error: --bind n=1.5: 'n' is an index argument and '1.5' is not an integer
// NOTFLOAT: error: --bind alpha=fast: 'alpha' is an f16 argument and 'fast' is not a number
// SYNTAX: error: --bind takes NAME=VALUE, got 'n'
// RANGE: error: --bind alpha=1e9: 1000000000.0 does not fit 'alpha' of type f16
// TENSOR: error: --bind t=1: 't' is a tensor<4xf16> argument, not a scalar (dfsched-run --inputs FILE.npz feeds arrays)
// CHECK-NOT: Traceback
func.func @k(%x_ptr: index, %n: index, %alpha: f16, %t: tensor<4xf16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
