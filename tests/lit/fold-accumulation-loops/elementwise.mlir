// RUN: dfsched-opt %s -split-input-file --fold-accumulation-loops | filecheck %s

// Decision 60. Triton's RMSNorm: the squares of a row's chunks summed element-wise in the
// loop, the sum reduced after it. Loop and reduction become the squares of the whole row
// (the streamed tile grown to 64 columns, anchored at the lower bound) reduced once.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @sum_of_squares(%row: index) -> tensor<1xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x16xf16>
  %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%a = %zero) -> (tensor<1x16xf16>) {
    %t = ktdp.construct_access_tile %x[%row, %k] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %sq = arith.mulf %v, %v : tensor<1x16xf16>
    %n = arith.addf %a, %sq : tensor<1x16xf16>
    scf.yield %n : tensor<1x16xf16>
  }
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1xf16>
  %init = linalg.fill ins(%z : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%acc : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  return %sum : tensor<1xf16>
}
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         arith.constant dense<0.000000e+00> : tensor<1x16xf16>
// CHECK:         %[[START:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%arg0, %[[START]]] {{.*}} -> !ktdp.access_tile<1x64xindex>
// CHECK-NEXT:    %[[V:.*]] = ktdp.load %[[T]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK-NEXT:    %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : tensor<1x64xf16>
// CHECK-NOT:     scf.for
// CHECK:         linalg.reduce { arith.addf } ins(%[[SQ]] : tensor<1x64xf16>)

// -----

// A running maximum from -inf, reduced by the same combiner; the chunk is shifted by a
// splat made before the loop, rebuilt at the whole row's shape.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @running_max(%row: index, %s: f16) -> tensor<1xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %low = arith.constant 0xFC00 : f16
  %e16 = tensor.empty() : tensor<1x16xf16>
  %ninf = linalg.fill ins(%low : f16) outs(%e16 : tensor<1x16xf16>) -> tensor<1x16xf16>
  %shift = tensor.splat %s : tensor<1x16xf16>
  %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%a = %ninf) -> (tensor<1x16xf16>) {
    %t = ktdp.construct_access_tile %x[%row, %k] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %d = arith.subf %v, %shift : tensor<1x16xf16>
    %n = arith.maximumf %d, %a : tensor<1x16xf16>
    scf.yield %n : tensor<1x16xf16>
  }
  %e1 = tensor.empty() : tensor<1xf16>
  %init = linalg.fill ins(%low : f16) outs(%e1 : tensor<1xf16>) -> tensor<1xf16>
  %m = linalg.reduce { arith.maximumf } ins(%acc : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  return %m : tensor<1xf16>
}
// CHECK-LABEL: func.func @running_max
// CHECK:         %[[S:.*]] = tensor.splat %arg1 : tensor<1x64xf16>
// CHECK:         %[[V:.*]] = ktdp.load %{{.*}} : <1x64xindex> -> tensor<1x64xf16>
// CHECK-NEXT:    %[[D:.*]] = arith.subf %[[V]], %[[S]] : tensor<1x64xf16>
// CHECK-NOT:     scf.for
// CHECK:         linalg.reduce { arith.maximumf } ins(%[[D]] : tensor<1x64xf16>)

// -----

// A map loop (no iter_args) scaling each chunk by a factor computed from a load before the
// loop: a compute group cannot span control flow, so it becomes one store of the whole row.
// The loop after it reads nothing loaded before it and stays.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @map_loop(%row: index) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %x[%row, %c0] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
  %first = ktdp.load %t0 : <1x16xindex> -> tensor<1x16xf16>
  %e = tensor.empty() : tensor<1x16xf16>
  %factor = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%first : tensor<1x16xf16>) outs(%e : tensor<1x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16xf16>
  scf.for %k = %c0 to %c64 step %c16 {
    %t = ktdp.construct_access_tile %x[%row, %k] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %y = arith.mulf %v, %factor : tensor<1x16xf16>
    ktdp.store %y, %t : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
  }
  scf.for %k = %c0 to %c64 step %c16 {
    %t = ktdp.construct_access_tile %x[%row, %k] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %y = arith.mulf %v, %v : tensor<1x16xf16>
    ktdp.store %y, %t : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
  }
  return
}
// CHECK-LABEL: func.func @map_loop
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:    %[[F:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x16xf16>) outs(%[[E]] : tensor<1x64xf16>)
// CHECK:         %[[T:.*]] = ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<1x64xindex>
// CHECK-NEXT:    %[[V:.*]] = ktdp.load %[[T]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %[[V]], %[[F]] : tensor<1x64xf16>
// CHECK-NEXT:    ktdp.store %[[Y]], %[[T]] : tensor<1x64xf16>, <1x64xindex>
// CHECK-NEXT:    scf.for
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : tensor<1x16xf16>
