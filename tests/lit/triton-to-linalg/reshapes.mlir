// RUN: dfsched-opt %s -split-input-file --triton-to-linalg | filecheck %s

// Reshapes that only drop or add unit dimensions, read as inputs of a broadcast or a generic,
// fold into the reader's input map: it reads the reshape's source, a unit dimension at 0.

// A 1x1 tile collapsed to a rank-0 tensor and broadcast over 4x64 (corpus scalar_broadcast):
// CHECK:       #[[ORIGIN:.*]] = affine_map<(d0, d1) -> (0, 0)>
// CHECK:       #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @rank0_broadcast
// CHECK-SAME:      (%[[X:.*]]: tensor<1x1xf16>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[ORIGIN]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<1x1xf16>) outs(%[[E]] : tensor<4x64xf16>)
// CHECK-NOT:     tensor.collapse_shape
func.func @rank0_broadcast(%x: tensor<1x1xf16>) -> tensor<4x64xf16> {
  %s = tensor.collapse_shape %x [] : tensor<1x1xf16> into tensor<f16>
  %e = tensor.empty() : tensor<4x64xf16>
  %b = linalg.broadcast ins(%s : tensor<f16>) outs(%e : tensor<4x64xf16>) dimensions = [0, 1]
  return %b : tensor<4x64xf16>
}

// -----

// A row expanded to 1x64 and read by a generic over 8x64: the generic reads the row itself.
// CHECK:       #[[COLUMN:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @expanded_row
// CHECK-SAME:      (%[[R:.*]]: tensor<64xf16>, %[[Y:.*]]: tensor<8x64xf16>)
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[COLUMN]], #{{.*}}, #{{.*}}], {{.*}} ins(%[[R]], %[[Y]] : tensor<64xf16>, tensor<8x64xf16>)
// CHECK-NOT:     tensor.expand_shape
#row = affine_map<(d0, d1) -> (0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @expanded_row(%r: tensor<64xf16>, %y: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = tensor.expand_shape %r [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
  %s = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %y : tensor<1x64xf16>, tensor<8x64xf16>) outs(%y : tensor<8x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<8x64xf16>
  return %s : tensor<8x64xf16>
}

// -----

// A real reshape (two non-unit dimensions in one group), or one read by something other than a
// linalg input, stays.
// CHECK-LABEL: func.func @real_reshape
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x32xf16> into tensor<64xf16>
// CHECK:         tensor.expand_shape
func.func @real_reshape(%x: tensor<2x32xf16>, %r: tensor<64xf16>) -> (tensor<64xf16>, tensor<1x64xf16>) {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x32xf16> into tensor<64xf16>
  %e = tensor.expand_shape %r [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
  return %c, %e : tensor<64xf16>, tensor<1x64xf16>
}
