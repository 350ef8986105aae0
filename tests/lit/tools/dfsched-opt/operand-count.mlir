// A named op given too few operands for its hidden body is a located parse error, not an
// internal error (xDSL builds linalg named ops' bodies by indexing their operands).
// RUN: not dfsched-opt %s 2>&1 | filecheck %s

func.func @quantized_matmul_two_inputs(%a: tensor<4x4xf16>, %b: tensor<4x4xf16>, %c: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %r = linalg.quantized_matmul ins(%a, %b : tensor<4x4xf16>, tensor<4x4xf16>) outs(%c : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %r : tensor<4x4xf16>
}
// CHECK: operand-count.mlir:[[# @LINE - 3]]:8: error: 'linalg.quantized_matmul' has the wrong number of operands
// CHECK-NOT: internal error
