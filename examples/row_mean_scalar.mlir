// The mean of each row of a 4x64 f16 matrix in Triton's style, with a scalar accumulator: over a
// grid of 2 compute tiles taking every other row, each row is walked in 4 chunks of 16 columns;
// each chunk is reduced to one value, extracted as a scalar and added to the sum the loop
// carries (`iter_args` of type f16). After the loop the sum is divided by 64 and stored.
// `triton-to-linalg` carries the sum as a one-element tensor instead (Decision 70), which
// `fold-accumulation-loops` folds into one reduction of the row (Decision 44).
// X and the means live in global memory at byte addresses 0 and 512.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#column = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @row_mean_scalar() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %mean_address = arith.constant 512 : index
    %zero = arith.constant 0.0 : f16
    %columns = arith.constant 64.0 : f16
    %tile = ktdp.get_compute_tile_id : index

    %x = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %means = ktdp.construct_memory_view %mean_address, sizes: [4], strides: [1] {coordinate_set = #column, memory_space = #ktdp.memory_space<global>} : memref<4xf16>

    scf.for %row = %tile to %c4 step %c2 {
      %total = scf.for %col = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (f16) {
        %x_chunk = ktdp.construct_access_tile %x[%row, %col] {access_tile_set = #chunk, access_tile_order = #row_major} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
        %v = ktdp.load %x_chunk : <1x16xindex> -> tensor<1x16xf16>
        %init = tensor.splat %zero : tensor<1xf16>
        %part = linalg.reduce { arith.addf } ins(%v : tensor<1x16xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
        %p = tensor.extract %part[%c0] : tensor<1xf16>
        %next = arith.addf %acc, %p : f16
        scf.yield %next : f16
      }
      %mean = arith.divf %total, %columns : f16
      %mean_tensor = tensor.splat %mean : tensor<1xf16>
      %mean_at = ktdp.construct_access_tile %means[%row] {access_tile_set = #one, access_tile_order = #in_order} : memref<4xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %mean_tensor, %mean_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
    }
    return
  }
}
