// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --ktir-legality-check
// RUN: not dfsched-opt %s -split-input-file --ktir-legality-check 2>&1 | filecheck %s --check-prefix=LOC

// Each construct V1 cannot schedule is rejected on the op that uses it, with its location.

func.func @running_sum(%x: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{V1 does not support scf.for with loop-carried arguments (iter_args)}}
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<4xf16>) {
    scf.yield %a : tensor<4xf16>
  }
  return %acc : tensor<4xf16>
}
// LOC: invalid.mlir:[[# @LINE - 5]]:10: error: V1 does not support scf.for with loop-carried arguments (iter_args)

// -----

func.func @count_down(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{V1 does not support scf.while loops}}
  %r = scf.while (%k = %n) : (index) -> index {
    %more = arith.cmpi ugt, %k, %c0 : index
    scf.condition(%more) %k : index
  } do {
  ^bb0(%k2: index):
    scf.yield %k2 : index
  }
  return
}
// LOC: invalid.mlir:[[# @LINE - 9]]:8: error: V1 does not support scf.while loops

// -----

func.func @two_halves() {
  %lo = arith.constant 0 : index
  %hi = arith.constant 2048 : index
  %a = ktdp.construct_memory_view %lo, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<16x64xf16>
  %b = ktdp.construct_memory_view %hi, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<16x64xf16>
  // expected-error @below {{V1 does not support ktdp.construct_distributed_memory_view unless resolve-distributed-views resolves it into plain views: parts #0 and #1 hold common coordinates}}
  %whole = ktdp.construct_distributed_memory_view (%a, %b : memref<16x64xf16>, memref<16x64xf16>) : memref<32x64xf16>
  return
}

// -----

func.func @gather_rows() {
  %table_addr = arith.constant 0 : index
  %index_addr = arith.constant 8192 : index
  %idx = ktdp.construct_memory_view %index_addr, sizes: [4], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4xi32>
  %table = ktdp.construct_memory_view %table_addr, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<64x32xf16>
  // expected-error @below {{V1 does not support ktdp.construct_indirect_access_tile}}
  %rows = ktdp.construct_indirect_access_tile
      intermediate_variables(%r, %c)
      %table[ind(%idx[%r]), (%c)] {
      variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
      variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x32xf16>, memref<4xi32> -> !ktdp.access_tile<4x32xindex>
  return
}

// -----

func.func @empty_in_generic(%a: tensor<4xf16>, %b: tensor<4xf16>, %o: tensor<4xf16>) -> tensor<4xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xf16>, tensor<4xf16>) outs(%o : tensor<4xf16>) {
  ^bb0(%x: f16, %y: f16, %z: f16):
    %s = arith.divf %x, %y : f16
    // expected-error @below {{unsupported op in a linalg.generic body: only element-wise arith/math ops, spyreop intrinsics, linalg.index and scalar constants are accepted}}
    %i = tensor.empty() : tensor<4xf16>
    linalg.yield %s : f16
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}
// LOC: invalid.mlir:[[# @LINE - 5]]:10: error: unsupported op in a linalg.generic body: only element-wise arith/math ops, spyreop intrinsics, linalg.index and scalar constants are accepted

// -----

func.func @constant_in_generic(%a: tensor<4xf16>, %o: tensor<4xf16>) -> tensor<4xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf16>) outs(%o : tensor<4xf16>) {
  ^bb0(%x: f16, %z: f16):
    %two = arith.constant 2.000000e+00 : f16
    %m = arith.mulf %x, %two : f16
    // expected-error @below {{unsupported op in a linalg.generic body: only element-wise arith/math ops, spyreop intrinsics, linalg.index and scalar constants are accepted}}
    %t = arith.constant dense<2.000000e+00> : tensor<4xf16>
    linalg.yield %m : f16
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

func.func @transpose(%a: tensor<4x8xf16>, %o: tensor<8x4xf16>) -> tensor<8x4xf16> {
  // expected-error @below {{V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op}}
  %r = linalg.transpose ins(%a : tensor<4x8xf16>) outs(%o : tensor<8x4xf16>) permutation = [1, 0]
  return %r : tensor<8x4xf16>
}

// -----

// The walk stops at the first violation: the tensor.empty inside the loop comes first, the
// matmul after it is not reported.
func.func @first_violation_only(%a: tensor<4xf16>, %o: tensor<4xf16>, %m: tensor<4x4xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%a : tensor<4xf16>) outs(%o : tensor<4xf16>) {
    ^bb0(%x: f16, %z: f16):
      // expected-error @below {{unsupported op in a linalg.generic body: only element-wise arith/math ops, spyreop intrinsics, linalg.index and scalar constants are accepted}}
      %q = tensor.empty() : tensor<4xf16>
      linalg.yield %x : f16
    } -> tensor<4xf16>
  }
  %p = linalg.matmul ins(%m, %m : tensor<4x4xf16>, tensor<4x4xf16>) outs(%m : tensor<4x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

// linalg.fill is accepted only to seed a reduction with a scalar constant.

func.func @fill_from_argument(%v: f32, %x: tensor<8x16xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op}}
  // expected-note @below {{linalg.fill is accepted only to initialise a reduction with a scalar constant}}
  %init = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// -----

func.func @fill_then_add(%x: tensor<8xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op}}
  // expected-note @below {{the result of this linalg.fill is used by 'linalg.add', not as the init of a reduction}}
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.add ins(%x, %ones : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Seeding the input (not the init) of a reduction is not the accepted pattern either.
func.func @fill_as_reduction_input() -> tensor<8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %e2 = tensor.empty() : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op}}
  // expected-note @below {{not as the init of a reduction}}
  %ones = linalg.fill ins(%one : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.reduce ins(%ones : tensor<8x16xf32>) outs(%e : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// -----

// The init of an all-parallel generic is not a reduction.
func.func @fill_into_parallel_generic(%x: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op}}
  // expected-note @below {{used by 'linalg.generic', not as the init of a reduction}}
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @unused_fill() {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op}}
  // expected-note @below {{this linalg.fill initialises no reduction}}
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// A negative constant base address (dfsched only).
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @negative_base() attributes {grid = [1]} {
  %at = arith.constant -64 : index
  // expected-error @below {{memory view base address must not be negative (got -64)}}
  %v = ktdp.construct_memory_view %at, sizes: [64], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}

// -----

// A base address that is a kernel argument is known only at run time: accepted.
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @argument_base(%at: index) attributes {grid = [1]} {
  %v = ktdp.construct_memory_view %at, sizes: [64], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
