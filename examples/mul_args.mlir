// Elementwise product Z = X * Y of two 4x64 f16 matrices on a grid of 4 compute tiles, in the
// style PyTorch Inductor emits: the kernel takes the byte addresses of X, Y and Z as
// arguments instead of constants. Tile t multiplies row t. The compiled DataflowIR cannot know
// the addresses: each becomes a symbol (`symbol.create_symbol`) that the program's outer
// function declares from its argument (`symbol.create_id`).

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @mul(%x_address: index, %y_address: index, %z_address: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %row = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %x_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %z = ktdp.construct_memory_view %z_address, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>

    %tx = ktdp.construct_access_tile %x[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %y[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tz = ktdp.construct_access_tile %z[%row, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>

    %a = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %b = ktdp.load %ty : <1x64xindex> -> tensor<1x64xf16>
    %init = tensor.empty() : tensor<1x64xf16>
    %p = linalg.mul ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>)
                    outs(%init : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %p, %tz : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
