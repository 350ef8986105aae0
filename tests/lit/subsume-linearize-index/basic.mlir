// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --subsume-linearize-index | filecheck %s

// A transfer index computed by a linearize_index with constant strides becomes the weighted
// sum of its induction variables, written in the transfer's subscript; the linearize_index
// goes away.

// CHECK-LABEL: func.func @source_rows(
// CHECK-SAME:      %[[A:[^:]*]]: memref<96x64xf16>
// CHECK-NOT:     ktdf.tiling.linearize_index
// CHECK-NOT:     affine.apply
// CHECK:         scf.for %[[T:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[P:[^ ]*]] =
// CHECK-NEXT:        ktdf.data_transfer from %[[A]][%[[T]] * 8 + %[[P]], 0] size [1, 64] to %{{.*}} size [64]
// CHECK:           }
func.func @source_rows(%A: memref<96x64xf16>, %slot: !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  scf.for %t = %c0 to %c12 step %c1 {
    scf.for %p = %c0 to %c8 step %c1 {
      %row = ktdf.tiling.linearize_index [%t : %c8], [%p : %c1] : index
      ktdf.data_transfer from %A[%row, %c0] size [1, 64] to %slot size [64]
        : memref<96x64xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
    }
  }
  return
}

// -----

// Both sides; an index inside an expression ((8t + p) * 64 + 2q + 3, composed with the
// dimensions in MLIR's composition order); an index used twice; three pairs; a source index
// that is not a linearize_index. A side without a foldable index is left as it is (its %c0
// stays an operand).

// CHECK-LABEL: func.func @both_sides(
// CHECK-SAME:      %[[A:[^:]*]]: memref<96x128xf16>, %[[B:[^:]*]]: memref<6144xf16>, %[[K:[^:]*]]: index
// CHECK:         scf.for %[[T:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[P:[^ ]*]] =
// CHECK-NEXT:        scf.for %[[Q:[^ ]*]] =
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][%[[T]] * 8 + %[[P]], %[[K]]] size [1, 64] to %[[B]][%[[Q]] * 2 + %[[T]] * 512 + %[[P]] * 64 + 3] size [64]
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][%[[T]] * 8 + %[[P]], %[[T]] * 8 + %[[P]]] size [1, 64] to %[[B]][%[[C0:.*]]] size [64]
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][%[[C0]], %[[K]]] size [1, 64] to %[[B]][%[[T]] * 8 + %[[P]] + %[[Q]] * 2] size [64]
func.func @both_sides(%A: memref<96x128xf16>, %B: memref<6144xf16>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c64 = arith.constant 64 : index
  scf.for %t = %c0 to %c12 step %c1 {
    scf.for %p = %c0 to %c8 step %c1 {
      scf.for %q = %c0 to %c2 step %c1 {
        %row = ktdf.tiling.linearize_index [%t : %c8], [%p : %c1] : index
        %flat = ktdf.tiling.linearize_index [%t : %c8], [%p : %c1], [%q : %c2] : index
        ktdf.data_transfer from %A[%row, %k] size [1, 64] to %B[%row * 64 + %q * 2 + 3] size [64]
          : memref<96x128xf16>, memref<6144xf16>
        ktdf.data_transfer from %A[%row, %row] size [1, 64] to %B[%c0] size [64]
          : memref<96x128xf16>, memref<6144xf16>
        ktdf.data_transfer from %A[%c0, %k] size [1, 64] to %B[%flat] size [64]
          : memref<96x128xf16>, memref<6144xf16>
      }
    }
  }
  return
}

// -----

// Left alone: a stride that is not a constant (the index stays), and a linearize_index that
// something other than a transfer uses. Unused ones are erased anywhere.

// CHECK-LABEL: func.func @kept(
// CHECK-SAME:      %[[A:[^:]*]]: memref<96xf16>, %[[S:[^:]*]]: index
// CHECK:         %[[DYN:.*]] = ktdf.tiling.linearize_index [%{{.*}} : %[[S]]], [%{{.*}} : %{{.*}}] : index
// CHECK-NEXT:    %[[USED:.*]] = ktdf.tiling.linearize_index [%{{.*}} : %{{.*}}] : index
// CHECK-NEXT:    "test.use"(%[[USED]]) : (index) -> ()
// CHECK-NEXT:    ktdf.data_transfer from %[[A]][%[[DYN]]] size [8]
// CHECK-NOT:     ktdf.tiling.linearize_index
// CHECK:         return
func.func @kept(%A: memref<96xf16>, %s: index, %slot: !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %t = %c0 to %c12 step %c1 {
    %dyn = ktdf.tiling.linearize_index [%t : %s], [%c0 : %c1] : index
    %used = ktdf.tiling.linearize_index [%t : %c12] : index
    %dead = ktdf.tiling.linearize_index [%t : %c1] : index
    "test.use"(%used) : (index) -> ()
    ktdf.data_transfer from %A[%dyn] size [8] to %slot size [8] : memref<96xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 8xf16>
  }
  return
}

// -----

// A linearize_index that no transfer reads and that arith ops read (a tile's position added to
// the position in a compute body, Decision 107) becomes the affine.apply of its weighted sum;
// one that another op reads stays.

// CHECK-LABEL: func.func @position_offset(
// CHECK:         scf.for %[[T:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[P:[^ ]*]] =
// CHECK-NEXT:        %[[ROW:.*]] = affine.apply #{{.*}}(%[[T]], %[[P]])
// CHECK-NEXT:        arith.index_cast %[[ROW]] : index to i32
// CHECK-NEXT:        %[[KEPT:.*]] = ktdf.tiling.linearize_index [%[[T]] : %{{.*}}], [%[[P]] : %{{.*}}] : index
// CHECK-NEXT:        "test.use"(%[[KEPT]])
func.func @position_offset() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  scf.for %t = %c0 to %c12 step %c1 {
    scf.for %p = %c0 to %c8 step %c1 {
      %row = ktdf.tiling.linearize_index [%t : %c8], [%p : %c1] : index
      %offset = arith.index_cast %row : index to i32
      %kept = ktdf.tiling.linearize_index [%t : %c8], [%p : %c1] : index
      "test.use"(%kept) : (index) -> ()
    }
  }
  return
}
