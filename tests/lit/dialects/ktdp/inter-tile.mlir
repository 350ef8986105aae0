// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Inter-tile communication: the future type prints stripped (`<(...), groups = ...>`) in
// the ops, as MLIR's declarative formats print it.

#quads = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#first = affine_set<(i)[g] : (i - 4 * g == 0)>
#one_group = affine_set<(g) : (g == 0)>
#two_groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
#pair = affine_set<(p)[c] : (p - c == 0)>
#mirror = affine_set<(p)[c, g] : (p + c - 8 * g - 3 == 0)>

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[D:.*]]: tensor<1x64xf16>)
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #{{.*}} -> <(tensor<1x64xf16>), groups = #{{.*}}> {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: ktdp.yield_partial %[[D]] : tensor<1x64xf16>
// CHECK-NEXT: }
// CHECK: %[[R:.*]] = ktdp.inter_tile_consume(%[[F]]) consumer_tiles_per_group = #{{.*}} : <(tensor<1x64xf16>), groups = #{{.*}}> -> tensor<1x64xf16>
// CHECK: return %[[R]]
func.func @broadcast(%d: tensor<1x64xf16>) -> tensor<1x64xf16> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #first
      -> <(tensor<1x64xf16>), groups = #one_group>
  { ^bb0(%gid: index): ktdp.yield_partial %d : tensor<1x64xf16> }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #quads
      : !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}

// CHECK-LABEL: func.func @routing
// CHECK: ktdp.inter_tile_consume(%{{.*}}) consumer_tiles_per_group = #{{.*}}, producer_dependency_per_consumer = #{{.*}} {route = 1 : i64} : <(tensor<64xf16>), groups = #{{.*}}> -> tensor<64xf16>
func.func @routing(%d: tensor<64xf16>) -> tensor<64xf16> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<64xf16>), groups = #two_groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %d : tensor<64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #quads, producer_dependency_per_consumer = #pair {route = 1 : i64}
      : <(tensor<64xf16>), groups = #two_groups> -> tensor<64xf16>
  return %r : tensor<64xf16>
}

// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME: (%[[P:.*]]: tensor<1x64xf16>, %[[ID:.*]]: tensor<1x64xf16>)
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #{{.*}} -> <(tensor<1x64xf16>), groups = #{{.*}}> {
// CHECK: %{{.*}} = ktdp.inter_tile_reduce(%[[F]]) consumer_tiles_per_group = #{{.*}}, identity(%[[ID]] : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = #{{.*}}> -> tensor<1x64xf16> {
// CHECK-NEXT: ^bb0(%[[L:.*]]: tensor<1x64xf16>, %[[R:.*]]: tensor<1x64xf16>):
// CHECK-NEXT: %[[S:.*]] = linalg.add ins(%[[L]], %[[R]] : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[L]] : tensor<1x64xf16>) -> tensor<1x64xf16>
// CHECK-NEXT: ktdp.yield_reduced %[[S]] : tensor<1x64xf16>
// CHECK-NEXT: }
func.func @all_reduce(%p: tensor<1x64xf16>, %id: tensor<1x64xf16>) -> tensor<1x64xf16> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<1x64xf16>), groups = #two_groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, identity(%id : tensor<1x64xf16>)
      : <(tensor<1x64xf16>), groups = #two_groups> -> tensor<1x64xf16> {
  ^bb0(%lhs: tensor<1x64xf16>, %rhs: tensor<1x64xf16>):
    %s = linalg.add ins(%lhs, %rhs : tensor<1x64xf16>, tensor<1x64xf16>) outs(%lhs : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return %r : tensor<1x64xf16>
}

// Two roles (value, index) travel together; the dependency set has two symbols.
// CHECK-LABEL: func.func @argmax
// CHECK: ktdp.yield_partial %{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xi32>
// CHECK: %{{.*}}:2 = ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #{{.*}}, producer_dependency_per_consumer = #{{.*}}, identity(%{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xi32>) : <(tensor<64xf32>, tensor<64xi32>), groups = #{{.*}}> -> tensor<64xf32>, tensor<64xi32> {
// CHECK: ktdp.yield_reduced %{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xi32>
// GENERIC-LABEL: sym_name = "argmax"
// GENERIC: "ktdp.inter_tile_produce"() <{producer_tiles_per_group = #{{.*}}}> ({
// GENERIC: "ktdp.yield_partial"(%{{.*}}, %{{.*}}) : (tensor<64xf32>, tensor<64xi32>) -> ()
// GENERIC: }) : () -> !ktdp.tile_future<(tensor<64xf32>, tensor<64xi32>), groups = #{{.*}}>
// GENERIC: "ktdp.inter_tile_reduce"(%{{.*}}, %{{.*}}, %{{.*}}) <{consumer_tiles_per_group = #{{.*}}, producer_dependency_per_consumer = #{{.*}}}> ({
func.func @argmax(%v: tensor<64xf32>, %i: tensor<64xi32>, %iv: tensor<64xf32>, %ii: tensor<64xi32>) -> (tensor<64xf32>, tensor<64xi32>) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quads -> <(tensor<64xf32>, tensor<64xi32>), groups = #two_groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v, %i : tensor<64xf32>, tensor<64xi32>
  }
  %rv, %ri = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quads, producer_dependency_per_consumer = #mirror,
      identity(%iv, %ii : tensor<64xf32>, tensor<64xi32>)
      : <(tensor<64xf32>, tensor<64xi32>), groups = #two_groups> -> tensor<64xf32>, tensor<64xi32> {
  ^bb0(%lv: tensor<64xf32>, %li: tensor<64xi32>, %rv2: tensor<64xf32>, %ri2: tensor<64xi32>):
    %mv = arith.maxnumf %lv, %rv2 : tensor<64xf32>
    %mi = arith.maxsi %li, %ri2 : tensor<64xi32>
    ktdp.yield_reduced %mv, %mi : tensor<64xf32>, tensor<64xi32>
  }
  return %rv, %ri : tensor<64xf32>, tensor<64xi32>
}
