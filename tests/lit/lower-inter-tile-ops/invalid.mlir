// RUN: dfsched-opt %s --device=ring4 -p ensure-device-declaration,lower-inter-tile-ops -split-input-file -verify-diagnostics

// What lower-inter-tile-ops refuses, each a located error and no rewrite.

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#first = affine_set<(i)[g] : (i - 4 * g == 0)>
func.func @consumers_differ() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %id0 = arith.constant dense<0.0> : tensor<1x64xf16>
  // expected-error @below {{dfsched lowers all-reduces only: group 0's consumer tiles [0] differ from its producer tiles [0, 1, 2, 3]}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity(%id0 : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @combiner() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %id0 = arith.constant dense<0.0> : tensor<1x64xf16>
  // expected-error @below {{dfsched lowers a combiner that is one element-wise add, mul, max or min of its two arguments}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%id0 : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.subf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @identity(%id0: tensor<1x64xf16>) attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @below {{the identity must be a splat constant of the partial's element type}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%id0 : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @computing_producer() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  // expected-error @below {{the producer region may only yield a value computed before it}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    %q = arith.addf %p, %p : tensor<1x64xf16>
    ktdp.yield_partial %q : tensor<1x64xf16>
  }
  %id0 = arith.constant dense<0.0> : tensor<1x64xf16>
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%id0 : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
