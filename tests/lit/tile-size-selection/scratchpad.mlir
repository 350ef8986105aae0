// RUN: dfsched-opt %s --split-input-file --device=sample --allow-unregistered-dialect --tile-size-selection=strategy=largest | filecheck %s

// The largest tile whose buffers fit the device's scratchpad (the sample device's L1 holds
// 1 MiB): A + B -> C over 8192 rows of 64 f16 (128 bytes a row). A whole-kernel tile would
// need 3 x 1 MiB; 2048 rows need 3 x 256 KiB = 768 KiB, 4096 rows 1.5 MiB.

// CHECK-LABEL: func.func @add_rows(
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 2048 : index
// CHECK-NEXT:    arith.ceildivui %[[C8192]], %[[ROWS]] : index
// CHECK-NOT:     ktdf.tiling.derive_size
// CHECK:         memref.alloc(%[[ROWS]]) : memref<?x64xf16, "L1">
func.func @add_rows(%A: memref<8192x64xf16, "DDR">, %B: memref<8192x64xf16, "DDR">, %C: memref<8192x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8192, %rows : index
  scf.for %t = %c0 to %tiles step %c1 {
    %n = ktdf.tiling.derive_size [%t : %rows], total_size = %c8192 : index
    %first = ktdf.tiling.linearize_index [%t : %rows] : index
    ktdf.pipeline {
      %a, %b, %c = ktdf.private -> (memref<?x64xf16, "L1">, memref<?x64xf16, "L1">, memref<?x64xf16, "L1">) {
        %a0 = memref.alloc(%n) : memref<?x64xf16, "L1">
        %b0 = memref.alloc(%n) : memref<?x64xf16, "L1">
        %c0_ = memref.alloc(%n) : memref<?x64xf16, "L1">
        ktdf.private_yield %a0, %b0, %c0_ : memref<?x64xf16, "L1">, memref<?x64xf16, "L1">, memref<?x64xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %A[%first, 0] size [%n, 64] to %a[0, 0] size [%n, 64] : memref<8192x64xf16, "DDR">, memref<?x64xf16, "L1">
        ktdf.data_transfer from %B[%first, 0] size [%n, 64] to %b[0, 0] size [%n, 64] : memref<8192x64xf16, "DDR">, memref<?x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %c[0, 0] size [%n, 64] to %C[%first, 0] size [%n, 64] : memref<?x64xf16, "L1">, memref<8192x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Double buffering: each operand has two copies, hoisted out of the loop and picked by
// ktdf.select_memref in a modulo(size : 2) pipeline. Six buffers: 1024 rows (768 KiB).
// The copies are counted once each, not again for the pipeline's modulo.

// CHECK-LABEL: func.func @double_buffered(
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    arith.ceildivui %[[C8192]], %[[ROWS]] : index
func.func @double_buffered(%A: memref<8192x64xf16, "DDR">, %B: memref<8192x64xf16, "DDR">, %C: memref<8192x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8192, %rows : index
  %a0 = memref.alloc(%rows) : memref<?x64xf16, "L1">
  %a1 = memref.alloc(%rows) : memref<?x64xf16, "L1">
  %b0 = memref.alloc(%rows) : memref<?x64xf16, "L1">
  %b1 = memref.alloc(%rows) : memref<?x64xf16, "L1">
  %c0_ = memref.alloc(%rows) : memref<?x64xf16, "L1">
  %c1_ = memref.alloc(%rows) : memref<?x64xf16, "L1">
  scf.for %t = %c0 to %tiles step %c1 {
    %n = ktdf.tiling.derive_size [%t : %rows], total_size = %c8192 : index
    %first = ktdf.tiling.linearize_index [%t : %rows] : index
    %phase = ktdf.buffer_phase(%t) {num_phases = 2 : i64} : index
    %a = ktdf.select_memref %phase[%a0, %a1] : memref<?x64xf16, "L1">
    %b = ktdf.select_memref %phase[%b0, %b1] : memref<?x64xf16, "L1">
    %c = ktdf.select_memref %phase[%c0_, %c1_] : memref<?x64xf16, "L1">
    ktdf.pipeline modulo(size : 2) {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %A[%first, 0] size [%n, 64] to %a[0, 0] size [%n, 64] : memref<8192x64xf16, "DDR">, memref<?x64xf16, "L1">
        ktdf.data_transfer from %B[%first, 0] size [%n, 64] to %b[0, 0] size [%n, 64] : memref<8192x64xf16, "DDR">, memref<?x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %c[0, 0] size [%n, 64] to %C[%first, 0] size [%n, 64] : memref<?x64xf16, "L1">, memref<8192x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  memref.dealloc %a0 : memref<?x64xf16, "L1">
  memref.dealloc %a1 : memref<?x64xf16, "L1">
  memref.dealloc %b0 : memref<?x64xf16, "L1">
  memref.dealloc %b1 : memref<?x64xf16, "L1">
  memref.dealloc %c0_ : memref<?x64xf16, "L1">
  memref.dealloc %c1_ : memref<?x64xf16, "L1">
  return
}

// -----

// Parallel instances: the buffers of a pipeline inside ktdf.parallel over the two corelets
// exist once per instance. 3 buffers x 2 instances: 1024 rows.

// CHECK-LABEL: func.func @two_corelets(
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    arith.ceildivui %[[C8192]], %[[ROWS]] : index
func.func @two_corelets() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8192, %rows : index
  ktdf.parallel (%t, %inst) = (%c0) to (%tiles) step (%c1) distribute(num_instances = 2) {
    %n = ktdf.tiling.derive_size [%t : %rows], total_size = %c8192 : index
    ktdf.pipeline {
      %a, %b, %c = ktdf.private -> (memref<?x64xf16, "L1">, memref<?x64xf16, "L1">, memref<?x64xf16, "L1">) {
        %a0 = memref.alloc(%n) : memref<?x64xf16, "L1">
        %b0 = memref.alloc(%n) : memref<?x64xf16, "L1">
        %c0_ = memref.alloc(%n) : memref<?x64xf16, "L1">
        ktdf.private_yield %a0, %b0, %c0_ : memref<?x64xf16, "L1">, memref<?x64xf16, "L1">, memref<?x64xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(none) {
      } {applicable_units = ["L1LU"]}
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// Both: double-buffered copies allocated inside the parallel body (6 buffers x 2 instances):
// 512 rows.

// CHECK-LABEL: func.func @double_buffered_corelets(
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 512 : index
// CHECK-NEXT:    arith.ceildivui %[[C8192]], %[[ROWS]] : index
func.func @double_buffered_corelets() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8192 = arith.constant 8192 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8192, %rows : index
  ktdf.parallel (%p, %inst) = (%c0) to (%c2) step (%c1) distribute(num_instances = 2) {
    %a0 = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %a1 = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %b0 = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %b1 = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %c0_ = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %c1_ = memref.alloc(%rows) : memref<?x64xf16, "L1">
    scf.for %t = %c0 to %tiles step %c1 {
      %phase = ktdf.buffer_phase(%t) {num_phases = 2 : i64} : index
      %a = ktdf.select_memref %phase[%a0, %a1] : memref<?x64xf16, "L1">
      %b = ktdf.select_memref %phase[%b0, %b1] : memref<?x64xf16, "L1">
      %c = ktdf.select_memref %phase[%c0_, %c1_] : memref<?x64xf16, "L1">
      ktdf.pipeline modulo(size : 2) {
        ktdf.stage depends_in(none) depends_out(none) {
        } {applicable_units = ["L1LU"]}
      }
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// A modulo(size : 2) pipeline cycles through two sets of its private buffers: 3 x 2 buffers.

// CHECK-LABEL: func.func @rolling_private(
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    arith.ceildivui %[[C8192]], %[[ROWS]] : index
func.func @rolling_private() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8192, %rows : index
  scf.for %t = %c0 to %tiles step %c1 {
    %n = ktdf.tiling.derive_size [%t : %rows], total_size = %c8192 : index
    ktdf.pipeline modulo(size : 2) {
      %a, %b, %c = ktdf.private -> (memref<?x64xf16, "L1">, memref<?x64xf16, "L1">, memref<?x64xf16, "L1">) {
        %a0 = memref.alloc(%n) : memref<?x64xf16, "L1">
        %b0 = memref.alloc(%n) : memref<?x64xf16, "L1">
        %c0_ = memref.alloc(%n) : memref<?x64xf16, "L1">
        ktdf.private_yield %a0, %b0, %c0_ : memref<?x64xf16, "L1">, memref<?x64xf16, "L1">, memref<?x64xf16, "L1">
      }
      ktdf.stage depends_in(none) depends_out(none) {
      } {applicable_units = ["MNILU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Static scratchpad buffers take their share first (768 KiB here, leaving 2048 rows for one
// tiled buffer); buffers in DDR and in the SFU registers (below the scratchpad) do not count.
// Dimensions computed from the placeholder count with their largest value (2 * rows here).

// CHECK-LABEL: func.func @shares(
// CHECK:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK:         %[[ROWS:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    arith.ceildivui %[[C8192]], %[[ROWS]] : index
func.func @shares() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c8192, %rows : index
  %fixed = memref.alloc() : memref<393216xf16, "L1">
  %ddr = memref.alloc(%rows) : memref<?x8192xf16, "DDR">
  %regs = memref.alloc(%rows) : memref<?x1024xf16, "SFU_REG">
  %twice = affine.apply affine_map<(d0) -> (d0 * 2)>(%rows)
  %tile = memref.alloc(%twice) : memref<?x64xf16, "L1">
  scf.for %t = %c0 to %tiles step %c1 {
    "test.use"(%fixed, %ddr, %regs, %tile) : (memref<393216xf16, "L1">, memref<?x8192xf16, "DDR">, memref<?x1024xf16, "SFU_REG">, memref<?x64xf16, "L1">) -> ()
  }
  return
}
