// RUN: dfsched-opt %s -split-input-file --triton-to-linalg | filecheck %s

// Triton's scalar broadcasts become linalg: an extract of a reduction's result at constant
// indices splatted over a tensor is a broadcast generic reading the result at those indices;
// a splat of a constant (a reduction's start) is a fill of an empty tensor.

// CHECK:       #[[READ0:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK:       #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @row_max_back
// CHECK-SAME:      (%[[X:.*]]: tensor<1x64xf16>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1xf16>
// CHECK-NEXT:    %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E]] : tensor<1xf16>) -> tensor<1xf16>
// CHECK-NEXT:    %[[MAX:[a-z0-9_]+]] = linalg.reduce { arith.maximumf } ins(%[[X]] : tensor<1x64xf16>) outs(%[[INIT]] : tensor<1xf16>) dimensions = [1]
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:    %[[B:.*]] = linalg.generic {indexing_maps = [#[[READ0]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[MAX]] : tensor<1xf16>) outs(%[[E2]] : tensor<1x64xf16>) {
// CHECK:         ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK:           linalg.yield %[[IN]] : f16
// CHECK:         } -> tensor<1x64xf16>
// CHECK-NOT:     tensor.extract
// CHECK-NOT:     tensor.splat
// CHECK:         arith.subf %[[X]], %[[B]] : tensor<1x64xf16>
func.func @row_max_back(%x: tensor<1x64xf16>) -> tensor<1x64xf16> {
  %c0 = arith.constant 0 : index
  %neg_inf = arith.constant 0xFC00 : f16
  %init = tensor.splat %neg_inf : tensor<1xf16>
  %max = linalg.reduce { arith.maximumf } ins(%x : tensor<1x64xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %row = tensor.splat %m : tensor<1x64xf16>
  %d = arith.subf %x, %row : tensor<1x64xf16>
  return %d : tensor<1x64xf16>
}

// -----

// What is not a constant splat or a broadcast of a constant-index extract stays: a splat of a
// kernel argument, and an extract at a computed index (with its splat).
// CHECK-LABEL: func.func @left_alone
// CHECK:         tensor.splat %{{.*}} : tensor<4xf16>
// CHECK:         tensor.extract %{{.*}}[%{{.*}}] : tensor<4xf16>
// CHECK-NEXT:    tensor.splat %{{.*}} : tensor<4x4xf16>
// CHECK-NOT:     linalg
func.func @left_alone(%s: f16, %t: tensor<4xf16>, %i: index) -> (tensor<4xf16>, tensor<4x4xf16>) {
  %a = tensor.splat %s : tensor<4xf16>
  %e = tensor.extract %t[%i] : tensor<4xf16>
  %b = tensor.splat %e : tensor<4x4xf16>
  return %a, %b : tensor<4xf16>, tensor<4x4xf16>
}

// -----

// A splat `arith.constant dense<c>` operand of an element-wise op is a constant in the body too
// (a sigmoid's 1 / (1 + exp(-x))); a dense constant that is not a splat stays an operand.
// CHECK-LABEL: func.func @dense_splat_operand
// CHECK:         %[[STEPS:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 1.000000e+00
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK:         linalg.generic {{{.*}}} ins(%{{.*}} : tensor<2x4xf16>)
// CHECK:         ^bb0(%[[E:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[D:.*]] = arith.addf %[[ONE]], %[[E]] : f16
// CHECK:         arith.mulf %{{.*}}, %[[STEPS]] : tensor<2x4xf16>
func.func @dense_splat_operand(%x: tensor<2x4xf16>) -> (tensor<2x4xf16>, tensor<2x4xf16>) {
  %ones = arith.constant dense<1.0> : tensor<2x4xf16>
  %steps = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]]> : tensor<2x4xf16>
  %e = math.exp %x : tensor<2x4xf16>
  %d = arith.addf %ones, %e : tensor<2x4xf16>
  %s = arith.mulf %x, %steps : tensor<2x4xf16>
  return %d, %s : tensor<2x4xf16>, tensor<2x4xf16>
}

// -----

// A splat dense constant a contraction accumulates into (Triton's `tl.zeros` before `tl.dot`)
// becomes the fill the scheduler starts from.

// CHECK-LABEL: func.func @dense_init
// CHECK-SAME:      (%[[A:.*]]: tensor<1x8xf16>, %[[B:.*]]: tensor<8x4xf16>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x4xf16>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f16) outs(%[[E]] : tensor<1x4xf16>) -> tensor<1x4xf16>
// CHECK-NEXT:    %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<1x8xf16>, tensor<8x4xf16>) outs(%[[F]] : tensor<1x4xf16>) -> tensor<1x4xf16>
// CHECK-NEXT:    return %[[P]]
func.func @dense_init(%a: tensor<1x8xf16>, %b: tensor<8x4xf16>) -> tensor<1x4xf16> {
  %init = arith.constant dense<0.0> : tensor<1x4xf16>
  %p = linalg.matmul ins(%a, %b : tensor<1x8xf16>, tensor<8x4xf16>) outs(%init : tensor<1x4xf16>) -> tensor<1x4xf16>
  return %p : tensor<1x4xf16>
}

// -----

// Triton's -inf is an i32 constant bitcast to f32: the float constant of those bits, so its
// splat is a fill (Decision 108). An f16 bitcast folds the same way; a bitcast to i32 stays.

// CHECK-LABEL: func.func @bitcast_constants
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    linalg.fill ins(%[[NEG_INF]] : f32) outs(%[[E]] : tensor<8xf32>) -> tensor<8xf32>
func.func @bitcast_constants() -> (tensor<8xf32>, f16, i32) {
  %bits = arith.constant 0xFF800000 : i32
  %neg_inf = arith.bitcast %bits : i32 to f32
  %half_bits = arith.constant 14336 : i16
  %half = arith.bitcast %half_bits : i16 to f16
  %one = arith.constant 1.0 : f32
  %back = arith.bitcast %one : f32 to i32
  %m = tensor.splat %neg_inf : tensor<8xf32>
  return %m, %half, %back : tensor<8xf32>, f16, i32
}
