// RUN: dfsched-opt %s -split-input-file --triton-to-linalg | filecheck %s
// RUN: not dfsched-opt %S/Inputs/transpose-kept.mlir -ktir-to-dfir --device=sample 2>&1 | filecheck %S/Inputs/transpose-kept.mlir

// tl.dot(q, tl.trans(k)): a transpose read only by a matmul folds into the matmul's generic,
// which reads K through its B map composed with the permutation (QK^T, as Inductor writes it).
// CHECK-DAG:   #[[Q:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[K:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[S:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @q_k_transposed
// CHECK-SAME:      (%[[QV:.*]]: tensor<4x16xf16>, %[[KV:.*]]: tensor<8x16xf16>, %[[INIT:.*]]: tensor<4x8xf16>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[QV]], %[[KV]] : tensor<4x16xf16>, tensor<8x16xf16>) outs(%[[INIT]] : tensor<4x8xf16>)
// CHECK-NOT:     linalg.transpose
func.func @q_k_transposed(%q: tensor<4x16xf16>, %k: tensor<8x16xf16>, %init: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<16x8xf16>
  %kt = linalg.transpose ins(%k : tensor<8x16xf16>) outs(%e : tensor<16x8xf16>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<4x16xf16>, tensor<16x8xf16>) outs(%init : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %s : tensor<4x8xf16>
}

// -----

// A transpose something else reads (here an element-wise add) stays as written.
// CHECK-LABEL: func.func @transpose_read_by_an_add
// CHECK:         linalg.transpose
func.func @transpose_read_by_an_add(%k: tensor<8x16xf16>, %y: tensor<16x8xf16>) -> tensor<16x8xf16> {
  %e = tensor.empty() : tensor<16x8xf16>
  %kt = linalg.transpose ins(%k : tensor<8x16xf16>) outs(%e : tensor<16x8xf16>) permutation = [1, 0]
  %s = arith.addf %kt, %y : tensor<16x8xf16>
  return %s : tensor<16x8xf16>
}

// -----

// Decision 97: an f32 cast of a transposed K casts K first and transposes the cast, which then
// folds into the matmul: no transpose is left.
// CHECK-LABEL: func.func @k_transposed_then_extended
// CHECK-SAME:      (%[[QV:.*]]: tensor<4x16xf32>, %[[KV:.*]]: tensor<8x16xf16>, %[[INIT:.*]]: tensor<4x8xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[K32:.*]] = arith.extf %[[KV]] : tensor<8x16xf16> to tensor<8x16xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {{.*}} ins(%[[QV]], %[[K32]] : tensor<4x16xf32>, tensor<8x16xf32>) outs(%[[INIT]] : tensor<4x8xf32>)
func.func @k_transposed_then_extended(%q: tensor<4x16xf32>, %k: tensor<8x16xf16>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf16>
  %kt = linalg.transpose ins(%k : tensor<8x16xf16>) outs(%e : tensor<16x8xf16>) permutation = [1, 0]
  %kf = arith.extf %kt : tensor<16x8xf16> to tensor<16x8xf32>
  %s = linalg.matmul ins(%q, %kf : tensor<4x16xf32>, tensor<16x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// A cast of a transpose nothing contracts: the cast still moves first, the transpose (of the
// cast) stays, and the original transpose stays for its other reader.
// CHECK-LABEL: func.func @extended_transpose_returned
// CHECK-SAME:      (%[[KV:.*]]: tensor<8x16xf16>, %[[Y:.*]]: tensor<16x8xf16>)
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[KV]] : tensor<8x16xf16>)
// CHECK:         %[[K32:.*]] = arith.extf %[[KV]] : tensor<8x16xf16> to tensor<8x16xf32>
// CHECK:         %[[T32:.*]] = linalg.transpose ins(%[[K32]]{{ ?}}:{{ ?}}tensor<8x16xf32>) outs(%{{.*}}tensor<16x8xf32>) permutation = [1, 0]
// CHECK:         arith.addf %[[T]], %[[Y]]
// CHECK:         return %[[T32]]
func.func @extended_transpose_returned(%k: tensor<8x16xf16>, %y: tensor<16x8xf16>) -> (tensor<16x8xf32>, tensor<16x8xf16>) {
  %e = tensor.empty() : tensor<16x8xf16>
  %kt = linalg.transpose ins(%k : tensor<8x16xf16>) outs(%e : tensor<16x8xf16>) permutation = [1, 0]
  %kf = arith.extf %kt : tensor<16x8xf16> to tensor<16x8xf32>
  %s = arith.addf %kt, %y : tensor<16x8xf16>
  return %kf, %s : tensor<16x8xf32>, tensor<16x8xf16>
}

// -----

// A row broadcast (softmax's maxima over the row) becomes its generic: the input read through
// the map that skips the added dimension.
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @row_broadcast
// CHECK-NOT:     linalg.broadcast
// CHECK:         linalg.generic {indexing_maps = [#[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<32xf16>) outs(%{{.*}} : tensor<32x32xf16>)
func.func @row_broadcast(%m: tensor<32xf16>) -> tensor<32x32xf16> {
  %e = tensor.empty() : tensor<32x32xf16>
  %b = linalg.broadcast ins(%m : tensor<32xf16>) outs(%e : tensor<32x32xf16>) dimensions = [1]
  return %b : tensor<32x32xf16>
}
