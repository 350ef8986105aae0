// S = Q x K^T in f32 from f16 Q and K, written as Triton writes `tl.dot(q.to(f32), tl.trans(k).to(f32))`:
// K is transposed, then extended to f32 (an `arith.extf` reads the transpose), then the
// contraction reads it (Decision 97: the cast moves before the transpose, which folds into the
// contraction). Q 8x32, K 16x32 (f16) and S 8x16 (f16, truncated) at byte addresses 0, 512, 1536.
#q_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#k_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row_major = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_extf() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %q_address = arith.constant 0 : index
  %k_address = arith.constant 512 : index
  %s_address = arith.constant 1536 : index
  %zero = arith.constant 0.0 : f32
  %q = ktdp.construct_memory_view %q_address, sizes: [8, 32], strides: [32, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %k = ktdp.construct_memory_view %k_address, sizes: [16, 32], strides: [32, 1] {coordinate_set = #k_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %s = ktdp.construct_memory_view %s_address, sizes: [8, 16], strides: [16, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %qt = ktdp.construct_access_tile %q[%c0, %c0] {access_tile_set = #q_set, access_tile_order = #row_major} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
  %kt = ktdp.construct_access_tile %k[%c0, %c0] {access_tile_set = #k_set, access_tile_order = #row_major} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %st = ktdp.construct_access_tile %s[%c0, %c0] {access_tile_set = #s_set, access_tile_order = #row_major} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %q16 = ktdp.load %qt : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
  %k16 = ktdp.load %kt : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %e = tensor.empty() : tensor<32x16xf16>
  %kT = linalg.transpose ins(%k16 : tensor<16x32xf16>) outs(%e : tensor<32x16xf16>) permutation = [1, 0]
  %q32 = arith.extf %q16 : tensor<8x32xf16> to tensor<8x32xf32>
  %k32 = arith.extf %kT : tensor<32x16xf16> to tensor<32x16xf32>
  %init = tensor.splat %zero : tensor<8x16xf32>
  %s32 = linalg.matmul ins(%q32, %k32 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s16 = arith.truncf %s32 : tensor<8x16xf32> to tensor<8x16xf16>
  ktdp.store %s16, %st : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  return
}
