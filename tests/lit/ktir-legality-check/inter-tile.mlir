// RUN: dfsched-opt %s -verify-diagnostics --ktir-legality-check --device=sample
// RUN: sed 's/@ring()/@ring_on_ring4()/' %s | not dfsched-opt --ktir-legality-check --device=ring4 2>&1 | filecheck %s --check-prefix=RING4
// RUN: sed 's/grid = \[4\]/grid = [8]/' %s | not dfsched-opt --ktir-legality-check --device=ring4 2>&1 | filecheck %s --check-prefix=TOO-MANY
// RUN: sed 's/grid = \[4\]/grid = [1]/' %s | not dfsched-opt --ktir-legality-check --device=sample 2>&1 | filecheck %s --check-prefix=NO-LINKS

// Inter-tile reductions are lowered (lower-inter-tile-ops); a copy between tiles
// (inter_tile_consume) is not, and is a located error on the consume. The tiles wait for each other's partials, so each needs a core of its own: a device with
// fewer cores than the grid has tiles gets an error naming both numbers (the sample device
// has one core), and one without core-to-core links an error naming them.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(i)[g] : (i - 4 * g == 0)>
func.func @ring() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  // expected-error @below {{'ktdp.inter_tile_produce' needs the kernel's 4 compute tiles on as many cores at once (tiles exchanging partials wait for each other), but device 'sample_device' has 1 core(s)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #one : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  return
}

// RING4: <stdin>:20:8: error: dfsched lowers inter-tile reductions only: an 'inter_tile_consume' (a copy to other tiles) is not scheduled yet
// TOO-MANY: <stdin>:16:8: error: 'ktdp.inter_tile_produce' needs the kernel's 8 compute tiles on as many cores at once (tiles exchanging partials wait for each other), but device 'ring4' has 4 core(s)
// NO-LINKS: <stdin>:16:8: error: 'ktdp.inter_tile_produce' moves partials between cores, but device 'sample_device' declares no core-to-core links ('ktdf_arch.core_links')
