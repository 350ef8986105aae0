// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --tile-scf-for-loops | filecheck %s --check-prefix=OFF
// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --tile-scf-for-loops="tile-single-loops=true" | filecheck %s

// `tile-single-loops` (dfsched, off by default as upstream): in dynamic mode a lone parallel
// loop with no scf.for around it (a depth-1 nest, a strip-mining candidate) is tiled exactly
// like a depth-1 tiling nest: one reserve_size before it, a tile loop up to
// ceildivui(total, size), a derive_size point loop, and a linearize_index for the old
// induction variable. Without the option such a loop is left alone.

// OFF-LABEL: func.func @rows(
// OFF-NOT:     ktdf.tiling
// OFF:         scf.for
// OFF-NOT:     scf.for
// OFF:         return

// CHECK-LABEL: func.func @rows(
// CHECK-SAME:      %[[A:.*]]: memref<8192x64xf16>) {
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK-NEXT:    %[[R:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[N:.*]] = arith.ceildivui %[[C8192]], %[[R]] : index
// CHECK-NEXT:    scf.for %[[T:.*]] = %[[ZERO]] to %[[N]] step %[[ONE]] {
// CHECK-NEXT:      %[[S:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[R]]], total_size = %[[C8192]] : index
// CHECK-NEXT:      scf.for %[[P:.*]] = %[[ZERO]] to %[[S]] step %[[ONE]] {
// CHECK-NEXT:        %[[I:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[R]]], [%[[P]] : %[[ONE]]] : index
// CHECK-NEXT:        "test.row"(%[[A]], %[[I]]) : (memref<8192x64xf16>, index) -> ()
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         return
func.func @rows(%A: memref<8192x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  scf.for %i = %c0 to %c8192 step %c1 {
    "test.row"(%A, %i) : (memref<8192x64xf16>, index) -> ()
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A single loop whose induction variable is not used gets no linearize_index.

// CHECK-LABEL: func.func @no_iv_use(
// CHECK:         ktdf.tiling.reserve_size
// CHECK:         scf.for
// CHECK-NEXT:      ktdf.tiling.derive_size
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        "test.op"() : () -> ()
// CHECK-NOT:     ktdf.tiling.linearize_index
func.func @no_iv_use() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    "test.op"() : () -> ()
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Not tiled: a reduction loop (or one with no loop_type), a loop that carries values, and a
// loop inside another loop (the imperfect nest's outer loop is itself a lone parallel loop
// with no loop around it, so it is tiled; the inner lone loop is not a candidate).

// CHECK-LABEL: func.func @not_candidates(
// CHECK-NOT:     ktdf.tiling.reserve_size
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      "test.reduce"
// CHECK:         } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      "test.untyped"
// CHECK:         }
// CHECK-NEXT:    scf.for {{.*}} iter_args
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    %[[R:.*]] = ktdf.tiling.reserve_size
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.tiling.derive_size [%[[T]] : %[[R]]]
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[I:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[R]]]
// CHECK-NEXT:        "test.prologue"(%[[I]])
// CHECK-NEXT:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          "test.inner"
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NOT:     ktdf.tiling.reserve_size
func.func @not_candidates(%x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    "test.reduce"(%i) : (index) -> ()
  } {loop_type = #ktdf.loop_type<reduction_loop>}
  scf.for %i = %c0 to %c8 step %c1 {
    "test.untyped"(%i) : (index) -> ()
  }
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (f32) {
    %n = "test.acc"(%acc, %i) : (f32, index) -> f32
    scf.yield %n : f32
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  scf.for %i = %c0 to %c8 step %c1 {
    "test.prologue"(%i) : (index) -> ()
    scf.for %j = %c0 to %c8 step %c1 {
      "test.inner"(%i, %j) : (index, index) -> ()
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
