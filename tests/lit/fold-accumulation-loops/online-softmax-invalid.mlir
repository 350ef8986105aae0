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

// -----

// A fourth carried value: the fold rebuilds exactly the maximum, the sum and the accumulator.
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
func.func @four_carried(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but it carries 4 values, not three (maximum, sum, accumulator)}}
  %m, %l, %a, %x = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0, %xc = %z0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>, tensor<2xf16>) {
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
    scf.yield %mn, %ln, %an, %xc : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>, tensor<2xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// A range the kernel's scalars set is not folded until they are bound.
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
func.func @unbound_range(%q: tensor<2x8xf16>, %n: index) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but its bounds and step are not constants (bind the kernel's scalars with --bind)}}
  %m, %l, %a = scf.for %j = %c0 to %n step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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

// The chunks must tile the range: a step of 2 over [0, 1) does not.
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
func.func @uneven_step(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but its step (2) does not divide its non-empty range [0, 1)}}
  %m, %l, %a = scf.for %j = %c0 to %c1 step %c2 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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

// The running maximum read again besides the rescale factor.
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
func.func @maximum_read_twice(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the running maximum is read by 2 ops besides its update, not by one rescale}}
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
    %twice = arith.addf %mc, %mx : tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// The rescale factor exp(new - old) instead of exp(old - new).
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
func.func @rescale_reversed(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the running maximum is read other than by exp(old maximum - new maximum)}}
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
    %al = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mn, %mc : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
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

// The new maximum read by one more op.
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
func.func @new_maximum_read_again(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the new maximum is read other than by exp(scores - new maximum) and the rescale factor}}
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
    %twice = arith.addf %mn, %mn : tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// The accumulator's next value is the rescaled accumulator, not a contraction into it.
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
func.func @no_contraction(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but no carried value is a contraction into the rescaled accumulator}}
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
    scf.yield %mn, %ln, %as : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// The running sum's update (L + a) * l instead of L * a + l.
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
func.func @sum_update_swapped(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the running sum's next value is not L * rescale factor + the sum of exponentials}}
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
      %t = arith.addf %x, %y : f16
      %r = arith.mulf %t, %z : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// The running sum adds a max reduction of the exponentials.
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
func.func @sum_of_maxima(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the running sum does not add the sum reduction of exp(scores - new maximum)}}
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
    %lj = linalg.reduce { arith.maximumf } ins(%pw : tensor<2x1x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
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

// The chunk's sum of exponentials reduces into a fill of 1.
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
func.func @sum_from_one(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the sum of exponentials does not start from zero}}
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
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x4xf16>) outs(%l0 : tensor<2xf16>) dimensions = [1, 2]
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

// The accumulator added to the rescale factor instead of multiplied by it.
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
func.func @accumulator_plus_rescale(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the accumulator is not contracted into itself times the rescale factor}}
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
      %r = arith.addf %x, %y : f16
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

// The contraction weighs the values by the scores, not by their exponentials.
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
func.func @contraction_of_scores(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the contraction does not read exp(scores - new maximum) and one other input}}
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
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
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

// The running sum starts at -inf, not a finite value.
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
func.func @sum_from_minus_infinity(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  %l0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{but the running sum does not start at a finite splat}}
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

// The accumulator starts at 1, not 0.
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
func.func @accumulator_from_one(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  %a0 = linalg.fill ins(%one : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x4xf16>) -> tensor<2x1x4xf16>
  // expected-error @below {{but the accumulator does not start at zero}}
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

// The contraction keeps the page dimension parallel: it does not sum over the pages.
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
func.func @page_not_reduced(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an input of 'linalg.generic' does not step along a dimension it reduces}}
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
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pw, %v : tensor<2x1x4xf16>, tensor<1x4x8xf16>) outs(%as : tensor<2x8xf16>) {
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

// A store in the loop: the iterations would merge.
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
func.func @effect_in_loop(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{in the loop has an effect}}
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
    ktdp.store %k, %kt : tensor<1x4x8xf16>, !ktdp.access_tile<1x4x8xindex>
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// Index arithmetic on the loop variable that feeds no access tile.
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
func.func @stray_index_arithmetic(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but 'arith.addi' in the loop depends on the loop variable and is not part of the scores}}
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
    %next = arith.addi %j, %c1 : index
    %twice = arith.muli %next, %c2 : index
    scf.yield %mn, %ln, %an : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
  }
  return %m, %l, %a : tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>
}

// -----

// A chunk through an op the fold does not grow.
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
func.func @cast_chunk(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but 'tensor.cast' computes a chunk of the scores or values and does not grow with the range}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %k2 = tensor.cast %k : tensor<1x4x8xf16> to tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k2 : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// The pool the gather reads moves with the loop.
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
func.func @moving_pool(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an indirect access tile's view or index views change with the loop}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kpm = arith.addi %kpa, %j : index
    %kpl = ktdp.construct_memory_view %kpm, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
    %kt3 = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kpl[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k3 = ktdp.load %kt3 : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k3 : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// The page index twice the loop variable: not the loop variable plus an offset.
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
func.func @scaled_page_index(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an indirect access tile must capture exactly one value that changes with the loop}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %j2 = arith.muli %j, %c2 : index
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j2 + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
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

// A gather enumerating its variables in another order.
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
func.func @variables_out_of_order(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an indirect access tile in the loop must enumerate a variables space in order}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = affine_map<(d0, d1, d2) -> (d0, d2, d1)>} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
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

// The loop variable in two subscripts of the gather.
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
func.func @loop_variable_twice(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the value an indirect access tile captures from the loop must appear in one subscript}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u + %j), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
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

// The page variable in two subscripts of the gather.
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
func.func @page_variable_twice(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but variable 0 of an indirect access tile, which the loop steps, is used in more than one subscript}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u + %p), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
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

// One page per chunk but the loop steps by 2.
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
func.func @page_shorter_than_step(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an indirect access tile is 1 long along the loop's dimension but the loop steps by 2}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c2 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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

// A chunk plus a loop-invariant tensor that is not a splat, fill or broadcast.
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
func.func @unknown_bias(%q: tensor<2x8xf16>, %bias: tensor<1x4x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an operand of 'arith.addf' is the same in every iteration but not a splat, fill or broadcast}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %k2 = arith.addf %k, %bias : tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k2 : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// The scores read a page through a map result that is not a dimension.
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>
#rows = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#q_map = affine_map<(m, p, u, d) -> (m, d)>
#k_map = affine_map<(m, p, u, d) -> (p * 2, u, d)>
#s_map = affine_map<(m, p, u, d) -> (m, p, u)>
#w_map = affine_map<(m, d, p, u) -> (m, p, u)>
#v_map = affine_map<(m, d, p, u) -> (p, u, d)>
#o_map = affine_map<(m, d, p, u) -> (m, d)>
func.func @page_through_sum_map(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but 'linalg.generic' reads a chunk through a map that is not a dimension}}
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

// The scores reduce over the page dimension.
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
func.func @scores_reduce_pages(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but 'linalg.generic' reduces along the dimension the loop steps}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "reduction", "parallel", "reduction"]} ins(%q, %k : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// The loop-invariant query indexed by the page dimension.
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>
#rows = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#q_map = affine_map<(m, p, u, d) -> (p, d)>
#k_map = affine_map<(m, p, u, d) -> (p, u, d)>
#s_map = affine_map<(m, p, u, d) -> (m, p, u)>
#w_map = affine_map<(m, d, p, u) -> (m, p, u)>
#v_map = affine_map<(m, d, p, u) -> (p, u, d)>
#o_map = affine_map<(m, d, p, u) -> (m, d)>
func.func @query_indexed_by_page(%q: tensor<1x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but an input of 'linalg.generic' is the same in every iteration but indexed by the dimension the loop steps}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// The scores' result not indexed by the page dimension.
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
#s_map = affine_map<(m, p, u, d) -> (m, 0, u)>
#w_map = affine_map<(m, d, p, u) -> (m, p, u)>
#v_map = affine_map<(m, d, p, u) -> (p, u, d)>
#o_map = affine_map<(m, d, p, u) -> (m, d)>
func.func @scores_drop_page(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the result of 'linalg.generic' does not step with the loop from an init that is the same in every iteration}}
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

// The scores computed into a tensor the kernel is given.
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
func.func @scores_into_argument(%q: tensor<2x8xf16>, %init: tensor<2x1x4xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the init of 'linalg.generic' is not a splat, fill or tensor.empty}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%init : tensor<2x1x4xf16>) {
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

// A score body reading a scalar computed from the loop variable.
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
func.func @body_reads_loop_variable(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but the body of 'linalg.generic' reads a value that changes with the loop}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f16
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %w = arith.addf %t, %o : f16
      %r = arith.addf %w, %jf : f16
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

// The scores computed from the carried accumulator.
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
func.func @accumulator_as_query(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but a chunk of the scores or values is a loop-carried value}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ac, %k : tensor<2x8xf16>, tensor<1x4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// A chunk loaded through a tile an scf.if picks.
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
func.func @tile_through_if(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but a chunk is loaded through an access tile not built in the loop}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %first = arith.cmpi ult, %j, %c1 : index
    %kt2 = scf.if %first -> (!ktdp.access_tile<1x4x8xindex>) {
      scf.yield %kt : !ktdp.access_tile<1x4x8xindex>
    } else {
      scf.yield %kt : !ktdp.access_tile<1x4x8xindex>
    }
    %k = ktdp.load %kt2 : <1x4x8xindex> -> tensor<1x4x8xf16>
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

// A collapse whose groups leave out the page dimension.
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0)>
#rows = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#q_map = affine_map<(m, p, u, d) -> (m, d)>
#k_map = affine_map<(m, p, u, d) -> (u, d)>
#s_map = affine_map<(m, p, u, d) -> (m, p, u)>
#w_map = affine_map<(m, d, p, u) -> (m, p, u)>
#v_map = affine_map<(m, d, p, u) -> (p, u, d)>
#o_map = affine_map<(m, d, p, u) -> (m, d)>
func.func @collapse_without_page(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but 'tensor.collapse_shape' has no group for the dimension the loop steps}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %k2 = tensor.collapse_shape %k [[1], [2]] : tensor<1x4x8xf16> into tensor<4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k2 : tensor<2x8xf16>, tensor<4x8xf16>) outs(%s0 : tensor<2x1x4xf16>) {
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

// A max reduction that keeps the page dimension parallel.
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
func.func @maximum_keeps_pages(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  // expected-error @below {{but 'linalg.generic' does not reduce along the dimension the loop steps}}
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
    %mx = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x1x4xf16>) outs(%m0 : tensor<2xf16>) {
    ^bb0(%x: f16, %o: f16):
      %r = arith.maximumf %x, %o : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
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

// A key page (stepping along its first dimension) plus a bias chunk stepping along its second:
// the two chunks grow along different dimensions.
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#b_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 7 >= 0)>
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
func.func @bias_steps_columns(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ba = arith.constant 2048 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %bv = ktdp.construct_memory_view %ba, sizes: [1, 2, 8], strides: [16, 8, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<1x2x8xf16>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x1xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x1xf16>) -> tensor<2x1x1xf16>
  // expected-error @below {{but the operands of 'arith.addf' step along different dimensions}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x1x8xindex>
    %k = ktdp.load %kt : <1x1x8xindex> -> tensor<1x1x8xf16>
    %bt = ktdp.construct_access_tile %bv[%c0, %j, %c0] {access_tile_order = #id3, access_tile_set = #one_page} : memref<1x2x8xf16> -> !ktdp.access_tile<1x1x8xindex>
    %b = ktdp.load %bt : <1x1x8xindex> -> tensor<1x1x8xf16>
    %k2 = arith.addf %k, %b : tensor<1x1x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x1x8xindex>
    %v = ktdp.load %vt : <1x1x8xindex> -> tensor<1x1x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k2 : tensor<2x8xf16>, tensor<1x1x8xf16>) outs(%s0 : tensor<2x1x1xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x1xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x1xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x1xf16>, tensor<2xf16>) outs(%es : tensor<2x1x1xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x1xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x1xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
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
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x1xf16>, tensor<1x1x8xf16>) outs(%as : tensor<2x8xf16>) {
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

// The same sum as a linalg.generic: its chunk inputs step along different dimensions.
#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#table_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one_page = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#b_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 7 >= 0)>
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
func.func @bias_steps_columns_generic(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kpa = arith.constant 0 : index
  %vpa = arith.constant 512 : index
  %ta = arith.constant 1024 : index
  %ba = arith.constant 2048 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %kp = ktdp.construct_memory_view %kpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %vp = ktdp.construct_memory_view %vpa, sizes: [8, 4, 8], strides: [32, 8, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<8x4x8xf16>
  %table = ktdp.construct_memory_view %ta, sizes: [2], strides: [1] {coordinate_set = #table_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %bv = ktdp.construct_memory_view %ba, sizes: [1, 2, 8], strides: [16, 8, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<1x2x8xf16>
  %ek = tensor.empty() : tensor<1x1x8xf16>
  %er = tensor.empty() : tensor<2xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %l0 = linalg.fill ins(%one : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%er : tensor<2xf16>) -> tensor<2xf16>
  %eo = tensor.empty() : tensor<2x8xf16>
  %a0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8xf16>) -> tensor<2x8xf16>
  %es = tensor.empty() : tensor<2x1x1xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x1x1xf16>) -> tensor<2x1x1xf16>
  // expected-error @below {{but the chunk inputs of 'linalg.generic' step along different dimensions}}
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x1x8xindex>
    %k = ktdp.load %kt : <1x1x8xindex> -> tensor<1x1x8xf16>
    %bt = ktdp.construct_access_tile %bv[%c0, %j, %c0] {access_tile_order = #id3, access_tile_set = #one_page} : memref<1x2x8xf16> -> !ktdp.access_tile<1x1x8xindex>
    %b = ktdp.load %bt : <1x1x8xindex> -> tensor<1x1x8xf16>
    %k2 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k, %b : tensor<1x1x8xf16>, tensor<1x1x8xf16>) outs(%ek : tensor<1x1x8xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.addf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<1x1x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x1x8xindex>
    %v = ktdp.load %vt : <1x1x8xindex> -> tensor<1x1x8xf16>
    %s = linalg.generic {indexing_maps = [#q_map, #k_map, #s_map], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k2 : tensor<2x8xf16>, tensor<1x1x8xf16>) outs(%s0 : tensor<2x1x1xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x1x1xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x1x1xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1, 2]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mn : tensor<2x1x1xf16>, tensor<2xf16>) outs(%es : tensor<2x1x1xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x1x1xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x1x1xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1, 2]
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
    %an = linalg.generic {indexing_maps = [#w_map, #v_map, #o_map], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%pw, %v : tensor<2x1x1xf16>, tensor<1x1x8xf16>) outs(%as : tensor<2x8xf16>) {
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

