// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s

// The ktdp types and the memory-space attribute, in the positions where KTIR writes them.

// CHECK-LABEL: func.func @access_tiles(
// CHECK-SAME: !ktdp.access_tile<32x64xindex>
// CHECK-SAME: !ktdp.access_tile<?x64xindex>
// CHECK-SAME: !ktdp.access_tile<0x42xindex>
// CHECK-SAME: !ktdp.access_tile<index>
// CHECK-SAME: !ktdp.access_tile<2x?x8xindex>
func.func @access_tiles(%a: !ktdp.access_tile<32x64xindex>, %b: !ktdp.access_tile<?x64xindex>,
                        %c: !ktdp.access_tile<0x42xindex>, %d: !ktdp.access_tile<index>,
                        %e: !ktdp.access_tile<2x?x8xindex>) {
  return
}

// Keyword clauses may come in either order; they print granularity first, without spaces.
// CHECK-LABEL: func.func @runtime_args(
// CHECK-SAME: !ktdp.runtime_arg<index>
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=3>
// CHECK-SAME: !ktdp.runtime_arg<index, upperbound=300>
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=3, upperbound=300>
// CHECK-SAME: !ktdp.runtime_arg<i32, granularity=4, upperbound=1024>
// CHECK-SAME: !ktdp.runtime_arg<f16>
func.func @runtime_args(%a: !ktdp.runtime_arg<index>, %b: !ktdp.runtime_arg<index, granularity=3>,
                        %c: !ktdp.runtime_arg<index, upperbound = 300>,
                        %d: !ktdp.runtime_arg<index, upperbound=300, granularity=3>,
                        %e: !ktdp.runtime_arg<i32, granularity=4, upperbound=1024>,
                        %f: !ktdp.runtime_arg<f16>) {
  return
}

// CHECK-LABEL: func.func @futures(
// CHECK-SAME: !ktdp.tile_future<(tensor<1x64xf16>), groups = {{.*}}>, %{{.*}}: !ktdp.tile_future<(tensor<128xf32>, tensor<128xi32>), groups = {{.*}}>)
func.func @futures(%a: !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>>,
                   %b: !ktdp.tile_future<(tensor<128xf32>, tensor<128xi32>), groups = affine_set<(g) : (g >= 0, -g + 7 >= 0)>>) {
  return
}

// ct_id = -1 is "unspecified", the default, and is not printed.
// CHECK-LABEL: func.func @memory_spaces(
// CHECK-SAME: memref<8xf16, #ktdp.memory_space<global>>
// CHECK-SAME: memref<8xf16, #ktdp.memory_space<ct_local>>
// CHECK-SAME: memref<8xf16, #ktdp.memory_space<ct_local, ct_id = 7>>
// CHECK-SAME: memref<8xf16, #ktdp.memory_space<ct_local>>
// CHECK-SAME: spaces = [#ktdp.memory_space<global>, #ktdp.memory_space<ct_local, ct_id = 0>]
func.func @memory_spaces(%a: memref<8xf16, #ktdp.memory_space<global>>,
                         %b: memref<8xf16, #ktdp.memory_space<ct_local>>,
                         %c: memref<8xf16, #ktdp.memory_space<ct_local, ct_id = 7>>,
                         %d: memref<8xf16, #ktdp.memory_space<ct_local, ct_id = -1>>)
    attributes {spaces = [#ktdp.memory_space<global>, #ktdp.memory_space<ct_local, ct_id = 0>]} {
  return
}
