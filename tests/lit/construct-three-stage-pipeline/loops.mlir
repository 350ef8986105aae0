// RUN: dfsched-opt %s --device=sample -p ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s

// Groups inside loops: the outer loop runs over 2-row blocks; in each block one group
// before an inner loop (negate), one group inside it (add a 1-row tile per inner step),
// one after it (square). compute-group-extraction makes three programs whose loop
// induction variables are parameters; this pass gives each program one fused generic and
// one pipeline, tiled to its own tile shape, and leaves the orchestrator's loops alone.

// CHECK-LABEL: func.func @blocks()
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_1(%[[I]]) : (index) -> ()
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        func.call @local_schedule_0(%[[I]], %[[J]]) : (index, index) -> ()
// CHECK:           }
// CHECK-NEXT:      func.call @local_schedule_2(%[[I]]) : (index) -> ()
// CHECK:         }
// CHECK-NOT:     ktdf.
// CHECK-NOT:     linalg.

// Inner program: a 1x128 tile (tile [1, 64]): row offset (2*i + j) * 128.
// CHECK-LABEL: module @local_schedule_0
// CHECK:         func.func @local_schedule_0(%[[I:[a-zA-Z0-9_]+]]: index, %[[J:[a-zA-Z0-9_]+]]: index)
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:         linalg.generic
// CHECK:         ^bb0
// CHECK-NEXT:    arith.addf
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         return

// Before the inner loop: a 2x128 tile, negated.
// CHECK-LABEL: module @local_schedule_1
// CHECK:         func.func @local_schedule_1(%{{[a-zA-Z0-9_]+}}: index)
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// CHECK:         arith.negf
// CHECK-NOT:     linalg.generic
// CHECK:         return

// After the inner loop: the same 2x128 tile, squared.
// CHECK-LABEL: module @local_schedule_2
// CHECK:         func.func @local_schedule_2(%{{[a-zA-Z0-9_]+}}: index)
// CHECK:         arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#two_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  func.func @blocks() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %b_addr = arith.constant 2048 : index
    %y_addr = arith.constant 4096 : index
    %x = ktdp.construct_memory_view %c0, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %b = ktdp.construct_memory_view %b_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %y = ktdp.construct_memory_view %y_addr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    scf.for %i = %c0 to %c4 step %c1 {
      %block = arith.muli %i, %c2 : index
      %t1 = ktdp.construct_access_tile %x[%block, %c0] {access_tile_set = #two_rows, access_tile_order = #order} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
      %v1 = ktdp.load %t1 : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
      %n = arith.negf %v1 : tensor<2x128xf16>
      %o1 = ktdp.construct_access_tile %y[%block, %c0] {access_tile_set = #two_rows, access_tile_order = #order} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
      ktdp.store %n, %o1 : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
      scf.for %j = %c0 to %c2 step %c1 {
        %row = arith.addi %block, %j : index
        %t2 = ktdp.construct_access_tile %y[%row, %c0] {access_tile_set = #one_row, access_tile_order = #order} : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
        %t3 = ktdp.construct_access_tile %b[%row, %c0] {access_tile_set = #one_row, access_tile_order = #order} : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
        %v2 = ktdp.load %t2 : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
        %v3 = ktdp.load %t3 : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
        %e = tensor.empty() : tensor<1x128xf16>
        %s = linalg.add ins(%v2, %v3 : tensor<1x128xf16>, tensor<1x128xf16>) outs(%e : tensor<1x128xf16>) -> tensor<1x128xf16>
        ktdp.store %s, %t2 : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
      }
      %t4 = ktdp.construct_access_tile %y[%block, %c0] {access_tile_set = #two_rows, access_tile_order = #order} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
      %v4 = ktdp.load %t4 : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
      %sq = arith.mulf %v4, %v4 : tensor<2x128xf16>
      ktdp.store %sq, %t4 : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
    }
    return
  }
}
