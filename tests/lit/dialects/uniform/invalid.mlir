// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules of the uniform dialect. Where upstream would dereference a missing
// defining op (empty maps, block-argument values), dfsched reports an error instead.

func.func @mixed_keys(%k: index) {
  %c0 = arith.constant 0 : index
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  // expected-error @+1 {{All Keys are not of same type}}
  %m = uniform.def_immutable_mapping([%u -> %c0], [%k -> %c0]):index
  return
}

// -----

func.func @scalar_then_other() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = symbol.create_symbol {SymbolId = -3 : i64} : index
  // expected-error @+1 {{All map values are expected to be scalar values.}}
  %m = uniform.def_immutable_mapping([%c0 -> %s], [%c1 -> %c1]):index
  return
}

// -----

func.func @values_of_two_kinds(%x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  // expected-error @+1 {{All map values should be of same type.}}
  %m = uniform.def_immutable_mapping([%c0 -> %u], [%c1 -> %c1]):index
  return
}

// -----

func.func @block_argument_and_op_value(%x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{All map values should be of same type.}}
  %m = uniform.def_immutable_mapping([%c0 -> %x], [%c1 -> %c1]):index
  return
}

// -----

func.func @empty_map() {
  // expected-error @+1 {{expects at least one [key -> value] entry}}
  %m = uniform.def_immutable_mapping():index
  return
}

// -----

func.func @unbalanced_map(%a: index) {
  // expected-error @+1 {{has 2 keys but 1 values}}
  %m = "uniform.def_immutable_mapping"(%a, %a, %a) <{operandSegmentSizes = array<i32: 2, 1>}> : (index, index, index) -> index
  return
}

// -----

func.func @value_type_mismatch(%k: index, %f: f32) {
  // expected-error @+1 {{use of value '%f' expects different type than prior uses: 'index' vs 'f32'}}
  %m = uniform.def_immutable_mapping([%k -> %f]):index
  return
}

// -----

func.func @duplicate_units() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  %v = dataflow.get_unit {name = "b", type = "lu"} : index
  // expected-error @+1 {{duplicated unit SSAs found!}}
  uniform.uniformize_regions -> () {
    (%a -> %u, %v) {
    }
    (%b -> %u) {
    }
  }
  return
}

// -----

func.func @single_unit_not_a_unit(%x: index) {
  // expected-error @+1 {{region's unit_list must be programUnitOp or createGroupOp type!}}
  uniform.uniformize_regions -> () {
    (%a -> %x) {
    }
  }
  return
}

// -----

func.func @unit_list_with_group() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  %g = dataflow.create_group(%u : index) : index
  // expected-error @+1 {{when unit_list size > 1, all units must be programUnitOp!}}
  uniform.uniformize_regions -> () {
    (%a -> %u, %g) {
    }
  }
  return
}

// -----

func.func @yield_count() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  // expected-error @+1 {{The size of the operands in the yieldOp of a uniformize_regionsOp region differs from the size of its results.}}
  %r = uniform.uniformize_regions -> index {
    (%a -> %u) {
    }
  }
  return
}

// -----

func.func @list_sizes_mismatch(%x: index) {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  // expected-error @+1 {{unit list sizes add up to 2 but the op has 1 units}}
  "uniform.uniformize_regions"(%u) <{list_sizes = [2 : i32]}> ({
  ^bb0(%a: index):
    "uniform.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @region_without_argument() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  // expected-error @+1 {{each region must have exactly one index argument (the unit it runs on)}}
  "uniform.uniformize_regions"(%u) <{list_sizes = [1 : i32]}> ({
    "uniform.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @equalize_different_sizes() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  %v = dataflow.get_unit {name = "b", type = "lu"} : index
  // expected-error @+1 {{regions have different operation size.}}
  uniform.equalize_pattern {
    (%a -> %u) {
      %x = arith.addi %a, %a : index
    }
    (%b -> %v) {
    }
  }
  return
}

// -----

func.func @equalize_different_ops() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  %v = dataflow.get_unit {name = "b", type = "lu"} : index
  // expected-error @+1 {{Operation sequences different.}}
  uniform.equalize_pattern {
    (%a -> %u) {
      %x = arith.addi %a, %a : index
    }
    (%b -> %v) {
      %y = arith.muli %b, %b : index
    }
  }
  return
}

// -----

func.func @equalize_one_region() {
  %u = dataflow.get_unit {name = "a", type = "lu"} : index
  // expected-error @+1 {{expects at least two regions to compare}}
  uniform.equalize_pattern {
    (%a -> %u) {
    }
  }
  return
}

// -----

// The verifier's shape check of grid-wide mappings (compat._valid_mapping) leaves these to the
// generic verifier, which words the error.
func.func @mapping_result_not_index() {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-sfu", type = "sfu"} : index
  %c = arith.constant 0 : index
  // expected-error @+1 {{result 'result' at position 0 does not verify}}
  %m = "uniform.def_immutable_mapping"(%u, %c) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> i32
  return
}

// -----

func.func @mapping_segments_past_the_operands() {
  %u = dataflow.get_unit {core = 0 : i32, name = "C0-sfu", type = "sfu"} : index
  %c = arith.constant 0 : index
  // expected-error @+1 {{operand count (2) does not match with the total size (3)}}
  %m = "uniform.def_immutable_mapping"(%u, %c) <{operandSegmentSizes = array<i32: 1, 2>}> : (index, index) -> index
  return
}
