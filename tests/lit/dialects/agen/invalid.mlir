// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules and syntax errors of the agen dialect.

func.func @load_map_operand_count(%m: memref<64xf16>, %i: index) {
  // expected-error @+1 {{expected 1 map operands, but got 2}}
  %v = "agen.vector_load"(%m, %i, %i) <{affine_map = affine_map<(d0) -> (d0)>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<64xf16>, index, index) -> vector<64xf16>
  return
}

// -----

func.func @store_map_operand_count(%v: vector<64xf16>, %m: memref<64xf16>) {
  // expected-error @+1 {{expected 1 map operands, but got 0}}
  "agen.vector_store"(%v, %m) <{affine_map = affine_map<(d0) -> (d0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>}> : (vector<64xf16>, memref<64xf16>) -> ()
  return
}

// -----

func.func @non_affine_subscript(%m: memref<64xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  %v = agen.vector_load %m[%i * %j] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @divide_by_dimension(%m: memref<64xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
  %v = agen.vector_load %m[%i mod %j] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @bare_identifier_subscript(%m: memref<64xf16>) {
  // expected-error @+1 {{use of undeclared identifier 'd0' in affine subscript (expected an SSA value)}}
  %v = agen.vector_load %m[d0] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @missing_operand(%m: memref<64xf16>, %i: index) {
  // expected-error @+1 {{expected affine expression}}
  %v = agen.vector_load %m[%i +] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @load_into_scalar(%m: memref<64xf16>, %i: index) {
  // expected-error @+1 {{'agen.vector_load' op constraint not satisfied}}
  %v = agen.vector_load %m[%i] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xf16>, f16
  return
}

// -----

func.func @load_set_smaller_than_src(%a: memref<8x64xf16>, %b: memref<64xf16>, %i: index) {
  // expected-error @+1 {{load set and src array dimensions should match}}
  agen.composite_load_and_store src:%a[%i, 0] dst:%b[%i]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<8x64xf16>, memref<64xf16>
  return
}

// -----

func.func @load_order_dims(%a: memref<64xf16>, %b: memref<64xf16>, %i: index) {
  // expected-error @+1 {{load set and order dimensions should match}}
  agen.composite_load_and_store src:%a[%i] dst:%b[%i]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0, d1) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xf16>, memref<64xf16>
  return
}

// -----

func.func @store_set_smaller_than_dst(%a: memref<64xf16>, %b: memref<8x64xf16>, %i: index) {
  // expected-error @+1 {{store set and dst array dimensions should match}}
  agen.composite_load_and_store src:%a[%i] dst:%b[%i, 0]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xf16>, memref<8x64xf16>
  return
}

// -----

func.func @store_order_dims(%a: memref<64xf16>, %b: memref<64xf16>, %i: index) {
  // expected-error @+1 {{store set and order dimensions should match}}
  agen.composite_load_and_store src:%a[%i] dst:%b[%i]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<() -> ()>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xf16>, memref<64xf16>
  return
}

// -----

func.func @composite_missing_time_set(%a: memref<64xf16>, %b: memref<64xf16>, %i: index) {
  // expected-error @+1 {{property 'time_set' expected}}
  agen.composite_load_and_store src:%a[%i] dst:%b[%i]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>}
  {
  } : memref<64xf16>, memref<64xf16>
  return
}

// -----

func.func @composite_wrong_terminator(%a: memref<64xf16>, %b: memref<64xf16>, %i: index) {
  // expected-error @+1 {{terminates with operation uniform.yield instead of agen.yield}}
  agen.composite_load_and_store src:%a[%i] dst:%b[%i]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
    uniform.yield
  } : memref<64xf16>, memref<64xf16>
  return
}

// -----

func.func @composite_load_set_rank(%a: memref<8x64xf16>, %i: index) {
  // expected-error @+1 {{load set and Array dimensions should match}}
  agen.composite_load %a[%i, 0] time_symbols()(%iv:vector<64xf16>)
   {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<8x64xf16>
  return
}

// -----

func.func @store_vector_and_set(%a: memref<64xf16>, %v: vector<64xf16>, %i: index) {
  // expected-error @+1 {{either store_set/order or input vector has to be present in composite store}}
  agen.composite_store %a[%i] input_vector = %v time_symbols()
   {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
   : memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @store_vector_and_region(%a: memref<64xf16>, %v: vector<64xf16>, %i: index) {
  // expected-error @+1 {{for composite_store, input_vector and region can't co-exist}}
  agen.composite_store %a[%i] input_vector = %v time_symbols()
   {time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @indirect_store_set(%idx: memref<64xindex>, %a: memref<8x64xf16>, %i: index) {
  // expected-error @+1 {{store set and direct array dimensions should match}}
  agen.composite_indirect_store indirect:%idx[%i] direct:%a[%i, 0] time_symbols()
   {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xindex>, memref<8x64xf16>
  return
}

// -----

func.func @indirect_load_order(%idx: memref<64xindex>, %a: memref<64xf16>, %i: index) {
  // expected-error @+1 {{load set and order dimensions should match}}
  %v = agen.indirect_vector_load indirect:%idx[%i] direct:%a[%i]
   {load_order = affine_map<(d0, d1) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<64xindex>, memref<64xf16>, vector<64xf16>
  return
}

// -----

func.func @mask_counts(%c: index) {
  // expected-error @+1 {{number of unmasked values and number of masked values must match}}
  %m = "agen.set_transfer_mask_state"(%c) <{num_masked_elements = [1 : i32], num_slices = 8 : i32, num_unmasked_elements = [1 : i32, 2 : i32], slice_mask_map = "(A)"}> : (index) -> vector<64xf16>
  return
}

// -----

func.func @mask_unmasked_only(%c: index) {
  // expected-error @+1 {{cannot have unmasked values if there are no masked values}}
  %m = "agen.set_transfer_mask_state"(%c) <{num_slices = 8 : i32, num_unmasked_elements = [1 : i32], slice_mask_map = "(A)"}> : (index) -> vector<64xf16>
  return
}

// -----

func.func @mask_masked_only(%c: index) {
  // expected-error @+1 {{cannot have masked values if there are no unmasked values}}
  %m = "agen.set_transfer_mask_state"(%c) <{num_masked_elements = [1 : i32], num_slices = 8 : i32, slice_mask_map = "(A)"}> : (index) -> vector<64xf16>
  return
}

// -----

func.func @mask_pattern_unreadable(%c: index) {
  // expected-error @+1 {{cannot determine where unmasked/masked values are}}
  %m = agen.set_transfer_mask_state mask_value(%c) {num_slices = 8 : i32, slice_mask_map = "(A)", maskA = "six then two"} : index, vector<64xf16>
  return
}

// -----

func.func @mask_gap(%c: index) {
  // expected-error @+1 {{masks must be named maskA, maskB, ... without gaps}}
  %m = agen.set_transfer_mask_state mask_value(%c) {num_slices = 8 : i32, slice_mask_map = "(B)", maskB = "(unmasked = 1, masked = 1)"} : index, vector<64xf16>
  return
}

// -----

func.func @symbolic_not_a_view(%m: memref<128xf16>, %i: index) {
  // expected-error @+1 {{memref should be a dataflow.get_logical_memory_view}}
  %v = agen.symbolic_vector_load %m[indices:(%i), strides:(%i)] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<128xf16>, vector<64xf16>
  return
}

// -----

func.func @symbolic_strides(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<128xf16>
  // expected-error @+1 {{strides should be the same size as indices}}
  %v = agen.symbolic_vector_load %view[indices:(%i, %i), strides:(%i)] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<128xf16>, vector<64xf16>
  return
}

// -----

func.func @symbolic_layout(%u: index, %i: index, %w: vector<64xf16>) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0 * 2)>} : index, index, memref<128xf16>
  // expected-error @+1 {{memref layout map should be an identity map}}
  agen.symbolic_vector_store %w, %view[indices:(%i), strides:(%i)] {store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>} : memref<128xf16>, vector<64xf16>
  return
}

// -----

func.func @symbolic_element_type(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0) -> (d0)>} : index, index, memref<128xf16>
  // expected-error @+1 {{result type does not match memref element type}}
  %v = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<128xf16>, vector<64xf32>
  return
}

// -----

func.func @symbolic_2d_view(%u: index, %i: index) {
  %view = dataflow.get_logical_memory_view %u, %i {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<2x64xf16>
  // expected-error @+1 {{memref is not one dimensional}}
  %v = agen.symbolic_vector_load %view[indices:(%i), strides:(%i)] {load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>} : memref<2x64xf16>, vector<64xf16>
  return
}

// -----

func.func @unknown_direction(%a: memref<64xf16>, %b: memref<64xf16>, %i: index) {
  // expected-error @+3 {{Expected `PseudoRandom`, `CounterClockwise`, `Clockwise`, or `BothWays`}}
  agen.composite_load_and_store src:%a[%i] dst:%b[%i]
   time_symbols(), load_iv(%iv:vector<64xf16>)
   {dir = #agen<direction North>, load_order = affine_map<(d0) -> (d0)>, load_set = affine_set<(d0) : (d0 == 0)>, load_time_addr_map = affine_map<() -> (0)>, store_order = affine_map<(d0) -> (d0)>, store_set = affine_set<(d0) : (d0 == 0)>, store_time_addr_map = affine_map<() -> (0)>, time_order = affine_map<() -> ()>, time_set = affine_set<() : ()>}
  {
  } : memref<64xf16>, memref<64xf16>
  return
}
