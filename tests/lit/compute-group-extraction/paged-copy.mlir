// RUN: dfsched-opt %s -split-input-file --compute-group-extraction | filecheck %s

// A paged copy (Decision 57): the gather's subscripts split token t by pages of 4
// (`t floordiv 4`, `t mod 4`), so the copy becomes a loop over the 4 pages, each a program
// copying one page of every sequence: the page is a captured value, t ranges over one page,
// and the store tile starts 4 * page tokens further along the view dimension t enumerates
// (dimension 1 of the view: the tile is stored heads before tokens).
// CHECK-LABEL: func.func @paged_copy()
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      func.call @local_schedule_0(%[[P]]) : (index) -> ()
// CHECK:       func.func @local_schedule_0(%[[PAGE:.*]]: index)
// CHECK:         ktdp.construct_indirect_access_tile intermediate_variables(%[[B:.*]], %[[H:.*]], %[[T:.*]], %[[D:.*]]) %{{.*}}[ind(%{{.*}}[%[[B]], %[[PAGE]]]), (%[[H]]), (%[[T]]), (%[[D]])]{{.*}} -> !ktdp.access_tile<2x2x4x8xindex>
// CHECK:         ktdp.construct_access_tile %{{.*}}[%{{.*}}, %{{.*}} + %[[PAGE]] * 4, %{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<2x2x4x8xindex>
module {
  func.func @paged_copy() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_address = arith.constant 0 : index
    %idx_address = arith.constant 4096 : index
    %y_address = arith.constant 8192 : index
    %idx = ktdp.construct_memory_view %idx_address, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
    %x = ktdp.construct_memory_view %x_address, sizes: [16, 2, 4, 8], strides: [64, 32, 8, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<16x2x4x8xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [2, 16, 2, 8], strides: [256, 16, 8, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<2x16x2x8xf16>
    %xt = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h, %t, %d)
        %x[ind(%idx[%b, %t floordiv 4]), (%h), (%t mod 4), (%d)] {
      variables_space_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
    } : memref<16x2x4x8xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x2x16x8xindex>
    %yt = ktdp.construct_access_tile %y[%c0, %c0, %c0, %c0] {
      access_tile_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      access_tile_order = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
    } : memref<2x16x2x8xf16> -> !ktdp.access_tile<2x2x16x8xindex>
    %v = ktdp.load %xt : !ktdp.access_tile<2x2x16x8xindex> -> tensor<2x2x16x8xf16>
    ktdp.store %v, %yt : tensor<2x2x16x8xf16>, !ktdp.access_tile<2x2x16x8xindex>
    return
  }
}

// -----

// The scatter dual: the writes keep their order (a page listed twice in the block table:
// the last write wins, as in the kernel), so the loop nest also runs over the variables
// enumerated before the token (sequence b, head h), each fixed per program.
// CHECK-LABEL: func.func @paged_write()
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          func.call @local_schedule_0(%[[P]], %[[B]], %[[H]]) : (index, index, index) -> ()
// CHECK:       func.func @local_schedule_0(%[[PAGE:.*]]: index, %[[SEQ:.*]]: index, %[[HEAD:.*]]: index)
// CHECK:         ktdp.construct_access_tile %{{.*}}[%{{.*}} + %[[SEQ]], %{{.*}} + %[[PAGE]] * 4, %{{.*}} + %[[HEAD]], %{{.*}}] {{.*}} -> !ktdp.access_tile<1x1x4x8xindex>
// CHECK:         ktdp.construct_indirect_access_tile intermediate_variables(%[[B2:.*]], %[[H2:.*]], %[[T:.*]], %[[D:.*]]) %{{.*}}[ind(%{{.*}}[%[[SEQ]] + %[[B2]], %[[PAGE]]]), (%[[HEAD]] + %[[H2]]), (%[[T]]), (%[[D]])]
module {
  func.func @paged_write() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_address = arith.constant 0 : index
    %idx_address = arith.constant 1024 : index
    %y_address = arith.constant 2048 : index
    %idx = ktdp.construct_memory_view %idx_address, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
    %x = ktdp.construct_memory_view %x_address, sizes: [2, 16, 2, 8], strides: [256, 16, 8, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<2x16x2x8xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [16, 2, 4, 8], strides: [64, 32, 8, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<16x2x4x8xf16>
    %xt = ktdp.construct_access_tile %x[%c0, %c0, %c0, %c0] {
      access_tile_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      access_tile_order = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
    } : memref<2x16x2x8xf16> -> !ktdp.access_tile<2x2x16x8xindex>
    %yt = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h, %t, %d)
        %y[ind(%idx[%b, %t floordiv 4]), (%h), (%t mod 4), (%d)] {
      variables_space_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 7 >= 0)>,
      variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
    } : memref<16x2x4x8xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x2x16x8xindex>
    %v = ktdp.load %xt : !ktdp.access_tile<2x2x16x8xindex> -> tensor<2x2x16x8xf16>
    ktdp.store %v, %yt : tensor<2x2x16x8xf16>, !ktdp.access_tile<2x2x16x8xindex>
    return
  }
}
