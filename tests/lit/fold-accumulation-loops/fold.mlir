// RUN: dfsched-opt %s -split-input-file --fold-accumulation-loops | filecheck %s

// A Triton K loop: each chunk's matmul into a fresh tensor, added to the carried accumulator.
// It becomes one matmul over all of K, reducing into a zero fill of the loop's initial value.

#set_a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set_b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile_a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#tile_b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @k_loop(%row: index) -> tensor<4x64xf16> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %a = ktdp.construct_memory_view %c0, sizes: [8, 64], strides: [64, 1] {coordinate_set = #set_a, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %b = ktdp.construct_memory_view %c1024, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set_b, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<4x64xf16>
  %c = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %zero) -> (tensor<4x64xf16>) {
    %ta = ktdp.construct_access_tile %a[%row, %k] {access_tile_set = #tile_a, access_tile_order = #order} : memref<8x64xf16> -> !ktdp.access_tile<4x32xindex>
    %tb = ktdp.construct_access_tile %b[%k, %c0] {access_tile_set = #tile_b, access_tile_order = #order} : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %x = ktdp.load %ta : <4x32xindex> -> tensor<4x32xf16>
    %y = ktdp.load %tb : <32x64xindex> -> tensor<32x64xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %p = linalg.matmul ins(%x, %y : tensor<4x32xf16>, tensor<32x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
    %next = arith.addf %acc, %p : tensor<4x64xf16>
    scf.yield %next : tensor<4x64xf16>
  }
  return %c : tensor<4x64xf16>
}
// CHECK-LABEL: func.func @k_loop
// CHECK:         arith.constant dense<0.000000e+00> : tensor<4x64xf16>
// CHECK:         %[[START:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[TA:.*]] = ktdp.construct_access_tile %{{.*}}[%arg0, %[[START]]] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    %[[TB:.*]] = ktdp.construct_access_tile %{{.*}}[%[[START]], %{{.*}}] {{.*}} -> !ktdp.access_tile<64x64xindex>
// CHECK-NEXT:    %[[X:.*]] = ktdp.load %[[TA]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[Y:.*]] = ktdp.load %[[TB]] : <64x64xindex> -> tensor<64x64xf16>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x64xf16>
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f16) outs(%[[E]] : tensor<4x64xf16>)
// CHECK-NEXT:    %[[C:.*]] = linalg.matmul ins(%[[X]], %[[Y]] : tensor<4x64xf16>, tensor<64x64xf16>) outs(%[[F]] : tensor<4x64xf16>)
// CHECK:         return %[[C]]
// CHECK-NOT:     scf.for

// -----

// A chunked row sum reducing straight into the carried sums, its chunk index offset by 64:
// one reduction over the 128 columns from 64, into the loop's initial fill.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_sum(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 192], strides: [192, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4x192xf16>
  %f0 = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %fill = linalg.fill ins(%f0 : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %s = scf.for %j = %c0 to %c128 step %c32 iter_args(%sums = %fill) -> (tensor<4xf16>) {
    %col = arith.addi %j, %c64 : index
    %t = ktdp.construct_access_tile %a[%c0, %col] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x192xf16> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %t : <4x32xindex> -> tensor<4x32xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x32xf16>) outs(%sums : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}
// CHECK-LABEL: func.func @row_sum
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[START:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[COL:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK-NEXT:    %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, %[[COL]]] {access_tile_order = #{{.*}}, access_tile_set = #[[BOX:.*]]} : memref<4x192xf16> -> !ktdp.access_tile<4x128xindex>
// CHECK-NEXT:    %[[X:.*]] = ktdp.load %[[T]] : <4x128xindex> -> tensor<4x128xf16>
// CHECK-NEXT:    %[[R:.*]] = linalg.reduce { arith.addf } ins(%[[X]] : tensor<4x128xf16>) outs(%[[FILL]] : tensor<4xf16>) dimensions = [1]
// CHECK:         return %[[R]]
// CHECK-NOT:     scf.for

// -----

// A multiply-accumulate generic whose second input is loaded once, outside the loop, and only
// indexed by the parallel dimension: it stays as it is; the streamed input grows.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#order1 = affine_map<(d0) -> (d0)>
#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @scaled_sum(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %w = ktdp.construct_memory_view %c64, sizes: [4], strides: [1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %tw = ktdp.construct_access_tile %w[%c0] {access_tile_set = #rows, access_tile_order = #order1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %scale = ktdp.load %tw : <4xindex> -> tensor<4xf16>
  %e = tensor.empty() : tensor<4xf16>
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%sums = %e) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = #chunk, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.generic {indexing_maps = [#in, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %scale : tensor<4x16xf16>, tensor<4xf16>) outs(%sums : tensor<4xf16>) {
    ^bb0(%xi: f16, %wi: f16, %o: f16):
      %m = arith.mulf %xi, %wi : f16
      %sum = arith.addf %o, %m : f16
      linalg.yield %sum : f16
    } -> tensor<4xf16>
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}
// CHECK-LABEL: func.func @scaled_sum
// CHECK:         %[[SCALE:.*]] = ktdp.load %{{.*}} : <4xindex> -> tensor<4xf16>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4xf16>
// CHECK:         arith.constant 0 : index
// CHECK-NEXT:    ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT:    %[[X:.*]] = ktdp.load %{{.*}} : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[X]], %[[SCALE]] : tensor<4x64xf16>, tensor<4xf16>) outs(%[[E]] : tensor<4xf16>)
// CHECK-NOT:     scf.for
