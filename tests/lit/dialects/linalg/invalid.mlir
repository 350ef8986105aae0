// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

func.func @named_without_outs(%a: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.div' op expects at least one 'outs' operand}}
  %0 = linalg.div ins(%a, %a : tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @named_type_count(%a: tensor<4xf16>) {
  // expected-error @+1 {{expected 2 types in 'ins(...)', but got 1}}
  %0 = linalg.add ins(%a, %a : tensor<4xf16>) outs(%a : tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @named_index_elements(%a: tensor<4xindex>) {
  // expected-error @+1 {{'linalg.sub' op cannot build its body: operands must be tensors or memrefs of float or integer elements, or such scalars}}
  %0 = linalg.sub ins(%a, %a : tensor<4xindex>, tensor<4xindex>) outs(%a : tensor<4xindex>) -> tensor<4xindex>
  return
}

// -----

func.func @matmul_maps(%a: tensor<4x4xf16>) {
  // expected-error @+1 {{expected indexing_maps to be an array of affine maps}}
  %0 = linalg.matmul indexing_maps = ["ij"] ins(%a, %a : tensor<4x4xf16>, tensor<4x4xf16>) outs(%a : tensor<4x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @generic_without_maps(%a: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.generic' op requires attribute 'indexing_maps'}}
  %0 = linalg.generic {iterator_types = ["parallel"]} outs(%a : tensor<4xf16>) {
  ^bb0(%o: f16):
    linalg.yield %o : f16
  } -> tensor<4xf16>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @generic_without_iterators(%a: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.generic' op requires attribute 'iterator_types'}}
  %0 = linalg.generic {indexing_maps = [#id]} outs(%a : tensor<4xf16>) {
  ^bb0(%o: f16):
    linalg.yield %o : f16
  } -> tensor<4xf16>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @generic_unknown_iterator(%a: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.generic' op unknown iterator type "diagonal"}}
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["diagonal"]} outs(%a : tensor<4xf16>) {
  ^bb0(%o: f16):
    linalg.yield %o : f16
  } -> tensor<4xf16>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @generic_doc_not_string(%a: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.generic' op expected 'doc' to be a string}}
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"], doc = 3 : i64} outs(%a : tensor<4xf16>) {
  ^bb0(%o: f16):
    linalg.yield %o : f16
  } -> tensor<4xf16>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @generic_maps_not_maps(%a: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.generic' op expected indexing_maps to be an array of affine maps}}
  %0 = linalg.generic {indexing_maps = #id, iterator_types = ["parallel"]} outs(%a : tensor<4xf16>) {
  ^bb0(%o: f16):
    linalg.yield %o : f16
  } -> tensor<4xf16>
  return
}

// -----

func.func @broadcast_two_inputs(%a: tensor<4xf16>, %e: tensor<2x4xf16>) {
  // expected-error @+1 {{'linalg.broadcast' op expects exactly one 'ins' operand}}
  %0 = linalg.broadcast ins(%a, %a : tensor<4xf16>, tensor<4xf16>) outs(%e : tensor<2x4xf16>) dimensions = [0]
  return
}

// -----

func.func @broadcast_dims(%a: tensor<4xf16>, %e: tensor<2x4xf16>) {
  // expected-error @+1 {{Input rank plus added dimensions (3) does not match output rank (2)}}
  %0 = linalg.broadcast ins(%a : tensor<4xf16>) outs(%e : tensor<2x4xf16>) dimensions = [0, 1]
  return
}

// -----

// A repeated added dimension (fuzz seed 1542 turned `dimensions = [0, 1]` into `[1, 1]`) made xDSL index past the input's shape.
func.func @broadcast_repeated_dims(%s: tensor<f16>, %e: tensor<1x64xf16>) {
  // expected-error @+1 {{'linalg.broadcast' op dimensions should be unique, got [1, 1]}}
  %0 = linalg.broadcast ins(%s : tensor<f16>) outs(%e : tensor<1x64xf16>) dimensions = [1, 1]
  return
}

// -----

func.func @transpose_repeated_dims(%a: tensor<4x4xf16>, %e: tensor<4x4xf16>) {
  // expected-error @+1 {{'linalg.transpose' op permutation is not valid: [1, 1] does not permute [0, 1]}}
  %0 = linalg.transpose ins(%a : tensor<4x4xf16>) outs(%e : tensor<4x4xf16>) permutation = [1, 1]
  return
}

// -----

func.func @transpose_dim_out_of_range(%a: tensor<4x4xf16>, %e: tensor<4x4xf16>) {
  // expected-error @+1 {{'linalg.transpose' op permutation is not valid: [1, 65536] does not permute [0, 1]}}
  %0 = linalg.transpose ins(%a : tensor<4x4xf16>) outs(%e : tensor<4x4xf16>) permutation = [1, 65536]
  return
}

// -----

func.func @transpose_without_permutation(%a: tensor<4x8xf16>, %e: tensor<8x4xf16>) {
  // The keyword is looked for at the next token.
  // expected-error @+2 {{Expected 'permutation'}}
  %0 = linalg.transpose ins(%a : tensor<4x8xf16>) outs(%e : tensor<8x4xf16>)
  return
}

// -----

func.func @reduce_unknown_payload(%a: tensor<4x8xf16>, %e: tensor<4xf16>) {
  // expected-error @+1 {{unknown payload op 'arith.average' in linalg.reduce short form}}
  %0 = linalg.reduce { arith.average } ins(%a : tensor<4x8xf16>) outs(%e : tensor<4xf16>) dimensions = [1]
  return
}

// -----

func.func @reduce_scalar_input(%a: f16, %e: tensor<4xf16>) {
  // expected-error @+1 {{'linalg.reduce' op expects tensor or memref operands}}
  %0 = linalg.reduce { arith.addf } ins(%a : f16) outs(%e : tensor<4xf16>) dimensions = [1]
  return
}

// -----

func.func @reduce_rank(%a: tensor<4x8xf16>, %e: tensor<4x8xf16>) {
  // expected-error @+1 {{Output rank must equal input rank minus number of dimensions being reduced over}}
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) dimensions = [1]
  return
}

// -----

// A reduced dimension past the input's rank is a located error, not a crash of the verifier.
func.func @reduce_dimension_out_of_range(%x: tensor<3x64xf16>, %init: tensor<3xf16>) {
  // expected-error @+1 {{'linalg.reduce' op dimensions for reduction should be in the range [0, 1]}}
  %0 = linalg.reduce { arith.addf } ins(%x : tensor<3x64xf16>) outs(%init : tensor<3xf16>) dimensions = [65536]
  return
}

// -----

func.func @reduce_dimension_negative(%x: tensor<3x64xf16>, %init: tensor<3xf16>) {
  // expected-error @+1 {{'linalg.reduce' op dimensions for reduction should be in the range [0, 1]}}
  %0 = linalg.reduce { arith.addf } ins(%x : tensor<3x64xf16>) outs(%init : tensor<3xf16>) dimensions = [-1]
  return
}

// -----

func.func @index_beyond_the_loops(%a: tensor<4x4xindex>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%a : tensor<4x4xindex>) {
  ^bb0(%out: index):
    // expected-error @+1 {{'linalg.index' op expected dim (2) to be lower than the number of loops (2) of the enclosing LinalgOp}}
    %i = linalg.index 2 : index
    linalg.yield %i : index
  } -> tensor<4x4xindex>
  return
}

// -----

func.func @index_outside_a_generic() {
  // expected-error @+1 {{'linalg.index' expects parent op 'linalg.generic'}}
  %i = linalg.index 0 : index
  return
}
