// Literals their type cannot hold are located parse errors on the literal, not crashes.
// RUN: not dfsched-opt %s --split-input-file 2>&1 | filecheck %s

func.func @f16_scalar() {
  %c = arith.constant 1.0e65 : f16
  return
}
// CHECK: literal-range.mlir:[[# @LINE - 3]]:23: error: value out of range for its type
// CHECK-NEXT: %c = arith.constant 1.0e65 : f16

// -----

func.func @f16_dense() {
  %c = arith.constant dense<-7.0e38> : tensor<2xf16>
  return
}
// CHECK: literal-range.mlir:[[# @LINE - 3]]:23: error: value out of range for its type
// CHECK-NEXT: dense<-7.0e38>

// -----

func.func @i16() {
  %c = arith.constant 70000 : i16
  return
}
// CHECK: literal-range.mlir:[[# @LINE - 3]]:8: error: Integer value 70000 is out of range for type i16
// CHECK-NOT: internal error
// CHECK-NOT: Traceback
