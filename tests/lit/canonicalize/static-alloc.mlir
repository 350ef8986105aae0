// RUN: dfsched-opt %s --canonicalize --allow-unregistered-dialect | filecheck %s

// Constant dynamic sizes of memref.alloc become static; a memref.cast restores the type the
// users expect. Non-constant sizes stay dynamic, and the memory space is kept.
// CHECK-LABEL: func.func @static_alloc
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<3x64xf16, "L1">
// CHECK-NEXT:    %[[CA:.*]] = memref.cast %[[A]] : memref<3x64xf16, "L1"> to memref<?x64xf16, "L1">
// CHECK-NEXT:    %[[B:.*]] = memref.alloc(%[[N]]) : memref<8x?xf32>
// CHECK-NEXT:    %[[CB:.*]] = memref.cast %[[B]] : memref<8x?xf32> to memref<?x?xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT:    "test.use"(%[[CA]], %[[CB]], %[[C]]) : (memref<?x64xf16, "L1">, memref<?x?xf32>, memref<?xf32>) -> ()
// CHECK-NEXT:    return
func.func @static_alloc(%n: index) {
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc(%c3) : memref<?x64xf16, "L1">
  %b = memref.alloc(%c8, %n) : memref<?x?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %dead = memref.alloc(%c8) : memref<?xf32>
  "test.use"(%a, %b, %c) : (memref<?x64xf16, "L1">, memref<?x?xf32>, memref<?xf32>) -> ()
  return
}
