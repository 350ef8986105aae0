// RUN: dfsched-opt %s -split-input-file --loop-invariant-code-motion --allow-unregistered-dialect | filecheck %s

// Nothing with an effect moves, even when it is invariant: ktdf pipelines, stages and
// transfers, allocations (memref.alloc, create_token, reserve_size), stores, unknown ops.
// Ops that depend on the induction variable stay too.
// CHECK-LABEL: func.func @stays
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      %[[A:.*]] = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:      %[[T:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:      %[[R:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:      %[[X:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[U:.*]] = "test.unknown"() : () -> index
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %{{.*}}[0, 0] size [1, 64] to %[[A]][0, 0] size [1, 64]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      "test.use"(%[[T]], %[[R]], %[[X]], %[[U]])
// CHECK-NEXT:    }
func.func @stays(%src: memref<4x64xf16>, %n: index, %m: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<1x64xf16, "L1">
    %t = ktdf.create_token : !ktdf.token
    %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
    %x = arith.addi %i, %c1 : index
    %u = "test.unknown"() : () -> index
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.data_transfer from %src[0, 0] size [1, 64] to %a[0, 0] size [1, 64] : memref<4x64xf16>, memref<1x64xf16, "L1">
      }
    }
    memref.store %n, %m[%c0] : memref<4xindex>
    "test.use"(%t, %r, %x, %u) : (!ktdf.token, index, index, index) -> ()
  }
  return
}

// -----

// An op whose nested ops read a value of the loop body stays; one whose regions only use
// outside values and values of its own moves (scf.if with pure branches).
// CHECK-LABEL: func.func @regions
// CHECK-SAME:    (%[[C:[^:]*]]: i1, %[[N:[^:]*]]: index)
// CHECK:         %[[OUT:.*]] = scf.if %[[C]] -> (index) {
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      %[[X:.*]] = arith.muli %[[I]], %[[I]] : index
// CHECK-NEXT:      %[[IN:.*]] = scf.if %[[C]] -> (index) {
// CHECK-NEXT:        scf.yield %[[X]] : index
// CHECK:           "test.use"(%[[OUT]], %[[IN]]) : (index, index) -> ()
func.func @regions(%c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.muli %i, %i : index
    %out = scf.if %c -> (index) {
      %y = arith.addi %n, %n : index
      scf.yield %y : index
    } else {
      scf.yield %n : index
    }
    %in = scf.if %c -> (index) {
      scf.yield %x : index
    } else {
      scf.yield %n : index
    }
    "test.use"(%out, %in) : (index, index) -> ()
  }
  return
}

// -----

// Loops without invariant code are left alone; so is code outside loops.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT:    %[[A:.*]] = arith.addi
// CHECK-NEXT:    arith.constant 0
// CHECK-NEXT:    arith.constant 1
// CHECK-NEXT:    scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      arith.addi %[[I]], %[[A]]
func.func @nothing(%n: index) {
  %a = arith.addi %n, %n : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %b = arith.addi %i, %a : index
    "test.use"(%b) : (index) -> ()
  }
  return
}
