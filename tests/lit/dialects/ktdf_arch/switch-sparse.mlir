// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s

// Switch connectivity may be given as MLIR's sparse elements literal (generic form:
// see switch-sparse-generic.mlir).

// CHECK: {{.*}} = {{(ktdf_arch\.)?}}switch [3] {connectivity = sparse<{{\[\[}}0, 1], [1, 2], [2, 0]], true> : tensor<3x3xi1>}
// CHECK: {{.*}} = {{(ktdf_arch\.)?}}switch [2] {connectivity = sparse<{{\[\[}}0, 1], [1, 0]], [true, false]> : tensor<2x2xi1>}
ktdf_arch.device @ring {
  %p:3 = switch [3] {connectivity = sparse<[[0, 1], [1, 2], [2, 0]], true> : tensor<3x3xi1>}
  %q:2 = switch [2] {connectivity = sparse<[[0, 1], [1, 0]], [true, false]> : tensor<2x2xi1>}
}
