// RUN: dfsched-opt %s --construct-three-stage-pipeline --device=sample | filecheck %s

// Reductions keep their reduction loops inside the compute op: only parallel loops are
// tiled (a reduction loop has tile size 0: no scf.for), so the input FIFO carries the
// whole reduced extent and the input transfer fixes the reduction index at 0.

// Row sums of a 4x64 tile, initialised by a linalg.fill of zero (as the Triton frontend
// writes it). The scheduler starts accumulators at zero, so the fill folds into its
// tensor.empty. Parallel extent [4] over 64 lanes: tile [4, 0].
// CHECK-LABEL: func.func @row_sums(
// CHECK:         %[[TS0:.*]] = arith.constant 4 : index
// CHECK:         %[[TS1:.*]] = arith.constant 0 : index
// CHECK-NOT:     linalg.fill
// CHECK:         %[[IN:.*]] = memref.reinterpret_cast {{.*}} : memref<4x64xf16, "DDR"> to memref<4x64xf16, strided<[64, 1], offset: ?>, "DDR">
// CHECK:         %[[OUT:.*]] = memref.reinterpret_cast {{.*}} : memref<16xf16, "DDR"> to memref<4xf16, strided<[1], offset: ?>, "DDR">
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 4xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:               ktdf.data_transfer from %[[IN]][%[[I]], 0] size [4, 64] to %[[P]]#0 size [4, 64]
// CHECK:               %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 256xf16> -> tensor<4x64xf16>
// CHECK:               %[[E:.*]] = tensor.empty() : tensor<4xf16>
// CHECK-NEXT:          %[[R:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x64xf16>) outs(%[[E]] : tensor<4xf16>) {
// CHECK:               ^bb0(%[[V:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT:            %[[S:.*]] = arith.addf %[[V]], %[[ACC]] : f16
// CHECK:                 linalg.yield %[[S]] : f16
// CHECK:               } -> tensor<4xf16>
// CHECK-NEXT:          ktdf.write_to_fifo %[[R]], %[[P]]#1 : tensor<4xf16>, <"SFU" -> "DDR", 4xf16>
// CHECK:               ktdf.data_transfer from %[[P]]#1 size [4] to %[[OUT]][%[[I]]] size [4]
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}

// Sum over the middle dim of 2x8x32 (a generic reading its init): parallel extents
// [2, 32] give tile [2, 0, 32], two loops; each transfer moves 2x8x32 elements.
// CHECK-LABEL: func.func @middle_sum(
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 512xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:                 ktdf.data_transfer from %{{.*}}[%[[I]], 0, %[[K]]] size [2, 8, 32] to %[[P]]#0 size [2, 8, 32]
// CHECK:                 ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 512xf16> -> tensor<2x8x32xf16>
// CHECK:                 iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:                 ktdf.data_transfer from %[[P]]#1 size [2, 32] to %{{.*}}[%[[I]], %[[K]]] size [2, 32]
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}

// A full reduction has no parallel loop left: no loop nest, the pipeline sits in the
// function body (upstream builds no pipeline here and loses the data movement).
// CHECK-LABEL: func.func @total(
// CHECK-NOT:     scf.for
// CHECK:         %[[IN:.*]] = memref.reinterpret_cast {{.*}} to memref<64xf16, strided<[1], offset: ?>, "DDR">
// CHECK:         %[[OUT:.*]] = memref.reinterpret_cast {{.*}} to memref<1xf16, strided<[1], offset: ?>, "DDR">
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           %[[P:.*]]:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf16>,
// CHECK:             ktdf.data_transfer from %[[IN]][0] size [64] to %[[P]]#0 size [64]
// CHECK:             iterator_types = ["reduction"]
// CHECK:             ktdf.data_transfer from %[[P]]#1 size [1] to %[[OUT]][0] size [1]
// CHECK:           }
// CHECK:         }
// CHECK:         return

module {
  module @local_schedule_0 {
    func.func @row_sums(%r: index) {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.000000e+00 : f16
      %s_addr = arith.constant 4096 : index
      %e = tensor.empty() : tensor<4xf16>
      %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
      %x = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %s = ktdp.construct_memory_view %s_addr, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      %ts = ktdp.construct_access_tile %s[%r] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<16xf16> -> !ktdp.access_tile<4xindex>
      %vx = ktdp.load %tx : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
      %sum = linalg.reduce ins(%vx : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %a = arith.addf %in, %acc : f16
          linalg.yield %a : f16
        }
      ktdp.store %sum, %ts : tensor<4xf16>, !ktdp.access_tile<4xindex>
      return
    }
  }
  module @local_schedule_1 {
    func.func @middle_sum() {
      %c0 = arith.constant 0 : index
      %s_addr = arith.constant 8192 : index
      %x = ktdp.construct_memory_view %c0, sizes: [2, 8, 32], strides: [256, 32, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x8x32xf16>
      %s = ktdp.construct_memory_view %s_addr, sizes: [2, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %tx = ktdp.construct_access_tile %x[%c0, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x8x32xf16> -> !ktdp.access_tile<2x8x32xindex>
      %ts = ktdp.construct_access_tile %s[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %vx = ktdp.load %tx : !ktdp.access_tile<2x8x32xindex> -> tensor<2x8x32xf16>
      %init = tensor.empty() : tensor<2x32xf16>
      %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                             iterator_types = ["parallel", "reduction", "parallel"]}
          ins(%vx : tensor<2x8x32xf16>) outs(%init : tensor<2x32xf16>) {
      ^bb0(%v: f16, %acc: f16):
        %a = arith.addf %v, %acc : f16
        linalg.yield %a : f16
      } -> tensor<2x32xf16>
      ktdp.store %sum, %ts : tensor<2x32xf16>, !ktdp.access_tile<2x32xindex>
      return
    }
  }
  module @local_schedule_2 {
    func.func @total() {
      %c0 = arith.constant 0 : index
      %s_addr = arith.constant 512 : index
      %x = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %s = ktdp.construct_memory_view %s_addr, sizes: [1], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
      %tx = ktdp.construct_access_tile %x[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %ts = ktdp.construct_access_tile %s[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1xf16> -> !ktdp.access_tile<1xindex>
      %vx = ktdp.load %tx : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      %init = tensor.empty() : tensor<1xf16>
      %sum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
          ins(%vx : tensor<64xf16>) outs(%init : tensor<1xf16>) {
      ^bb0(%v: f16, %acc: f16):
        %a = arith.addf %v, %acc : f16
        linalg.yield %a : f16
      } -> tensor<1xf16>
      ktdp.store %sum, %ts : tensor<1xf16>, !ktdp.access_tile<1xindex>
      return
    }
  }
}
