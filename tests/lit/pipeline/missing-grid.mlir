// RUN: dfsched-opt --device=sample -ktir-to-dfir %s -verify-diagnostics

// A kernel without a `grid` attribute that asks for its tile id: the error sits on the
// function and names the attribute, not on an op of the program extracted from it. (Without
// tile ids it would run on one tile: single-tile-grid.mlir.)
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  // expected-error @below {{Function missing 'grid' attribute: a kernel declares its compute grid, e.g. `func.func @k(...) attributes {grid = [4]}`}}
  func.func @no_grid() {
    %c0 = arith.constant 0 : index
    %id = ktdp.get_compute_tile_id : index
    %src = arith.muli %id, %c0 : index
    %dst = arith.constant 1024 : index
    %a = ktdp.construct_memory_view %src, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %b = ktdp.construct_memory_view %dst, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %y = linalg.add ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %y, %tb : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
