// RUN: not dfsched-opt %s --device=sample --ktir-legality-check 2>&1 | filecheck %s --check-prefix=SAMPLE
// RUN: not dfsched-opt %s --device=spyre --ktir-legality-check 2>&1 | filecheck %s --check-prefix=SPYRE
// RUN: not dfsched-opt %s --device=quad_corelet --ktir-legality-check 2>&1 | filecheck %s --check-prefix=QUAD
// RUN: sed 's/f32/f16/g; s/0xFF800000/0xFC00/' %s | dfsched-opt --device=sample --ktir-legality-check | filecheck %s --check-prefix=F16

// Decision 95: an online softmax computes its state (maximum, exponentials, sums) element-wise in
// the state's element type, before the fold and after it; on a device whose compute unit has no
// SIMD lanes for that type the loop is refused, located on the loop, before its body is examined.
// quad_corelet has f32 lanes but no address-list unit: its refusal is the gather's. The same
// kernel in f16 passes the check on sample.

#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>
#rows = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#q_map = affine_map<(m, p, u, d) -> (m, d)>
#k_map = affine_map<(m, p, u, d) -> (p, u, d)>
#s_map = affine_map<(m, p, u, d) -> (m, p, u)>
#w_map = affine_map<(m, d, p, u) -> (m, p, u)>
#v_map = affine_map<(m, d, p, u) -> (p, u, d)>
#o_map = affine_map<(m, d, p, u) -> (m, d)>
func.func @f32_softmax_state(%q: tensor<2x8xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf32>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf32>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %l0 = linalg.fill ins(%one : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2xf32>) -> tensor<2xf32>
  %eo = tensor.empty() : tensor<2x8xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8xf32>) -> tensor<2x8xf32>
  %es = tensor.empty() : tensor<2x1x4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x8xf32>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf32>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf32>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf32>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf32>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8xf32>, tensor<1x4x8xf32>) outs(%s0 : tensor<2x1x4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.mulf %x, %y : f32
      %r = arith.addf %t, %o : f32
      linalg.yield %r : f32
    } -> tensor<2x1x4xf32>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf32>) outs(%m0 : tensor<2xf32>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf32>, tensor<2xf32>) outs(%er : tensor<2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %r = arith.maximumf %x, %y : f32
      linalg.yield %r : f32
    } -> tensor<2xf32>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf32>, tensor<2xf32>) outs(%es : tensor<2x1x4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.subf %x, %y : f32
      %r = math.exp %t : f32
      linalg.yield %r : f32
    } -> tensor<2x1x4xf32>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf32>) outs(%z0 : tensor<2xf32>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf32>, tensor<2xf32>) outs(%er : tensor<2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.subf %x, %y : f32
      %r = math.exp %t : f32
      linalg.yield %r : f32
    } -> tensor<2xf32>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf32>, tensor<2xf32>) outs(%eo : tensor<2x8xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %r = arith.mulf %x, %y : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf32>, tensor<1x4x8xf32>) outs(%as : tensor<2x8xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.mulf %x, %y : f32
      %r = arith.addf %t, %o : f32
      linalg.yield %r : f32
    } -> tensor<2x8xf32>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%er : tensor<2xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
      %t = arith.mulf %x, %y : f32
      %r = arith.addf %t, %z : f32
      linalg.yield %r : f32
    } -> tensor<2xf32>
    scf.yield %mn, %ln, %an : tensor<2xf32>, tensor<2xf32>, tensor<2x8xf32>
  }
  return %m, %l, %a : tensor<2xf32>, tensor<2xf32>, tensor<2x8xf32>
}
// SAMPLE: softmax-state-lanes.mlir:47:16: error: this online softmax keeps its state in f32 (tensor<2xf32>) but exec_unit 'SFU' declares no SIMD lanes for element type f32
// SAMPLE: note: in device 'sample_device'
// SPYRE: error: this online softmax keeps its state in f32 (tensor<2xf32>) but exec_unit 'PE' declares no SIMD lanes for element type f32
// QUAD: error: device 'quad_corelet' has no exec_unit with 'ktdf_arch.feature.address_list'
// F16: func.func @f16_softmax_state
// F16: scf.for
