// RUN: dfsched-opt %s --canonicalize --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s --canonicalize="max-iterations=1" --allow-unregistered-dialect | filecheck %s --check-prefix=ONE
// RUN: dfsched-opt %s --canonicalize="region-simplify=disabled top-down=false" --allow-unregistered-dialect | filecheck %s
// RUN: not dfsched-opt %s --canonicalize="region-simplify=sometimes" 2>&1 | filecheck %s --check-prefix=BAD

// A folded value is materialized where the op was; the next iteration hoists it. With a single
// iteration it stays there (as with MLIR's max-iterations=1).
// CHECK-LABEL: func.func @fold
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[X:.*]] = "test.op"() : () -> i32
// CHECK-NEXT:    "test.use"(%[[C5]], %[[X]]) : (i32, i32) -> ()
// ONE-LABEL:   func.func @fold
// ONE-NEXT:      %[[X:.*]] = "test.op"() : () -> i32
// ONE-NEXT:      %[[C5:.*]] = arith.constant 5 : i32
// ONE-NEXT:      "test.use"(%[[C5]], %[[X]]) : (i32, i32) -> ()
// BAD: error: invalid options for pass 'canonicalize': region-simplify must be one of disabled, normal, aggressive, got 'sometimes'
func.func @fold() {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %x = "test.op"() : () -> i32
  %s = arith.addi %c2, %c3 : i32
  "test.use"(%s, %x) : (i32, i32) -> ()
  return
}
