// RUN: dfsched-opt %s -split-input-file --fold-accumulation-loops | filecheck %s

// Decision 88. An online softmax over pages gathered through a block table (running maximum,
// rescaled sum and accumulator carried by the loop) becomes one softmax over the whole range:
// the gathers grow from one page to both (the variable the page index adds to the loop
// variable now ranges over 2), the scores over all 8 keys, one max and one sum reduction, and
// the weighted sum of all values from zero. No loop is left.

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
func.func @online_softmax(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
// CHECK-LABEL: func.func @online_softmax
// CHECK-NOT:     scf.for
// CHECK:         %[[K:.*]] = ktdp.construct_indirect_access_tile {{.*}} -> !ktdp.access_tile<2x4x8xindex>
// CHECK-NEXT:    %[[KEYS:.*]] = ktdp.load %[[K]] : <2x4x8xindex> -> tensor<2x4x8xf16>
// CHECK:         %[[VALUES:.*]] = ktdp.load {{.*}} -> tensor<2x4x8xf16>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KEYS]] : tensor<2x8xf16>, tensor<2x4x8xf16>) outs(%{{.*}} : tensor<2x2x4xf16>)
// CHECK:         %[[M:.*]] = linalg.reduce { arith.maximumf } ins(%[[S]] : tensor<2x2x4xf16>) {{.*}} dimensions = [1, 2]
// CHECK:         %[[P:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[M]] : tensor<2x2x4xf16>, tensor<2xf16>)
// CHECK:           math.exp
// CHECK:         %[[L:.*]] = linalg.reduce { arith.addf } ins(%[[P]] : tensor<2x2x4xf16>)
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[VALUES]] : tensor<2x2x4xf16>, tensor<2x4x8xf16>) outs(%{{.*}} : tensor<2x8xf16>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[M]], %[[L]], %[[A]]

// -----

// The pages collapsed into rows of tokens (`[1, 4, 8]` into `[4, 8]`, Triton's reshape): the
// stepped dimension is the outermost of its group, so the grown collapse keeps page j's tokens
// at rows 4j to 4j + 3 (`[2, 4, 8]` into `[8, 8]`), and the scores cover all 8 keys.

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
#q2 = affine_map<(m, n, d) -> (m, d)>
#k2 = affine_map<(m, n, d) -> (n, d)>
#s2 = affine_map<(m, n, d) -> (m, n)>
#w2 = affine_map<(m, d, n) -> (m, n)>
#v2 = affine_map<(m, d, n) -> (n, d)>
#o2 = affine_map<(m, d, n) -> (m, d)>
func.func @collapsed_pages(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  %es = tensor.empty() : tensor<2x4xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%es : tensor<2x4xf16>) -> tensor<2x4xf16>
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %k2 = tensor.collapse_shape %k [[0, 1], [2]] : tensor<1x4x8xf16> into tensor<4x8xf16>
    %v2 = tensor.collapse_shape %v [[0, 1], [2]] : tensor<1x4x8xf16> into tensor<4x8xf16>
    %s = linalg.generic {indexing_maps = [#q2, #k2, #s2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k2 : tensor<2x8xf16>, tensor<4x8xf16>) outs(%s0 : tensor<2x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.mulf %x, %y : f16
      %r = arith.addf %t, %o : f16
      linalg.yield %r : f16
    } -> tensor<2x4xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%s : tensor<2x4xf16>) outs(%m0 : tensor<2xf16>) dimensions = [1]
    %mn = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel"]} ins(%mc, %mx : tensor<2xf16>, tensor<2xf16>) outs(%er : tensor<2xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %r = arith.maximumf %x, %y : f16
      linalg.yield %r : f16
    } -> tensor<2xf16>
    %pw = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s, %mn : tensor<2x4xf16>, tensor<2xf16>) outs(%es : tensor<2x4xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %t = arith.subf %x, %y : f16
      %r = math.exp %t : f16
      linalg.yield %r : f16
    } -> tensor<2x4xf16>
    %lj = linalg.reduce { arith.addf } ins(%pw : tensor<2x4xf16>) outs(%z0 : tensor<2xf16>) dimensions = [1]
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
    %an = linalg.generic {indexing_maps = [#w2, #v2, #o2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%pw, %v2 : tensor<2x4xf16>, tensor<4x8xf16>) outs(%as : tensor<2x8xf16>) {
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
// CHECK-LABEL: func.func @collapsed_pages
// CHECK-NOT:     scf.for
// CHECK:         %[[KEYS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x4x8xf16> into tensor<8x8xf16>
// CHECK:         %[[VALUES:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x4x8xf16> into tensor<8x8xf16>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KEYS]] : tensor<2x8xf16>, tensor<8x8xf16>) outs(%{{.*}} : tensor<2x8xf16>)
// CHECK:         linalg.reduce { arith.maximumf } ins(%[[S]] : tensor<2x8xf16>) {{.*}} dimensions = [1]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[VALUES]] : tensor<2x8xf16>, tensor<8x8xf16>) outs(%{{.*}} : tensor<2x8xf16>)

// -----

// Decision 95: a body reading its chunk position `j * c + linalg.index d` along the dimension
// the loop steps (a causal mask) reads `linalg.index d` of the grown op; other positions stay.
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
func.func @chunk_position_in_body(%q: tensor<2x8xf16>) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
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
  %m, %l, %a = scf.for %j = %c0 to %c2 step %c1 iter_args(%mc = %m0, %lc = %l0, %ac = %a0) -> (tensor<2xf16>, tensor<2xf16>, tensor<2x8xf16>) {
    %kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %kp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %k = ktdp.load %kt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %u, %d) %vp[ind(%table[%j + %p]), (%u), (%d)] {variables_space_set = #one_page, variables_space_order = #id3} : memref<8x4x8xf16>, memref<2xi32> -> !ktdp.access_tile<1x4x8xindex>
    %v = ktdp.load %vt : <1x4x8xindex> -> tensor<1x4x8xf16>
    %ek = tensor.empty() : tensor<1x4x8xf16>
    %ki = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<1x4x8xf16>) outs(%ek : tensor<1x4x8xf16>) {
    ^bb0(%x: f16, %o: f16):
      %i0 = linalg.index 0 : index
      %jc = arith.muli %j, %c1 : index
      %i = arith.addi %jc, %i0 : index
      %i2 = linalg.index 2 : index
      %ii = arith.addi %i, %i2 : index
      %c = arith.index_cast %ii : index to i32
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

// CHECK-LABEL: func.func @chunk_position_in_body
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<2x4x8xf16>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[P:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[P]], %[[D]] : index
// CHECK-NEXT:      arith.index_cast %[[S]] : index to i32
