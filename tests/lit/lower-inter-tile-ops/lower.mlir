// RUN: dfsched-opt %s --device=ring4 -p ensure-device-declaration,lower-inter-tile-ops | filecheck %s

// An all-reduce of one 1x64 row per tile: the partial is stored into a slot at the top of the
// tile's scratchpad (ring4's L1 holds 1048576 bytes; one slot is 128 bytes), the reduction is a
// ktdf.tile_reduce between the partial slot and the result slot, and the result is loaded back.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @allreduce(%in: index, %out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %in, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %p = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x64xf16>
  %id0 = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%id0 : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %i = tensor.empty() : tensor<1x64xf16>
    %s = linalg.max ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%i : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  %w = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %wt = ktdp.construct_access_tile %w[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %r, %wt : tensor<1x64xf16>, <1x64xindex>
  return
}

// CHECK-LABEL: func.func @allreduce
// CHECK:         %[[P:.*]] = ktdp.load
// CHECK:         %[[PA:.*]] = arith.constant 1048320 : index
// CHECK-NEXT:    %[[PV:.*]] = ktdp.construct_memory_view %[[PA]], sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>
// CHECK-NEXT:    %[[PT:.*]] = ktdp.construct_access_tile %[[PV]]
// CHECK-NEXT:    ktdp.store %[[P]], %[[PT]]
// CHECK-NEXT:    ktdf.tile_reduce "max" from 1048320 into 1048448 identity 0.000000e+00 : f16 producers = #{{.*}} groups = #{{.*}} : tensor<1x64xf16>
// CHECK:         %[[RA:.*]] = arith.constant 1048448 : index
// CHECK-NEXT:    %[[RV:.*]] = ktdp.construct_memory_view %[[RA]]
// CHECK-NEXT:    %[[RT:.*]] = ktdp.construct_access_tile %[[RV]]
// CHECK-NEXT:    %[[R:.*]] = ktdp.load %[[RT]]
// CHECK-NOT:     inter_tile
// CHECK:         ktdp.store %[[R]]
