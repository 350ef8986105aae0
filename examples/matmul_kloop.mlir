// A contraction with an explicit K loop, the way Triton writes a matmul: C = A x B for f16
// matrices, A 8x64, B 64x64, C 8x64, over a grid of 2 compute tiles, 4 rows of A (and of
// C) per tile. Each tile walks K in 2 chunks of 32: it loads a 4x32 block of A and a 32x64
// block of B, multiplies them into a fresh tensor and adds the product to the accumulator its
// `scf.for` carries (`iter_args`), then stores the accumulator once, after the loop.
// The scheduler folds the loop into one contraction over all of K (`fold-accumulation-loops`)
// and steps K itself; the accumulator stays in the compute unit's registers throughout.
// A, B and C live in global memory at byte addresses 0, 1024 and 9216.

#a_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#a_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matmul_kloop() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 1024 : index
    %c_address = arith.constant 9216 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #a_matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [64, 64], strides: [64, 1] {coordinate_set = #b_matrix, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #c_matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>

    %zero = arith.constant dense<0.0> : tensor<4x64xf16>
    %product = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %zero) -> (tensor<4x64xf16>) {
      %a_tile = ktdp.construct_access_tile %a[%first_row, %k] {access_tile_set = #a_block, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<4x32xindex>
      %b_tile = ktdp.construct_access_tile %b[%k, %c0] {access_tile_set = #b_block, access_tile_order = #row_major} : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
      %x = ktdp.load %a_tile : <4x32xindex> -> tensor<4x32xf16>
      %y = ktdp.load %b_tile : <32x64xindex> -> tensor<32x64xf16>
      %empty = tensor.empty() : tensor<4x64xf16>
      %partial = linalg.matmul ins(%x, %y : tensor<4x32xf16>, tensor<32x64xf16>) outs(%empty : tensor<4x64xf16>) -> tensor<4x64xf16>
      %next = arith.addf %acc, %partial : tensor<4x64xf16>
      scf.yield %next : tensor<4x64xf16>
    }

    %c_tile = ktdp.construct_access_tile %c[%first_row, %c0] {access_tile_set = #c_block, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %product, %c_tile : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
