// RUN: dfsched-opt %s -split-input-file --triton-to-linalg | filecheck %s

// Decision 60's front door. RMSNorm's factor: the extracted sum goes through scalar ops with
// constants (`rsqrt(sum / N + eps)`, N a constant converted to f16) before it is splatted; the
// broadcast generic's body computes them, and the scalar ops outside are gone.

// CHECK-LABEL: func.func @rms_factor
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<1xf16>) outs(%{{.*}} : tensor<1x64xf16>) {
// CHECK:         ^bb0(%[[S:.*]]: f16, %{{.*}}: f16):
// CHECK:           %[[NF:.*]] = arith.constant 6.400000e+01 : f16
// CHECK-NEXT:      %[[M:.*]] = arith.divf %[[S]], %[[NF]] : f16
// CHECK:           %[[EPS:.*]] = arith.constant
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[M]], %[[EPS]] : f16
// CHECK-NEXT:      %[[R:.*]] = math.rsqrt %[[A]] : f16
// CHECK:           linalg.yield %[[R]] : f16
// CHECK-NOT:     tensor.extract
// CHECK-NOT:     math.rsqrt
func.func @rms_factor(%sum: tensor<1xf16>) -> tensor<1x64xf16> {
  %c0 = arith.constant 0 : index
  %n = arith.constant 64 : i32
  %eps = arith.constant 1.0e-3 : f16
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %nf = arith.sitofp %n : i32 to f16
  %m = arith.divf %s, %nf : f16
  %a = arith.addf %m, %eps : f16
  %r = math.rsqrt %a : f16
  %b = tensor.splat %r : tensor<1x64xf16>
  return %b : tensor<1x64xf16>
}

// -----

// LayerNorm's `var / N + eps` and `1 / sqrt(..)` on tensors with splatted constants: each op
// becomes a generic over its tensor operand whose body uses the constant (in its place: the
// divisor stays second, the dividend first).

// CHECK-LABEL: func.func @splatted_constants
// CHECK:         %[[NF:.*]] = arith.constant 6.400000e+01 : f16
// CHECK:         %{{.*}} = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:    %[[D:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1xf16>)
// CHECK:         ^bb0(%[[V:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[V]], %[[NF]] : f16
// CHECK:         arith.constant 1.000000e+00 : f16
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK:         %{{.*}} = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[D]] : tensor<1xf16>)
// CHECK:         ^bb0(%[[W:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      arith.divf %[[ONE]], %[[W]] : f16
// CHECK-NOT:     tensor.splat
func.func @splatted_constants(%var: tensor<1xf16>) -> tensor<1xf16> {
  %n = arith.constant 64 : i32
  %nf = arith.sitofp %n : i32 to f16
  %nt = tensor.splat %nf : tensor<1xf16>
  %d = arith.divf %var, %nt : tensor<1xf16>
  %one = arith.constant 1.0 : f16
  %ot = tensor.splat %one : tensor<1xf16>
  %r = arith.divf %ot, %d : tensor<1xf16>
  return %r : tensor<1xf16>
}

// -----

// An integer converted to f16 beyond f16's largest finite value (65504) folds to infinity, as
// `arith.sitofp` rounds, not to a compiler crash (issue 19: a fuzzed `arith.constant 65536`).

// CHECK-LABEL: func.func @splatted_constant_past_f16
// CHECK:         %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK:         ^bb0(%[[V:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      arith.divf %[[V]], %[[INF]] : f16
func.func @splatted_constant_past_f16(%var: tensor<1xf16>) -> tensor<1xf16> {
  %n = arith.constant 65536 : i32
  %nf = arith.sitofp %n : i32 to f16
  %nt = tensor.splat %nf : tensor<1xf16>
  %d = arith.divf %var, %nt : tensor<1xf16>
  return %d : tensor<1xf16>
}
