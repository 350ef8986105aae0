// Y[i, :] = X[i, :] * X[0, :] for the 4 rows of a 4x64 f16 matrix, in a host loop over i; the
// first row is loaded once before the loop, as a kernel written for a GPU would. The loop's
// program must load it itself, so `compute-group-extraction` repeats that load inside the loop
// (Decision 51): nothing in the loop writes X. X and Y are kernel arguments (byte addresses).

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @scale_by_first_row(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %x = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>
    } : memref<4x64xf16>
    %first_tile = ktdp.construct_access_tile %x[%c0, %c0] {
      access_tile_set = #one_row, access_tile_order = #row_major
    } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %first = ktdp.load %first_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    scf.for %i = %c0 to %c4 step %c1 {
      %x_tile = ktdp.construct_access_tile %x[%i, %c0] {
        access_tile_set = #one_row, access_tile_order = #row_major
      } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %row = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %scaled = arith.mulf %row, %first : tensor<1x64xf16>
      %y_tile = ktdp.construct_access_tile %y[%i, %c0] {
        access_tile_set = #one_row, access_tile_order = #row_major
      } : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %scaled, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    return
  }
}
