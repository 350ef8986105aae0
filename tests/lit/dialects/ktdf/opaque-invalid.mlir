// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Destination-passing rules and syntax errors of ktdf.opaque.

func.func @result_without_tensor_output(%x: tensor<8xf16>, %m: memref<8xf16>) {
  // expected-error @+1 {{expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %r = ktdf.opaque "OP" -> tensor<8xf16> ins(%x: tensor<8xf16>) outs(%m: memref<8xf16>)
  return
}

// -----

func.func @result_type_differs(%x: tensor<8xf16>) {
  // expected-error @+1 {{expected type of tensor output #0 (tensor<8xf16>) to match type of corresponding result (tensor<8xf32>)}}
  %r = ktdf.opaque "OP" -> tensor<8xf32> ins() outs(%x: tensor<8xf16>)
  return
}

// -----

func.func @scalar_output(%x: f16) {
  // expected-error @+1 {{f16 should be of attribute subclassing `ShapedType`}}
  ktdf.opaque "OP" ins() outs(%x: f16)
  return
}

// -----

func.func @missing_template(%x: tensor<8xf16>) {
  // expected-error @+1 {{attribute expected}}
  ktdf.opaque OP ins() outs(%x: tensor<8xf16>)
  return
}

// -----

func.func @type_count(%x: tensor<8xf16>) {
  // expected-error @+1 {{expected 1 operand types but had 2}}
  ktdf.opaque "OP" ins(%x, %x: tensor<8xf16>) outs()
  return
}
