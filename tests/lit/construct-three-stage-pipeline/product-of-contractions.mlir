// RUN: dfsched-opt %s --construct-three-stage-pipeline | filecheck %s

// The element-wise product of two contractions' results (`gate * up`, generalised with
// `outs(%gate)`, an init its body does not read) gets a fresh `tensor.empty` init: both
// products are intermediates in the scratchpad that its load stage streams in, and the third
// contraction reads the product as one more intermediate. Before, `%gate` as an init was "the
// result of the program's compute op may only be stored".

// CHECK-LABEL: func.func @gate_times_up(
// CHECK:         ktdf.data_transfer from %[[GATE:.*]][%{{.*}}, %{{.*}}] size [1, 64] to %{{.*}} size [1, 64] : memref<2x64xf16, "L1">
// CHECK-NEXT:    ktdf.data_transfer from %[[UP:.*]][%{{.*}}, %{{.*}}] size [1, 64] to %{{.*}} size [1, 64] : memref<2x64xf16, "L1">
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:    linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[EMPTY]] : tensor<1x64xf16>)
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f16, %[[U:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      arith.mulf %[[G]], %[[U]] : f16
// CHECK:         iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x64xf16>, tensor<64x32xf16>)

#tokens = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#up = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  module @local_schedule_0 {
  func.func @gate_times_up() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %wg_address = arith.constant 1024 : index
    %wu_address = arith.constant 5120 : index
    %wd_address = arith.constant 9216 : index
    %y_address = arith.constant 13312 : index
    %zero = arith.constant 0.0 : f16

    %x_view = ktdp.construct_memory_view %c0, sizes: [2, 32], strides: [32, 1] {coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %wg_view = ktdp.construct_memory_view %wg_address, sizes: [32, 64], strides: [64, 1] {coordinate_set = #up, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %wu_view = ktdp.construct_memory_view %wu_address, sizes: [32, 64], strides: [64, 1] {coordinate_set = #up, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %wd_view = ktdp.construct_memory_view %wd_address, sizes: [64, 32], strides: [32, 1] {coordinate_set = #down, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %y_view = ktdp.construct_memory_view %y_address, sizes: [2, 32], strides: [32, 1] {coordinate_set = #tokens, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>

    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {access_tile_set = #tokens, access_tile_order = #row_major} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
    %wg_tile = ktdp.construct_access_tile %wg_view[%c0, %c0] {access_tile_set = #up, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %wu_tile = ktdp.construct_access_tile %wu_view[%c0, %c0] {access_tile_set = #up, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %wd_tile = ktdp.construct_access_tile %wd_view[%c0, %c0] {access_tile_set = #down, access_tile_order = #row_major} : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {access_tile_set = #tokens, access_tile_order = #row_major} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>

    %x = ktdp.load %x_tile : <2x32xindex> -> tensor<2x32xf16>
    %wg = ktdp.load %wg_tile : <32x64xindex> -> tensor<32x64xf16>
    %wu = ktdp.load %wu_tile : <32x64xindex> -> tensor<32x64xf16>
    %wd = ktdp.load %wd_tile : <64x32xindex> -> tensor<64x32xf16>

    %hidden_empty = tensor.empty() : tensor<2x64xf16>
    %hidden_zeros = linalg.fill ins(%zero : f16) outs(%hidden_empty : tensor<2x64xf16>) -> tensor<2x64xf16>
    %gate = linalg.matmul ins(%x, %wg : tensor<2x32xf16>, tensor<32x64xf16>) outs(%hidden_zeros : tensor<2x64xf16>) -> tensor<2x64xf16>
    %up = linalg.matmul ins(%x, %wu : tensor<2x32xf16>, tensor<32x64xf16>) outs(%hidden_zeros : tensor<2x64xf16>) -> tensor<2x64xf16>
    %hidden = arith.mulf %gate, %up : tensor<2x64xf16>

    %out_empty = tensor.empty() : tensor<2x32xf16>
    %out_zeros = linalg.fill ins(%zero : f16) outs(%out_empty : tensor<2x32xf16>) -> tensor<2x32xf16>
    %y = linalg.matmul ins(%hidden, %wd : tensor<2x64xf16>, tensor<64x32xf16>) outs(%out_zeros : tensor<2x32xf16>) -> tensor<2x32xf16>
    ktdp.store %y, %y_tile : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
    return
  }
}
}
