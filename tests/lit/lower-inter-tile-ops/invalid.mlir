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

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @carried_not_identity() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x64xf16>
  %zeros = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %start = arith.constant dense<2.0> : tensor<1x64xf16>
  // expected-error @below {{carried value #0 (tensor<1x64xf16>): a value carried around an inter-tile exchange must start at the identity of its combiner (add: 0.0), a splat constant}}
  %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %start) -> (tensor<1x64xf16>) {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%zeros : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %next = arith.addf %acc, %r : tensor<1x64xf16>
    scf.yield %next : tensor<1x64xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @carried_read_twice() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x64xf16>
  %zeros = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %start = arith.constant dense<0.0> : tensor<1x64xf16>
  // expected-error @below {{carried value #0 (tensor<1x64xf16>): a value carried around an inter-tile exchange must be read only by one element-wise add, mul, max or min whose result the loop yields}}
  %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %start) -> (tensor<1x64xf16>) {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%zeros : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %next = arith.addf %acc, %r : tensor<1x64xf16>
    %twice = arith.mulf %next, %acc : tensor<1x64xf16>
    scf.yield %twice : tensor<1x64xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @carried_unknown_bounds(%lb: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x64xf16>
  %zeros = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %start = arith.constant dense<0.0> : tensor<1x64xf16>
  // expected-error @below {{a loop carrying values around an inter-tile exchange needs constant bounds and at least one iteration}}
  %sum = scf.for %k = %lb to %c3 step %c1 iter_args(%acc = %start) -> (tensor<1x64xf16>) {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%zeros : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %next = arith.addf %acc, %r : tensor<1x64xf16>
    scf.yield %next : tensor<1x64xf16>
  }
  return
}

// -----

#four = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
func.func @carried_index() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x64xf16>
  %zeros = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  // expected-error @below {{carried value #0 (index): a value carried around an inter-tile exchange must be a float tensor of static shape}}
  %n = scf.for %k = %c0 to %c3 step %c1 iter_args(%i = %c0) -> (index) {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #four -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #four, identity(%zeros : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  return
}
