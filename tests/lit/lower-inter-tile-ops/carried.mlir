// RUN: dfsched-opt %s --device=ring4 -p ensure-device-declaration,lower-inter-tile-ops | filecheck %s

// A loop that all-reduces each iteration and sums the results carries the sum in a slot of the
// scratchpad, at its top (ring4's L1 holds 1048576 bytes; a 1x64 f16 slot is 128 bytes), above
// the exchange's partial and result slots. The first iteration is peeled: it stores the reduced
// row itself (the identity plus it), and the loop from 1 adds the slot and the reduced row and
// stores the sum back; after the loop the slot is loaded.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @running_sum(%in: index, %out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = ktdp.construct_memory_view %in, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %p = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x64xf16>
  %zeros = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zeros) -> (tensor<1x64xf16>) {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%zeros : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %next = arith.addf %acc, %r : tensor<1x64xf16>
    scf.yield %next : tensor<1x64xf16>
  }
  %w = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %wt = ktdp.construct_access_tile %w[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %sum, %wt : tensor<1x64xf16>, <1x64xindex>
  return
}

// CHECK-LABEL: func.func @running_sum
// CHECK:         ktdf.tile_reduce "add" from 1048192 into 1048320
// CHECK-NEXT:    %[[RA:.*]] = arith.constant 1048320 : index
// CHECK:         %[[R0:.*]] = ktdp.load
// CHECK-NEXT:    %[[CA:.*]] = arith.constant 1048448 : index
// CHECK-NEXT:    %[[CV:.*]] = ktdp.construct_memory_view %[[CA]], sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>
// CHECK-NEXT:    %[[CT:.*]] = ktdp.construct_access_tile %[[CV]]
// CHECK-NEXT:    ktdp.store %[[R0]], %[[CT]]
// CHECK-NEXT:    %[[LB:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %{{.*}} = %[[LB]] to %{{.*}} step %{{.*}} {
// CHECK:           ktdf.tile_reduce "add" from 1048192 into 1048320
// CHECK:           %[[R:.*]] = ktdp.load
// CHECK-NEXT:      arith.constant 1048448 : index
// CHECK:           %[[ACC:.*]] = ktdp.load
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addf %[[ACC]], %[[R]] : tensor<1x64xf16>
// CHECK-NEXT:      arith.constant 1048448 : index
// CHECK:           ktdp.store %[[NEXT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    arith.constant 1048448 : index
// CHECK:         %[[SUM:.*]] = ktdp.load
// CHECK:         ktdp.store %[[SUM]]
