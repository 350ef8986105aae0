// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules and syntax errors of the dataflow dialect.

func.func @get_unit_without_results() {
  // expected-error @+1 {{expects at least one result (one unit handle per program time step)}}
  dataflow.get_unit {name = "C0-sfu", type = "sfu"} :
  return
}

// -----

func.func @get_unit_without_type() {
  // expected-error @+1 {{property 'type' expected}}
  %u = dataflow.get_unit {name = "C0-sfu"} : index
  return
}

// -----

func.func @multicast_consumer_count(%p: index, %c: index) {
  // expected-error @+1 {{has 1 consumers but num_consumers = 2}}
  %g = dataflow.create_multicast_group(%p -> (%c)) {count = 0 : i32, group_id = 1 : i32, num_consumers = 2 : i32} : index
  return
}

// -----

func.func @multicast_i64_count(%p: index) {
  // expected-error @+1 {{attribute 'count' must be a 32-bit signless integer, got i64}}
  %g = dataflow.create_multicast_group(%p -> ()) {count = 0, group_id = 1 : i32, num_consumers = 2 : i32} : index
  return
}

// -----

func.func @program_body_two_arguments(%u: index) {
  // expected-error @+1 {{body may only have one argument, the 'iter_arg' unit handle of type index}}
  "dataflow.program_unit"(%u) ({
  ^bb0(%a: index, %b: index):
    "dataflow.return"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @program_body_wrong_terminator(%u: index) {
  // expected-error @+1 {{terminates with operation uniform.yield instead of dataflow.return}}
  "dataflow.program_unit"(%u) ({
    "uniform.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @program_without_body(%u: index) {
  // The error points at the token where the body was expected.
  dataflow.program_unit %u :
  // expected-error @+1 {{expected the program body region}}
  return
}

// -----

func.func @send_scalar(%u: index, %x: f16) {
  // expected-error @+1 {{'dataflow.send' op constraint not satisfied}}
  dataflow.send %u, %x : f16
  return
}

// -----

func.func @unknown_direction(%u: index, %v: vector<4xf16>) {
  // expected-error @+1 {{Expected `PseudoRandom`, `CounterClockwise`, `Clockwise`, or `BothWays`}}
  dataflow.send %u, %v {dir = #dataflow<direction Up>} : vector<4xf16>
  return
}

// -----

func.func @view_of_vector(%u: index, %a: index) {
  // expected-error @+1 {{'dataflow.get_logical_memory_view' op constraint not satisfied}}
  %v = dataflow.get_logical_memory_view %u, %a {layout_map = affine_map<(d0) -> (d0)>} : index, index, vector<4xf16>
  return
}

// -----

func.func @page_address_not_constant(%u: index, %a: index) {
  // expected-error @+1 {{page start addresses should be arith::ConstantOp}}
  %p = dataflow.get_paged_logical_memory_view %u, %a {layout_map = affine_map<(d0) -> (d0)>}
    {segments = page0: (idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, start_addr = %a)} : index, index, memref<4xf16>
  return
}

// -----

func.func @page_not_hyper_rectangular(%u: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{idx_set should be hyper rectangular}}
  %p = dataflow.get_paged_logical_memory_view %u, %c0 {layout_map = affine_map<(d0, d1) -> (d0 + d1)>}
    {segments = page0: (idx_set = affine_set<(d0, d1) : (d0 - d1 >= 0)>, start_addr = %c0)} : index, index, memref<4x4xf16>
  return
}

// -----

func.func @page_count_mismatch(%u: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{there should be a start address and idx_set for every page}}
  %p = "dataflow.get_paged_logical_memory_view"(%u, %c0, %c0, %c0) <{idx_sets = [affine_set<(d0) : (d0 >= 0)>], layout_map = affine_map<(d0) -> (d0)>}> : (index, index, index, index) -> memref<4xf16>
  return
}

// -----

func.func @page_set_not_a_set(%u: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{idx_sets should be IntegerSetAttrs}}
  %p = "dataflow.get_paged_logical_memory_view"(%u, %c0, %c0) <{idx_sets = [affine_map<(d0) -> (d0)>], layout_map = affine_map<(d0) -> (d0)>}> : (index, index, index) -> memref<4xf16>
  return
}

// -----

func.func @pages_out_of_order(%u: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+2 {{to close the segments (pages are named page0, page1, ... in order)}}
  %p = dataflow.get_paged_logical_memory_view %u, %c0 {layout_map = affine_map<(d0) -> (d0)>}
    {segments = page1: (idx_set = affine_set<(d0) : (d0 >= 0)>, start_addr = %c0)} : index, index, memref<4xf16>
  return
}

// -----

// expected-error @+1 {{expected 'mxfp4', 'mxfp8' or 'mxint4' but got 'mxfp5'}}
func.func @unknown_mx_type(%a: !dataflow.custom<mxfp5>) {
  return
}

// -----

// expected-error @+1 {{expected '<N x element-type>' with one static dimension}}
func.func @custom_vector_2d(%a: !dataflow.custom_vector<4x4xf16>) {
  return
}
