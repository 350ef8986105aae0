// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of ktdf.indirect_view.

func.func @map_dims(%t: memref<100x64xf16, "DDR">, %a: memref<8xi32, "L1">, %o: index) {
  // expected-error @below {{list_map takes 1 dims but the view has rank 2}}
  %v = ktdf.indirect_view %t[%a] offset %o {list_map = affine_map<(d0) -> (d0)>} : memref<100x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf16, "DDR">
  return
}

// -----

func.func @map_results(%t: memref<100x64xf16, "DDR">, %a: memref<8xi32, "L1">, %o: index) {
  // expected-error @below {{list_map gives 2 results but the address list has rank 1}}
  %v = ktdf.indirect_view %t[%a] offset %o {list_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<100x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf16, "DDR">
  return
}

// -----

func.func @element_type(%t: memref<100x64xf16, "DDR">, %a: memref<8xi32, "L1">, %o: index) {
  // expected-error @below {{the view's element type differs from its source's}}
  %v = ktdf.indirect_view %t[%a] offset %o {list_map = affine_map<(d0, d1) -> (d0)>} : memref<100x64xf16, "DDR">, memref<8xi32, "L1"> -> memref<8x64xf32, "DDR">
  return
}
