// RUN: dfsched-opt %s -split-input-file --ktdfarch-apply-patterns=groups=pre_scheduling | filecheck %s

// The sample device has no patterns. Upstream still hands the function to MLIR's greedy
// driver, which uniques constants and moves them to the front of the function, folds, and
// erases dead ops: so does this pass. Without any device the pass does nothing.

// CHECK-LABEL: func.func @cleanup(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index)
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      %[[X:.*]] = arith.muli %[[I]], %[[C4]] : index
// CHECK-NEXT:      func.call @use(%[[X]]) : (index) -> ()
// CHECK:         }
// CHECK:         return

module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")
  func.func private @use(index)
  func.func @cleanup(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %unused = arith.addi %n, %c1 : index
    scf.for %i = %c0 to %n step %c1 {
      %c4 = arith.constant 4 : index
      %c1_again = arith.constant 1 : index
      %x = arith.muli %i, %c4 : index
      %y = arith.muli %x, %c1_again : index
      func.call @use(%y) : (index) -> ()
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @untouched(
// CHECK:         %{{.*}} = arith.constant 0 : index
// CHECK:         %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.addi
// CHECK:         return

module {
  func.func @untouched(%n: index) {
    %a = arith.constant 0 : index
    %b = arith.constant 0 : index
    %dead = arith.addi %a, %b : index
    return
  }
}
