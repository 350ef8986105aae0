// One compute tile of a 1024x1024x1024 f16 matmul (C = A x B), the issue's throughput target,
// for `benchmarks/schedule_quality.py --device spyre`. The whole kernel splits C's rows over
// 32 tiles, one per spyre core, 32 rows each; the tiles share nothing and every core has its
// own DMA engines, so one tile's cycles are the whole kernel's. This is tile 0 of that grid
// (`grid = [1]`): the simulator runs it in seconds, where the full grid takes 32 times as long.
// Each tile loads its 32x1024 rows of A and all of B and multiplies them into its 32x1024
// rows of C, accumulating into a zero fill, Inductor style (a `linalg.matmul` on loaded tiles).
// A, B and C live in global memory at byte addresses 0, 2 MiB and 4 MiB.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matmul_1024() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 32 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 2097152 : index
    %c_address = arith.constant 4194304 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index

    %a = ktdp.construct_memory_view %a_address, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>

    %a_rows = ktdp.construct_access_tile %a[%first_row, %c0] {access_tile_set = #rows, access_tile_order = #row_major} : memref<1024x1024xf16> -> !ktdp.access_tile<32x1024xindex>
    %b_all = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #matrix, access_tile_order = #row_major} : memref<1024x1024xf16> -> !ktdp.access_tile<1024x1024xindex>
    %x = ktdp.load %a_rows : <32x1024xindex> -> tensor<32x1024xf16>
    %y = ktdp.load %b_all : <1024x1024xindex> -> tensor<1024x1024xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<32x1024xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<32x1024xf16>) -> tensor<32x1024xf16>
    %product = linalg.matmul ins(%x, %y : tensor<32x1024xf16>, tensor<1024x1024xf16>) outs(%init : tensor<32x1024xf16>) -> tensor<32x1024xf16>

    %c_rows = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #rows, access_tile_order = #row_major} : memref<1024x1024xf16> -> !ktdp.access_tile<32x1024xindex>
    ktdp.store %product, %c_rows : tensor<32x1024xf16>, <32x1024xindex>
    return
  }
}
