// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --fold-accumulation-loops

// Decision 88: a loop recognised as an online softmax (a carried running maximum) that does not
// fold is a located error on the loop naming the construct.

// The running maximum must start at -inf (the first rescale factor is then 0).
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
func.func @maximum_from_zero(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{but the running maximum does not start at -inf}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf16>, tensor<2xf16>) outs(%es : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf16>, tensor<2xf16>) outs(%eo : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.mulf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// A chunk reshaped (here collapsed and expanded again) is not grown: the page stays a dimension.
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
func.func @reshaped_page(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{but 'tensor.expand_shape' reshapes a chunk of the scores or values}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %kc = tensor.collapse_shape %k [[0, 1], [2]] : tensor<1x4x8xf16> into tensor<4x8xf16>
    %ke = tensor.expand_shape %kc [[0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf16> into tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %ke : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf16>, tensor<2xf16>) outs(%es : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf16>, tensor<2xf16>) outs(%eo : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.mulf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// A body reading its position along the stepped dimension (linalg.index 0, the page) without the
// loop variable would restart at every chunk: refused (Decision 95).
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
func.func @position_in_body(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{reads its position along the dimension the loop steps with linalg.index 0 alone}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %ek = tensor.empty() : tensor<1x4x8xf16>
    %ki = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<1x4x8xf16>) outs(%ek : tensor<1x4x8xf16>) {
    ^bb0(%x: f16, %o: f16):
      %i = linalg.index 0 : index
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f16
      %r = arith.mulf %x, %f : f16
      linalg.yield %r : f16
    } -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %ki : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf16>, tensor<2xf16>) outs(%es : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf16>, tensor<2xf16>) outs(%eo : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.mulf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// `j * 2 + linalg.index 0` is not the chunk position when a chunk is one page long.
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
func.func @position_wrong_multiplier(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{reads position `loop variable * 2 + linalg.index 0` but a chunk is 1 long there and the loop steps by 1}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %ek = tensor.empty() : tensor<1x4x8xf16>
    %ki = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<1x4x8xf16>) outs(%ek : tensor<1x4x8xf16>) {
    ^bb0(%x: f16, %o: f16):
      %i0 = linalg.index 0 : index
      %jc = arith.muli %j, %c2 : index
      %i = arith.addi %jc, %i0 : index
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f16
      %r = arith.mulf %x, %f : f16
      linalg.yield %r : f16
    } -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %ki : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf16>, tensor<2xf16>) outs(%es : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf16>, tensor<2xf16>) outs(%eo : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.mulf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// The loop variable added to the position along a dimension the loop does not step.
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
func.func @position_other_dimension(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{adds the loop variable to linalg.index 2, not to the dimension the loop steps (0)}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %ek = tensor.empty() : tensor<1x4x8xf16>
    %ki = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<1x4x8xf16>) outs(%ek : tensor<1x4x8xf16>) {
    ^bb0(%x: f16, %o: f16):
      %i2 = linalg.index 2 : index
      %jc = arith.muli %j, %c1 : index
      %i = arith.addi %jc, %i2 : index
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f16
      %r = arith.mulf %x, %f : f16
      linalg.yield %r : f16
    } -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %ki : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf16>, tensor<2xf16>) outs(%es : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf16>, tensor<2xf16>) outs(%eo : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.mulf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// The loop variable read in a body other than in a chunk position.
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
func.func @loop_variable_in_body(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{reads the loop variable other than in a chunk position `loop variable * c + linalg.index`}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %ek = tensor.empty() : tensor<1x4x8xf16>
    %ki = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<1x4x8xf16>) outs(%ek : tensor<1x4x8xf16>) {
    ^bb0(%x: f16, %o: f16):
      %i = arith.addi %j, %c1 : index
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f16
      %r = arith.mulf %x, %f : f16
      linalg.yield %r : f16
    } -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %ki : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x4xf16>, tensor<2xf16>) outs(%es : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mn : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %as = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ac, %al : tensor<2x8xf16>, tensor<2xf16>) outs(%eo : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.mulf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x8xf16>
    %ln = linalg.generic {indexing_maps = [#rows, #rows, #rows, #rows], iterator_types = ["parallel"]} ins(%lc, %al, %lj : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}
