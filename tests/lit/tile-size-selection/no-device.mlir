// RUN: dfsched-opt %s --verify-diagnostics --tile-size-selection
// RUN: dfsched-opt %s --device=sample --tile-size-selection | filecheck %s

// Scratchpad buffers need a device to read the capacity from: the module declares none and no
// --device is given. With --device the size is chosen (12 rows of 2 x 2 x 12 f16 fit).

// CHECK:         %[[C12:.*]] = arith.constant 12 : index
// CHECK:         %[[SIZE:.*]] = arith.constant 12 : index
// CHECK-NEXT:    arith.ceildivui %[[C12]], %[[SIZE]] : index
// CHECK:         memref.alloc(%[[SIZE]], %[[SIZE]]) : memref<?x?x12xf16, "L1">
func.func @needs_device() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  // expected-error @below {{tile-size-selection: buffers are allocated in memory space "L1" but no device declares its capacity (declare a ktdf_arch.device or pass --device)}}
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c12, %ts : index
  %buf = memref.alloc(%ts, %ts) : memref<?x?x12xf16, "L1">
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %buf[%i, %i, %i] : memref<?x?x12xf16, "L1">
  }
  memref.dealloc %buf : memref<?x?x12xf16, "L1">
  return
}
