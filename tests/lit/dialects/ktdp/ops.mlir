// RUN: dfsched-opt %s | filecheck %s
// RUN: dfsched-opt %s | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | dfsched-opt | filecheck %s
// RUN: dfsched-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round trip of the ktdp ops with custom syntax (the inter-tile ops and the indirect
// access tile have files of their own).

#view2d = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
#transpose = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @tile_ids
// CHECK: %{{.*}} = ktdp.get_compute_tile_id : index
// CHECK: %{{.*}} = ktdp.get_compute_tile_id : index, index
// CHECK: %{{.*}} = ktdp.get_compute_tile_id {tag = 1 : i64} : index
// GENERIC-LABEL: sym_name = "tile_ids"
// GENERIC: "ktdp.get_compute_tile_id"() : () -> index
// GENERIC: "ktdp.get_compute_tile_id"() : () -> (index, index)
func.func @tile_ids() attributes {grid = [4, 8]} {
  %id = ktdp.get_compute_tile_id : index
  %row, %col = ktdp.get_compute_tile_id : index, index
  %t = ktdp.get_compute_tile_id {tag = 1 : i64} : index
  return
}

// Static and dynamic sizes and strides; `sizes :` with a space parses too.
// CHECK-LABEL: func.func @memory_views
// CHECK-SAME: (%[[N:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[A:.*]] = arith.constant 1024 : index
// CHECK: %[[V:.*]] = ktdp.construct_memory_view %[[A]], sizes: [96, 64], strides: [64, 1] {coordinate_set = {{.*}}, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
// CHECK: ktdp.construct_memory_view %[[A]], sizes: [%[[N]], 64], strides: [64, %[[S]]] {coordinate_set = {{.*}}, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<?x64xf16>
// CHECK: ktdp.construct_memory_view %[[A]], sizes: [96, 64], strides: [64, 1] {coordinate_set = {{.*}}, memory_space = #ktdp.memory_space<global>, origin = "input"} : memref<96x64xf16, #ktdp.memory_space<global>>
// CHECK: ktdp.construct_distributed_memory_view(%[[V]], %[[V]] : memref<96x64xf16>, memref<96x64xf16>) : memref<96x64xf16>
// CHECK: ktdp.construct_distributed_memory_view() {empty} : memref<96x64xf16>
// GENERIC-LABEL: sym_name = "memory_views"
// GENERIC: "ktdp.construct_memory_view"(%{{[^,]*}}) <{
// GENERIC-SAME: static_sizes = array<i64: 96, 64>, static_strides = array<i64: 64, 1>
// GENERIC: "ktdp.construct_memory_view"(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) <{
// GENERIC-SAME: static_sizes = array<i64: -9223372036854775808, 64>, static_strides = array<i64: 64, -9223372036854775808>
func.func @memory_views(%n: index, %s: index) {
  %addr = arith.constant 1024 : index
  %v = ktdp.construct_memory_view %addr, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = #view2d, memory_space = #ktdp.memory_space<global>
  } : memref<96x64xf16>
  %w = ktdp.construct_memory_view %addr, sizes : [%n, 64], strides : [64, %s] {
    memory_space = #ktdp.memory_space<ct_local, ct_id = 3>, coordinate_set = #rows
  } : memref<?x64xf16>
  %x = ktdp.construct_memory_view %addr, sizes: [96, 64], strides: [64, 1] {
    origin = "input", coordinate_set = #view2d, memory_space = #ktdp.memory_space<global>
  } : memref<96x64xf16, #ktdp.memory_space<global>>
  %d = ktdp.construct_distributed_memory_view (%v, %v : memref<96x64xf16>, memref<96x64xf16>) : memref<96x64xf16>
  %e = ktdp.construct_distributed_memory_view() {empty} : memref<96x64xf16>
  return
}

// The bracket list is an affine map of SSA ids: repeated ids are one operand, and
// expressions print as MLIR prints them.
// CHECK-LABEL: func.func @access_tiles
// CHECK-SAME: (%[[I:.*]]: index, %[[J:.*]]: index, %[[N:.*]]: index, %[[T:.*]]: tensor<96x64xf16>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[V:.*]] = ktdp.construct_memory_view
// CHECK: ktdp.construct_access_tile %[[V]][%[[I]], %[[C0]]] {access_tile_order = {{.*}}, access_tile_set = {{.*}}} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
// CHECK: ktdp.construct_access_tile %[[V]][%[[C0]], %[[C0]]] {access_tile_order = {{.*}}, access_tile_set = {{.*}}} : memref<96x64xf16> -> !ktdp.access_tile<64x3xindex>
// CHECK: ktdp.construct_access_tile %[[V]][%[[I]] * 2 + 1, %[[J]] floordiv 4] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK: ktdp.construct_access_tile %[[V]][%[[I]] - %[[J]], -%[[I]] + 3] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK: ktdp.construct_access_tile %[[V]][(%[[I]] + %[[J]]) floordiv 2, %[[J]] mod 4 - 2] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK: ktdp.construct_access_tile %[[V]][%[[I]] ceildiv 8, 0] {{.*}} -> !ktdp.access_tile<3x64xindex>
// CHECK: ktdp.construct_access_tile %[[V]][%[[I]], 0] symbols(%[[N]]) {access_tile_order = {{.*}}, access_tile_set = {{.*}}} : memref<96x64xf16> -> !ktdp.access_tile<?x64xindex>
// CHECK: ktdp.construct_access_tile %[[T]][%[[I]], %[[J]]] {{.*}} : tensor<96x64xf16> -> !ktdp.access_tile<3x64xindex>
// GENERIC-LABEL: sym_name = "access_tiles"
// GENERIC: "ktdp.construct_access_tile"(%{{[^,]*}}, %{{[^,]*}}, %{{[^,)]*}}) <{
// GENERIC-NEXT: "ktdp.construct_access_tile"(%{{[^,]*}}, %{{[^,)]*}}) <{
func.func @access_tiles(%i: index, %j: index, %n: index, %t: tensor<96x64xf16>) {
  %c0 = arith.constant 0 : index
  %addr = arith.constant 1024 : index
  %v = ktdp.construct_memory_view %addr, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = #view2d, memory_space = #ktdp.memory_space<global>
  } : memref<96x64xf16>
  %a = ktdp.construct_access_tile %v[%i, %c0] {
    access_tile_set = #tile, access_tile_order = #identity
  } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %b = ktdp.construct_access_tile %v[%c0, %c0] {
    access_tile_set = #tile, access_tile_order = #transpose
  } : memref<96x64xf16> -> !ktdp.access_tile<64x3xindex>
  %c = ktdp.construct_access_tile %v[2 * %i + 1, %j floordiv 4] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %d = ktdp.construct_access_tile %v[%i - %j, 3 - %i] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %e = ktdp.construct_access_tile %v[(%i + %j) floordiv 2, %j mod 4 + -2] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %f = ktdp.construct_access_tile %v[%i ceildiv 8, 0] {access_tile_set = #tile, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %g = ktdp.construct_access_tile %v[%i, 0] symbols(%n) {access_tile_set = #rows, access_tile_order = #identity} : memref<96x64xf16> -> !ktdp.access_tile<?x64xindex>
  %h = ktdp.construct_access_tile %t[%i, %j] {access_tile_set = #tile, access_tile_order = #identity} : tensor<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  return
}

// The access-tile type prints stripped (`<...>`) in load and store, as MLIR's declarative
// formats print it; the full spelling is accepted too.
// CHECK-LABEL: func.func @load_store
// CHECK-SAME: (%[[T:.*]]: !ktdp.access_tile<3x64xindex>, %[[U:.*]]: !ktdp.access_tile<?x64xindex>)
// CHECK: %[[X:.*]] = ktdp.load %[[T]] : <3x64xindex> -> tensor<3x64xf16>
// CHECK: %[[Y:.*]] = ktdp.load %[[T]] {volatile} : <3x64xindex> -> tensor<3x64xf16>
// CHECK: ktdp.load %[[U]] : <?x64xindex> -> tensor<?x64xf16>
// CHECK: ktdp.store %[[X]], %[[T]] : tensor<3x64xf16>, <3x64xindex>
// CHECK: ktdp.store %[[Y]], %[[T]] {volatile} : tensor<3x64xf16>, <3x64xindex>
// GENERIC-LABEL: sym_name = "load_store"
// GENERIC: "ktdp.load"(%{{.*}}) : (!ktdp.access_tile<3x64xindex>) -> tensor<3x64xf16>
// GENERIC: "ktdp.store"(%{{.*}}, %{{.*}}) : (tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>) -> ()
func.func @load_store(%t: !ktdp.access_tile<3x64xindex>, %u: !ktdp.access_tile<?x64xindex>) {
  %x = ktdp.load %t : <3x64xindex> -> tensor<3x64xf16>
  %y = ktdp.load %t {volatile} : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %z = ktdp.load %u : <?x64xindex> -> tensor<?x64xf16>
  ktdp.store %x, %t : tensor<3x64xf16>, <3x64xindex>
  ktdp.store %y, %t {volatile} : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  return
}

// The attribute dictionary of runtime_arg_extract sits between the input type and `->`.
// CHECK-LABEL: func.func @runtime_args
// CHECK-SAME: (%[[M:.*]]: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %[[K:.*]]: !ktdp.runtime_arg<i32>)
// CHECK: ktdp.runtime_arg_extract value from %[[M]] : <index, granularity=3, upperbound=300> -> index
// CHECK: ktdp.runtime_arg_extract granularity from %[[M]] : <index, granularity=3, upperbound=300> -> index
// CHECK: ktdp.runtime_arg_extract upperbound from %[[M]] : <index, granularity=3, upperbound=300> {note = "ub"} -> index
// CHECK: ktdp.runtime_arg_extract value from %[[K]] : <i32> -> i32
// GENERIC-LABEL: sym_name = "runtime_args"
// GENERIC: "ktdp.runtime_arg_extract"(%{{.*}}) <{kind = 0 : i32}>
// GENERIC: "ktdp.runtime_arg_extract"(%{{.*}}) <{kind = 1 : i32}>
// GENERIC: "ktdp.runtime_arg_extract"(%{{.*}}) <{kind = 2 : i32}> {note = "ub"}
func.func @runtime_args(%m: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %k: !ktdp.runtime_arg<i32>) {
  %v = ktdp.runtime_arg_extract value from %m : <index, granularity=3, upperbound=300> -> index
  %g = ktdp.runtime_arg_extract granularity from %m : !ktdp.runtime_arg<index, granularity=3, upperbound=300> -> index
  %u = ktdp.runtime_arg_extract upperbound from %m : <index, granularity=3, upperbound=300> {note = "ub"} -> index
  %w = ktdp.runtime_arg_extract value from %k : <i32> -> i32
  return
}
