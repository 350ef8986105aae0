// RUN: dfsched-opt %s -split-input-file --device=ring4 --address-assignment | filecheck %s

// A scratchpad view at a constant address (with or without ct_id: the RFC's distributed
// copy, README Decision 93) holds data an earlier kernel left there; buffers of every program
// go around it. Tile 0's part covers L1 bytes 128..255 (64 f16), tile 1's 256..383: the first
// 128-byte buffer fits below them at 0, the second (64 bytes) would overlap and starts at 384,
// the third fits right after it.

// CHECK-LABEL: func.func @around(
// CHECK:      %[[A:.*]] = arith.constant 0 : index
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[A]] : index to memref<64xf16, "L1">
// CHECK:      %[[B:.*]] = arith.constant 384 : index
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[B]] : index to memref<32xf16, "L1">
// CHECK:      %[[C:.*]] = arith.constant 448 : index
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[C]] : index to memref<8xf16, "L1">
module {
  func.func @around() attributes {grid = [2]} {
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %p0 = ktdp.construct_memory_view %c128, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<64xf16>
    %p1 = ktdp.construct_memory_view %c256, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
    %a = memref.alloc() : memref<64xf16, "L1">
    %b = memref.alloc() : memref<32xf16, "L1">
    %c = memref.alloc() : memref<8xf16, "L1">
    return
  }
}

// -----

// A global view at a constant address reserves nothing in the scratchpad.

// CHECK-LABEL: func.func @global_view(
// CHECK:      ktdp.construct_memory_view
// CHECK-NEXT: %[[A:.*]] = arith.constant 0 : index
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[A]] : index to memref<64xf16, "L1">
module {
  func.func @global_view() attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %g = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %a = memref.alloc() : memref<64xf16, "L1">
    return
  }
}
