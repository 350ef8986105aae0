// RUN: dfsched-opt %s -allow-unregistered-dialect > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -allow-unregistered-dialect > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | dfsched-opt -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect -canonicalize | filecheck %s --check-prefix=CANON

// ktdf.fifo.allocate, ktdf.read_from_fifo and ktdf.write_to_fifo.

// Allocation: parentheses always printed, one index operand per `?` slot, result types
// in full form; read/write print the slot type stripped to `<...>` and accept both forms.
// CHECK-LABEL: func.func @allocate_read_write
// CHECK-SAME:    (%[[N:.*]]: index, %[[BUF:.*]]: memref<2x16xf32>)
// CHECK-NEXT:    %[[S:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
// CHECK-NEXT:    %[[D:.*]] = ktdf.fifo.allocate(%[[N]]) {depth = 2 : i64} -> !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf32>
// CHECK-NEXT:    %[[T:.*]] = ktdf.read_from_fifo %[[S]] : <"L1LU" -> "SFU", 32xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    %[[M:.*]] = ktdf.read_from_fifo %[[S]] {unrealized} : <"L1LU" -> "SFU", 32xf32> -> memref<32xf32>
// CHECK-NEXT:    %[[E:.*]] = "probe.make"() : () -> tensor<?xf32>
// CHECK-NEXT:    ktdf.write_to_fifo %[[E]], %[[D]] : tensor<?xf32>, <"SFU" -> "L1SU", ?xf32>
// CHECK-NEXT:    ktdf.write_to_fifo %[[BUF]], %[[S]] {tag = "w"} : memref<2x16xf32>, <"L1LU" -> "SFU", 32xf32>
// CHECK-NEXT:    %[[R:.*]] = ktdf.read_from_fifo %[[D]] : <"SFU" -> "L1SU", ?xf32> -> tensor<?xf32>
// CHECK-NEXT:    "probe.use"(%[[T]], %[[M]], %[[R]])
func.func @allocate_read_write(%n: index, %buf: memref<2x16xf32>) {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32>
  %d = ktdf.fifo.allocate(%n) {depth = 2} -> !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf32>
  %t = ktdf.read_from_fifo %s : !ktdf.fifo.slot<"L1LU" -> "SFU", 32xf32> -> tensor<2x16xf32>
  %m = ktdf.read_from_fifo %s {unrealized} : <"L1LU" -> "SFU", 32xf32> -> memref<32xf32>
  %e = "probe.make"() : () -> tensor<?xf32>
  ktdf.write_to_fifo %e, %d : tensor<?xf32>, !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf32>
  ktdf.write_to_fifo %buf, %s {tag = "w"} : memref<2x16xf32>, <"L1LU" -> "SFU", 32xf32>
  %r = ktdf.read_from_fifo %d : <"SFU" -> "L1SU", ?xf32> -> tensor<?xf32>
  "probe.use"(%t, %m, %r) : (tensor<2x16xf32>, memref<32xf32>, tensor<?xf32>) -> ()
  return
}

// Several slots in one allocation, dynamic sizes matched to `?` slots in order.
// CHECK-LABEL: func.func @multi_slot
// CHECK-NEXT:    %{{.*}} = ktdf.fifo.allocate(%[[A:.*]], %[[B:.*]]) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
func.func @multi_slot(%a: index, %b: index) {
  %x:3 = ktdf.fifo.allocate(%a, %b) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
  "probe.use"(%x#1) : (!ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>) -> ()
  return
}

// Canonicalization erases an allocation none of whose slots is used, and keeps one
// with a used slot.
// CANON-LABEL: func.func @unused_allocation
// CANON-NEXT:    %[[USED:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"A" -> "B", 4xf16>, !ktdf.fifo.slot<"A" -> "B", 4xf16>
// CANON-NEXT:    "probe.use"
// CANON-NEXT:    return
func.func @unused_allocation() {
  %gone = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"A" -> "B", 4xf16>
  %kept:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"A" -> "B", 4xf16>, !ktdf.fifo.slot<"A" -> "B", 4xf16>
  "probe.use"(%kept#1) : (!ktdf.fifo.slot<"A" -> "B", 4xf16>) -> ()
  return
}
