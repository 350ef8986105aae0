// C = A + B over 32x64 f16 matrices laid out three ways: A column-major (strides [1, 32]),
// B row-major with padded rows (strides [128, 1]), C dense row-major. Two tiles of 16 rows:
// the transfers must follow each view's own strides, not row-major ones derived from its shape.
#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @strided_views() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 16 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 4096 : index
    %c_address = arith.constant 16384 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index
    %a = ktdp.construct_memory_view %a_address, sizes: [32, 64], strides: [1, 32] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [32, 64], strides: [128, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {
      access_tile_set = #rows, access_tile_order = #row_major
    } : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    %b_rows = ktdp.construct_access_tile %b[%first_row, %c0] {
      access_tile_set = #rows, access_tile_order = #row_major
    } : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %a_rows : <16x64xindex> -> tensor<16x64xf16>
    %y = ktdp.load %b_rows : <16x64xindex> -> tensor<16x64xf16>
    %init = tensor.empty() : tensor<16x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<16x64xf16>, tensor<16x64xf16>)
                      outs(%init : tensor<16x64xf16>) -> tensor<16x64xf16>
    %c_rows = ktdp.construct_access_tile %c[%first_row, %c0] {
      access_tile_set = #rows, access_tile_order = #row_major
    } : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %sum, %c_rows : tensor<16x64xf16>, <16x64xindex>
    return
  }
}
