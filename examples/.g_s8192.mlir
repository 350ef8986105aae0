// Y[r, :] = X[r, :] * s for the rows of a 4x64 f16 matrix, in Triton's style: a grid of 2 tiles,
// each taking rows tile, tile + 2 in a loop that starts at its tile id; the scalar s is a 1x1
// tile collapsed to a rank-0 tensor and broadcast over the row. The front door folds the
// collapse into the broadcast (`triton-to-linalg`); `compute-group-extraction` turns the row
// loop into 2 iterations on every tile, the row rebuilt from the tile id in the program
// (Decision 50). X, s and Y are kernel arguments (byte addresses).

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @scale_rows_triton(%x_ptr: index, %s_ptr: index, %y_ptr: index) attributes {grid = [8192]} {
    %tile = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %x = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %s = ktdp.construct_memory_view %s_ptr, sizes: [1, 1], strides: [1, 1] {
      coordinate_set = #one, memory_space = #ktdp.memory_space<global>
    } : memref<1x1xf16>
    %y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    scf.for %r = %tile to %c4 step %c2 {
      %x_tile = ktdp.construct_access_tile %x[%r, %c0] {
        access_tile_set = #one_row, access_tile_order = #row_major
      } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %s_tile = ktdp.construct_access_tile %s[%c0, %c0] {
        access_tile_set = #one, access_tile_order = #row_major
      } : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>
      %row = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %s11 = ktdp.load %s_tile : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
      %scalar = tensor.collapse_shape %s11 [] : tensor<1x1xf16> into tensor<f16>
      %empty = tensor.empty() : tensor<1x64xf16>
      %s_row = linalg.broadcast ins(%scalar : tensor<f16>) outs(%empty : tensor<1x64xf16>) dimensions = [0, 1]
      %scaled = arith.mulf %row, %s_row : tensor<1x64xf16>
      %y_tile = ktdp.construct_access_tile %y[%r, %c0] {
        access_tile_set = #one_row, access_tile_order = #row_major
      } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %scaled, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    return
  }
}
