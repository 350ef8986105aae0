// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt --print-op-generic | filecheck %s --check-prefix=GENERIC

// Sparse switch connectivity survives the generic form, spelled as MLIR spells it there
// (`sparse<...> : type`, which dfsched's parser reads though xDSL's does not).

// GENERIC: "ktdf_arch.switch"() <{connectivity = sparse<{{\[\[}}0, 1], [1, 2], [2, 0]], true> : tensor<3x3xi1>}>
// GENERIC: "ktdf_arch.switch"() <{connectivity = sparse<{{\[\[}}0, 1], [1, 0]], [true, false]> : tensor<2x2xi1>}>

// CHECK: ktdf_arch.device @ring {
// CHECK:   %{{.*}}:3 = switch [3] {connectivity = sparse<{{\[\[}}0, 1], [1, 2], [2, 0]], true> : tensor<3x3xi1>}
// CHECK:   %{{.*}}:2 = switch [2] {connectivity = sparse<{{\[\[}}0, 1], [1, 0]], [true, false]> : tensor<2x2xi1>}
ktdf_arch.device @ring {
  %p:3 = switch [3] {connectivity = sparse<[[0, 1], [1, 2], [2, 0]], true> : tensor<3x3xi1>}
  %q:2 = switch [2] {connectivity = sparse<[[0, 1], [1, 0]], [true, false]> : tensor<2x2xi1>}
}
