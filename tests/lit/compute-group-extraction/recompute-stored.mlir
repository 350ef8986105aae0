// RUN: dfsched-opt %s --compute-group-extraction | filecheck %s

// Decision 61. A result that is stored and also computed on (LayerNorm's mean) gets a copy
// that feeds the store, so every stored value is final; one program holds both.

func.func @stored_and_reused() {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %t = ktdp.construct_access_tile %v[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  %e = tensor.empty() : tensor<4xf16>
  %y = linalg.add ins(%x, %x : tensor<4xf16>, tensor<4xf16>) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  ktdp.store %y, %t : tensor<4xf16>, !ktdp.access_tile<4xindex>
  %z = linalg.mul ins(%y, %y : tensor<4xf16>, tensor<4xf16>) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  ktdp.store %z, %t : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// CHECK-LABEL: func.func @local_schedule_0()
// CHECK:         %[[X:.*]] = ktdp.load
// CHECK:         %[[A:.*]] = linalg.add ins(%[[X]], %[[X]] :
// CHECK-NEXT:    %[[B:.*]] = linalg.add ins(%[[X]], %[[X]] :
// CHECK-NEXT:    %[[M:.*]] = linalg.mul ins(%[[B]], %[[B]] :
// CHECK-NEXT:    ktdp.store %[[A]],
// CHECK-NEXT:    ktdp.store %[[M]],
