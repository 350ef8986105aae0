// RUN: dfsched-opt %s -split-input-file --ktir-legality-check | filecheck %s
// RUN: dfsched-opt %s -split-input-file --ktir-legality-check --disable-ktir-legality-check | filecheck %s
// RUN: dfsched-opt %s -split-input-file > %t.before
// RUN: dfsched-opt %s -split-input-file --ktir-legality-check > %t.after
// RUN: diff %t.before %t.after

// The V1 language passes through unchanged: views, tiles, loads and stores, index
// arithmetic, loops without loop-carried values, linalg add/sub/mul/reduce, a generic whose
// body only adds, multiplies and subtracts, and elementwise arith/math on whole tensors
// (the pass does not look at ops outside linalg).

// CHECK-LABEL: func.func @scale_rows
// CHECK: scf.for
// CHECK: ktdp.load
// CHECK: linalg.mul
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: math.sqrt
// CHECK: ktdp.store
func.func @scale_rows(%n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %base = arith.constant 4096 : index
  %pid = ktdp.get_compute_tile_id : index
  %row = arith.muli %pid, %c8 : index
  %v = ktdp.construct_memory_view %base, sizes: [32, 16], strides: [16, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<32x16xf16>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.addi %row, %i : index
    %t = ktdp.construct_access_tile %v[%r, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<32x16xf16> -> !ktdp.access_tile<1x16xindex>
    %x = ktdp.load %t : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
    %e = tensor.empty() : tensor<1x16xf16>
    %sq = linalg.mul ins(%x, %x : tensor<1x16xf16>, tensor<1x16xf16>) outs(%e : tensor<1x16xf16>) -> tensor<1x16xf16>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%sq, %x : tensor<1x16xf16>, tensor<1x16xf16>) outs(%e : tensor<1x16xf16>) {
    ^bb0(%a: f16, %b: f16, %o: f16):
      %m = arith.mulf %a, %b : f16
      %s = arith.subf %m, %a : f16
      %p = arith.addf %s, %b : f16
      linalg.yield %p : f16
    } -> tensor<1x16xf16>
    %root = math.sqrt %g : tensor<1x16xf16>
    ktdp.store %root, %t : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
  }
  return
}

// -----

// CHECK-LABEL: func.func @with_intrinsics
// CHECK: spyreop.exp
func.func @with_intrinsics(%a: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%x: f16, %y: f16):
    %e = spyreop.exp %x : f16
    linalg.yield %e : f16
  } -> tensor<8xf16>
  return %r : tensor<8xf16>
}

// -----

// A generic body may hold any element-wise arith/math op and scalar constants (upstream:
// only addf/mulf/subf): a sigmoid-style chain, a compare feeding a select, and casts.

// CHECK-LABEL: func.func @elementwise_body
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.cmpf
// CHECK: arith.select
// CHECK: arith.truncf
func.func @elementwise_body(%a: tensor<4xf16>, %o: tensor<4xf16>) -> tensor<4xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf16>) outs(%o : tensor<4xf16>) {
  ^bb0(%x: f16, %z: f16):
    %one = arith.constant 1.000000e+00 : f16
    %e = math.exp %x : f16
    %d = arith.addf %e, %one : f16
    %s = arith.divf %e, %d : f16
    %pos = arith.cmpf ogt, %x, %one : f16
    %m = arith.select %pos, %s, %x : f16
    %w = arith.extf %m : f16 to f32
    %t = arith.truncf %w : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

// A contraction: linalg.matmul, whose body multiplies and adds (dfsched; upstream rejects it),
// its accumulator a linalg.fill of zero.
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.fill
// CHECK: linalg.matmul
func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %o: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %init = linalg.fill ins(%zero : f16) outs(%o : tensor<4x4xf16>) -> tensor<4x4xf16>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%init : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %r : tensor<4x4xf16>
}

// -----

// A batched contraction: linalg.batch_matmul, accepted like linalg.matmul.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.batch_matmul
func.func @batch_matmul(%a: tensor<2x4x8xf16>, %b: tensor<2x8x4xf16>, %o: tensor<2x4x4xf16>) -> tensor<2x4x4xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %init = linalg.fill ins(%zero : f16) outs(%o : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%init : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  return %r : tensor<2x4x4xf16>
}
