// RUN: dfsched-opt %s --compute-group-extraction | filecheck %s

// The orchestrator case: an outer loop holds a group, then an inner loop with its own
// group, then a third group after the inner loop. Three programs, three calls at the
// places of the groups, loops and nesting kept. The inner loop's block is visited first,
// so its group is program 0; the outer body's groups follow in order (1 before the inner
// loop, 2 after it).

// CHECK:      module {
// CHECK-NEXT:   module {
// CHECK:          func.func @normalize_rows() attributes {grid = [2{{( : i64)?}}]} {
// CHECK-DAG:        %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-DAG:        %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-DAG:        %[[C4:[a-zA-Z0-9_]+]] = arith.constant 4 : index
// CHECK-DAG:        %[[C2:[a-zA-Z0-9_]+]] = arith.constant 2 : index
// CHECK-NOT:        ktdp.
// CHECK:            scf.for %[[I:[a-zA-Z0-9_]+]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:         func.call @local_schedule_1(%[[I]]) : (index) -> ()
// CHECK-NEXT:         scf.for %[[J:[a-zA-Z0-9_]+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:           func.call @local_schedule_0(%[[I]], %[[J]]) : (index, index) -> ()
// CHECK:              }
// CHECK-NEXT:         func.call @local_schedule_2(%[[I]]) : (index) -> ()
// CHECK:            }
// CHECK:            return
// CHECK:          }
// CHECK:          func.func private @local_schedule_0(index, index)
// CHECK:          func.func private @local_schedule_1(index)
// CHECK:          func.func private @local_schedule_2(index)
// CHECK:        }

// Program 0: the inner loop's group (scale a 1x32 chunk of the row by itself).
// CHECK-NEXT:   module @local_schedule_0 {
// CHECK:          func.func @local_schedule_0(%{{[a-zA-Z0-9_]+}}: index, %{{[a-zA-Z0-9_]+}}: index) attributes {grid = [2{{( : i64)?}}]} {
// CHECK-NOT:        func.call
// CHECK:            ktdp.load {{.*}} -> tensor<1x32xf16>
// CHECK:            linalg.mul
// CHECK:            ktdp.store
// CHECK:            return

// Program 1: before the inner loop (square the row).
// CHECK:        module @local_schedule_1 {
// CHECK:          func.func @local_schedule_1(%{{[a-zA-Z0-9_]+}}: index) attributes {grid = [2{{( : i64)?}}]} {
// CHECK:            ktdp.load {{.*}} -> tensor<1x64xf16>
// CHECK:            linalg.mul
// CHECK:            ktdp.store

// Program 2: after the inner loop (add the two rows).
// CHECK:        module @local_schedule_2 {
// CHECK:          func.func @local_schedule_2(%{{[a-zA-Z0-9_]+}}: index) attributes {grid = [2{{( : i64)?}}]} {
// CHECK:            ktdp.load
// CHECK:            ktdp.load
// CHECK:            linalg.add
// CHECK:            ktdp.store
// CHECK-NOT:    module @local_schedule_3

func.func @normalize_rows() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %x_addr = arith.constant 0 : index
  %t_addr = arith.constant 1024 : index
  %y_addr = arith.constant 2048 : index
  %x_view = ktdp.construct_memory_view %x_addr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4x64xf16>
  %t_view = ktdp.construct_memory_view %t_addr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4x64xf16>
  %y_view = ktdp.construct_memory_view %y_addr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4x64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %x_row = ktdp.construct_access_tile %x_view[%i, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %t_row = ktdp.construct_access_tile %t_view[%i, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %y_row = ktdp.construct_access_tile %y_view[%i, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %e = tensor.empty() : tensor<1x64xf16>

    // group before the inner loop: t = x * x
    %x = ktdp.load %x_row : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %sq = linalg.mul ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %sq, %t_row : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>

    // inner loop: t[chunk] = t[chunk] * t[chunk]
    scf.for %j = %c0 to %c2 step %c1 {
      %col = arith.muli %j, %c32 : index
      %chunk = ktdp.construct_access_tile %t_view[%i, %col] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<4x64xf16> -> !ktdp.access_tile<1x32xindex>
      %v = ktdp.load %chunk : !ktdp.access_tile<1x32xindex> -> tensor<1x32xf16>
      %e2 = tensor.empty() : tensor<1x32xf16>
      %w = linalg.mul ins(%v, %v : tensor<1x32xf16>, tensor<1x32xf16>) outs(%e2 : tensor<1x32xf16>) -> tensor<1x32xf16>
      ktdp.store %w, %chunk : tensor<1x32xf16>, !ktdp.access_tile<1x32xindex>
    }

    // group after the inner loop: y = x + t (with access tiles of its own)
    %x_row2 = ktdp.construct_access_tile %x_view[%i, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %t_row2 = ktdp.construct_access_tile %t_view[%i, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x2 = ktdp.load %x_row2 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %t = ktdp.load %t_row2 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %sum = linalg.add ins(%x2, %t : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %sum, %y_row : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
