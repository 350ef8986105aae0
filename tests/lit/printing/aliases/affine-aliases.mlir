// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   | dfsched-opt --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic \
// RUN:   | filecheck %s --check-prefix=GENERIC

// Affine maps and sets are hoisted into aliases before the module, as mlir-opt does: all maps
// (#map, #map1, ...) come before all sets (#set, #set1, ...), each numbered in the order the
// printer first meets it (here the function signature comes first). Maps inside other attributes
// and memref layouts use the alias too; equal maps share one alias whatever their input spelling.
// Bounds that affine.for prints as plain integers or values get no alias in custom form, but do
// in generic form, where the walk also visits regions before the op's own attributes.

// CHECK:      {{^}}#map = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: {{^}}#map1 = affine_map<(d0, d1) -> (d0 * 64 + d1)>
// CHECK-NEXT: {{^}}#map2 = affine_map<(d0) -> (-d0 + 95)>
// CHECK-NEXT: {{^}}#map3 = affine_map<(d0)[s0] -> (d0 floordiv 4, s0 * 2, d0 mod 2)>
// CHECK-NEXT: {{^}}#set = affine_set<(d0) : (d0 - 10 >= 0, -d0 + 95 >= 0)>
// CHECK-NEXT: {{^}}#set1 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0)>
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT:   func.func @maps(%arg0: index, %arg1: memref<8x8xf32, #map>) {
// CHECK-NEXT:     %0 = affine.apply #map1(%arg0, %arg0)
// CHECK-NEXT:     %1 = affine.apply #map2(%0)
// CHECK-NEXT:     %2 = affine.apply #map1(%1, %0)
// CHECK-NEXT:     "test.op"() {maps = [#map, #map2], nested = {inner = #set}, sets = [#set1, #set]} : () -> ()
// CHECK-NEXT:     %3 = affine.min #map3(%0)[%1]
// CHECK-NEXT:     affine.for %arg2 = 0 to %arg0 {
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// GENERIC:      {{^}}#map3 = affine_map<(d0)[s0] -> (d0 floordiv 4, s0 * 2, d0 mod 2)>
// GENERIC-NEXT: {{^}}#map4 = affine_map<() -> (0)>
// GENERIC-NEXT: {{^}}#map5 = affine_map<()[s0] -> (s0)>
// GENERIC-NEXT: {{^}}#set = affine_set
// GENERIC:      "builtin.module"() ({
// GENERIC:      ^bb0(%arg0: index, %arg1: memref<8x8xf32, #map>):
// GENERIC-NEXT:   %0 = "affine.apply"(%arg0, %arg0) <{map = #map1}> : (index, index) -> index
// GENERIC:        "affine.for"(%arg0) <{lowerBoundMap = #map4, operandSegmentSizes = array<i32: 0, 1, 0>, step = 1 : index, upperBoundMap = #map5}> ({
func.func @maps(%i: index, %m: memref<8x8xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
  %a = affine.apply affine_map<(d0, d1) -> (64 * d0 + d1)>(%i, %i)
  %b = affine.apply affine_map<(d0) -> (95 - d0)>(%a)
  %c = affine.apply affine_map<(x, y) -> (x * 64 + y)>(%b, %a)
  "test.op"() {sets = [affine_set<(d0, d1) : (d0 == 0, d1 >= 0)>, affine_set<(d0) : (d0 >= 10, d0 <= 95)>],
               nested = {inner = affine_set<(d0) : (d0 - 10 >= 0, 95 - d0 >= 0)>},
               maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0) -> (-d0 + 95)>]} : () -> ()
  %d = affine.min affine_map<(d0)[s0] -> (d0 floordiv 4, s0 * 2, d0 mod 2)>(%a)[%b]
  affine.for %k = 0 to %i {
  }
  return
}

// -----

// Each buffer of a split input gets its own aliases, numbered from scratch.
// CHECK:       {{^}}// -----
// CHECK-NEXT:  {{^}}#map = affine_map<()[s0, s1] -> (s1 - s0)>
// CHECK-NEXT:  {{^}}module {
// CHECK:         affine.apply #map()[%arg0, %arg1]
func.func @split(%a: index, %b: index) {
  %0 = affine.apply affine_map<()[s0, s1] -> (s1 - s0)>()[%a, %b]
  return
}
