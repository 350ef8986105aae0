// C = A + B over 16384 x 64 f16 matrices, split by rows over 2 compute tiles: each tile adds
// 8192 rows, 1 MiB of each of its three operands, so a tile's data is three times what the
// sample device's scratchpad holds.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 16383 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 8191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows_first = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @big_rows_add() attributes {grid = [2]} {
    %zero = arith.constant 0 : index
    %tile_rows = arith.constant 8192 : index
    %a_at = arith.constant 0 : index
    %b_at = arith.constant 2097152 : index
    %c_at = arith.constant 4194304 : index
    %tile = ktdp.get_compute_tile_id : index
    %row = arith.muli %tile, %tile_rows : index
    %a = ktdp.construct_memory_view %a_at, sizes: [16384, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16384x64xf16>
    %b = ktdp.construct_memory_view %b_at, sizes: [16384, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16384x64xf16>
    %c = ktdp.construct_memory_view %c_at, sizes: [16384, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16384x64xf16>
    %a_rows = ktdp.construct_access_tile %a[%row, %zero] {
      access_tile_set = #half, access_tile_order = #rows_first
    } : memref<16384x64xf16> -> !ktdp.access_tile<8192x64xindex>
    %b_rows = ktdp.construct_access_tile %b[%row, %zero] {
      access_tile_set = #half, access_tile_order = #rows_first
    } : memref<16384x64xf16> -> !ktdp.access_tile<8192x64xindex>
    %c_rows = ktdp.construct_access_tile %c[%row, %zero] {
      access_tile_set = #half, access_tile_order = #rows_first
    } : memref<16384x64xf16> -> !ktdp.access_tile<8192x64xindex>
    %x = ktdp.load %a_rows : <8192x64xindex> -> tensor<8192x64xf16>
    %y = ktdp.load %b_rows : <8192x64xindex> -> tensor<8192x64xf16>
    %init = tensor.empty() : tensor<8192x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<8192x64xf16>, tensor<8192x64xf16>)
                      outs(%init : tensor<8192x64xf16>) -> tensor<8192x64xf16>
    ktdp.store %sum, %c_rows : tensor<8192x64xf16>, <8192x64xindex>
    return
  }
}
