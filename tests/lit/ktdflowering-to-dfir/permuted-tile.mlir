// RUN: dfsched-opt --device=sample -ktir-to-dfir %s | filecheck %s

// A store tile that enumerates its view transposed (access_tile_order (d0, d1) -> (d1, d0)):
// the logical memory view its transfers index is the tile's own, 64x4 with the view's
// strides permuted (1, 64), not the view's 4x64 row-major layout.
// CHECK: #[[T:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 64)>
// CHECK: dataflow.get_logical_memory_view %{{.*}}, %c512 {layout_map = #[[T]]} : index, index, memref<64x4xf16>
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#columns = affine_map<(d0, d1) -> (d1, d0)>
func.func @copy_transposed() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [64, 4], strides: [4, 1] {coordinate_set = #tall, memory_space = #ktdp.memory_space<global>} : memref<64x4xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #tall, access_tile_order = #rows} : memref<64x4xf16> -> !ktdp.access_tile<64x4xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #columns} : memref<4x64xf16> -> !ktdp.access_tile<64x4xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
  ktdp.store %x, %tb : tensor<64x4xf16>, !ktdp.access_tile<64x4xindex>
  return
}
