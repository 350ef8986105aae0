// RUN: not dfsched-opt %s --split-input-file --allow-unregistered-dialect --address-units-to-bytes="address-unit=element" 2>&1 | filecheck %s

// One buffer, one element size: an i32 view over part of an f16 buffer is refused, naming
// both views and their element ranges.
// CHECK: mixed-element-sizes-invalid.mlir:[[# @LINE + 6]]:8: error: this view of 4-byte elements, element addresses [64, 79], overlaps a view of 2-byte elements, [0, 127]: one buffer has one element size
// CHECK: mixed-element-sizes-invalid.mlir:[[# @LINE + 4]]:8: note: the other view, element addresses [0, 127]
func.func @overlap() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %x = ktdp.construct_memory_view %c0, sizes: [128], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %i = ktdp.construct_memory_view %c64, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  "test.use"(%x, %i) : (memref<128xf16>, memref<16xi32>) -> ()
  return
}

// -----

// In a space of mixed element sizes, a view whose first element is not known (an unbound
// scalar argument; a tile id is bounded by the grid) and that no kernel argument anchors
// cannot be placed.
// CHECK: mixed-element-sizes-invalid.mlir:[[# @LINE + 6]]:8: error: cannot convert this view's element addresses to bytes: its memory space also holds 4-byte elements
// CHECK: mixed-element-sizes-invalid.mlir:[[# @LINE + 6]]:8: note: a view of 4-byte elements in the same memory space
func.func @unknown(%n: index) attributes {grid = [2]} {
  %c128 = arith.constant 128 : index
  %c4096 = arith.constant 4096 : index
  %o = arith.muli %n, %c128 : index
  %x = ktdp.construct_memory_view %o, sizes: [128], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %i = ktdp.construct_memory_view %c4096, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  "test.use"(%x, %i) : (memref<128xf16>, memref<16xi32>) -> ()
  return
}
