// A paged scatter: Y[Idx[b, t floordiv 4], h, t mod 4, d] = X[b, t, h, d] (X read heads before tokens).
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
