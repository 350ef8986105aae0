// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s

// A buffer that is only stored into and deallocated is dead, with its users; made static
// first, its cast folds into the dealloc.
// CHECK-LABEL: func.func @dead_buffers
// CHECK-SAME:    (%[[V:.*]]: f16)
// CHECK-NEXT:    return
func.func @dead_buffers(%v: f16) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf16>
  memref.store %v, %a[%c0] : memref<4xf16>
  memref.dealloc %a : memref<4xf16>
  %b = memref.alloc(%c4) : memref<?xf16, "L1">
  memref.dealloc %b : memref<?xf16, "L1">
  return
}

// -----

// A buffer that is read, or stored somewhere else, stays; loads and stores read through the
// static buffer once the cast is folded into them.
// CHECK-LABEL: func.func @live_buffers
// CHECK-SAME:    (%[[P:.*]]: memref<4xmemref<4xf16>>)
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf16>
// CHECK-NEXT:    %[[L:.*]] = memref.load %[[A]][%{{.*}}] : memref<4xf16>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<4xf16>
// CHECK-NEXT:    memref.store %[[B]], %[[P]][%{{.*}}] : memref<4xmemref<4xf16>>
// CHECK-NEXT:    "test.use"(%[[L]]) : (f16) -> ()
func.func @live_buffers(%p: memref<4xmemref<4xf16>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc(%c4) : memref<?xf16>
  %l = memref.load %a[%c0] : memref<?xf16>
  %b = memref.alloc() : memref<4xf16>
  memref.store %b, %p[%c0] : memref<4xmemref<4xf16>>
  "test.use"(%l) : (f16) -> ()
  return
}
