// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Gather through index views: the intermediate variables are the op's own (block
// arguments of a hidden region), every other SSA id in a subscript is captured.

#rows16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#idx2d = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#space_n = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#empty = affine_set<() : ()>
#order = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
#order0 = affine_map<() -> ()>

// CHECK-LABEL: func.func @gathers
// CHECK-SAME: (%[[OFF:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[IDX:.*]] = ktdp.construct_memory_view {{.*}} : memref<16xi32>
// CHECK: %[[IDX2:.*]] = ktdp.construct_memory_view {{.*}} : memref<4x32xi32>
// CHECK: %[[TAB:.*]] = ktdp.construct_memory_view {{.*}} : memref<512x128xf16>
// CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[R:.*]], %[[C:.*]]) %[[TAB]][ind(%[[IDX]][%[[R]]]), (%[[C]])] {variables_space_order = {{.*}}, variables_space_set = {{.*}}} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
// CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[R:.*]], %[[C:.*]]) %[[TAB]][ind(%[[IDX]][%[[R]] + %[[OFF]]]), (%[[C]] mod 128)] {{.*}} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<128x16xindex>
// CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[R:.*]], %[[C:.*]]) %[[TAB]][ind(%[[IDX2]][%[[R]] floordiv 4, %[[C]] floordiv 4]), (%[[C]])] {{.*}} : memref<512x128xf16>, memref<4x32xi32> -> !ktdp.access_tile<16x128xindex>
// CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[R:.*]], %[[C:.*]]) %[[TAB]][ind(%[[IDX]][%[[R]]]), ind(%[[IDX]][%[[C]] floordiv 8])] {{.*}} : memref<512x128xf16>, memref<16xi32>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
// CHECK: ktdp.construct_indirect_access_tile intermediate_variables() %[[TAB]][ind(%[[IDX]][%[[OFF]]]), (0)] {{.*}} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<index>
// CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[R:.*]], %[[C:.*]]) %[[TAB]][(%[[R]]), ind(%[[IDX]][%[[C]] floordiv 8])] symbols(%[[N]]) {{.*}} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<?x128xindex>
// The per-dimension maps are stored over the dims (captured..., intermediate...), and
// the intermediate variables are the arguments of the hidden region.
// GENERIC-DAG: #[[D0:.*]] = affine_map<(d0, d1) -> (d0)>
// GENERIC-DAG: #[[D1:.*]] = affine_map<(d0, d1) -> (d1)>
// GENERIC-DAG: #[[SUM:.*]] = affine_map<(d0, d1, d2) -> (d1 + d0)>
// GENERIC-DAG: #[[MOD:.*]] = affine_map<(d0, d1, d2) -> (d2 mod 128)>
// GENERIC-LABEL: sym_name = "gathers"
// GENERIC: "ktdp.construct_indirect_access_tile"
// GENERIC-SAME: per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [#[[D0]], #[[D1]]]
// GENERIC-SAME: ({
// GENERIC-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
// GENERIC-NEXT: "ktdp.region_terminator"() : () -> ()
// GENERIC-NEXT: })
// GENERIC: "ktdp.construct_indirect_access_tile"
// GENERIC-SAME: per_dim_subscript_maps = [#[[SUM]], #[[MOD]]]
func.func @gathers(%off: index, %n: index) {
  %a0 = arith.constant 0 : index
  %a1 = arith.constant 4096 : index
  %a2 = arith.constant 8192 : index
  %idx = ktdp.construct_memory_view %a0, sizes: [16], strides: [1] {coordinate_set = #rows16, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %idx2 = ktdp.construct_memory_view %a1, sizes: [4, 32], strides: [32, 1] {coordinate_set = #idx2d, memory_space = #ktdp.memory_space<global>} : memref<4x32xi32>
  %tab = ktdp.construct_memory_view %a2, sizes: [512, 128], strides: [128, 1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<512x128xf16>
  %t0 = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %tab[ind(%idx[%r]), (%c)] {
        variables_space_set = #space, variables_space_order = #order
      } : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  %t1 = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %tab[ ind(%idx[%r + %off]) , (%c mod 128) ] {
        variables_space_set = #space, variables_space_order = #swap
      } : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<128x16xindex>
  %t2 = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %tab[ind(%idx2[%r floordiv 4, %c floordiv 4]), (%c)] {
        variables_space_set = #space, variables_space_order = #order
      } : memref<512x128xf16>, memref<4x32xi32> -> !ktdp.access_tile<16x128xindex>
  %t3 = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %tab[ind(%idx[%r]), ind(%idx[%c floordiv 8])] {
        variables_space_set = #space, variables_space_order = #order
      } : memref<512x128xf16>, memref<16xi32>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  %t4 = ktdp.construct_indirect_access_tile intermediate_variables()
      %tab[ind(%idx[%off]), (0)] {
        variables_space_set = #empty, variables_space_order = #order0
      } : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<index>
  %t5 = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %tab[(%r), ind(%idx[%c floordiv 8])] symbols(%n) {
        variables_space_set = #space_n, variables_space_order = #order
      } : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<?x128xindex>
  %x = ktdp.load %t0 : <16x128xindex> -> tensor<16x128xf16>
  return
}
