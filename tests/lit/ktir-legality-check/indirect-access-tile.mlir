// RUN: not dfsched-opt %s --ktir-legality-check --device=quad_corelet 2>&1 | filecheck %s --check-prefix=QUAD
// RUN: not dfsched-opt %s --ktir-legality-check 2>&1 | filecheck %s --check-prefix=V1
// RUN: dfsched-opt %s --ktir-legality-check --device=sample | filecheck %s --check-prefix=SAMPLE

// An indirect access tile needs a unit that issues address-list transfers
// (`ktdf_arch.feature.address_list`): quad_corelet has none, and the error names the
// capability; without a device it is upstream's V1 refusal; sample's DMA units have it.

// QUAD: indirect-access-tile.mlir:23:8: error: device 'quad_corelet' has no exec_unit with 'ktdf_arch.feature.address_list': no unit can issue the address-list transfers of an indirect access tile (gather or scatter)
// V1: indirect-access-tile.mlir:23:8: error: V1 does not support ktdp.construct_indirect_access_tile
// SAMPLE-LABEL: func.func @gather
// SAMPLE: ktdp.construct_indirect_access_tile intermediate_variables(%{{.*}}, %{{.*}}) %{{.*}}[ind(%{{.*}}[%{{.*}}]), (%{{.*}})]

#table_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather() attributes {grid = [1]} {
  %ta = arith.constant 0 : index
  %ia = arith.constant 16384 : index
  %table = ktdp.construct_memory_view %ta, sizes: [128, 64], strides: [64, 1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %ids = ktdp.construct_memory_view %ia, sizes: [8], strides: [1] {coordinate_set = #ids_set, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %table[ind(%ids[%r]), (%c)] {variables_space_set = #rows, variables_space_order = #id2} : memref<128x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %x = ktdp.load %t : <8x64xindex> -> tensor<8x64xf16>
  return
}
