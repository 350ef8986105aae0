// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// construct_indirect_access_tile: parse errors, then verifier rules (some only reachable
// in generic form).

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_keyword(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{error parsing intermediate_variables}}
  %t = ktdp.construct_indirect_access_tile (%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_comma(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{expecting a comma between subscripts}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]) (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @bare_subscript(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{unexpected token in subscript list, expected 'ind', '(', or ']'}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), %c] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @type_count(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{expected 2 types (base + 1 indirect memrefs), but got 1}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space_n = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @symbols_parse(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{variables_space_set has 1 symbols but got 0 symbol operands}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space_n, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<?x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @space_vs_order(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{variables_space_set dimensions (2) must match variables_space_order inputs (3)}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order3} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#proj = affine_map<(d0, d1) -> (d0)>
func.func @order_not_square(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{variables_space_order must have equal number of inputs (2) and outputs (1)}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #proj} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @variable_count(%tab: memref<512x128xf16>, %idx: memref<16xi32>, %c: index) {
  // expected-error @+1 {{number of intermediate variables (1) must match variables_space_set dimensions (2)}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space_n = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#m0 = affine_map<(d0, d1) -> (d0)>
#m1 = affine_map<(d0, d1) -> (d1)>
func.func @symbols_verify(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{variables_space_set has 1 symbols but got 0 symbol operands}}
  %t = "ktdp.construct_indirect_access_tile"(%tab, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [#m0, #m1], variables_space_order = #order, variables_space_set = #space_n}> ({
  ^bb0(%r: index, %c: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<512x128xf16>, memref<16xi32>) -> !ktdp.access_tile<?x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#m0 = affine_map<(d0, d1) -> (d0)>
func.func @kinds_vs_maps(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{per_dim_subscript_kinds size (2) must match per_dim_subscript_maps size (1)}}
  %t = "ktdp.construct_indirect_access_tile"(%tab, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [#m0], variables_space_order = #order, variables_space_set = #space}> ({
  ^bb0(%r: index, %c: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<512x128xf16>, memref<16xi32>) -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @unranked_base(%tab: tensor<*xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{base must be a ranked memref or tensor type}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order} : tensor<*xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @subscripts_vs_rank(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{number of subscripts (3) must match base rank (2)}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c), (0)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#m0 = affine_map<(d0, d1) -> (d0)>
#m1 = affine_map<(d0, d1) -> (d1)>
func.func @kinds_not_bool(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{per_dim_subscript_kinds must contain BoolAttr elements}}
  %t = "ktdp.construct_indirect_access_tile"(%tab, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [1 : i32, false], per_dim_subscript_maps = [#m0, #m1], variables_space_order = #order, variables_space_set = #space}> ({
  ^bb0(%r: index, %c: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<512x128xf16>, memref<16xi32>) -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#m0 = affine_map<(d0, d1) -> (d0)>
#m1 = affine_map<(d0, d1) -> (d1)>
func.func @indirect_count(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{number of indirect dimensions (2) must match number of indirect memrefs (1)}}
  %t = "ktdp.construct_indirect_access_tile"(%tab, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true, true], per_dim_subscript_maps = [#m0, #m1], variables_space_order = #order, variables_space_set = #space}> ({
  ^bb0(%r: index, %c: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<512x128xf16>, memref<16xi32>) -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#m0 = affine_map<(d0, d1, d2) -> (d0)>
#m1 = affine_map<(d0, d1) -> (d1)>
func.func @map_dims(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{subscript map for dimension 0 has 3 dimensions, but expected 2 (captured_variables + intermediate_variables)}}
  %t = "ktdp.construct_indirect_access_tile"(%tab, %idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [#m0, #m1], variables_space_order = #order, variables_space_set = #space}> ({
  ^bb0(%r: index, %c: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<512x128xf16>, memref<16xi32>) -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @indirect_results(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{indirect subscript map for dimension 0 produces 2 results, but indirect memref has rank 1}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r, %c]), (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @direct_results(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{direct subscript map for dimension 1 must produce exactly 1 result, but produces 2}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c, %r)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @result_rank(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{result type rank (1) must match variables_space_set dimensions (2)}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<2048xindex>
  return
}

// -----

#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_view_not_memref(%tab: memref<512x128xf16>, %idx: tensor<16xi32>) {
  // expected-error @+1 {{operand #1 must be variadic of memref of any type values, but got 'tensor<16xi32>'}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_set = #space, variables_space_order = #order} : memref<512x128xf16>, tensor<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}

// -----

#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_space(%tab: memref<512x128xf16>, %idx: memref<16xi32>) {
  // expected-error @+1 {{requires attribute 'variables_space_set'}}
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %tab[ind(%idx[%r]), (%c)] {variables_space_order = #order} : memref<512x128xf16>, memref<16xi32> -> !ktdp.access_tile<16x128xindex>
  return
}
