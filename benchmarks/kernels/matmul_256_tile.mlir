// One compute tile of a 256x256x256 f16 matmul (C = A x B) for the vector fallback, for
// `benchmarks/schedule_quality.py --device sample` (and spyre, for comparison). The whole
// kernel splits C's rows over 16 tiles, 16 rows each; the tiles share nothing, so one tile's
// cycles are the whole kernel's on a device with a core per tile. This is tile 0 of that grid
// (`grid = [1]`). The 1024^3 tile of matmul_1024_tile.mlir has 64 times the multiply-adds:
// on the vector lanes (5 issues per 64 products) it would take the simulator too long.
// Each tile loads its 16x256 rows of A and all of B and multiplies them into its 16x256 rows
// of C, accumulating into a zero fill, Inductor style (a `linalg.matmul` on loaded tiles).
// A, B and C live in global memory at byte addresses 0, 128 KiB and 256 KiB.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matmul_256() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 16 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 131072 : index
    %c_address = arith.constant 262144 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index

    %a = ktdp.construct_memory_view %a_address, sizes: [256, 256], strides: [256, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [256, 256], strides: [256, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [256, 256], strides: [256, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>

    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #rows, access_tile_order = #row_major} : memref<256x256xf16> -> !ktdp.access_tile<16x256xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
    %x = ktdp.load %a_rows : <16x256xindex> -> tensor<16x256xf16>
    %y = ktdp.load %b_all : <256x256xindex> -> tensor<256x256xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<16x256xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<16x256xf16>) -> tensor<16x256xf16>
    %product = linalg.matmul ins(%x, %y : tensor<16x256xf16>, tensor<256x256xf16>) outs(%init : tensor<16x256xf16>) -> tensor<16x256xf16>

    %c_rows = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #rows, access_tile_order = #row_major} : memref<256x256xf16> -> !ktdp.access_tile<16x256xindex>
    ktdp.store %product, %c_rows : tensor<16x256xf16>, <16x256xindex>
    return
  }
}
