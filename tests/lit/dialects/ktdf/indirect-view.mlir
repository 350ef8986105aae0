// RUN: dfsched-opt %s -split-input-file | filecheck %s
// RUN: dfsched-opt %s -split-input-file --print-op-generic | dfsched-opt -split-input-file | filecheck %s

// ktdf.indirect_view: a gather/scatter view, its format and verifier.

// CHECK-LABEL: func.func @rows
// CHECK: ktdf.indirect_view %{{.*}}[%{{.*}}] offset %{{.*}} {list_map = #{{.*}}} : memref<100x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf16, strided<[0, 1], offset: ?>, "DDR">
func.func @rows(%t: memref<100x64xf16, "DDR">, %a: memref<8xi32, "L1">, %o: index) {
  %v = ktdf.indirect_view %t[%a] offset %o {list_map = affine_map<(d0, d1) -> (d0)>} : memref<100x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf16, strided<[0, 1], offset: ?>, "DDR">
  return
}
