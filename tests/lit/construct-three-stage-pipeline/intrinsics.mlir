// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s

// A generic whose body calls Spyre intrinsics (spyreop.exp, spyreop.realdiv), followed by
// an elementwise arith op on tensors: both fuse into one generic; the intrinsics run in
// the SFU compute stage unchanged, before the consumer's addf.

// CHECK-LABEL: func.func @scaled_exp(
// CHECK:         ktdf.stage depends_in(%[[P:[0-9]+]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:      %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0
// CHECK-NEXT:      %[[D:.*]] = ktdf.read_from_fifo %[[P]]#1
// CHECK-NEXT:      %[[W:.*]] = ktdf.read_from_fifo %[[P]]#2
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:      %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[D]], %[[W]] : tensor<1x64xf16>, tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>) {
// CHECK:           ^bb0(%[[IX:.*]]: f16, %[[ID:.*]]: f16, %[[IW:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[EXP:.*]] = spyreop.exp %[[IX]] : f16
// CHECK-NEXT:        %[[DIV:.*]] = spyreop.realdiv %[[EXP]], %[[ID]] : f16
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[DIV]], %[[IW]] : f16
// CHECK:             linalg.yield %[[SUM]] : f16
// CHECK:           } -> tensor<1x64xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[R]], %[[P]]#3
// CHECK:         } {applicable_units = ["SFU"]}

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

module {
  module @local_schedule_0 {
    func.func @scaled_exp(%r: index) {
      %c0 = arith.constant 0 : index
      %d_addr = arith.constant 512 : index
      %w_addr = arith.constant 1024 : index
      %y_addr = arith.constant 1536 : index
      %x = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %d = ktdp.construct_memory_view %d_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %w = ktdp.construct_memory_view %w_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %y = ktdp.construct_memory_view %y_addr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %tx = ktdp.construct_access_tile %x[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %td = ktdp.construct_access_tile %d[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tw = ktdp.construct_access_tile %w[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %vx = ktdp.load %tx : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %vd = ktdp.load %td : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %vw = ktdp.load %tw : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %init = tensor.empty() : tensor<1x64xf16>
      %q = linalg.generic {indexing_maps = [#order, #order, #order], iterator_types = ["parallel", "parallel"]}
          ins(%vx, %vd : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %e = spyreop.exp %a : f16
        %v = spyreop.realdiv %e, %b : f16
        linalg.yield %v : f16
      } -> tensor<1x64xf16>
      %out = arith.addf %q, %vw : tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %y[%r, %c0] {access_tile_set = #row, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %out, %ty : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      return
    }
  }
}
