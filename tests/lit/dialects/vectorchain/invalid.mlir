// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules and syntax errors of the vectorchain dialect.

func.func @shuffle_wrong_result_size(%a: vector<4xf16>) {
  // expected-error @+1 {{result does not scale with indices and repetitions}}
  %r = vectorchain.shuffle input(%a) {indices = [0 : i32, 1 : i32], repetition = 4 : i32} : vector<4xf16>, vector<16xf16>
  return
}

// -----

func.func @shuffle_element_type(%a: vector<4xf16>) {
  // expected-error @+1 {{input element type does not match output element type}}
  %r = vectorchain.shuffle input(%a) {indices = [0 : i32], repetition = 8 : i32} : vector<4xf16>, vector<8xf32>
  return
}

// -----

func.func @shuffle_index_not_integer(%a: vector<4xf16>) {
  // expected-error @+1 {{indices element is not integer}}
  %r = vectorchain.shuffle input(%a) {indices = ["zero"], repetition = 8 : i32} : vector<4xf16>, vector<8xf16>
  return
}

// -----

func.func @shuffle_index_past_input(%a: vector<4xf16>) {
  // expected-error @+1 {{out of bounds indices element}}
  %r = vectorchain.shuffle input(%a) {indices = [4 : i32], repetition = 8 : i32} : vector<4xf16>, vector<8xf16>
  return
}

// -----

func.func @shuffle_negative_without_pad(%a: vector<4xf16>, %p: f16) {
  // expected-error @+1 {{out of bounds indices element}}
  %r = vectorchain.shuffle input(%a), pad(%p) {indices = [-2 : i32], repetition = 8 : i32} : vector<4xf16>, f16, vector<8xf16>
  return
}

// -----

func.func @shuffle_repeated_group(%a: vector<4xf16>, %p: f16) {
  // expected-error @+1 {{expected 'variable', 'pad', or 'mask' keyword}}
  %r = vectorchain.shuffle input(%a), pad(%p), pad(%p) {indices = [0 : i32], repetition = 8 : i32} : vector<4xf16>, f16, f16, vector<8xf16>
  return
}

// -----

func.func @shuffle_vector_pad(%a: vector<4xf16>) {
  // expected-error @+1 {{operand 'pad' at position 1 does not verify}}
  %r = "vectorchain.shuffle"(%a, %a) <{indices = [0 : i32], operandSegmentSizes = array<i32: 1, 0, 1, 0>, repetition = 8 : i32}> : (vector<4xf16>, vector<4xf16>) -> vector<8xf16>
  return
}

// -----

func.func @bitstream_not_vector() {
  // expected-error @+1 {{result 'result' at position 0 does not verify}}
  %r = vectorchain.constant_bitstream {value = [0]} : f16
  return
}

// -----

func.func @bitstream_index_elements() {
  // expected-error @+1 {{result element type is not ints or floats}}
  %r = vectorchain.constant_bitstream {value = [0]} : vector<1xindex>
  return
}

// -----

func.func @bitstream_count() {
  // expected-error @+1 {{result does not match value array}}
  %r = vectorchain.constant_bitstream {value = [0, 1, 2]} : vector<2xf16>
  return
}

// -----

func.func @bitstream_not_integer() {
  // expected-error @+1 {{value attribute should only contain integer representations}}
  %r = vectorchain.constant_bitstream {value = [1.0]} : vector<1xf16>
  return
}

// -----

func.func @bitstream_too_wide() {
  // expected-error @+1 {{value attribute contains element that exceeds bitwidth of output element type}}
  %r = vectorchain.constant_bitstream {value = [0x10000]} : vector<1xf16>
  return
}

// -----

func.func @bitstream_negative_pattern() {
  // -1 is 64 one bits, wider than an i8 element.
  // expected-error @+1 {{value attribute contains element that exceeds bitwidth of output element type}}
  %r = vectorchain.constant_bitstream {value = [-1]} : vector<1xi8>
  return
}

// -----

func.func @cast_changes_size(%a: vector<4xf16>) {
  // expected-error @+1 {{result size does not match input size}}
  %r = vectorchain.cast %a : vector<4xf16>, vector<8xf32>
  return
}

// -----

func.func @compare_mask_not_i1(%a: vector<4xf16>, %m: vector<4xi8>) {
  // expected-error @+1 {{mask must be a 1-D vector of i1, got vector<4xi8>}}
  %r = vectorchain.element_wise_compare %a, %a[%m : vector<4xi8>] {compare_op = #vectorchain<element_wise_compare_operator compare_eq>} : vector<4xf16>, vector<4xf16>, vector<4xi1>
  return
}

// -----

func.func @estimate_mask_not_i1(%a: vector<4xf16>, %m: vector<4xf16>) {
  // expected-error @+1 {{mask must be a 1-D vector of i1}}
  %r = vectorchain.fast_exp %a[%m : vector<4xf16>] : vector<4xf16>, vector<4xf16>
  return
}

// -----

func.func @affine_mask_not_i1() {
  // expected-error @+1 {{mask must be a 1-D vector of i1, got vector<4xi8>}}
  %r = vectorchain.create_affine_mask {mask_set = affine_set<(d0) : (d0 >= 0)>} : vector<4xi8>
  return
}

// -----

func.func @binary_without_operator(%a: vector<4xf16>) {
  // expected-error @+1 {{property 'binary_op' expected}}
  %r = vectorchain.binary %a, %a {op_specific_map = affine_map<(d0) -> (d0)>} : vector<4xf16>, vector<4xf16>, vector<4xf16>
  return
}

// -----

func.func @binary_unknown_operator(%a: vector<4xf16>) {
  // expected-error @+1 {{Expected `and0`, `or0`}}
  %r = vectorchain.binary %a, %a {binary_op = #vectorchain<binary_operator div>, op_specific_map = affine_map<(d0) -> (d0)>} : vector<4xf16>, vector<4xf16>, vector<4xf16>
  return
}

// -----

func.func @binary_scalar(%x: f16) {
  // expected-error @+1 {{'vectorchain.binary' op constraint not satisfied}}
  %r = vectorchain.binary %x, %x {binary_op = #vectorchain<binary_operator add>, op_specific_map = affine_map<(d0) -> (d0)>} : f16, f16, f16
  return
}
