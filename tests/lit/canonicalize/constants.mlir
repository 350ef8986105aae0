// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | dfsched-opt -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// Constants are uniqued and moved to the front of the function's entry block, from any depth
// (loops, ktdf regions). They are collected in program order and each one moved goes in front
// of those already there; a constant right after another uniqued one stays where it is.
// CHECK-LABEL: func.func @hoist
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[X:.*]] = "test.op"() : () -> index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C1]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      %[[Y:.*]] = arith.muli %[[I]], %[[C7]] : index
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          "test.use"(%[[Y]], %[[C1]], %[[X]], %[[C2]]) : (index, index, index, index) -> ()
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @hoist(%n: index) {
  %c1 = arith.constant 1 : index
  %x = "test.op"() : () -> index
  %c2 = arith.constant 2 : index
  scf.for %i = %c1 to %n step %c1 {
    %c7 = arith.constant 7 : index
    %y = arith.muli %i, %c7 : index
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        %c1_0 = arith.constant 1 : index
        %c2_0 = arith.constant 2 : index
        "test.use"(%y, %c1_0, %x, %c2_0) : (index, index, index, index) -> ()
      }
    }
  }
  return
}

// -----

// Folding: the result becomes a constant, the operands die, the new constant is hoisted.
// Equal non-constant ops are not merged (that is cse's job).
// CHECK-LABEL: func.func @fold
// CHECK-SAME:    (%[[A:.*]]: i32)
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[X:.*]] = "test.op"() : () -> i32
// CHECK-NEXT:    %[[M1:.*]] = arith.muli %[[A]], %[[X]] : i32
// CHECK-NEXT:    %[[M2:.*]] = arith.muli %[[A]], %[[X]] : i32
// CHECK-NEXT:    "test.use"(%[[C5]], %[[A]], %[[M1]], %[[M2]]) : (i32, i32, i32, i32) -> ()
// CHECK-NEXT:    return
func.func @fold(%a: i32) {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %x = "test.op"() : () -> i32
  %s = arith.addi %c2, %c3 : i32
  %c0 = arith.constant 0 : i32
  %t = arith.addi %a, %c0 : i32
  %m1 = arith.muli %a, %x : i32
  %m2 = arith.muli %a, %x : i32
  "test.use"(%s, %t, %m1, %m2) : (i32, i32, i32, i32) -> ()
  return
}

// -----

// Each function (isolated from above) has its own constants; nested modules keep theirs.
// Same value, another type: another constant (moved in front, as it follows a non-constant).
// CHECK-LABEL: module @program
// CHECK:         func.func @f
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      "test.use"(%[[C4]]) : (index) -> ()
// CHECK:         func.func @g
// CHECK-NEXT:      %[[C4I:.*]] = arith.constant 4 : i32
// CHECK-NEXT:      %[[C4G:.*]] = arith.constant 4 : index
// CHECK-NEXT:      "test.use"(%[[C4G]]) : (index) -> ()
// CHECK-NEXT:      "test.use"(%[[C4I]]) : (i32) -> ()
module @program {
  func.func @f() {
    %c4 = arith.constant 4 : index
    "test.use"(%c4) : (index) -> ()
    return
  }
  func.func @g() {
    %c4 = arith.constant 4 : index
    "test.use"(%c4) : (index) -> ()
    %c4_i32 = arith.constant 4 : i32
    "test.use"(%c4_i32) : (i32) -> ()
    return
  }
}

// -----

// A loop body left with a constant after inlining: the constant joins the function's.
// CHECK-LABEL: func.func @inlined_body
// CHECK-NEXT:    %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    "test.use"(%[[C0]], %[[C6]]) : (index, index) -> ()
// CHECK-NEXT:    return
func.func @inlined_body() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    %c6 = arith.constant 6 : index
    "test.use"(%i, %c6) : (index, index) -> ()
  }
  return
}
