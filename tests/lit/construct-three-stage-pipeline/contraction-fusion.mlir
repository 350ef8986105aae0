// RUN: dfsched-opt %s --construct-three-stage-pipeline | filecheck %s

// Nothing is fused into a contraction: an element-wise producer of its operand (here A * A)
// stays a compute op of its own, whose result is an intermediate in the scratchpad, and the
// contraction keeps its two operands and its multiply-accumulate body (a matrix unit takes
// only those; reduction-loop-exposure steps both along K).

// CHECK-LABEL: func.func @square_then_matmul(
// CHECK:         linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<2x32xf16>, tensor<2x32xf16>)
// CHECK:         ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[X]], %[[Y]] : f16
// CHECK:           linalg.yield %[[SQ]] : f16
// CHECK:         linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x32xf16>, tensor<32x16xf16>)
// CHECK:         ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f16
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[ACC]] : f16
// CHECK:           linalg.yield %[[S]] : f16

#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  module @local_schedule_0 {
    func.func @square_then_matmul() attributes {grid = [1]} {
      %c0 = arith.constant 0 : index
      %b_addr = arith.constant 128 : index
      %c_addr = arith.constant 1152 : index
      %zero = arith.constant 0.0 : f16
      %av = ktdp.construct_memory_view %c0, sizes: [2, 32], strides: [32, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %bv = ktdp.construct_memory_view %b_addr, sizes: [32, 16], strides: [16, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
      %cv = ktdp.construct_memory_view %c_addr, sizes: [2, 16], strides: [16, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<2x16xf16>
      %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #a, access_tile_order = #order} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #order} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
      %ct = ktdp.construct_access_tile %cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #order} : memref<2x16xf16> -> !ktdp.access_tile<2x16xindex>
      %x = ktdp.load %at : <2x32xindex> -> tensor<2x32xf16>
      %w = ktdp.load %bt : <32x16xindex> -> tensor<32x16xf16>
      %squares = arith.mulf %x, %x : tensor<2x32xf16>
      %empty = tensor.empty() : tensor<2x16xf16>
      %zeros = linalg.fill ins(%zero : f16) outs(%empty : tensor<2x16xf16>) -> tensor<2x16xf16>
      %product = linalg.matmul ins(%squares, %w : tensor<2x32xf16>, tensor<32x16xf16>) outs(%zeros : tensor<2x16xf16>) -> tensor<2x16xf16>
      ktdp.store %product, %ct : tensor<2x16xf16>, !ktdp.access_tile<2x16xindex>
      return
    }
  }
}
