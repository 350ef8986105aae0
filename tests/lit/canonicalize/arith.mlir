// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// Integer ops of constants fold (with the width of their type), divisions included unless
// they would trap.
// CHECK-LABEL: func.func @constants
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[CM3:.*]] = arith.constant -3 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG:     %[[B:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK-DAG:     %[[I:.*]] = arith.constant 12 : i32
// CHECK-NOT:     arith.constant
// CHECK:         %[[D:.*]] = arith.divui %[[C12]], %[[C0]] : index
// CHECK-NEXT:    "test.use"(%[[C6]], %[[C3]], %[[CM3]], %[[C2]], %[[C12]], %[[B]], %[[T]], %[[I]], %[[D]])
func.func @constants() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  %cm7 = arith.constant -7 : index
  %c5 = arith.constant 5 : index
  %a = arith.ceildivui %c12, %c2 : index
  %b = arith.ceildivui %c12, %c5 : index
  %c = arith.ceildivsi %cm7, %c2 : index
  %d = arith.remsi %c12, %c5 : index
  %e = arith.maxsi %c12, %cm7 : index
  %x = arith.constant 127 : i8
  %one = arith.constant 1 : i8
  %f = arith.addi %x, %one : i8
  %g = arith.cmpi slt, %cm7, %c2 : index
  %h = arith.index_cast %c12 : index to i32
  %dz = arith.divui %c12, %c0 : index
  "test.use"(%a, %b, %c, %d, %e, %f, %g, %h, %dz) : (index, index, index, index, index, i8, i1, i32, index) -> ()
  return
}

// -----

// Identities: x + 0, x * 1, x - x, x / 1, min(x, x), select of a constant condition; a
// constant on the left of a commutative op or a comparison moves to the right.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:[^:]*]]: index, %[[Y:[^:]*]]: index, %[[C:[^:]*]]: i1)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[M:.*]] = arith.muli %[[Y]], %[[C4]] : index
// CHECK-NEXT:    %[[CMP:.*]] = arith.cmpi sgt, %[[Y]], %[[C4]] : index
// CHECK-NEXT:    "test.use"(%[[X]], %[[X]], %[[C0]], %[[X]], %[[X]], %[[Y]], %[[M]], %[[CMP]], %[[X]])
func.func @identities(%x: index, %y: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %a = arith.addi %x, %c0 : index
  %b = arith.muli %c1, %x : index
  %d = arith.subi %y, %y : index
  %e = arith.divsi %x, %c1 : index
  %f = arith.minsi %x, %x : index
  %g = arith.select %true, %y, %x : index
  %m = arith.muli %c4, %y : index
  %cmp = arith.cmpi slt, %c4, %y : index
  %s = arith.subi %x, %c0 : index
  "test.use"(%a, %b, %d, %e, %f, %g, %m, %cmp, %s) : (index, index, index, index, index, index, index, i1, index) -> ()
  return
}
