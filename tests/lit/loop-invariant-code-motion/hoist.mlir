// RUN: dfsched-opt %s -split-input-file --loop-invariant-code-motion --allow-unregistered-dialect | filecheck %s

// Pure ops whose operands all come from outside the loop move in front of it, in order; an op
// that only depends on hoisted ops follows them out.
// CHECK-LABEL: func.func @pure_ops
// CHECK-SAME:    (%[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// CHECK:         %[[A:.*]] = arith.muli %[[N]], %[[M]] : index
// CHECK-NEXT:    %[[B:.*]] = affine.apply #{{.*}}(%[[A]])
// CHECK-NEXT:    %[[C:.*]] = arith.addi %[[B]], %[[N]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:      %[[D:.*]] = arith.addi %[[I]], %[[C]] : index
// CHECK-NEXT:      "test.use"(%[[D]]) : (index) -> ()
// CHECK-NEXT:    }
func.func @pure_ops(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %n, %m : index
    %b = affine.apply affine_map<(d0) -> (d0 * 4)>(%a)
    %c = arith.addi %b, %n : index
    %d = arith.addi %i, %c : index
    "test.use"(%d) : (index) -> ()
  }
  return
}

// -----

// After tiling: derive_size goes up to its tile loop, linearize_index to its point loop.
// Inner loops are visited first, so ops climb as far as their operands allow. A division is
// only hoisted when its divisor is a non-zero constant (it could trap otherwise).
// CHECK-LABEL: func.func @tiling
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK:         %[[R:.*]] = ktdf.tiling.reserve_size
// CHECK-NEXT:    %[[NT:.*]] = arith.ceildivui %[[N]], %[[C4:[^ ]*]] : index
// CHECK-NEXT:    scf.for %[[T:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:      %[[S:.*]] = ktdf.tiling.derive_size [%[[T]] : %[[R]]], total_size = %[[N]] : index
// CHECK-NEXT:      scf.for %[[P:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        %[[L:.*]] = ktdf.tiling.linearize_index [%[[T]] : %[[R]]], [%[[P]] : %{{.*}}] : index
// CHECK-NEXT:        scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[NR:.*]] = arith.ceildivui %[[N]], %[[R]] : index
// CHECK-NEXT:          "test.use"(%[[L]], %[[Q]], %[[S]], %[[NT]], %[[NR]]) : (index, index, index, index, index) -> ()
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @tiling(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  scf.for %t = %c0 to %n step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      scf.for %q = %c0 to %c4 step %c1 {
        %nt = arith.ceildivui %n, %c4 : index
        %nr = arith.ceildivui %n, %r : index
        %s = ktdf.tiling.derive_size [%t : %r], total_size = %n : index
        %l = ktdf.tiling.linearize_index [%t : %r], [%p : %c1] : index
        "test.use"(%l, %q, %s, %nt, %nr) : (index, index, index, index, index) -> ()
      }
    }
  }
  return
}
