// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --construct-three-stage-pipeline --device=sample

// A position (linalg.index) has a device form only through i32 integer arithmetic and compares
// (Decision 107): any other reader is a located error naming it.

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

func.func @position_to_i64() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %scaled = linalg.generic {indexing_maps = [#order, #order], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %col = linalg.index 1 : index
    // expected-error @below {{'arith.index_cast' reads the position linalg.index 1 as an index value; a compute body computes positions in i32 with arith integer ops and compares}}
    %wide = arith.index_cast %col : index to i64
    %f = arith.sitofp %wide : i64 to f16
    %s = arith.mulf %v, %f : f16
    linalg.yield %s : f16
  } -> tensor<4x64xf16>
  ktdp.store %scaled, %tb : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>

func.func @position_yielded() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xindex>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xindex> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xindex>
  %positions = linalg.generic {indexing_maps = [#order, #order], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xindex>) {
  ^bb0(%v: f16, %o: index):
    %row = linalg.index 0 : index
    // expected-error @below {{'linalg.yield' reads the position linalg.index 0 as an index value}}
    linalg.yield %row : index
  } -> tensor<4x64xindex>
  ktdp.store %positions, %tb : tensor<4x64xindex>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// A reduction's steps along its reduction dimension are chunks whose positions nothing offsets.

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>
#in_order = affine_map<(d0) -> (d0)>

func.func @position_in_a_reduction() {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f16
  %a = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %b = ktdp.construct_memory_view %c512, sizes: [4], strides: [1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0] {access_tile_set = #view, access_tile_order = #order} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0] {access_tile_set = #rows, access_tile_order = #in_order} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %ta : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %sum = linalg.generic {indexing_maps = [#order, #per_row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf16>) outs(%init : tensor<4xf16>) {
  ^bb0(%v: f16, %acc: f16):
    // expected-error @below {{linalg.index in the body of a compute op with a reduction loop: the scheduler steps a reduction in chunks whose positions it does not offset; only an element-wise op (parallel loops only) may read its element's position}}
    %col = linalg.index 1 : index
    %row = linalg.index 0 : index
    %keep = arith.cmpi ule, %col, %row : index
    %t = arith.select %keep, %v, %zero : f16
    %n = arith.addf %acc, %t : f16
    linalg.yield %n : f16
  } -> tensor<4xf16>
  ktdp.store %sum, %tb : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}
