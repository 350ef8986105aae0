// A chunked reduction: the sum of each row of an 8x256 f16 matrix, S[r] = sum_j A[r, j], over a
// grid of 2 compute tiles, 4 rows per tile. Each tile walks its rows in 4 chunks of 64 columns:
// an `scf.for` carries the 4 running sums (`iter_args`, starting from a zero fill) and every
// chunk is reduced straight into them (`linalg.reduce ... outs(%sums)`); the sums are stored
// once, after the loop. The scheduler folds the loop into one reduction over the 256 columns
// (`fold-accumulation-loops`); the running sums stay in the compute unit's registers.
// A and S live in global memory at byte addresses 0 and 4096.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#four_sums = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @row_sum_chunked() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %a_address = arith.constant 0 : index
    %s_address = arith.constant 4096 : index
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %c4 : index

    %a = ktdp.construct_memory_view %a_address, sizes: [8, 256], strides: [256, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
    %s = ktdp.construct_memory_view %s_address, sizes: [8], strides: [1] {coordinate_set = #sums, memory_space = #ktdp.memory_space<global>} : memref<8xf16>

    %zero = arith.constant 0.000000e+00 : f16
    %empty = tensor.empty() : tensor<4xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<4xf16>) -> tensor<4xf16>
    %row_sums = scf.for %col = %c0 to %c256 step %c64 iter_args(%sums = %init) -> (tensor<4xf16>) {
      %a_chunk = ktdp.construct_access_tile %a[%first_row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<8x256xf16> -> !ktdp.access_tile<4x64xindex>
      %x = ktdp.load %a_chunk : <4x64xindex> -> tensor<4x64xf16>
      %next = linalg.reduce { arith.addf } ins(%x : tensor<4x64xf16>) outs(%sums : tensor<4xf16>) dimensions = [1]
      scf.yield %next : tensor<4xf16>
    }

    %s_rows = ktdp.construct_access_tile %s[%first_row] {access_tile_set = #four_sums, access_tile_order = #in_order} : memref<8xf16> -> !ktdp.access_tile<4xindex>
    ktdp.store %row_sums, %s_rows : tensor<4xf16>, <4xindex>
    return
  }
}
