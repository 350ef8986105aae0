// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// The accepted spellings still say what they mean: a type written before the arrow is the
// future's partial type, and the future type still needs its groups (a delivery result that
// is not the partial type without unit dimensions: inter-tile-invalid.mlir).

#pairs = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @annotation_differs(%p: tensor<4xf16>) {
  // expected-error @+2 {{the produced types written before '->' (tensor<8xf16>) are not the tile_future's partial types (tensor<4xf16>)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
      : tensor<8xf16> -> !ktdp.tile_future<tensor<4xf16>, groups = #one> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<4xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @bare_future_without_groups(%p: tensor<4xf16>) {
  // expected-error @+2 {{Expected ',' after a tile_future partial type}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
      -> !ktdp.tile_future<tensor<4xf16>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<4xf16>
  }
  return
}
