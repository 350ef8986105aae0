// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --fold-accumulation-loops
// RUN: not dfsched-opt %s --fold-accumulation-loops 2>&1 | filecheck %s --check-prefix=LOC

// Each loop-carried value the fold cannot turn into one reduction is a located error on its
// loop naming the value and why. Nothing changes.

func.func @dynamic_bounds(%init: tensor<4xf16>, %n: index) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried arguments (iter_args) unless they accumulate sums of loaded chunks; its bounds and step must be constants}}
  %s = scf.for %j = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}
// LOC: invalid.mlir:[[# @LINE - 8]]:8: error: V1 does not support scf.for with loop-carried arguments (iter_args) unless they accumulate sums of loaded chunks; its bounds and step must be constants (bind the kernel's scalars with --bind)

// -----

func.func @partial_chunk(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c24 = arith.constant 24 : index
  // expected-error @below {{its step (24) must divide its non-empty range [0, 64)}}
  %s = scf.for %j = %c0 to %c64 step %c24 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 23 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x24xindex>
    %x = ktdp.load %t : <4x24xindex> -> tensor<4x24xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x24xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @unchanged(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: it is yielded without being computed in the loop}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    scf.yield %acc : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @elementwise_accumulation_not_elementwise() -> tensor<f16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<4xf16>
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: 'tensor.extract_slice' computes a chunk but is not an element-wise arith or math op on tensors of the chunk's shape}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %col = tensor.extract_slice %x[0, 0] [4, 1] [1, 1] : tensor<4x16xf16> to tensor<4xf16>
    %n = arith.addf %acc, %col : tensor<4xf16>
    scf.yield %n : tensor<4xf16>
  }
  %z = arith.constant dense<0.0> : tensor<f16>
  %r = linalg.reduce { arith.addf } ins(%s : tensor<4xf16>) outs(%z : tensor<f16>) dimensions = [0]
  return %r : tensor<f16>
}

// -----

func.func @elementwise_accumulation_from_nonzero(%init: tensor<1x16xf16>) -> tensor<1x16xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: its initial value must be the identity of 'arith.addf' (a splat constant or fill): the chunks are combined once each}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<1x16xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %x = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %n = arith.addf %acc, %x : tensor<1x16xf16>
    scf.yield %n : tensor<1x16xf16>
  }
  return %s : tensor<1x16xf16>
}

// -----

func.func @elementwise_accumulation_not_reduced() -> tensor<1x16xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<1x16xf16>
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: it is accumulated element-wise, so its result must be read by one 'linalg.reduce { arith.addf }' alone}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<1x16xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %x = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %n = arith.addf %acc, %x : tensor<1x16xf16>
    scf.yield %n : tensor<1x16xf16>
  }
  return %s : tensor<1x16xf16>
}

// -----

func.func @elementwise_accumulation_varying_invariant() -> tensor<1xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<1x16xf16>
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
  %w = ktdp.load %t0 : <1x16xindex> -> tensor<1x16xf16>
  // expected-error @below {{loaded chunks; an operand of the chunk computation is the same in every iteration but is not a splat, fill or broadcast along the dimension the loop steps}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<1x16xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<1x16xindex>
    %x = ktdp.load %t : <1x16xindex> -> tensor<1x16xf16>
    %y = arith.mulf %x, %w : tensor<1x16xf16>
    %n = arith.addf %acc, %y : tensor<1x16xf16>
    scf.yield %n : tensor<1x16xf16>
  }
  %z = arith.constant dense<0.0> : tensor<1xf16>
  %r = linalg.reduce { arith.addf } ins(%s : tensor<1x16xf16>) outs(%z : tensor<1xf16>) dimensions = [1]
  return %r : tensor<1xf16>
}

// -----

func.func @nonzero_chunk_init(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{'linalg.reduce' must start from zero (tensor.empty or a zero fill): each iteration would add its init again}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %one = arith.constant 1.0 : f16
    %e = tensor.empty() : tensor<4xf16>
    %f = linalg.fill ins(%one : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf16>) outs(%f : tensor<4xf16>) dimensions = [1]
    %n = arith.addf %acc, %r : tensor<4xf16>
    scf.yield %n : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @max_not_sum(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: 'linalg.reduce' does not add into its init}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.maximumf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

// A combiner that is not associative (x - acc): folding the chunks into one reduction would
// reorder it, so the loop is refused (the scheduler's own reductions keep their order).
func.func @sub_not_associative(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: 'linalg.reduce' does not add into its init}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.subf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @acc_read_twice(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{loop-carried value #0: it is read in the loop other than by its accumulation}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    %twice = arith.addf %r, %acc : tensor<4xf16>
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @store_inside(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %e0 = tensor.empty() : tensor<4xf16>
  // expected-error @below {{'ktdp.store' in the loop has an effect}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %e0) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    ktdp.store %x, %t : tensor<4x16xf16>, <4x16xindex>
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @chunk_not_step(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{a streamed tile is 8 long along the loop's dimension but the loop steps by 16}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %j] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x8xindex>
    %x = ktdp.load %t : <4x8xindex> -> tensor<4x8xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @strided_chunks(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c32 = arith.constant 32 : index
  // expected-error @below {{a streamed access tile must have exactly one index that is the loop variable plus a loop-invariant offset}}
  %s = scf.for %j = %c0 to %c32 step %c16 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %c2 = arith.constant 2 : index
    %k = arith.muli %j, %c2 : index
    %t = ktdp.construct_access_tile %a[%c0, %k] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @reduces_parallel_dim(%init: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{input #0 of 'linalg.reduce' changes with the loop along a dimension it does not reduce}}
  %s = scf.for %j = %c0 to %c4 step %c4 iter_args(%acc = %init) -> (tensor<4xf16>) {
    %t = ktdp.construct_access_tile %a[%j, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<4x16xindex>
    %x = ktdp.load %t : <4x16xindex> -> tensor<4x16xf16>
    %r = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf16>) outs(%acc : tensor<4xf16>) dimensions = [1]
    scf.yield %r : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// -----

func.func @scalar(%init: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{loop-carried value #0: a scalar of type f16 accumulates only as the sum of `tensor.extract`s of one-element reductions, one per iteration (the front door then carries the reduction's tensor, Decision 70)}}
  %s = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (f16) {
    %n = arith.addf %acc, %acc : f16
    scf.yield %n : f16
  }
  return %s : f16
}
