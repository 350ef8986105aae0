// RUN: not dfsched-opt %s -split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s

// The result types must match the iter_args.
// CHECK: syntax-invalid.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: expected 2 result types for the iter_args, got 1
func.func @count(%x: f32, %c0: index, %c1: index) {
  %r = scf.for %i = %c0 to %c1 step %c1
       iter_args(%a = %x, %b = %x) -> f32 {
    scf.yield %a : f32
  }
  return
}

// -----

// A bare type list (without parentheses) has only one type.
// CHECK: syntax-invalid.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error:
func.func @bare_list(%c: i1, %x: f32) {
  %r:2 = scf.if %c -> f32, f32 {
    scf.yield %x, %x : f32, f32
  } else {
    scf.yield %x, %x : f32, f32
  }
  return
}
