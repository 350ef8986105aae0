// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// Ops without effects whose results are unused go: pure ops, allocations of their own result
// (memref.alloc, ktdf.create_token, ktdf.tiling.reserve_size), and unused FIFO slots.
// CHECK-LABEL: func.func @unused
// CHECK-NEXT:    return
func.func @unused(%n: index) {
  %c4 = arith.constant 4 : index
  %a = arith.addi %n, %c4 : index
  %b = arith.muli %a, %a : index
  %alloc = memref.alloc() : memref<4xf16, "L1">
  %t = ktdf.create_token : !ktdf.token
  %r = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %s:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %d = ktdf.tiling.derive_size [%n : %r], total_size = %c4 : index
  return
}

// -----

// Used values and ops with effects stay; a loop whose body has no effect is dead too.
// CHECK-LABEL: func.func @kept
// CHECK-SAME:    (%[[N:.*]]: index, %[[M:.*]]: memref<4xf16>)
// CHECK-NEXT:    %[[F:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ALLOC:.*]] = memref.alloc() : memref<4xf16>
// CHECK-NEXT:    memref.copy %[[M]], %[[ALLOC]] : memref<4xf16> to memref<4xf16>
// CHECK-NEXT:    %[[T:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    "test.effect"() : () -> ()
// CHECK-NEXT:    %[[U:.*]] = "test.unknown"() : () -> index
// CHECK-NEXT:    "test.use"(%[[T]]) : (!ktdf.token) -> ()
// CHECK-NEXT:    scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      memref.store %[[F]], %[[M]][%[[C0]]] : memref<4xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @kept(%n: index, %m: memref<4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %alloc = memref.alloc() : memref<4xf16>
  memref.copy %m, %alloc : memref<4xf16> to memref<4xf16>
  %t = ktdf.create_token : !ktdf.token
  "test.effect"() : () -> ()
  %u = "test.unknown"() : () -> index
  "test.use"(%t) : (!ktdf.token) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %i : index
  }
  scf.for %i = %c0 to %n step %c1 {
    %f = arith.constant 1.0 : f16
    memref.store %f, %m[%c0] : memref<4xf16>
  }
  return
}

// -----

// Inside a private, the yielded resources stay and the rest goes.
// CHECK-LABEL: func.func @private
// CHECK:         ktdf.private -> (!ktdf.token) {
// CHECK-NEXT:      %[[T:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:      ktdf.private_yield %[[T]] : !ktdf.token
// CHECK-NEXT:    }
func.func @private() {
  ktdf.pipeline {
    %p = ktdf.private -> (!ktdf.token) {
      %unused = ktdf.create_token : !ktdf.token
      %slot = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      %buf = memref.alloc() : memref<1x64xf16, "L1">
      %t = ktdf.create_token : !ktdf.token
      ktdf.private_yield %t : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p) {
    }
  }
  return
}
