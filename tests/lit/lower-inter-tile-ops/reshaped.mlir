// RUN: dfsched-opt %s --device=ring4 -p ensure-device-declaration,lower-inter-tile-ops | filecheck %s

// A partial reshaped before the exchange (a 2x64 tile collapsed to 128 elements) is stored as
// the tile it was reshaped from, and a reshape of the delivered result (expanded back to 2x64)
// is a load of the result slot at that shape: the slots are row-major, so the bytes are the same.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reshaped(%in: index, %out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %in, sizes: [2, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  %p = ktdp.load %t : <2x64xindex> -> tensor<2x64xf16>
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<2x64xf16> into tensor<128xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<128xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %flat : tensor<128xf16>
  }
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128xf16>
  %id0 = linalg.fill ins(%zero : f16) outs(%e : tensor<128xf16>) -> tensor<128xf16>
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%id0 : tensor<128xf16>) : <(tensor<128xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
  ^bb0(%a: tensor<128xf16>, %b: tensor<128xf16>):
    %i = tensor.empty() : tensor<128xf16>
    %s = linalg.add ins(%a, %b : tensor<128xf16>, tensor<128xf16>) outs(%i : tensor<128xf16>) -> tensor<128xf16>
    ktdp.yield_reduced %s : tensor<128xf16>
  }
  %r2 = tensor.expand_shape %r [[0, 1]] output_shape [2, 64] : tensor<128xf16> into tensor<2x64xf16>
  %w = ktdp.construct_memory_view %out, sizes: [2, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %wt = ktdp.construct_access_tile %w[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %r2, %wt : tensor<2x64xf16>, <2x64xindex>
  return
}

// CHECK-LABEL: func.func @reshaped
// CHECK:         %[[P:.*]] = ktdp.load {{.*}} -> tensor<2x64xf16>
// CHECK-NEXT:    %[[PA:.*]] = arith.constant 1048064 : index
// CHECK-NEXT:    %[[PV:.*]] = ktdp.construct_memory_view %[[PA]], sizes: [2, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>
// CHECK-NEXT:    %[[PT:.*]] = ktdp.construct_access_tile %[[PV]]
// CHECK-NEXT:    ktdp.store %[[P]], %[[PT]] : tensor<2x64xf16>
// CHECK-NEXT:    ktdf.tile_reduce "add" from 1048064 into 1048320 {{.*}} : tensor<128xf16>
// CHECK:         %[[RV:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [2, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>
// CHECK-NEXT:    %[[RT:.*]] = ktdp.construct_access_tile %[[RV]]
// CHECK-NEXT:    %[[R:.*]] = ktdp.load %[[RT]] : <2x64xindex> -> tensor<2x64xf16>
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         ktdp.store %[[R]]
