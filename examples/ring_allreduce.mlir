// Scale each row by the column sums of all rows, the sums all-reduced between tiles:
// Y[t, j] = X[t, j] * (X[0, j] + X[1, j] + X[2, j] + X[3, j]) for the 4x256 f16 matrix X, one row
// per compute tile (grid of 4). Each tile loads its row, contributes it to an all-reduce over the
// 4 tiles (the sum starts from 0 and adds the rows in tile order, in f16) and multiplies its row
// by the sums. X lives at byte 0 of global memory, Y at byte 2048. The tiles exchange their rows
// over the device's core-to-core links (ring4, spyre); a device with one core cannot run it.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#all_four = affine_set<(t)[g] : (t >= 0, -t + 3 >= 0, g == 0)>

module {
  func.func @ring_allreduce() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 2048 : index
    %t = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %x_address, sizes: [4, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [4, 256], strides: [256, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf16>
    %x_row = ktdp.construct_access_tile %x[%t, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    %y_row = ktdp.construct_access_tile %y[%t, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>

    %row = ktdp.load %x_row : <1x256xindex> -> tensor<1x256xf16>
    %rows = ktdp.inter_tile_produce producer_tiles_per_group = #all_four
        -> <(tensor<1x256xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%group: index):
      ktdp.yield_partial %row : tensor<1x256xf16>
    }
    %zero = arith.constant 0.0 : f16
    %empty = tensor.empty() : tensor<1x256xf16>
    %zeros = linalg.fill ins(%zero : f16) outs(%empty : tensor<1x256xf16>) -> tensor<1x256xf16>
    %sums = ktdp.inter_tile_reduce(%rows) consumer_tiles_per_group = #all_four, identity(%zeros : tensor<1x256xf16>)
        : <(tensor<1x256xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x256xf16> {
    ^bb0(%lhs: tensor<1x256xf16>, %rhs: tensor<1x256xf16>):
      %init = tensor.empty() : tensor<1x256xf16>
      %sum = linalg.add ins(%lhs, %rhs : tensor<1x256xf16>, tensor<1x256xf16>)
                        outs(%init : tensor<1x256xf16>) -> tensor<1x256xf16>
      ktdp.yield_reduced %sum : tensor<1x256xf16>
    }
    %out = tensor.empty() : tensor<1x256xf16>
    %scaled = linalg.mul ins(%row, %sums : tensor<1x256xf16>, tensor<1x256xf16>)
                         outs(%out : tensor<1x256xf16>) -> tensor<1x256xf16>
    ktdp.store %scaled, %y_row : tensor<1x256xf16>, <1x256xindex>
    return
  }
}
