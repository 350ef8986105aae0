// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s

// The other spellings of the inter-tile ops that KTIR producers emit (ktir-cpu's examples, the
// RFC's op descriptions) read as the canonical IR and print in the canonical syntax.

#pairs = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#one_group = affine_set<(g) : (g == 0)>

// A named future type without parentheses around its partial type, and the partial type
// written again before the arrow.
// CHECK-LABEL: func.func @named_bare_future
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #{{.*}} -> <(tensor<2x8xf16>), groups = #{{.*}}> {
// CHECK: ktdp.inter_tile_reduce(%[[F]]) consumer_tiles_per_group = #{{.*}}, identity(%{{.*}} : tensor<2x8xf16>) : <(tensor<2x8xf16>), groups = #{{.*}}> -> tensor<2x8xf16> {
func.func @named_bare_future(%p: tensor<2x8xf16>, %id: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
      : tensor<2x8xf16> -> !ktdp.tile_future<tensor<2x8xf16>, groups = #one_group>
  {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<2x8xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%id : tensor<2x8xf16>)
      : !ktdp.tile_future<tensor<2x8xf16>, groups = #one_group> -> tensor<2x8xf16>
  {
    ^bb0(%a: tensor<2x8xf16>, %b: tensor<2x8xf16>):
      %e = tensor.empty() : tensor<2x8xf16>
      %s = linalg.add ins(%a, %b : tensor<2x8xf16>, tensor<2x8xf16>) outs(%e : tensor<2x8xf16>) -> tensor<2x8xf16>
      ktdp.yield_reduced %s : tensor<2x8xf16>
  }
  return %r : tensor<2x8xf16>
}

// The stripped future type without parentheses, two partial types.
// CHECK-LABEL: func.func @bare_pair
// CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.*}} -> <(tensor<4xf16>, tensor<4xi32>), groups = #{{.*}}> {
func.func @bare_pair(%v: tensor<4xf16>, %i: tensor<4xi32>) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
      -> <tensor<4xf16>, tensor<4xi32>, groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v, %i : tensor<4xf16>, tensor<4xi32>
  }
  return
}

// A delivery result without the partial type's unit dimensions: the canonical delivery op,
// then a tensor.collapse_shape to the type the producer wrote.
// CHECK-LABEL: func.func @rank_reduced_result
// CHECK: %[[R:.*]] = ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #{{.*}}, identity(%{{.*}} : tensor<1x8x1xf16>) : <(tensor<1x8x1xf16>), groups = #{{.*}}> -> tensor<1x8x1xf16> {
// CHECK: ktdp.yield_reduced
// CHECK-NEXT: }
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0, 1, 2]] : tensor<1x8x1xf16> into tensor<8xf16>
// CHECK-NEXT: return %[[C]] : tensor<8xf16>
func.func @rank_reduced_result(%p: tensor<1x8x1xf16>, %id: tensor<1x8x1xf16>) -> tensor<8xf16> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
      : tensor<1x8x1xf16> -> !ktdp.tile_future<tensor<1x8x1xf16>, groups = #one_group>
  {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x8x1xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%id : tensor<1x8x1xf16>)
      : !ktdp.tile_future<tensor<1x8x1xf16>, groups = #one_group> -> tensor<8xf16>
  {
    ^bb0(%a: tensor<1x8x1xf16>, %b: tensor<1x8x1xf16>):
      %e = tensor.empty() : tensor<1x8x1xf16>
      %s = linalg.add ins(%a, %b : tensor<1x8x1xf16>, tensor<1x8x1xf16>) outs(%e : tensor<1x8x1xf16>) -> tensor<1x8x1xf16>
      ktdp.yield_reduced %s : tensor<1x8x1xf16>
  }
  return %r : tensor<8xf16>
}

// The same for inter_tile_consume.
// CHECK-LABEL: func.func @rank_reduced_consume
// CHECK: %[[R:.*]] = ktdp.inter_tile_consume(%{{.*}}) consumer_tiles_per_group = #{{.*}} : <(tensor<1x8xf16>), groups = #{{.*}}> -> tensor<1x8xf16>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0, 1]] : tensor<1x8xf16> into tensor<8xf16>
// CHECK-NEXT: return %[[C]] : tensor<8xf16>
func.func @rank_reduced_consume(%p: tensor<1x8xf16>) -> tensor<8xf16> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g == 0)>
      -> !ktdp.tile_future<tensor<1x8xf16>, groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x8xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs
      : !ktdp.tile_future<tensor<1x8xf16>, groups = #one_group> -> tensor<8xf16>
  return %r : tensor<8xf16>
}
