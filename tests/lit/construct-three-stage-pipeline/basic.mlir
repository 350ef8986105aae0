// RUN: dfsched-opt %s --construct-three-stage-pipeline | filecheck %s

// One program as compute-group-extraction leaves it: C = A + B on a 2x128 f16 tile. The
// sample device's SFU has 64 f16 lanes, so the tile is [1, 64]: a loop over the 2 rows,
// a loop over the 2 halves of a row, and in the innermost body the three-stage pipeline
// (load both operands into FIFOs, add on the SFU, store the result from a FIFO).
// The memory views move before the loops; each access tile becomes a cast of its view to
// the mapped memory ("DDR") and a reinterpret_cast at the tile's offset (row * 128).
// The orchestrator has nothing to schedule.

// CHECK-LABEL: func.func @add_rows(
// CHECK-NEXT:    %[[TILE:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    call @local_schedule_0(%[[TILE]]) : (index) -> ()
// CHECK:         return

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:      %[[PID:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[A_ADDR:.*]] = arith.constant 1024 : index
// CHECK:         %[[ROW:.*]] = arith.muli %[[PID]], %{{.*}} : index
// Loop bounds, created where the compute op was: lower, upper, step per tiled loop.
// CHECK:         %[[LB0:.*]] = arith.constant 0 : index
// CHECK:         %[[UB0:.*]] = arith.constant 2 : index
// CHECK:         %[[ST0:.*]] = arith.constant 1 : index
// CHECK:         %[[LB1:.*]] = arith.constant 0 : index
// CHECK:         %[[UB1:.*]] = arith.constant 128 : index
// CHECK:         %[[ST1:.*]] = arith.constant 64 : index
// The memory views, then each access tile as a cast to "DDR" and a reinterpret_cast at row * 128.
// CHECK-NEXT:    %[[A:.*]] = ktdp.construct_memory_view %[[A_ADDR]], sizes: [8, 128], strides: [128, 1]
// CHECK-NEXT:    %[[B:.*]] = ktdp.construct_memory_view
// CHECK-NEXT:    %[[C:.*]] = ktdp.construct_memory_view
// CHECK:         %[[STRIDE_A:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[OFF_A:.*]] = arith.muli %[[ROW]], %[[STRIDE_A]] : index
// CHECK-NEXT:    %[[A_DDR:.*]] = memref.memory_space_cast %[[A]] : memref<8x128xf16> to memref<8x128xf16, "DDR">
// CHECK-NEXT:    %[[A_TILE:.*]] = memref.reinterpret_cast %[[A_DDR]] to offset: [%[[OFF_A]]], sizes: [2, 128], strides: [128, 1] : memref<8x128xf16, "DDR"> to memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">
// CHECK:         %[[B_TILE:.*]] = memref.reinterpret_cast {{.*}}, sizes: [2, 128], strides: [128, 1]
// CHECK:         %[[C_TILE:.*]] = memref.reinterpret_cast {{.*}}, sizes: [2, 128], strides: [128, 1]
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[LB0]] to %[[UB0]] step %[[ST0]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[LB1]] to %[[UB1]] step %[[ST1]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.*]]:6 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:            ktdf.data_transfer from %[[A_TILE]][%[[I]], %[[J]]] size [1, 64] to %[[P]]#0 size [1, 64] : memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:            ktdf.data_transfer from %[[B_TILE]][%[[I]], %[[J]]] size [1, 64] to %[[P]]#1 size [1, 64]
// CHECK:               }
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:            %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:            %[[Y:.*]] = ktdf.read_from_fifo %[[P]]#1 : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK:                 %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<1x64xf16>, tensor<1x64xf16>)
// CHECK:                   arith.addf
// CHECK:                 ktdf.write_to_fifo %[[R]], %[[P]]#2 : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
// CHECK:               } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#2 size [1, 64] to %[[C_TILE]][%[[I]], %[[J]]] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<2x128xf16, strided<[128, 1], offset: ?>, "DDR">
// CHECK:               }
// CHECK:             }
// CHECK:         return

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#two_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  module {
    func.func @add_rows() attributes {grid = [4]} {
      %tile = ktdp.get_compute_tile_id : index
      call @local_schedule_0(%tile) : (index) -> ()
      return
    }
    func.func private @local_schedule_0(index)
  }
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%pid: index) attributes {grid = [4]} {
      %rows = arith.constant 2 : index
      %a_addr = arith.constant 1024 : index
      %b_addr = arith.constant 3072 : index
      %c_addr = arith.constant 5120 : index
      %c0 = arith.constant 0 : index
      %row = arith.muli %pid, %rows : index
      %a = ktdp.construct_memory_view %a_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %b = ktdp.construct_memory_view %b_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #two_rows, access_tile_order = #row_major} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
      %tb = ktdp.construct_access_tile %b[%row, %c0] {access_tile_set = #two_rows, access_tile_order = #row_major} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
      %x = ktdp.load %ta : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
      %y = ktdp.load %tb : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
      %init = tensor.empty() : tensor<2x128xf16>
      %sum = linalg.add ins(%x, %y : tensor<2x128xf16>, tensor<2x128xf16>) outs(%init : tensor<2x128xf16>) -> tensor<2x128xf16>
      %c = ktdp.construct_memory_view %c_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %tc = ktdp.construct_access_tile %c[%row, %c0] {access_tile_set = #two_rows, access_tile_order = #row_major} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
      ktdp.store %sum, %tc : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
      return
    }
  }
}
