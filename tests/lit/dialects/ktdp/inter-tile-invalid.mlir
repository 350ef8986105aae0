// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @producer_without_group_id(%d: tensor<4xf16>) {
  // expected-error @+1 {{producer region must take a single `index` group-id argument}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<4xf16>), groups = #one> {
    ktdp.yield_partial %d : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @group_id_not_index(%d: tensor<4xf16>) {
  // expected-error @+1 {{producer region must take a single `index` group-id argument}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<4xf16>), groups = #one> {
  ^bb0(%gid: i32):
    ktdp.yield_partial %d : tensor<4xf16>
  }
  return
}

// -----

#fixed = affine_set<(i) : (i >= 0, -i + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @producers_without_group_symbol(%d: tensor<4xf16>) {
  // expected-error @+1 {{`producer_tiles_per_group` must have exactly one symbol (the group index g)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #fixed -> <(tensor<4xf16>), groups = #one> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<4xf16>
  }
  return
}

// -----

// Every group would be produced by tiles 0..3.
#same = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @overlapping_producers(%d: tensor<4xf16>) {
  // expected-error @+1 {{producer_tiles_per_group for groups 0 and 1 are not disjoint}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #same -> <(tensor<4xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @yield_count(%d: tensor<4xf16>) {
  // expected-error @+1 {{yield_partial yields 1 values but the future carries 2 partial type(s)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<4xf16>, tensor<4xi32>), groups = #one> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @yield_type(%d: tensor<8xf16>) {
  // expected-error @+1 {{yield_partial operand #0 type tensor<8xf16> does not match future partial type tensor<4xf16>}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<4xf16>), groups = #one> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<8xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @yield_scalar(%d: f16) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<4xf16>), groups = #one> {
  ^bb0(%gid: index):
    // expected-error @+1 {{operand #0 must be variadic of ranked tensor of any type values, but got 'f16'}}
    ktdp.yield_partial %d : f16
  }
  return
}

// -----

func.func @yield_partial_outside(%d: tensor<4xf16>) {
  // expected-error @+1 {{expects parent op 'ktdp.inter_tile_produce'}}
  ktdp.yield_partial %d : tensor<4xf16>
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @produce_without_region(%d: tensor<4xf16>) {
  // The region is looked for at the next token.
  // expected-error @+2 {{expected a region}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<4xf16>), groups = #one>
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @consume_result_type(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>) {
  // expected-error @+1 {{failed to verify that result types must match future partial types}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #quads : <(tensor<4xf16>), groups = #one> -> tensor<4xf32>
  return
}

// -----

#fixed = affine_set<(i) : (i >= 0, -i + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @consumers_without_group_symbol(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>) {
  // expected-error @+1 {{`consumer_tiles_per_group` must have exactly one symbol (the group index g)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #fixed : <(tensor<4xf16>), groups = #one> -> tensor<4xf16>
  return
}

// -----

#plane = affine_set<(i, j)[g] : (i - g >= 0, j >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @consumers_two_dims(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>) {
  // expected-error @+1 {{`consumer_tiles_per_group` must have exactly one dimension (the tile id i)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #plane : <(tensor<4xf16>), groups = #one> -> tensor<4xf16>
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#dep3 = affine_set<(p)[c, g, x] : (p - c == 0)>
#one = affine_set<(g) : (g == 0)>
func.func @dependency_symbols(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>) {
  // expected-error @+1 {{`producer_dependency_per_consumer` must have one symbol (c) or two symbols (c, g)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #quads, producer_dependency_per_consumer = #dep3 : <(tensor<4xf16>), groups = #one> -> tensor<4xf16>
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#dep2d = affine_set<(p, q)[c] : (p - c == 0, q == 0)>
#one = affine_set<(g) : (g == 0)>
func.func @dependency_dims(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>) {
  // expected-error @+1 {{`producer_dependency_per_consumer` must have exactly one dimension (the producer tile id p)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #quads, producer_dependency_per_consumer = #dep2d : <(tensor<4xf16>), groups = #one> -> tensor<4xf16>
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @reduce_result_type(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf16>) {
  // expected-error @+1 {{failed to verify that result types must match future partial types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<4xf16>) : <(tensor<4xf16>), groups = #one> -> tensor<1xf16> {
  ^bb0(%a: tensor<4xf16>, %b: tensor<4xf16>):
    ktdp.yield_reduced %a : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @identity_type(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf32>) {
  // expected-error @+1 {{failed to verify that identity types must match result types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<4xf32>) : <(tensor<4xf16>), groups = #one> -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>, %b: tensor<4xf16>):
    ktdp.yield_reduced %a : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @reducer_arity(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf16>) {
  // expected-error @+1 {{reducer region must take 2*1 arguments, got 1}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<4xf16>) : <(tensor<4xf16>), groups = #one> -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>):
    ktdp.yield_reduced %a : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @reducer_argument_type(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf16>) {
  // expected-error @+1 {{reducer region argument pair #0 must both have partial type tensor<4xf16>}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<4xf16>) : <(tensor<4xf16>), groups = #one> -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>, %b: tensor<4xf32>):
    ktdp.yield_reduced %a : tensor<4xf16>
  }
  return
}

// -----

#fixed = affine_set<(i) : (i >= 0, -i + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @reduce_consumers_without_symbol(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf16>) {
  // expected-error @+1 {{`consumer_tiles_per_group` must have exactly one symbol (the group index g)}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #fixed, identity(%id : tensor<4xf16>) : <(tensor<4xf16>), groups = #one> -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>, %b: tensor<4xf16>):
    ktdp.yield_reduced %a : tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @reduced_count(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf16>) {
  // expected-error @+1 {{yield_reduced yields 2 values but expected 1}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<4xf16>) : <(tensor<4xf16>), groups = #one> -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>, %b: tensor<4xf16>):
    ktdp.yield_reduced %a, %b : tensor<4xf16>, tensor<4xf16>
  }
  return
}

// -----

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @reduced_type(%f: !ktdp.tile_future<(tensor<4xf16>), groups = #one>, %id: tensor<4xf16>, %other: tensor<8xf16>) {
  // expected-error @+1 {{yield_reduced operand #0 type tensor<8xf16> must match partial type tensor<4xf16>}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<4xf16>) : <(tensor<4xf16>), groups = #one> -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>, %b: tensor<4xf16>):
    ktdp.yield_reduced %other : tensor<8xf16>
  }
  return
}

// -----

func.func @yield_reduced_outside(%d: tensor<4xf16>) {
  // expected-error @+1 {{expects parent op 'ktdp.inter_tile_reduce'}}
  ktdp.yield_reduced %d : tensor<4xf16>
}
