// Broadcast over a tile larger than the scratchpad: C[r, :] = A[r, :] + bias[:] for a
// 4096x64 f16 matrix in one compute tile. A and C take 512 KiB each, more than the sample
// device's 1 MiB L1 holds together, so the rows are tiled: the schedule streams row tiles
// through double-buffered L1 buffers, while the 64-element bias is loaded once, by a
// sibling pipeline before the tile loop (broadcast promotion).
// A, bias and C live in global memory at byte addresses 0, 524288 and 528384.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vector = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>
#per_column = affine_map<(d0, d1) -> (d1)>

module {
  func.func @row_bias_tiled() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %bias_address = arith.constant 524288 : index
    %c_address = arith.constant 528384 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [4096, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4096x64xf16>
    %bias = ktdp.construct_memory_view %bias_address, sizes: [64], strides: [1] {coordinate_set = #vector, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [4096, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4096x64xf16>

    %a_all = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<4096x64xf16> -> !ktdp.access_tile<4096x64xindex>
    %bias_all = ktdp.construct_access_tile %bias[%c0] {access_tile_set = #vector, access_tile_order = #in_order} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %a_all : <4096x64xindex> -> tensor<4096x64xf16>
    %b = ktdp.load %bias_all : <64xindex> -> tensor<64xf16>

    %init = tensor.empty() : tensor<4096x64xf16>
    %biased = linalg.generic {indexing_maps = [#row_major, #per_column, #row_major],
                              iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : tensor<4096x64xf16>, tensor<64xf16>) outs(%init : tensor<4096x64xf16>) {
    ^bb0(%value: f16, %offset: f16, %out: f16):
      %s = arith.addf %value, %offset : f16
      linalg.yield %s : f16
    } -> tensor<4096x64xf16>

    %c_all = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<4096x64xf16> -> !ktdp.access_tile<4096x64xindex>
    ktdp.store %biased, %c_all : tensor<4096x64xf16>, <4096x64xindex>
    return
  }
}
