// RUN: dfsched-opt %s --allow-unregistered-dialect > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir --allow-unregistered-dialect > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s --allow-unregistered-dialect --print-op-generic | dfsched-opt --allow-unregistered-dialect | filecheck %s

// scf as mlir-opt reads it: after `->`, one result type may come without parentheses
// (scf.for with iter_args, scf.if); results always print in parentheses.

// CHECK-LABEL: func.func @single_result
// CHECK-SAME:    (%[[T:[^:]*]]: tensor<4xf16>, %[[C:[^:]*]]: i1)
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[T]]) -> (tensor<4xf16>) {
// CHECK-NEXT:      scf.yield %[[ACC]] : tensor<4xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.*]] = scf.if %[[C]] -> (tensor<4xf16>) {
// CHECK-NEXT:      scf.yield %[[R]] : tensor<4xf16>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[T]] : tensor<4xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[S]] : tensor<4xf16>
func.func @single_result(%t: tensor<4xf16>, %c: i1) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t) -> tensor<4xf16> {
    scf.yield %acc : tensor<4xf16>
  }
  %s = scf.if %c -> tensor<4xf16> {
    scf.yield %r : tensor<4xf16>
  } else {
    scf.yield %t : tensor<4xf16>
  }
  return %s : tensor<4xf16>
}

// Several results, the parenthesized single result, an integer induction variable, an
// empty result list, empty regions (`{}` holds the implicit yield) and attributes after the
// region.
// CHECK-LABEL: func.func @other_forms
// CHECK:         %{{.*}}:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, index) : i32 {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      "test.op"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "test.op"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
func.func @other_forms(%x: f32, %n: index, %lo: i32, %hi: i32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %r:2 = scf.for %i = %lo to %hi step %one iter_args(%a = %x, %b = %n) -> (f32, index) : i32 {
    scf.yield %a, %b : f32, index
  }
  %q = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %a : f32
  }
  scf.if %c -> () {
    "test.op"() : () -> ()
  }
  scf.if %c {
  } else {
    "test.op"() : () -> ()
  }
  scf.if %c {}
  scf.for %i = %c0 to %n step %c1 {
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
