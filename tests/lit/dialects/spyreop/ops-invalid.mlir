// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

func.func @exp_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be 16-bit float or IBM df16 float or 32-bit float, but got 'i32'}}
  %0 = spyreop.exp %a : i32
  return
}

// -----

func.func @gelu_f32(%a: f32) {
  // expected-error @+1 {{operand #0 must be 16-bit float or IBM df16 float, but got 'f32'}}
  %0 = spyreop.gelu %a : f32
  return
}

// -----

func.func @realdiv_mixed(%a: f16, %b: f32) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "spyreop.realdiv"(%a, %b) : (f16, f32) -> f16
  return
}

// -----

func.func @select_mixed(%c: f16, %a: f32) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "spyreop.select"(%c, %a, %a) : (f16, f32, f32) -> f32
  return
}

// -----

func.func @softplus_beta_zero(%a: f16) {
  // expected-error @+1 {{attribute 'beta' failed to satisfy constraint: 32-bit float attribute which is non-zero}}
  %0 = spyreop.softplus %a beta 0.0 threshold 0.0 : f16
  return
}

// -----

func.func @softplus_f32(%a: f32) {
  // expected-error @+1 {{operand #0 must be 16-bit float or IBM df16 float, but got 'f32'}}
  %0 = spyreop.softplus %a beta 1.0 threshold 20.0 : f32
  return
}

// -----

func.func @softplus_f64_beta(%a: f16) {
  // expected-error @+1 {{attribute 'beta' failed to satisfy constraint: 32-bit float attribute}}
  %0 = "spyreop.softplus"(%a) <{beta = 1.0 : f64, threshold = 1.0 : f32}> : (f16) -> f16
  return
}

// -----

func.func @exx2_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be 16-bit float or IBM df16 float or 32-bit float, but got 'i32'}}
  %0, %1 = spyreop.exx2 %a : i32
  return
}

// -----

func.func @layernormnorm_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be 16-bit float or IBM df16 float or 32-bit float, but got 'i32'}}
  %0 = spyreop.layernormnorm %a squares %a scale %a weight %a bias %a : i32
  return
}

// -----

func.func @exx2_fused_plain_result(%a: f16) {
  // expected-error @+1 {{result #0 must be A pair of df16 floats held as one value or A pair of 16-bit floats held as one value or A pair of 32-bit floats held as one value, but got 'f16'}}
  %0 = spyreop.exx2_fused %a : f16 -> f16
  return
}

// -----

func.func @exx2_fused_wrong_pair(%a: f16) {
  // expected-error @+1 {{inferred type(s) '!spyreop.fp16_fused' are incompatible with return type(s) of operation '!spyreop.fp32_fused'}}
  %0 = spyreop.exx2_fused %a : f16 -> !spyreop.fp32_fused
  return
}

// -----

func.func @zeromean_wrong_pair(%a: !spyreop.df16) {
  // expected-error @+1 {{failed to infer returned types}}
  %0 = spyreop.exx2_zeromean_fused %a : !spyreop.df16 -> !spyreop.fp16_fused
  return
}

// -----

func.func @layernormscale_fused_plain_operand(%a: f16) {
  // expected-error @+1 {{operand #0 must be A pair of df16 floats held as one value or A pair of 16-bit floats held as one value or A pair of 32-bit floats held as one value, but got 'f16'}}
  %0 = spyreop.layernormscale_fused %a : f16 -> f16
  return
}

// -----

func.func @layernormscale_fused_wrong_scalar(%a: !spyreop.fp16_fused) {
  // expected-error @+1 {{inferred type(s) 'f16' are incompatible with return type(s) of operation 'f32'}}
  %0 = spyreop.layernormscale_fused %a : !spyreop.fp16_fused -> f32
  return
}

// -----

func.func @add_i64_operands(%a: i64) {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = "spyreop.addi32toi32"(%a, %a) : (i64, i64) -> i32
  return
}

// -----

func.func @idx32toaddr_index(%a: index, %b: i32) {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer, but got 'index'}}
  %0 = "spyreop.idx32toaddr"(%a, %b, %b) : (index, i32, i32) -> i32
  return
}

// -----

func.func @add64_i32_result(%a: i64) {
  // expected-error @+1 {{result #0 must be 64-bit signless integer, but got 'i32'}}
  %0 = "spyreop.addi64toi64"(%a, %a) : (i64, i64) -> i32
  return
}

// -----

func.func @slice_reduction_no_scope(%a: tensor<64xf16>) {
  // expected-error @+1 {{requires attribute 'reduction_scope'}}
  %0 = spyreop.slice_reduction %a {reduction_kind = #spyreop.reduction_kind<max>} : tensor<64xf16> -> tensor<64xf16>
  return
}

// -----

func.func @slice_reduction_scalar(%a: f16) {
  // expected-error @+1 {{operand #0 must be ranked tensor of any type values, but got 'f16'}}
  %0 = spyreop.slice_reduction %a {reduction_kind = #spyreop.reduction_kind<max>, reduction_scope = #spyreop.reduction_scope<in_slice>} : f16 -> f16
  return
}

// -----

func.func @slice_reduction_shape(%a: tensor<64xf16>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = spyreop.slice_reduction %a {reduction_kind = #spyreop.reduction_kind<max>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<32xf16>
  return
}

// -----

func.func @slice_reduction_kind_string(%a: tensor<64xf16>) {
  // expected-error @+1 {{attribute 'reduction_kind' failed to satisfy constraint}}
  %0 = spyreop.slice_reduction %a {reduction_kind = "max", reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  return
}

// -----

func.func @unknown_reduction_kind(%a: tensor<64xf16>) {
  // expected-error @+1 {{Expected `add`, `sub`, `max`, `min`, `mul`, or `abs_max`}}
  %0 = spyreop.slice_reduction %a {reduction_kind = #spyreop.reduction_kind<avg>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  return
}

// -----

func.func @compare_integer(%a: i32) {
  // expected-error @+1 {{operand #0 must be 16-bit float or IBM df16 float or 32-bit float, but got 'i32'}}
  %0 = spyreop.compare <equal> %a, %a : i32
  return
}

// -----

func.func @compare_mixed(%a: f16, %b: f32) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "spyreop.compare"(%a, %b) <{predicate = #spyreop.compare_predicate<equal>}> : (f16, f32) -> f16
  return
}

// -----

func.func @unknown_predicate(%a: f16) {
  // expected-error @+1 {{Expected `equal`, `notequal`, `greaterthan`, `greaterequal`, `lesserthan`, or `lesserequal`}}
  %0 = spyreop.compare <less> %a, %a : f16
  return
}

// -----

func.func @constant_integer() {
  // expected-error @+1 {{result #0 must be 16-bit float or 32-bit float, but got 'i32'}}
  %c = spyreop.constant 0 : i32
  return
}

// -----

func.func @constant_f64() {
  // expected-error @+1 {{result #0 must be 16-bit float or 32-bit float, but got 'f64'}}
  %c = spyreop.constant 0.0 : f64
  return
}

// -----

func.func @constant_tensor() {
  // expected-error @+1 {{result #0 must be 16-bit float or 32-bit float, but got 'tensor<1xf16>'}}
  %c = spyreop.constant dense<0.0> : tensor<1xf16>
  return
}

// -----

func.func @constant_df16() {
  // expected-error @+1 {{result #0 must be 16-bit float or 32-bit float, but got '!spyreop.df16'}}
  %c = "spyreop.constant"() <{value = 0.0 : f16}> : () -> !spyreop.df16
  return
}

// -----

func.func @constant_missing_value() {
  // expected-error @+1 {{requires attribute 'value'}}
  %c = "spyreop.constant"() : () -> f16
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %c = "spyreop.constant"() <{value = 0.0 : f32}> : () -> f16
  return
}

// -----

func.func @constant_operand(%a: f16) {
  // expected-error @+1 {{requires zero operands}}
  %c = "spyreop.constant"(%a) <{value = 0.0 : f16}> : (f16) -> f16
  return
}

// -----

func.func @constant_no_result() {
  // expected-error @+1 {{requires one result}}
  "spyreop.constant"() <{value = 0.0 : f16}> : () -> ()
  return
}

// -----

func.func @constant_two_results() {
  // expected-error @+1 {{requires one result}}
  %c:2 = "spyreop.constant"() <{value = 0.0 : f16}> : () -> (f16, f16)
  return
}

// -----

func.func @constant_untyped() {
  // expected-error @+1 {{expected a typed constant value such as `1.5 : f16`}}
  %c = spyreop.constant "one"
  return
}

// -----

func.func @softplus_beta_past_f32(%a: f16) {
  // expected-error @+1 {{value out of range for f32: 1e+300}}
  %r = spyreop.softplus %a beta 1.0e300 threshold 2.0 : f16
  return
}
