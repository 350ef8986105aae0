// RUN: dfsched-opt %s -verify-diagnostics --ktir-legality-check --device=sample

// Inter-tile communication runs in the reference interpreter but is not scheduled: the first
// inter-tile op is a located error that says so (issue 16), before anything around it fails.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(i)[g] : (i - 4 * g == 0)>
func.func @ring() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  // expected-error @below {{dfsched does not schedule inter-tile communication ('ktdp.inter_tile_produce'): cross-core transfers and reductions need core-to-core links, which no device describes yet (the reference interpreter runs it: dfsched-run without --check)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #one : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  return
}
