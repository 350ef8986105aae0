// A loop nest holding three compute groups. Four compute tiles each own 4 rows of the
// 16x128 f16 matrices A and B; for each of its rows r (outer loop) a tile computes
//   group 1, in the outer loop before the inner one: X[r, 0:64]   = A[r, 0:64] + B[r, 0:64]
//   group 2, in the inner loop over two 64-column halves h: Y[r, h] = A[r, h] * B[r, h]
//   group 3, in the outer loop after the inner one:  Z[r, 64:128] = A[r, 64:128] - B[r, 64:128]
// A, B, X, Y and Z live in global memory at byte addresses 0, 4096, 8192, 12288 and 16384.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @three_groups() attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 4096 : index
    %x_address = arith.constant 8192 : index
    %y_address = arith.constant 12288 : index
    %z_address = arith.constant 16384 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %x = ktdp.construct_memory_view %x_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %z = ktdp.construct_memory_view %z_address, sizes: [16, 128], strides: [128, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>

    scf.for %i = %c0 to %c4 step %c1 {
      %r = arith.addi %first_row, %i : index

      // Group 1: the left halves, added.
      %a_left = ktdp.construct_access_tile %a[%r, %c0] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
      %b_left = ktdp.construct_access_tile %b[%r, %c0] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
      %p = ktdp.load %a_left : <1x64xindex> -> tensor<1x64xf16>
      %q = ktdp.load %b_left : <1x64xindex> -> tensor<1x64xf16>
      %init = tensor.empty() : tensor<1x64xf16>
      %sum = linalg.add ins(%p, %q : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) -> tensor<1x64xf16>
      %x_left = ktdp.construct_access_tile %x[%r, %c0] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %sum, %x_left : tensor<1x64xf16>, <1x64xindex>

      // Group 2: both halves, multiplied.
      scf.for %h = %c0 to %c2 step %c1 {
        %col = arith.muli %h, %c64 : index
        %a_half = ktdp.construct_access_tile %a[%r, %col] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
        %b_half = ktdp.construct_access_tile %b[%r, %col] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
        %u = ktdp.load %a_half : <1x64xindex> -> tensor<1x64xf16>
        %v = ktdp.load %b_half : <1x64xindex> -> tensor<1x64xf16>
        %empty = tensor.empty() : tensor<1x64xf16>
        %product = linalg.mul ins(%u, %v : tensor<1x64xf16>, tensor<1x64xf16>) outs(%empty : tensor<1x64xf16>) -> tensor<1x64xf16>
        %y_half = ktdp.construct_access_tile %y[%r, %col] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
        ktdp.store %product, %y_half : tensor<1x64xf16>, <1x64xindex>
      }

      // Group 3: the right halves, subtracted.
      %a_right = ktdp.construct_access_tile %a[%r, %c64] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
      %b_right = ktdp.construct_access_tile %b[%r, %c64] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
      %s = ktdp.load %a_right : <1x64xindex> -> tensor<1x64xf16>
      %t = ktdp.load %b_right : <1x64xindex> -> tensor<1x64xf16>
      %init2 = tensor.empty() : tensor<1x64xf16>
      %difference = linalg.sub ins(%s, %t : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init2 : tensor<1x64xf16>) -> tensor<1x64xf16>
      %z_right = ktdp.construct_access_tile %z[%r, %c64] {access_tile_set = #half_row, access_tile_order = #row_major} : memref<16x128xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %difference, %z_right : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
