// RUN: dfsched-opt %s -split-input-file --resolve-distributed-views | filecheck %s

// Two 4x32 halves of a 4x64 tensor (columns 0..31 at byte 0, 32..63 at byte 4096).
#left = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#right = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 32 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// A tile inside one part becomes a tile of that part's view, indexed from the part's corner:
// columns 40..55 are columns 8..23 of the right half.
// CHECK-LABEL: func.func @inside_one_part
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[RIGHT:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 32], strides: [32, 1] {coordinate_set = #[[SET:.*]], memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         %[[TILE:.*]] = ktdp.construct_access_tile %[[RIGHT]][%[[C0]], %[[C8]]]
// CHECK-NEXT:    %[[X:.*]] = ktdp.load %[[TILE]] : <4x16xindex> -> tensor<4x16xf16>
// CHECK-NEXT:    math.exp %[[X]]
func.func @inside_one_part() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %a0 = arith.constant 0 : index
  %a1 = arith.constant 4096 : index
  %l = ktdp.construct_memory_view %a0, sizes: [4, 32], strides: [32, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %r = ktdp.construct_memory_view %a1, sizes: [4, 32], strides: [32, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %d = ktdp.construct_distributed_memory_view (%l, %r : memref<4x32xf16>, memref<4x32xf16>) : memref<4x64xf16>
  %t = ktdp.construct_access_tile %d[%c0, %c40] {access_tile_set = #cols16, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
  %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
  %y = math.exp %x : tensor<4x16xf16>
  %a2 = arith.constant 8192 : index
  %o = ktdp.construct_memory_view %a2, sizes: [4, 16], strides: [16, 1] {coordinate_set = #cols16, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %to = ktdp.construct_access_tile %o[%c0, %c0] {access_tile_set = #cols16, access_tile_order = #order} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  ktdp.store %y, %to : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

#left = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#right = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - 32 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// A copied tile spanning both halves (columns 24..39) becomes one copy per half: columns
// 24..31 of the left half to columns 24..31 of the output, columns 0..7 of the right half to
// columns 32..39.
// CHECK-LABEL: func.func @spanning_copy
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C24:.*]] = arith.constant 24 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[LEFT:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 32]
// CHECK:         %[[RIGHT:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 32]
// CHECK:         %[[OUT:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 64]
// CHECK:         %[[T1:.*]] = ktdp.construct_access_tile %[[LEFT]][%[[C0]], %[[C24]]] {{.*}} -> !ktdp.access_tile<4x8xindex>
// CHECK-NEXT:    %[[O1:.*]] = ktdp.construct_access_tile %[[OUT]][%[[C0]], %[[C24]]] {{.*}} -> !ktdp.access_tile<4x8xindex>
// CHECK-NEXT:    %[[X1:.*]] = ktdp.load %[[T1]] : <4x8xindex> -> tensor<4x8xf16>
// CHECK-NEXT:    ktdp.store %[[X1]], %[[O1]]
// CHECK-NEXT:    %[[T2:.*]] = ktdp.construct_access_tile %[[RIGHT]][%[[C0]], %[[C0]]] {{.*}} -> !ktdp.access_tile<4x8xindex>
// CHECK-NEXT:    %[[O2:.*]] = ktdp.construct_access_tile %[[OUT]][%[[C0]], %[[C32]]] {{.*}} -> !ktdp.access_tile<4x8xindex>
// CHECK-NEXT:    %[[X2:.*]] = ktdp.load %[[T2]] : <4x8xindex> -> tensor<4x8xf16>
// CHECK-NEXT:    ktdp.store %[[X2]], %[[O2]]
// CHECK:         return
func.func @spanning_copy() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  %a0 = arith.constant 0 : index
  %a1 = arith.constant 4096 : index
  %a2 = arith.constant 8192 : index
  %l = ktdp.construct_memory_view %a0, sizes: [4, 32], strides: [32, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %r = ktdp.construct_memory_view %a1, sizes: [4, 32], strides: [32, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %d = ktdp.construct_distributed_memory_view (%l, %r : memref<4x32xf16>, memref<4x32xf16>) : memref<4x64xf16>
  %o = ktdp.construct_memory_view %a2, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t = ktdp.construct_access_tile %d[%c0, %c24] {access_tile_set = #cols16, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
  %to = ktdp.construct_access_tile %o[%c0, %c24] {access_tile_set = #cols16, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
  %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %x, %to : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

#left = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#right = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 3 >= 0, d1 - s0 >= 0, -d1 + s0 * 2 - 1 >= 0)>
#whole = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#cols32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// A loop over the tensor (sizes bound to constants) is unrolled: each iteration's tile lies in
// one half. The views become static, their sets' symbols replaced by the sizes.
// CHECK-LABEL: func.func @loop
// CHECK-NOT:     scf.for
// CHECK:         ktdp.construct_memory_view %{{.*}}, sizes: [4, 32], strides: [32, 1] {coordinate_set = #{{.*}}, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
// CHECK:         ktdp.construct_memory_view %{{.*}}, sizes: [4, 64], strides: [64, 1] {{.*}} : memref<4x64xf16>
// CHECK-COUNT-2: ktdp.store
// CHECK-NOT:     ktdp.store
func.func @loop(%a0: index, %a1: index, %a2: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %l = ktdp.construct_memory_view %a0, sizes: [4, %c32], strides: [%c32, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<4x?xf16>
  %r = ktdp.construct_memory_view %a1, sizes: [4, %c32], strides: [%c32, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<4x?xf16>
  %d = ktdp.construct_distributed_memory_view (%l, %r : memref<4x?xf16>, memref<4x?xf16>) : memref<4x?xf16>
  %o = ktdp.construct_memory_view %a2, sizes: [4, %c64], strides: [%c64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x?xf16>
  scf.for %off = %c0 to %c64 step %c32 {
    %t = ktdp.construct_access_tile %d[%c0, %off] {access_tile_set = #cols32, access_tile_order = #order} : memref<4x?xf16> -> !ktdp.access_tile<4x32xindex>
    %to = ktdp.construct_access_tile %o[%c0, %off] {access_tile_set = #cols32, access_tile_order = #order} : memref<4x?xf16> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %t : <4x32xindex> -> tensor<4x32xf16>
    ktdp.store %x, %to : tensor<4x32xf16>, <4x32xindex>
  }
  return
}

// -----

// A view the pass cannot resolve (here: a tile at a run-time position, over parts that are not
// one strided view: the second half starts 1024 bytes in, not 64) is left as it is.
#part = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#part2 = affine_set<(d0) : (d0 - 32 >= 0, -d0 + 63 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
// CHECK-LABEL: func.func @unresolved
// CHECK:         ktdp.construct_distributed_memory_view
// CHECK:         ktdp.construct_access_tile %{{.*}}[%arg0]
func.func @unresolved(%i: index) attributes {grid = [1]} {
  %a0 = arith.constant 0 : index
  %a1 = arith.constant 1024 : index
  %p = ktdp.construct_memory_view %a0, sizes: [32], strides: [1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %p2 = ktdp.construct_memory_view %a1, sizes: [32], strides: [1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %d = ktdp.construct_distributed_memory_view (%p, %p2 : memref<32xf16>, memref<32xf16>) : memref<64xf16>
  %t = ktdp.construct_access_tile %d[%i] {access_tile_set = #tile, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %t : <16xindex> -> tensor<16xf16>
  %o = ktdp.construct_memory_view %a0, sizes: [16], strides: [1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  %to = ktdp.construct_access_tile %o[%a0] {access_tile_set = #tile, access_tile_order = affine_map<(d0) -> (d0)>} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  ktdp.store %x, %to : tensor<16xf16>, <16xindex>
  return
}

// -----

#global = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lx0 = affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lx1 = affine_set<(d0, d1) : (d0 - 3 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// Parts in two tiles' scratchpads at constant addresses (the RFC's distributed copy, README
// Decision 93) are plain views like the global one: each keeps its memory space and ct_id.
// CHECK-LABEL: func.func @scratchpad_parts
// CHECK:         %[[LX0:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK:         %[[LX1:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         ktdp.construct_access_tile %[[LX0]]
// CHECK:         ktdp.construct_access_tile %[[LX1]]
func.func @scratchpad_parts() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %hbm = arith.constant 0 : index
  %lx = arith.constant 4096 : index
  %out = arith.constant 8192 : index
  %g = ktdp.construct_memory_view %hbm, sizes: [2, 64], strides: [64, 1] {coordinate_set = #global, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %p0 = ktdp.construct_memory_view %lx, sizes: [1, 64], strides: [64, 1] {coordinate_set = #lx0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16>
  %p1 = ktdp.construct_memory_view %lx, sizes: [1, 64], strides: [64, 1] {coordinate_set = #lx1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %d = ktdp.construct_distributed_memory_view (%g, %p0, %p1 : memref<2x64xf16>, memref<1x64xf16>, memref<1x64xf16>) : memref<4x64xf16>
  %o = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t = ktdp.construct_access_tile %d[%c0, %c0] {access_tile_set = #whole, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %to = ktdp.construct_access_tile %o[%c0, %c0] {access_tile_set = #whole, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %t : <4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %to : tensor<4x64xf16>, <4x64xindex>
  return
}
