// RUN: dfsched-opt %s -split-input-file --device=sample --reduction-loop-exposure | filecheck %s
// RUN: dfsched-opt %s -split-input-file --device=sample --reduction-loop-exposure --map-reduction-partials | filecheck %s --check-prefix=PARTIALS
// RUN: dfsched-opt %s -split-input-file --device=sample -p 'reduction-loop-exposure{lane-wide=false}' | filecheck %s --check-prefix=COLUMNS

// Lane-wide reductions (Decision 65): the sample device's SFU has 64 f16 lanes. Four rows of
// 64 leave 60 of them idle when a step carries one column, so the reduction dim is stepped by
// L = 16 (the largest power of two dividing 64 with 4 x L within the lanes): 4 steps of a
// [4, 16] block, the generic marked dfsched.lane_wide = 16. One row of 48 steps by 16 (the
// largest power of two dividing 48). map-reduction-partials keeps a 4x16 buffer of partials,
// filled with the combiner's identity (-inf for a maximum) before the loop, combines each
// block into it element-wise, and folds it into the 4-element result on the last step before
// the write. Not re-ordered: a combiner that is not associative and commutative (subf), and
// rows that fill more than half the lanes (48 of 64): one column per step, as upstream.
// `lane-wide=false` keeps one column per step everywhere.

// CHECK-LABEL: func.func @four_rows(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token)
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[C4:.*]] step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0, %[[J]] * 16] size [4, 16] to %{{.*}} size [4, 16]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4xf16>) {
// CHECK-NEXT:      %[[STEP:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 64xf16> -> tensor<4x16xf16>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[STEP]] : tensor<4x16xf16>) outs(%[[ACC]] : tensor<4xf16>) attrs = {dfsched.lane_wide = 16 : index}

// PARTIALS-LABEL: func.func @four_rows(
// PARTIALS:         %[[RESULT:.*]] = memref.alloc() : memref<4xf16, "SFU_REG">
// PARTIALS:         %[[LANES:.*]] = memref.alloc() : memref<4x16xf16, "SFU_REG">
// PARTIALS:         %[[NEG_INF:.*]] = arith.constant 0xFC00 : f16
// PARTIALS-NEXT:    linalg.fill ins(%[[NEG_INF]] : f16) outs(%[[LANES]] : memref<4x16xf16, "SFU_REG">)
// PARTIALS-NEXT:    scf.for
// PARTIALS-NEXT:      %[[STEP:.*]] = ktdf.read_from_fifo %{{.*}} -> memref<4x16xf16>
// PARTIALS-NEXT:      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%[[STEP]] : memref<4x16xf16>) outs(%[[LANES]] : memref<4x16xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 16 : index}
// PARTIALS:           scf.if
// PARTIALS-NEXT:        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%[[LANES]] : memref<4x16xf16, "SFU_REG">) outs(%[[RESULT]] : memref<4xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 16 : index}
// PARTIALS:             ^bb0(%[[IN:.*]]: f16, %[[OUT:.*]]: f16):
// PARTIALS-NEXT:          arith.maximumf %[[OUT]], %[[IN]] : f16
// PARTIALS:             ktdf.write_to_fifo %[[RESULT]]

// COLUMNS-LABEL: func.func @four_rows(
// COLUMNS:         ktdf.data_transfer from %{{.*}}[0, %{{.*}}] size [4, 1]
// COLUMNS-NOT:     dfsched.lane_wide

func.func @four_rows(%in: memref<4x64xf16, "L1">, %out: memref<4x1xf16, "L1">) {
  %cst = arith.constant 0xFC00 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [4, 64] to %f#0 size [4, 64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 256xf16> -> tensor<4x64xf16>
      %e = tensor.empty() : tensor<4xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<4x64xf16>) outs(%i : tensor<4xf16>) {
      ^bb0(%a: f16, %b: f16):
        %r = arith.maximumf %b, %a : f16
        linalg.yield %r : f16
      } -> tensor<4xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<4xf16>, <"SFU" -> "L1SU", 4xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [4, 1] to %out[0, 0] size [4, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, memref<4x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// Decision 111: `arith.maxnumf` (a NaN loses to a number) steps lane-wide too; its partials
// start from NaN, the one value every operand beats (-inf would turn a lane that saw only NaNs
// into -inf, where the kernel's own maximum of NaNs and its init is the init).

// CHECK-LABEL: func.func @four_rows_maxnum(
// CHECK:         linalg.generic {{.*}} attrs = {dfsched.lane_wide = 16 : index}
// CHECK:           arith.maxnumf

// PARTIALS-LABEL: func.func @four_rows_maxnum(
// PARTIALS:         %[[LANES:.*]] = memref.alloc() : memref<4x16xf16, "SFU_REG">
// PARTIALS:         %[[NAN:.*]] = arith.constant 0x7E00 : f16
// PARTIALS-NEXT:    linalg.fill ins(%[[NAN]] : f16) outs(%[[LANES]] : memref<4x16xf16, "SFU_REG">)

func.func @four_rows_maxnum(%in: memref<4x64xf16, "L1">, %out: memref<4x1xf16, "L1">) {
  %cst = arith.constant 0xFC00 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [4, 64] to %f#0 size [4, 64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 256xf16> -> tensor<4x64xf16>
      %e = tensor.empty() : tensor<4xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<4x64xf16>) outs(%i : tensor<4xf16>) {
      ^bb0(%a: f16, %b: f16):
        %r = arith.maxnumf %b, %a : f16
        linalg.yield %r : f16
      } -> tensor<4xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<4xf16>, <"SFU" -> "L1SU", 4xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [4, 1] to %out[0, 0] size [4, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, memref<4x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// CHECK-LABEL: func.func @one_row_of_48(
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[C3:.*]] step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0, %[[J]] * 16] size [1, 16] to %{{.*}} size [1, 16]
// CHECK:         ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 16xf16> -> tensor<1x16xf16>
// CHECK-NEXT:    linalg.generic {{.*}} attrs = {dfsched.lane_wide = 16 : index}

// PARTIALS-LABEL: func.func @one_row_of_48(
// PARTIALS:         memref.alloc() : memref<1x16xf16, "SFU_REG">
// PARTIALS:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// PARTIALS-NEXT:    linalg.fill ins(%[[ZERO]] : f16) outs(%{{.*}} : memref<1x16xf16, "SFU_REG">)
// PARTIALS:           arith.mulf
// PARTIALS:           iterator_types = ["parallel", "reduction"]
// PARTIALS:           ^bb0(%[[IN:.*]]: f16, %[[OUT:.*]]: f16):
// PARTIALS-NEXT:        arith.addf %[[OUT]], %[[IN]] : f16

func.func @one_row_of_48(%in: memref<1x48xf16, "L1">, %out: memref<1x1xf16, "L1">) {
  %cst = arith.constant 0.0 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [1, 48] to %f#0 size [1, 48] : memref<1x48xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 48xf16> -> tensor<1x48xf16>
      %e = tensor.empty() : tensor<1xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x48xf16>) outs(%i : tensor<1xf16>) {
      ^bb0(%a: f16, %b: f16):
        %s = arith.mulf %a, %a : f16
        %r = arith.addf %b, %s : f16
        linalg.yield %r : f16
      } -> tensor<1xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [1, 1] to %out[0, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<1x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// A sum of squares whose input is read twice (`ins(%v, %v)`: x * x fused into the reduction,
// corpus rmsnorm_4core_2x2) steps lane-wide too (Decision 94): each step squares a 1x16 block
// into the partials element-wise, all three maps the identity.

// CHECK-LABEL: func.func @square_read_twice(
// CHECK:         %[[STEP:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 16xf16> -> tensor<1x16xf16>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[STEP]], %[[STEP]] : tensor<1x16xf16>, tensor<1x16xf16>) {{.*}} attrs = {dfsched.lane_wide = 16 : index}

// PARTIALS-LABEL: func.func @square_read_twice(
// PARTIALS:         %[[LANES:.*]] = memref.alloc() : memref<1x16xf16, "SFU_REG">
// PARTIALS:           %[[STEP:.*]] = ktdf.read_from_fifo %{{.*}} -> memref<1x16xf16>
// PARTIALS-NEXT:      linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%[[STEP]], %[[STEP]] : memref<1x16xf16>, memref<1x16xf16>) outs(%[[LANES]] : memref<1x16xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 16 : index}

func.func @square_read_twice(%in: memref<1x48xf16, "L1">, %out: memref<1x1xf16, "L1">) {
  %cst = arith.constant 0.0 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [1, 48] to %f#0 size [1, 48] : memref<1x48xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 48xf16> -> tensor<1x48xf16>
      %e = tensor.empty() : tensor<1xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v, %v : tensor<1x48xf16>, tensor<1x48xf16>) outs(%i : tensor<1xf16>) {
      ^bb0(%a: f16, %a2: f16, %b: f16):
        %s = arith.mulf %a, %a2 : f16
        %r = arith.addf %b, %s : f16
        linalg.yield %r : f16
      } -> tensor<1xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [1, 1] to %out[0, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<1x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// Two different inputs of one shape (exp(x - m) summed, m a row splatted to x's shape, as the
// front door writes Triton's softmax_wide) step lane-wide alike (Decision 104): each step reads a
// 1x16 block of both.

// CHECK-LABEL: func.func @two_inputs(
// CHECK:         %[[X:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 16xf16> -> tensor<1x16xf16>
// CHECK-NEXT:    %[[M:.*]] = ktdf.read_from_fifo %{{.*}} : <"L1LU" -> "SFU", 16xf16> -> tensor<1x16xf16>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[X]], %[[M]] : tensor<1x16xf16>, tensor<1x16xf16>) {{.*}} attrs = {dfsched.lane_wide = 16 : index}

// PARTIALS-LABEL: func.func @two_inputs(
// PARTIALS:         %[[LANES:.*]] = memref.alloc() : memref<1x16xf16, "SFU_REG">
// PARTIALS:           linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : memref<1x16xf16>, memref<1x16xf16>) outs(%[[LANES]] : memref<1x16xf16, "SFU_REG">) attrs = {dfsched.lane_wide = 16 : index}

func.func @two_inputs(%in: memref<1x48xf16, "L1">, %row: memref<1x48xf16, "L1">, %out: memref<1x1xf16, "L1">) {
  %cst = arith.constant 0.0 : f16
  ktdf.pipeline {
    %f:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
      %x:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x#0, %x#1, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#3) {
      ktdf.data_transfer from %in[0, 0] size [1, 48] to %f#0 size [1, 48] : memref<1x48xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
      ktdf.data_transfer from %row[0, 0] size [1, 48] to %f#1 size [1, 48] : memref<1x48xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 48xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#3) depends_out(%f#4) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 48xf16> -> tensor<1x48xf16>
      %w = ktdf.read_from_fifo %f#1 : <"L1LU" -> "SFU", 48xf16> -> tensor<1x48xf16>
      %e = tensor.empty() : tensor<1xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v, %w : tensor<1x48xf16>, tensor<1x48xf16>) outs(%i : tensor<1xf16>) {
      ^bb0(%a: f16, %c: f16, %b: f16):
        %d = arith.subf %a, %c : f16
        %x2 = math.exp %d : f16
        %r = arith.addf %b, %x2 : f16
        linalg.yield %r : f16
      } -> tensor<1xf16>
      ktdf.write_to_fifo %m, %f#2 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#4) depends_out(none) {
      ktdf.data_transfer from %f#2 size [1, 1] to %out[0, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<1x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// CHECK-LABEL: func.func @not_commutative(
// CHECK:         ktdf.data_transfer from %{{.*}}[0, %{{.*}}] size [4, 1]
// CHECK-NOT:     dfsched.lane_wide
// CHECK:         return

func.func @not_commutative(%in: memref<4x64xf16, "L1">, %out: memref<4x1xf16, "L1">) {
  %cst = arith.constant 0.0 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [4, 64] to %f#0 size [4, 64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 256xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 256xf16> -> tensor<4x64xf16>
      %e = tensor.empty() : tensor<4xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<4x64xf16>) outs(%i : tensor<4xf16>) {
      ^bb0(%a: f16, %b: f16):
        %r = arith.subf %b, %a : f16
        linalg.yield %r : f16
      } -> tensor<4xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<4xf16>, <"SFU" -> "L1SU", 4xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [4, 1] to %out[0, 0] size [4, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 4xf16>, memref<4x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}

// -----

// CHECK-LABEL: func.func @rows_fill_the_lanes(
// CHECK:         ktdf.data_transfer from %{{.*}}[0, %{{.*}}] size [48, 1]
// CHECK-NOT:     dfsched.lane_wide
// CHECK:         return

func.func @rows_fill_the_lanes(%in: memref<48x64xf16, "L1">, %out: memref<48x1xf16, "L1">) {
  %cst = arith.constant 0xFC00 : f16
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 3072xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 48xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 3072xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 48xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 3072xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 48xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [48, 64] to %f#0 size [48, 64] : memref<48x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 3072xf16>
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 3072xf16> -> tensor<48x64xf16>
      %e = tensor.empty() : tensor<48xf16>
      %i = linalg.fill ins(%cst : f16) outs(%e : tensor<48xf16>) -> tensor<48xf16>
      %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<48x64xf16>) outs(%i : tensor<48xf16>) {
      ^bb0(%a: f16, %b: f16):
        %r = arith.maximumf %b, %a : f16
        linalg.yield %r : f16
      } -> tensor<48xf16>
      ktdf.write_to_fifo %m, %f#1 : tensor<48xf16>, <"SFU" -> "L1SU", 48xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [48, 1] to %out[0, 0] size [48, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 48xf16>, memref<48x1xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}
