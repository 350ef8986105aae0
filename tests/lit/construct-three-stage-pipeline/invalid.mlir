// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --construct-three-stage-pipeline --device=sample

// Programs the pass cannot turn into one load/compute/store pipeline are rejected on the
// op at fault; upstream asserts (or silently drops the data movement) in these cases.

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// Everything a program stores must be its compute op's result.
func.func @store_input_too() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c256, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %y = math.exp %x : tensor<4x64xf16>
  ktdp.store %y, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  // expected-error @below {{ktdp.store must store the result of the program's compute op}}
  ktdp.store %x, %tc : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// An operand read at a shifted loop index cannot be cut into tiles by the loop indices.
func.func @shifted() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %c = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tc = ktdp.construct_access_tile %c[%c0, %c0] {access_tile_set = #half, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x32xf16>
  // expected-error @below {{unsupported affine expression 'd1 + 32' in an operand indexing map; only loop indices and the constant 0 can be tiled}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 32)>, #order], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x32xf16>) {
  ^bb0(%v: f16, %o: f16):
    linalg.yield %v : f16
  } -> tensor<4x32xf16>
  ktdp.store %y, %tc : tensor<4x32xf16>, !ktdp.access_tile<4x32xindex>
  return
}

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// Accumulating into loaded data: the scheduler's accumulators start at zero.
func.func @accumulate_into_memory() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %m = ktdp.construct_memory_view %c512, sizes: [4], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tm = ktdp.construct_access_tile %m[%c0] {access_tile_set = #out, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %old = ktdp.load %tm : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  // expected-error @below {{the compute op accumulates into an init that is not a tensor.empty; the scheduler starts accumulators at zero}}
  %sum = linalg.reduce ins(%x : tensor<4x64xf16>) outs(%old : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %r = arith.addf %in, %acc : f16
      linalg.yield %r : f16
    }
  ktdp.store %sum, %tm : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>

// An access tile must index every dim of its view (upstream's message).
func.func @short_tile() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{Number of indices (1) does not match number of strides (2)}}
  %ta = ktdp.construct_access_tile %a[%c0] {access_tile_set = #row, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4x64xf16> -> !ktdp.access_tile<64xindex>
  %tb = ktdp.construct_access_tile %b[%c0] {access_tile_set = #row, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4x64xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %y = math.exp %x : tensor<64xf16>
  ktdp.store %y, %tb : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// A compute op's result read by anything but a store or a later compute op (here a
// tensor.extract) cannot stay in a pipeline's buffers.
func.func @extracted() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %y = math.exp %x : tensor<4x64xf16>
  // expected-error @below {{the result of the program's compute op may only be stored}}
  %s = tensor.extract %y[%c0, %c0] : tensor<4x64xf16>
  %z = tensor.splat %s : tensor<4x64xf16>
  %w = arith.addf %y, %z : tensor<4x64xf16>
  ktdp.store %w, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

// The compute ops of one program run one after the other: they must sit in one block.
func.func @two_blocks(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  // expected-note @below {{first compute op}}
  %y = math.exp %x : tensor<4x64xf16>
  ktdp.store %y, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  scf.for %i = %c0 to %n step %c1 {
    %x2 = ktdp.load %tb : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    // expected-error @below {{the program's compute ops must sit in one block}}
    %y2 = math.exp %x2 : tensor<4x64xf16>
    ktdp.store %y2, %ta : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}
