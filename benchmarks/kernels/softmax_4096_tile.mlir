// One compute tile of a 4096x1024 f16 softmax over rows, the issue's schedule-quality target,
// for `benchmarks/schedule_quality.py --device spyre`. The whole kernel splits the rows over
// 32 tiles, one per spyre core, 128 rows each; the tiles share nothing and every core has its
// own DMA engines, so one tile's cycles are the whole kernel's. This is tile 0 of that grid
// (`grid = [1]`): the simulator runs it in a fraction of the full grid's time.
// Inductor style, as examples/softmax.mlir: a max-reduction from -inf, exp of the shifted
// rows, a sum-reduction from 0, a division by the broadcast sum.
// X and Y live in global memory at byte addresses 0 and 8 MiB.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>

module {
  func.func @softmax_4096() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %rows_per_tile = arith.constant 128 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 8388608 : index
    %minus_infinity = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f16
    %tile = ktdp.get_compute_tile_id : index
    %first_row = arith.muli %tile, %rows_per_tile : index

    %x = ktdp.construct_memory_view %x_address, sizes: [4096, 1024], strides: [1024, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4096x1024xf16>
    %y = ktdp.construct_memory_view %y_address, sizes: [4096, 1024], strides: [1024, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4096x1024xf16>
    %x_rows = ktdp.construct_access_tile %x[%first_row, %c0] {access_tile_set = #rows, access_tile_order = #row_major} : memref<4096x1024xf16> -> !ktdp.access_tile<128x1024xindex>
    %rows = ktdp.load %x_rows : <128x1024xindex> -> tensor<128x1024xf16>

    %empty_row = tensor.empty() : tensor<128xf16>
    %max_init = linalg.fill ins(%minus_infinity : f16) outs(%empty_row : tensor<128xf16>) -> tensor<128xf16>
    %maxima = linalg.reduce { arith.maximumf } ins(%rows : tensor<128x1024xf16>) outs(%max_init : tensor<128xf16>) dimensions = [1]

    %empty = tensor.empty() : tensor<128x1024xf16>
    %exps = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%rows, %maxima : tensor<128x1024xf16>, tensor<128xf16>) outs(%empty : tensor<128x1024xf16>) {
    ^bb0(%value: f16, %maximum: f16, %out: f16):
      %shifted = arith.subf %value, %maximum : f16
      %e = math.exp %shifted : f16
      linalg.yield %e : f16
    } -> tensor<128x1024xf16>

    %sum_init = linalg.fill ins(%zero : f16) outs(%empty_row : tensor<128xf16>) -> tensor<128xf16>
    %sums = linalg.reduce { arith.addf } ins(%exps : tensor<128x1024xf16>) outs(%sum_init : tensor<128xf16>) dimensions = [1]

    %softmax = linalg.generic {indexing_maps = [#row_major, #per_row, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%exps, %sums : tensor<128x1024xf16>, tensor<128xf16>) outs(%empty : tensor<128x1024xf16>) {
    ^bb0(%e: f16, %sum: f16, %out: f16):
      %q = arith.divf %e, %sum : f16
      linalg.yield %q : f16
    } -> tensor<128x1024xf16>

    %y_rows = ktdp.construct_access_tile %y[%first_row, %c0] {access_tile_set = #rows, access_tile_order = #row_major} : memref<4096x1024xf16> -> !ktdp.access_tile<128x1024xindex>
    ktdp.store %softmax, %y_rows : tensor<128x1024xf16>, <128x1024xindex>
    return
  }
}
