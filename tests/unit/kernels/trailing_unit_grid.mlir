// C = A + B on 2x64 f16 rows, on a grid declared as Triton does: grid = [2, 1] with one tile
// id (trailing unit dimensions left out). Tile t adds row t.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @add_rows() attributes {grid = [2, 1]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 4096 : index
    %c_address = arith.constant 8192 : index
    %row = ktdp.get_compute_tile_id : index

    %a = ktdp.construct_memory_view %a_address, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<2x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<2x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<2x64xf16>

    %ta = ktdp.construct_access_tile %a[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %c[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>

    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
    %init = tensor.empty() : tensor<1x64xf16>
    %s = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>)
                    outs(%init : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %s, %tc : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
