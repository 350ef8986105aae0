// RUN: dfsched-opt %s --split-input-file --construct-three-stage-pipeline --device=spyre | filecheck %s

// Decision 101: exp(x - max) is fused into the sum reduction that reads it when the reduction's
// rows fill at least half the compute unit's lanes (64 rows, 64 f16 lanes on spyre): the row
// maximum becomes an input of the reduction indexed by its row alone (held over the row's
// steps), and the exponentials are never stored.

// CHECK-LABEL: func.func @sum_of_exps(
// CHECK-NOT:     math.exp
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<64x128xf16>, tensor<64x1xf16>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[M:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[M]] : f16
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[D]] : f16
// CHECK-NEXT:      arith.addf %[[ACC]], %[[E]] : f16
// CHECK-NOT:     math.exp
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_of_exps() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %x_address = arith.constant 0 : index
  %y_address = arith.constant 16384 : index
  %x = ktdp.construct_memory_view %x_address, sizes: [64, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %m = ktdp.construct_memory_view %y_address, sizes: [64, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #view, access_tile_order = #id} : memref<64x128xf16> -> !ktdp.access_tile<64x128xindex>
  %tm = ktdp.construct_access_tile %m[%c0, %c0] {access_tile_set = #view, access_tile_order = #id} : memref<64x128xf16> -> !ktdp.access_tile<64x128xindex>
  %rows = ktdp.load %tx : <64x128xindex> -> tensor<64x128xf16>
  %maxima = ktdp.load %tm : <64x128xindex> -> tensor<64x128xf16>
  %e0 = tensor.empty() : tensor<64xf16>
  %minus_infinity = arith.constant 0xFC00 : f16
  %init = linalg.fill ins(%minus_infinity : f16) outs(%e0 : tensor<64xf16>) -> tensor<64xf16>
  %max = linalg.reduce { arith.maximumf } ins(%maxima : tensor<64x128xf16>) outs(%init : tensor<64xf16>) dimensions = [1]
  %empty = tensor.empty() : tensor<64x128xf16>
  %exps = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%rows, %max : tensor<64x128xf16>, tensor<64xf16>) outs(%empty : tensor<64x128xf16>) {
  ^bb0(%v: f16, %mv: f16, %o: f16):
    %d = arith.subf %v, %mv : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  } -> tensor<64x128xf16>
  %zero = arith.constant 0.0 : f16
  %sinit = linalg.fill ins(%zero : f16) outs(%e0 : tensor<64xf16>) -> tensor<64xf16>
  %sums = linalg.reduce { arith.addf } ins(%exps : tensor<64x128xf16>) outs(%sinit : tensor<64xf16>) dimensions = [1]
  %out = tensor.empty() : tensor<64x128xf16>
  %b = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%sums : tensor<64xf16>) outs(%out : tensor<64x128xf16>) {
  ^bb0(%s: f16, %o: f16):
    linalg.yield %s : f16
  } -> tensor<64x128xf16>
  ktdp.store %b, %tm : tensor<64x128xf16>, <64x128xindex>
  return
}

// -----

// 16 rows fill a quarter of the lanes: the sum steps lane-wide (Decision 65), reading one input,
// so exp(x - max) stays a compute op of its own and its result an intermediate.

// CHECK-LABEL: func.func @few_rows(
// CHECK:         math.exp
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<16x128xf16>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT:      arith.addf
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @few_rows() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %x_address = arith.constant 0 : index
  %y_address = arith.constant 16384 : index
  %x = ktdp.construct_memory_view %x_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %m = ktdp.construct_memory_view %y_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #view, access_tile_order = #id} : memref<16x128xf16> -> !ktdp.access_tile<16x128xindex>
  %tm = ktdp.construct_access_tile %m[%c0, %c0] {access_tile_set = #view, access_tile_order = #id} : memref<16x128xf16> -> !ktdp.access_tile<16x128xindex>
  %rows = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
  %maxima = ktdp.load %tm : <16x128xindex> -> tensor<16x128xf16>
  %e0 = tensor.empty() : tensor<16xf16>
  %minus_infinity = arith.constant 0xFC00 : f16
  %init = linalg.fill ins(%minus_infinity : f16) outs(%e0 : tensor<16xf16>) -> tensor<16xf16>
  %max = linalg.reduce { arith.maximumf } ins(%maxima : tensor<16x128xf16>) outs(%init : tensor<16xf16>) dimensions = [1]
  %empty = tensor.empty() : tensor<16x128xf16>
  %exps = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%rows, %max : tensor<16x128xf16>, tensor<16xf16>) outs(%empty : tensor<16x128xf16>) {
  ^bb0(%v: f16, %mv: f16, %o: f16):
    %d = arith.subf %v, %mv : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  } -> tensor<16x128xf16>
  %zero = arith.constant 0.0 : f16
  %sinit = linalg.fill ins(%zero : f16) outs(%e0 : tensor<16xf16>) -> tensor<16xf16>
  %sums = linalg.reduce { arith.addf } ins(%exps : tensor<16x128xf16>) outs(%sinit : tensor<16xf16>) dimensions = [1]
  %out = tensor.empty() : tensor<16x128xf16>
  %b = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%sums : tensor<16xf16>) outs(%out : tensor<16x128xf16>) {
  ^bb0(%s: f16, %o: f16):
    linalg.yield %s : f16
  } -> tensor<16x128xf16>
  ktdp.store %b, %tm : tensor<16x128xf16>, <16x128xindex>
  return
}
