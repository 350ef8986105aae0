// A reduction: the sum of each row of a 96x64 f16 matrix, S[r] = sum_j A[r, j], over a
// grid of 32 compute tiles, 3 rows per tile. Each tile reduces its 3x64 tile along the
// columns into 3 sums and stores them into its 3 entries of S. The accumulator is a
// `tensor.empty`: the scheduler starts every accumulator at zero (it lowers the empty
// init to a zero fill), which is also the only initial value it accepts.
// A and S live in global memory at byte addresses 0 and 12288.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>
#three_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#three_sums = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @row_sum() attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %a_address = arith.constant 0 : index
    %s_address = arith.constant 12288 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c3 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [96, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %s = ktdp.construct_memory_view %s_address, sizes: [96], strides: [1] {coordinate_set = #sums, memory_space = #ktdp.memory_space<global>} : memref<96xf16>

    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #three_rows, access_tile_order = #row_major} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %x = ktdp.load %a_rows : <3x64xindex> -> tensor<3x64xf16>
    %init = tensor.empty() : tensor<3xf16>
    %row_sums = linalg.reduce { arith.addf } ins(%x : tensor<3x64xf16>) outs(%init : tensor<3xf16>) dimensions = [1]

    %s_rows = ktdp.construct_access_tile %s[%first_row] {access_tile_set = #three_sums, access_tile_order = #in_order} : memref<96xf16> -> !ktdp.access_tile<3xindex>
    ktdp.store %row_sums, %s_rows : tensor<3xf16>, <3xindex>
    return
  }
}
