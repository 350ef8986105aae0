// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --device=sample --tile-scf-for-loops="tile-single-loops=true" | filecheck %s

// With a device, `tile-single-loops` tiles a lone loop only when its whole extent may not fit
// the scratchpad: every scratchpad buffer of the function counts, those allocated inside the
// loop once per iteration (what stage coarsening makes of them when it sinks the loop). The
// sample device's "L1" holds 1 MiB.

// 4096 rows of two 64 x f16 buffers: 4096 x 2 x 128 bytes = 1 MiB, which fits: not tiled.

// CHECK-LABEL: func.func @fits(
// CHECK-NOT:     ktdf.tiling
// CHECK:         return
func.func @fits() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  scf.for %i = %c0 to %c4096 step %c1 {
    %a = memref.alloc() : memref<1x64xf16, "L1">
    %b = memref.alloc() : memref<1x64xf16, "L1">
    "test.row"(%a, %b, %i) : (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, index) -> ()
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// One more buffer outside the loop and the whole loop no longer fits: tiled.

// CHECK-LABEL: func.func @overflows(
// CHECK:         ktdf.tiling.reserve_size
// CHECK:         arith.ceildivui
// CHECK:         ktdf.tiling.derive_size
// CHECK:         ktdf.tiling.linearize_index
func.func @overflows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %bias = memref.alloc() : memref<64xf16, "L1">
  scf.for %i = %c0 to %c4096 step %c1 {
    %a = memref.alloc() : memref<1x64xf16, "L1">
    %b = memref.alloc() : memref<1x64xf16, "L1">
    "test.row"(%a, %b, %bias, %i) : (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, memref<64xf16, "L1">, index) -> ()
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Buffers in device memory ("DDR") do not count, and a loop without scratchpad buffers
// always fits: not tiled.

// CHECK-LABEL: func.func @no_scratchpad(
// CHECK-NOT:     ktdf.tiling
// CHECK:         return
func.func @no_scratchpad() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  scf.for %i = %c0 to %c65536 step %c1 {
    %a = memref.alloc() : memref<1x64xf16, "DDR">
    "test.row"(%a, %i) : (memref<1x64xf16, "DDR">, index) -> ()
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A trip count that is not constant cannot be checked: tiled.

// CHECK-LABEL: func.func @dynamic(
// CHECK:         %[[R:.*]] = ktdf.tiling.reserve_size
// CHECK:         arith.ceildivui %{{.*}}, %[[R]] : index
func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<1x64xf16, "L1">
    "test.row"(%a, %i) : (memref<1x64xf16, "L1">, index) -> ()
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
