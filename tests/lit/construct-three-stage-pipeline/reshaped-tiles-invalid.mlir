// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --construct-three-stage-pipeline --device=sample

// A collapsed load is copied through the scratchpad only when compute ops alone read the
// collapse (Decision 108); stored as well, it stays the refusal of a reshape between a load and
// compute.

#view = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#rows_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>

func.func @collapse_also_stored() {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %a = ktdp.construct_memory_view %c0, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %b = ktdp.construct_memory_view %c4096, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %ta = ktdp.construct_access_tile %a[%c0, %c0, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4x8x64xf16> -> !ktdp.access_tile<2x4x64xindex>
  %tb = ktdp.construct_access_tile %b[%c0, %c0, %c0] {access_tile_set = #tile, access_tile_order = #order} : memref<4x8x64xf16> -> !ktdp.access_tile<2x4x64xindex>
  %x3 = ktdp.load %ta : !ktdp.access_tile<2x4x64xindex> -> tensor<2x4x64xf16>
  // expected-error @below {{operand 0 of the program's compute op is computed from a ktdp.load by 'tensor.collapse_shape'; only loads may feed the compute op}}
  %x = tensor.collapse_shape %x3 [[0, 1], [2]] : tensor<2x4x64xf16> into tensor<8x64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %s = arith.mulf %v, %v : f16
    linalg.yield %s : f16
  } -> tensor<8x64xf16>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 4, 64] : tensor<8x64xf16> into tensor<2x4x64xf16>
  ktdp.store %y3, %tb : tensor<2x4x64xf16>, !ktdp.access_tile<2x4x64xindex>
  %flat = ktdp.construct_memory_view %c8192, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %tf = ktdp.construct_access_tile %flat[%c0, %c0] {access_tile_set = #rows_set, access_tile_order = #rows} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  ktdp.store %x, %tf : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
