// Triton style: Y = X + X on 256 f16 elements; grid = [2, 1] with one tile id, and the block
// size and both buffers' addresses are kernel arguments (dfsched-run --bind block=128 ...).
// Tile t handles elements [t * block, (t + 1) * block).

#all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>

module {
  func.func @double(%x_ptr: index, %y_ptr: index, %block: index) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %offset = arith.muli %pid, %block : index
    %x = ktdp.construct_memory_view %x_ptr, sizes: [256], strides: [1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %y = ktdp.construct_memory_view %y_ptr, sizes: [256], strides: [1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %tx = ktdp.construct_access_tile %x[%offset] {access_tile_set = #block, access_tile_order = #id}
        : memref<256xf16> -> !ktdp.access_tile<128xindex>
    %ty = ktdp.construct_access_tile %y[%offset] {access_tile_set = #block, access_tile_order = #id}
        : memref<256xf16> -> !ktdp.access_tile<128xindex>
    %v = ktdp.load %tx : <128xindex> -> tensor<128xf16>
    %e = tensor.empty() : tensor<128xf16>
    %s = linalg.add ins(%v, %v : tensor<128xf16>, tensor<128xf16>) outs(%e : tensor<128xf16>) -> tensor<128xf16>
    ktdp.store %s, %ty : tensor<128xf16>, <128xindex>
    return
  }
}
