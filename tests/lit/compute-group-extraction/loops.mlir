// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// Groups inside loops: control flow stays in the orchestrator, each group becomes a call
// at its place, and the block arguments a group reads (induction variables, kernel
// arguments) become the program's parameters, in the order the group first reaches them.

// CHECK-LABEL: func.func @row_loop(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index)
// CHECK-DAG:     %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NOT:     ktdp.
// CHECK:         scf.for %[[I:[a-zA-Z0-9_]+]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      func.call @local_schedule_0(%[[I]]) : (index) -> ()
// CHECK:         }
// CHECK:         return
// CHECK:         func.func private @local_schedule_0(index)
// CHECK-NOT:     ktdp.
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         func.func @local_schedule_0(%[[IV:[a-zA-Z0-9_]+]]: index) {
// CHECK:           %[[BASE:[a-zA-Z0-9_]+]] = arith.muli
// CHECK:           %[[R:[a-zA-Z0-9_]+]] = arith.addi %[[BASE]], %[[IV]] : index
// CHECK:           ktdp.construct_access_tile %{{[a-zA-Z0-9_]+}}[%[[R]],
// CHECK:           ktdp.load
// CHECK:           linalg.add
// CHECK:           ktdp.store
// CHECK:           return
func.func @row_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x_addr = arith.constant 0 : index
  %y_addr = arith.constant 2048 : index
  %id = ktdp.get_compute_tile_id : index
  %first = arith.muli %id, %c4 : index
  %x_view = ktdp.construct_memory_view %x_addr, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<16x64xf16>
  %y_view = ktdp.construct_memory_view %y_addr, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<16x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.addi %first, %i : index
    %x_tile = ktdp.construct_access_tile %x_view[%r, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%r, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.add ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %y, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}

// -----

// Two nested loops (columns outside, rows inside), the group in the innermost one. Its
// parameters come in the order the group reaches them (the row before the column, as the
// tile indices name them), not in loop order.

// CHECK-LABEL: func.func @tile_grid(
// CHECK:         scf.for %[[J:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:      scf.for %[[I:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:        func.call @local_schedule_0(%[[I]], %[[J]]) : (index, index) -> ()
// CHECK:           }
// CHECK:         }
// CHECK:         func.func private @local_schedule_0(index, index)
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         func.func @local_schedule_0(%[[PI:[a-zA-Z0-9_]+]]: index, %[[PJ:[a-zA-Z0-9_]+]]: index) {
// CHECK:           %[[COL:[a-zA-Z0-9_]+]] = arith.muli %[[PJ]],
// CHECK:           ktdp.construct_access_tile %{{[a-zA-Z0-9_]+}}[%[[PI]], %[[COL]]]
// CHECK-NOT:     module @local_schedule_1
func.func @tile_grid() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %x_addr = arith.constant 0 : index
  %y_addr = arith.constant 4096 : index
  %x_view = ktdp.construct_memory_view %x_addr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4x64xf16>
  %y_view = ktdp.construct_memory_view %y_addr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4x64xf16>
  scf.for %j = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c4 step %c1 {
      %col = arith.muli %j, %c32 : index
      %x_tile = ktdp.construct_access_tile %x_view[%i, %col] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<4x64xf16> -> !ktdp.access_tile<1x32xindex>
      %y_tile = ktdp.construct_access_tile %y_view[%i, %col] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<4x64xf16> -> !ktdp.access_tile<1x32xindex>
      %x = ktdp.load %x_tile : !ktdp.access_tile<1x32xindex> -> tensor<1x32xf16>
      %e = tensor.empty() : tensor<1x32xf16>
      %y = linalg.mul ins(%x, %x : tensor<1x32xf16>, tensor<1x32xf16>) outs(%e : tensor<1x32xf16>) -> tensor<1x32xf16>
      ktdp.store %y, %y_tile : tensor<1x32xf16>, !ktdp.access_tile<1x32xindex>
    }
  }
  return
}

// -----

// One group at function level and one in each of two sibling loops: blocks are visited
// nested-first, so the loop groups are programs 0 and 1 and the function-level group is 2.
// Views and tiles the orchestrator no longer uses are gone from it.

// CHECK-LABEL: func.func @siblings() {
// CHECK-NOT:     ktdp.
// CHECK:         call @local_schedule_2() : () -> ()
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      func.call @local_schedule_0() : () -> ()
// CHECK:         }
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      func.call @local_schedule_1() : () -> ()
// CHECK:         }
// CHECK:         return
// CHECK:         func.func private @local_schedule_0()
// CHECK:         func.func private @local_schedule_1()
// CHECK:         func.func private @local_schedule_2()
// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         linalg.add
// CHECK-LABEL: module @local_schedule_1 {
// CHECK:         linalg.sub
// CHECK-LABEL: module @local_schedule_2 {
// CHECK:         linalg.mul
func.func @siblings() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a_addr = arith.constant 0 : index
  %b_addr = arith.constant 1024 : index
  %a_view = ktdp.construct_memory_view %a_addr, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<8x64xf16>
  %b_view = ktdp.construct_memory_view %b_addr, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<8x64xf16>
  %a = ktdp.construct_access_tile %a_view[%c0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %b = ktdp.construct_access_tile %b_view[%c0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %e = tensor.empty() : tensor<8x64xf16>
  %x0 = ktdp.load %a : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %y0 = linalg.mul ins(%x0, %x0 : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  ktdp.store %y0, %b : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  scf.for %i = %c0 to %c3 step %c1 {
    %x1 = ktdp.load %b : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %y1 = linalg.add ins(%x1, %x1 : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
    ktdp.store %y1, %a : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %x2 = ktdp.load %a : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %y2 = linalg.sub ins(%x2, %x2 : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
    ktdp.store %y2, %b : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  }
  return
}
