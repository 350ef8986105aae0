// RUN: dfsched-opt %s -split-input-file --triton-to-linalg | filecheck %s

// A loop carrying a scalar that adds the extracted element of a one-element reduction each
// iteration carries that tensor instead: the loop adds the reductions as tensors, and the
// scalar is extracted once after the loop (the splat of it then becomes a broadcast).

// CHECK-LABEL: func.func @chunk_sums
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1xf16>) {
// CHECK:           %[[PART:.*]] = linalg.reduce { arith.addf } ins(%{{.*}} : tensor<1x16xf16>) outs(%{{.*}} : tensor<1xf16>) dimensions = [1]
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addf %[[ACC]], %[[PART]] : tensor<1xf16>
// CHECK:           scf.yield %[[NEXT]] : tensor<1xf16>
// CHECK:         }
// CHECK:         linalg.generic {{{.*}}} ins(%[[SUM]] : tensor<1xf16>) outs(%{{.*}} : tensor<1x16xf16>)
func.func @chunk_sums(%x: index) -> tensor<1x16xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f16
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %total = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (f16) {
    %t = ktdp.construct_access_tile %v[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x64xf16> -> !ktdp.access_tile<1x16xindex>
    %chunk = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %init = tensor.splat %zero : tensor<1xf16>
    %part = linalg.reduce { arith.addf } ins(%chunk : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %p = tensor.extract %part[%c0] : tensor<1xf16>
    %next = arith.addf %acc, %p : f16
    scf.yield %next : f16
  }
  %splat = tensor.splat %total : tensor<1x16xf16>
  return %splat : tensor<1x16xf16>
}

// -----

// A carried scalar that is not a sum of extracted elements (a product here) stays a scalar:
// fold-accumulation-loops reports it, naming the value.

// CHECK-LABEL: func.func @scalar_product
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f16) {
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f16
func.func @scalar_product(%x: tensor<1xf16>) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f16
  %p = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %one) -> (f16) {
    %e = tensor.extract %x[%c0] : tensor<1xf16>
    %next = arith.mulf %acc, %e : f16
    scf.yield %next : f16
  }
  return %p : f16
}
