// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// construct_access_tile: what its parser rejects, then what its verifier rejects (in
// generic form, which the parser's own checks do not see).

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_set(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{Access tile set is missing in the operation}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s1 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @set_vs_base(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{Access tile set and Base input dimensions should match}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s1, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @missing_symbols(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{access_tile_set has 1 symbols but got 0 symbol operands}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<?x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
func.func @no_order(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{Access tile order is missing in the operation}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#proj = affine_map<(d0, d1) -> (d0)>
func.func @order_not_square(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{Number of input dimensions and output dimensions in the access tile order should match}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #proj} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @order_vs_set(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{Number of dimensions in the access tile order and access tile set must match!}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #id3} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @non_affine_subscript(%v: memref<4x8xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  %t = ktdp.construct_access_tile %v[%i * %j, %i] {access_tile_set = #s, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_result_type(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{expected '!ktdp.access_tile' type, but got 'tensor<4x8xindex>'}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #id} : memref<4x8xf16> -> tensor<4x8xindex>
  return
}

// -----

#s1 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#m2 = affine_map<(d0) -> (d0, d0)>
func.func @set_vs_base_map(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{access_tile_set dimensions (1) must match base_map dims (2)}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = #id1, access_tile_set = #s1, base_map = #m2, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<4x8xf16>, index) -> !ktdp.access_tile<4xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @base_map_operands(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{base_map expects 2 operands but got 1}}
  %t = "ktdp.construct_access_tile"(%v, %i) <{access_tile_order = #id, access_tile_set = #s, base_map = #id, operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<4x8xf16>, index) -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @symbol_operands(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{access_tile_set has 1 symbols but got 0 symbol operands}}
  %t = "ktdp.construct_access_tile"(%v, %i, %i) <{access_tile_order = #id, access_tile_set = #s, base_map = #id, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<4x8xf16>, index, index) -> !ktdp.access_tile<?x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#proj = affine_map<(d0, d1) -> (d0)>
func.func @order_square(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{access_tile_order must have equal number of inputs (2) and outputs (1)}}
  %t = "ktdp.construct_access_tile"(%v, %i, %i) <{access_tile_order = #proj, access_tile_set = #s, base_map = #id, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<4x8xf16>, index, index) -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @order_dims(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{access_tile_order dimensions (3) must match access_tile_set dimensions (2)}}
  %t = "ktdp.construct_access_tile"(%v, %i, %i) <{access_tile_order = #id3, access_tile_set = #s, base_map = #id, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<4x8xf16>, index, index) -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @result_rank(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{result type rank (1) must match access_tile_set dimensions (2)}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #id} : memref<4x8xf16> -> !ktdp.access_tile<32xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @base_not_shaped(%v: i64, %i: index) {
  // expected-error @+1 {{operand #0 must be memref of any type values or tensor of any type values, but got 'i64'}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #id} : i64 -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_without_set(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{requires attribute 'access_tile_set'}}
  %t = "ktdp.construct_access_tile"(%v, %i, %i) <{access_tile_order = #id, base_map = #id, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<4x8xf16>, index, index) -> !ktdp.access_tile<4x8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @generic_result_not_tile(%v: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{result #0 must be a ktdp access tile (!ktdp.access_tile<...>), but got 'tensor<4x8xindex>'}}
  %t = "ktdp.construct_access_tile"(%v, %i, %i) <{access_tile_order = #id, access_tile_set = #s, base_map = #id, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<4x8xf16>, index, index) -> tensor<4x8xindex>
  return
}
