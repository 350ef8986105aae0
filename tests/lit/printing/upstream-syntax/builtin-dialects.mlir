// RUN: dfsched-opt %s | filecheck %s

// Syntax of the upstream dialects as the scheduler's tests expect it from mlir-opt.

// CHECK: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %[[IN:.*]]: tensor<96x64xf16>, %[[BUF:.*]]: memref<96x64xf16, strided<[64, 1], offset: ?>>) -> tensor<96xf16> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C96:.*]] = arith.constant 96 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %[[SPLAT:.*]] = arith.constant dense<0.000000e+00> : tensor<96xf16>
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<96xf16>
// CHECK-NEXT:    %[[RED:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[IN]] : tensor<96x64xf16>) outs(%[[SPLAT]] : tensor<96xf16>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16):
// CHECK-NEXT:      %[[ADD:.*]] = arith.addf %[[A]], %[[B]] : f16
// CHECK-NEXT:      linalg.yield %[[ADD]] : f16
// CHECK-NEXT:    } -> tensor<96xf16>
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C96]] step %[[C1]] {
// CHECK-NEXT:      memref.store %[[ZERO]], %[[BUF]][%[[I]], %[[C0]]] : memref<96x64xf16, strided<[64, 1], offset: ?>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ACC:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[C96]] step %[[C1]] iter_args(%[[ARG:.*]] = %[[C0]]) -> (index) {
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[ARG]], %[[J]] : index
// CHECK-NEXT:      scf.yield %[[NEXT]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SLICE:.*]] = tensor.extract_slice %[[IN]][%[[ACC]], 0] [1, 64] [1, 1] : tensor<96x64xf16> to tensor<1x64xf16>
// CHECK-NEXT:    return %[[RED]] : tensor<96xf16>
// CHECK-NEXT:  }
func.func @kernel(%in: tensor<96x64xf16>, %buf: memref<96x64xf16, strided<[64, 1], offset: ?>>) -> tensor<96xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant 0.0 : f16
  %splat = arith.constant dense<0.0> : tensor<96xf16>
  %empty = tensor.empty() : tensor<96xf16>
  %red = linalg.generic {iterator_types = ["parallel", "reduction"], indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]} ins(%in : tensor<96x64xf16>) outs(%splat : tensor<96xf16>) {
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<96xf16>
  scf.for %i = %c0 to %c96 step %c1 {
    memref.store %zero, %buf[%i, %c0] : memref<96x64xf16, strided<[64, 1], offset: ?>>
  }
  %acc = scf.for %j = %c0 to %c96 step %c1 iter_args(%arg = %c0) -> (index) {
    %next = arith.addi %arg, %j : index
    scf.yield %next : index
  }
  %slice = tensor.extract_slice %in[%acc, 0] [1, 64] [1, 1] : tensor<96x64xf16> to tensor<1x64xf16>
  return %red : tensor<96xf16>
}
