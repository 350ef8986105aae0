// RUN: dfsched-opt %s -split-input-file --resolve-distributed-views | filecheck %s

// Parts that are one strided view cut into boxes become that view: the column halves of a
// 4x64 f16 row-major tensor at %base (the right half starts 64 bytes further: 32 columns).
// A tile at a position known only per tile (the tile id) then needs no part of its own.
#left = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#right = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 32 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @halves
// CHECK:         %[[VIEW:.*]] = ktdp.construct_memory_view %arg0, sizes: [4, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         ktdp.construct_access_tile %[[VIEW]][%{{.*}}, %{{.*}}]
func.func @halves(%base: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c32 : index
  %b1 = arith.addi %base, %c64 : index
  %l = ktdp.construct_memory_view %base, sizes: [4, 32], strides: [64, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %r = ktdp.construct_memory_view %b1, sizes: [4, 32], strides: [64, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %d = ktdp.construct_distributed_memory_view (%l, %r : memref<4x32xf16>, memref<4x32xf16>) : memref<4x64xf16>
  %a = ktdp.construct_access_tile %d[%c0, %col] {access_tile_set = #row, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x32xindex>
  %x = ktdp.load %a : <1x32xindex> -> tensor<1x32xf16>
  %y = math.exp %x : tensor<1x32xf16>
  ktdp.store %y, %a : tensor<1x32xf16>, <1x32xindex>
  return
}

// -----

#left = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#right = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 32 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// Not one strided view: the right half starts 128 bytes further, not 64 (a gap of 32
// elements). The view stays for ktir-legality-check, which refuses the run-time position.
// CHECK-LABEL: func.func @gap
// CHECK:         ktdp.construct_distributed_memory_view
func.func @gap(%base: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c32 : index
  %b1 = arith.addi %base, %c128 : index
  %l = ktdp.construct_memory_view %base, sizes: [4, 32], strides: [64, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %r = ktdp.construct_memory_view %b1, sizes: [4, 32], strides: [64, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %d = ktdp.construct_distributed_memory_view (%l, %r : memref<4x32xf16>, memref<4x32xf16>) : memref<4x64xf16>
  %a = ktdp.construct_access_tile %d[%c0, %col] {access_tile_set = #row, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x32xindex>
  %x = ktdp.load %a : <1x32xindex> -> tensor<1x32xf16>
  ktdp.store %x, %a : tensor<1x32xf16>, <1x32xindex>
  return
}
