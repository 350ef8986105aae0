// RUN: dfsched-opt %s --allow-unregistered-dialect > %t.once
// RUN: dfsched-opt %t.once --allow-unregistered-dialect > %t.twice
// RUN: diff %t.once %t.twice
// RUN: dfsched-opt %s --allow-unregistered-dialect --print-op-generic | dfsched-opt --allow-unregistered-dialect > %t.generic
// RUN: diff %t.once %t.generic
// RUN: filecheck %s < %t.once

// print -> parse -> print is a fixpoint, and so is the trip through the generic form.
// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: module attributes {dfs.version = 2 : i64} {

#id2 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dfs.version = 2} {
  memref.global "private" constant @lut : memref<4xi8> = dense<[1, 2, 3, 4]>
  func.func private @opaque(memref<?xf16>) -> i1
  func.func @medley(%t: tensor<4x64xf16>, %m: memref<96x64xf16>, %n: index, %flag: i1) -> (tensor<4x64xf16>, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<4x64xf16>
    %f = linalg.fill ins(%cst : f16) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
    %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<4x64xf16>) outs(%f : tensor<4x64xf16>) {
    ^bb0(%a: f16, %b: f16):
      %s = arith.maximumf %a, %b : f16
      linalg.yield %s : f16
    } -> tensor<4x64xf16>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %w = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%i)[%acc]
      %v = memref.load %m[%i, %c0] : memref<96x64xf16>
      %r = memref.reinterpret_cast %m to offset: [%w], sizes: [1, 64], strides: [64, 1] : memref<96x64xf16> to memref<1x64xf16, strided<[64, 1], offset: ?>>
      %c = memref.cast %r : memref<1x64xf16, strided<[64, 1], offset: ?>> to memref<?x64xf16, strided<[64, 1], offset: ?>>
      scf.yield %w : index
    }
    %sel = scf.if %flag -> (index) {
      %x:2 = "test.pair"() : () -> (index, index)
      scf.yield %x#1 : index
    } else {
      scf.yield %sum : index
    }
    cf.cond_br %flag, ^exit(%sel : index), ^exit(%c1 : index)
  ^exit(%out: index):
    return %g, %out : tensor<4x64xf16>, index
  }
}
