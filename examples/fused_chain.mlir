// A chain of two named ops that the scheduler fuses into one compute op:
// D = (A + B) * C on 32x64 f16 matrices, one row per compute tile over a grid of 32.
// The intermediate A + B never leaves the tile.
// A, B, C and D live in global memory at byte addresses 0, 4096, 8192 and 12288.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @add_mul() attributes {grid = [32]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 4096 : index
    %c_address = arith.constant 8192 : index
    %d_address = arith.constant 12288 : index
    %row = ktdp.get_compute_tile_id : index

    %a = ktdp.construct_memory_view %a_address, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>
    %d = ktdp.construct_memory_view %d_address, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<32x64xf16>

    %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %c[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
    %z = ktdp.load %tc : <1x64xindex> -> tensor<1x64xf16>

    %init = tensor.empty() : tensor<1x64xf16>
    %sum = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>)
                      outs(%init : tensor<1x64xf16>) -> tensor<1x64xf16>
    %product = linalg.mul ins(%sum, %z : tensor<1x64xf16>, tensor<1x64xf16>)
                          outs(%init : tensor<1x64xf16>) -> tensor<1x64xf16>

    %td = ktdp.construct_access_tile %d[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %product, %td : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
