// RUN: dfsched-opt %s --construct-three-stage-pipeline | filecheck %s

// Producer-consumer chains become one linalg.generic before tiling. A named op
// (linalg.add), an elementwise math op and an elementwise arith op on tensors are first
// generalized; fusion then works back from the last consumer: the fused op takes the
// consumer's inputs before the fused operand, the producer's inputs, then the rest, and
// its body runs the producer's body first. Only one generic is left in the program.

// D = C * exp(A + B): inputs (C, A, B), body addf, exp, mulf.
// CHECK-LABEL: func.func @chain(
// The add's own init is left behind, unused (as upstream leaves it).
// CHECK:         tensor.empty() : tensor<1x64xf16>
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.stage depends_in(%[[P:[0-9]+]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      %[[A:.*]] = ktdf.read_from_fifo %[[P]]#0 :
// CHECK-NEXT:      %[[B:.*]] = ktdf.read_from_fifo %[[P]]#1 :
// CHECK-NEXT:      %[[C:.*]] = ktdf.read_from_fifo %[[P]]#2 :
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:      %[[R:.*]] = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%[[C]], %[[A]], %[[B]] : tensor<1x64xf16>, tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>) {
// CHECK:           ^bb0(%[[IC:.*]]: f16, %[[IA:.*]]: f16, %[[IB:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[IA]], %[[IB]] : f16
// CHECK-NEXT:        %[[EXP:.*]] = math.exp %[[SUM]] : f16
// CHECK-NEXT:        %[[PROD:.*]] = arith.mulf %[[IC]], %[[EXP]] : f16
// CHECK:             linalg.yield %[[PROD]] : f16
// CHECK:           } -> tensor<1x64xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[R]], %[[P]]#3 :
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NOT:     linalg.
// CHECK:         return

// B = X*X + X*X: the consumer reads the producer twice; both reads share one inlined
// copy of the producer.
// CHECK-LABEL: func.func @square_twice(
// CHECK:           %[[X:.*]] = ktdf.read_from_fifo
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:      %{{.*}} = linalg.generic {{{.*}}} ins(%[[X]], %[[X]] : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>) {
// CHECK:           ^bb0(%[[I0:.*]]: f16, %[[I1:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[SQ:.*]] = arith.mulf %[[I0]], %[[I1]] : f16
// CHECK-NEXT:        %[[TWICE:.*]] = arith.addf %[[SQ]], %[[SQ]] : f16
// CHECK:             linalg.yield %[[TWICE]] : f16
// CHECK-NOT:     linalg.
// CHECK:         return

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  module @local_schedule_0 {
    func.func @chain(%r: index) {
      %c0 = arith.constant 0 : index
      %a_addr = arith.constant 0 : index
      %b_addr = arith.constant 2048 : index
      %c_addr = arith.constant 4096 : index
      %d_addr = arith.constant 6144 : index
      %a = ktdp.construct_memory_view %a_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
      %c = ktdp.construct_memory_view %c_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
      %d = ktdp.construct_memory_view %d_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
      %ta = ktdp.construct_access_tile %a[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tb = ktdp.construct_access_tile %b[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tc = ktdp.construct_access_tile %c[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xa = ktdp.load %ta : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %xb = ktdp.load %tb : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %xc = ktdp.load %tc : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %init = tensor.empty() : tensor<1x64xf16>
      %sum = linalg.add ins(%xa, %xb : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) -> tensor<1x64xf16>
      %exp = math.exp %sum : tensor<1x64xf16>
      %out = arith.mulf %xc, %exp : tensor<1x64xf16>
      %td = ktdp.construct_access_tile %d[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %out, %td : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      return
    }
  }
  module @local_schedule_1 {
    func.func @square_twice(%r: index) {
      %c0 = arith.constant 0 : index
      %b_addr = arith.constant 2048 : index
      %a = ktdp.construct_memory_view %c0, sizes: [16, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
      %ta = ktdp.construct_access_tile %a[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %sq = arith.mulf %x, %x : tensor<1x64xf16>
      %twice = arith.addf %sq, %sq : tensor<1x64xf16>
      %tb = ktdp.construct_access_tile %b[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %twice, %tb : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      return
    }
  }
}
