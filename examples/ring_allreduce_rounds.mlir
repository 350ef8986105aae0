// Three rounds of an all-reduce between 4 tiles, summed, plus tile 0's own block, stored by tile 0:
// Y = 3 x (X[0] + X[1] + X[2] + X[3]) + X[0] for the four 2x64 f16 blocks X[t] (one per compute
// tile, grid of 4; each all-reduce adds the blocks from 0 in tile order, the rounds add up from 0,
// all in f16). Each tile exchanges its block flattened to 128 elements and reads the sums back
// as a 2x64 block; the loop carries the running sum. X lives at byte 0 of global memory, Y at
// byte 1024. The tiles exchange over the device's core-to-core links (ring4, spyre); a device
// with one core cannot run it.

#blocks = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#all_four = affine_set<(t)[g] : (t >= 0, -t + 3 >= 0, g == 0)>

module {
  func.func @ring_allreduce_rounds() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 1024 : index
    %t = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %t, %c2 : index

    %x = ktdp.construct_memory_view %x_address, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #blocks, memory_space = #ktdp.memory_space<global>
    } : memref<8x64xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #block, memory_space = #ktdp.memory_space<global>
    } : memref<2x64xf16>
    %x_block = ktdp.construct_access_tile %x[%first_row, %c0] {
      access_tile_set = #block, access_tile_order = #row_major
    } : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
    %own = ktdp.load %x_block : <2x64xindex> -> tensor<2x64xf16>
    %flat = tensor.collapse_shape %own [[0, 1]] : tensor<2x64xf16> into tensor<128xf16>

    %zero = arith.constant 0.0 : f16
    %empty = tensor.empty() : tensor<128xf16>
    %zeros = linalg.fill ins(%zero : f16) outs(%empty : tensor<128xf16>) -> tensor<128xf16>
    %empty_block = tensor.empty() : tensor<2x64xf16>
    %zero_block = linalg.fill ins(%zero : f16) outs(%empty_block : tensor<2x64xf16>) -> tensor<2x64xf16>
    %total = scf.for %round = %c0 to %c3 step %c1 iter_args(%acc = %zero_block) -> (tensor<2x64xf16>) {
      %blocks = ktdp.inter_tile_produce producer_tiles_per_group = #all_four
          -> <(tensor<128xf16>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%group: index):
        ktdp.yield_partial %flat : tensor<128xf16>
      }
      %sums = ktdp.inter_tile_reduce(%blocks) consumer_tiles_per_group = #all_four, identity(%zeros : tensor<128xf16>)
          : <(tensor<128xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
      ^bb0(%lhs: tensor<128xf16>, %rhs: tensor<128xf16>):
        %sum = arith.addf %lhs, %rhs : tensor<128xf16>
        ktdp.yield_reduced %sum : tensor<128xf16>
      }
      %sums_block = tensor.expand_shape %sums [[0, 1]] output_shape [2, 64] : tensor<128xf16> into tensor<2x64xf16>
      %next = arith.addf %acc, %sums_block : tensor<2x64xf16>
      scf.yield %next : tensor<2x64xf16>
    }
    %result = arith.addf %total, %own : tensor<2x64xf16>
    %is_first = arith.cmpi eq, %t, %c0 : index
    scf.if %is_first {
      %y_block = ktdp.construct_access_tile %y[%c0, %c0] {
        access_tile_set = #block, access_tile_order = #row_major
      } : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
      ktdp.store %result, %y_block : tensor<2x64xf16>, <2x64xindex>
    }
    return
  }
}
