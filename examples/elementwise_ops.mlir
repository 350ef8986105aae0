// Many element-wise ops in one body (abs, sqrt, log1p, tanh, erf, neg, maxnumf, minimumf,
// cmpf + select, rsqrt of a constant, mul, div, sub) on two 8x64 f16 inputs, one row per
// compute tile. minimumf/mul/sub of two vectors become vectorchain.binary; the rest stay
// as themselves in islands (the compare folded into the select's), and the scalar-only
// rsqrt moves out of the loop. A, B and C live at byte addresses 0, 1024 and 2048.

#matrix = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mix() attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %a_address = arith.constant 0 : index
    %b_address = arith.constant 1024 : index
    %c_address = arith.constant 2048 : index
    %row = ktdp.get_compute_tile_id : index
    %a = ktdp.construct_memory_view %a_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %b = ktdp.construct_memory_view %b_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %c = ktdp.construct_memory_view %c_address, sizes: [8, 64], strides: [64, 1] {coordinate_set = #matrix, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
    %init = tensor.empty() : tensor<1x64xf16>
    %s = linalg.generic {indexing_maps = [#row_major, #row_major, #row_major], iterator_types = ["parallel", "parallel"]}
        ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%init : tensor<1x64xf16>) {
    ^bb0(%v: f16, %w: f16, %out: f16):
      %half = arith.constant 5.0e-01 : f16
      %ab = math.absf %v : f16
      %sq = math.sqrt %ab : f16
      %l = math.log1p %sq : f16
      %t = math.tanh %w : f16
      %er = math.erf %t : f16
      %n = arith.negf %er : f16
      %mx = arith.maxnumf %l, %n : f16
      %mn = arith.minimumf %mx, %w : f16
      %pos = arith.cmpf olt, %v, %w : f16
      %sel = arith.select %pos, %mn, %mx : f16
      %rs = math.rsqrt %half : f16
      %z = arith.mulf %sel, %rs : f16
      %d = arith.divf %z, %half : f16
      %sub = arith.subf %d, %w : f16
      linalg.yield %sub : f16
    } -> tensor<1x64xf16>
    %tc = ktdp.construct_access_tile %c[%row, %c0] {access_tile_set = #one_row, access_tile_order = #row_major} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %tc : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
