// The sum of a 1x1024 tile over a view of 1 x n elements (tests/lit/clip-bound-access-tiles):
// not element-wise, so the tile is not clipped to the view.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0) -> (d0)>
#upto_n = affine_set<(d0, d1)[s0] : (d0 == 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#tile = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
func.func @sum(%x: index, %out: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %vx = ktdp.construct_memory_view %x, sizes: [1, %n], strides: [1024, 1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<1x?xf16>
  %tx = ktdp.construct_access_tile %vx[%c0, %c0] {access_tile_order = #id, access_tile_set = #tile} : memref<1x?xf16> -> !ktdp.access_tile<1x1024xindex>
  %a = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
  %zero = arith.constant 0.0 : f16
  %init = tensor.splat %zero : tensor<1xf16>
  %s = linalg.reduce { arith.addf } ins(%a : tensor<1x1024xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %vo = ktdp.construct_memory_view %out, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
  %to = ktdp.construct_access_tile %vo[%c0] {access_tile_order = #row, access_tile_set = #one} : memref<1xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %to : tensor<1xf16>, <1xindex>
  return
}
