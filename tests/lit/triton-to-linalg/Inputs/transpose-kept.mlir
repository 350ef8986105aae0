// A transpose that is not read by a contraction stays, and the scheduler refuses it where it
// meets it, with the op named (tests/lit/triton-to-linalg/layout-ops.mlir runs this).
// CHECK: transpose-kept.mlir:[[# @LINE + 13]]:8: error: V1 only supports add/mul/sub/reduce compute ops; found unsupported compute op
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#all_t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose_copy() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %x = ktdp.construct_memory_view %c0, sizes: [8, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %y = ktdp.construct_memory_view %c256, sizes: [16, 8], strides: [8, 1] {coordinate_set = #all_t, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
  %tx = ktdp.construct_access_tile %x[%c0, %c0] {access_tile_set = #all, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %ty = ktdp.construct_access_tile %y[%c0, %c0] {access_tile_set = #all_t, access_tile_order = #row_major} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
  %v = ktdp.load %tx : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %e = tensor.empty() : tensor<16x8xf16>
  %t = linalg.transpose ins(%v : tensor<8x16xf16>) outs(%e : tensor<16x8xf16>) permutation = [1, 0]
  ktdp.store %t, %ty : tensor<16x8xf16>, !ktdp.access_tile<16x8xindex>
  return
}
