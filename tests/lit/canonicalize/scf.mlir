// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// iter_args that are yielded unchanged, that yield their init, or that nobody uses go; their
// results become the init values. Two iter_args with the same init and yield merge.
// CHECK-LABEL: func.func @iter_args
// CHECK-SAME:    (%[[N:[^:]*]]: index, %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32)
// CHECK:         %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[Y]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[A]], %[[Y]] : f32
// CHECK-NEXT:      "test.use"(%[[Y]], %[[T]]) : (f32, f32) -> ()
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.use"(%[[R]], %[[R]], %[[X]], %[[Y]], %[[X]]) : (f32, f32, f32, f32, f32) -> ()
func.func @iter_args(%n: index, %x: f32, %y: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x, %same = %x, %init = %y, %unused = %x)
      -> (f32, f32, f32, f32, f32) {
    %s = arith.addf %a, %y : f32
    %t = arith.addf %b, %y : f32
    "test.use"(%init, %t) : (f32, f32) -> ()
    scf.yield %s, %s, %same, %y, %x : f32, f32, f32, f32, f32
  }
  "test.use"(%r#0, %r#1, %r#2, %r#3, %r#2) : (f32, f32, f32, f32, f32) -> ()
  return
}

// -----

// scf.if: unused results go, an empty else goes, and the condition is known in the branches.
// CHECK-LABEL: func.func @if_ops
// CHECK-SAME:    (%[[C:[^:]*]]: i1, %[[X:[^:]*]]: f32)
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK:         %[[R:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT:      "test.use"(%[[TRUE]]) : (i1) -> ()
// CHECK-NEXT:      scf.yield %[[X]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "test.use"(%[[FALSE]]) : (i1) -> ()
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      scf.yield %[[N]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      "test.op"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.use"(%[[R]]) : (f32) -> ()
func.func @if_ops(%c: i1, %x: f32) {
  %r:2 = scf.if %c -> (f32, f32) {
    "test.use"(%c) : (i1) -> ()
    scf.yield %x, %x : f32, f32
  } else {
    "test.use"(%c) : (i1) -> ()
    %n = arith.negf %x : f32
    scf.yield %x, %n : f32, f32
  }
  scf.if %c {
    "test.op"() : () -> ()
  } else {
  }
  "test.use"(%r#1) : (f32) -> ()
  return
}
