// RMSNorm of 2 rows of 4096 f16 on 2 tiles, one row a tile, walked in 4 chunks of 1024 as the
// corpus' rmsnorm_4core_4x1 does: per-lane f16 sums of squares, a 1024-term f16 row sum, rsqrt.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rms_small() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c4096 = arith.constant 4096 : index
    %x_address = arith.constant 0 : index
    %y_address = arith.constant 16384 : index
    %row = ktdp.get_compute_tile_id : index
    %xv = ktdp.construct_memory_view %x_address, sizes: [2, 4096], strides: [4096, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x4096xf16>
    %yv = ktdp.construct_memory_view %y_address, sizes: [2, 4096], strides: [4096, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x4096xf16>
    %zero = arith.constant dense<0.0> : tensor<1x1024xf16>
    %acc = scf.for %col = %c0 to %c4096 step %c1024 iter_args(%a = %zero) -> tensor<1x1024xf16> {
      %t = ktdp.construct_access_tile %xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id} : memref<2x4096xf16> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %t : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %sq = arith.mulf %x, %x : tensor<1x1024xf16>
      %next = arith.addf %a, %sq : tensor<1x1024xf16>
      scf.yield %next : tensor<1x1024xf16>
    }
    %z = arith.constant 0.0 : f16
    %init = tensor.splat %z : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%acc : tensor<1x1024xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %s = tensor.extract %sum[%c0] : tensor<1xf16>
    %n = arith.constant 4096.0 : f16
    %mean = arith.divf %s, %n : f16
    %eps = arith.constant 1.0e-5 : f16
    %me = arith.addf %mean, %eps : f16
    %r = math.rsqrt %me : f16
    %rb = tensor.splat %r : tensor<1x1024xf16>
    scf.for %col = %c0 to %c4096 step %c1024 {
      %t = ktdp.construct_access_tile %xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id} : memref<2x4096xf16> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %t : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %y = arith.mulf %x, %rb : tensor<1x1024xf16>
      %u = ktdp.construct_access_tile %yv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id} : memref<2x4096xf16> -> !ktdp.access_tile<1x1024xindex>
      ktdp.store %y, %u : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
    }
    return
  }
}
