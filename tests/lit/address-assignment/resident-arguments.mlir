// RUN: dfsched-opt %s -split-input-file --device=sample --address-assignment | filecheck %s

// Scratchpad-resident arguments (ct_local views on a function argument: data an earlier
// kernel left in the core's L1) lie from L1 address 0, in argument order, each at a multiple
// of 64 bytes. Buffers come after them: %x reaches 100 bytes (50 f16), %w 32x2 f32 with
// stride 4 (the last element ends at byte (31*4+1+1)*4 = 504), so L1 numbering starts at
// 128 + 504 = 632. %y is viewed in global memory: not resident, it reserves nothing.

// CHECK-LABEL: func.func @resident(
// CHECK:      %[[A:.*]] = arith.constant 632 : index
// CHECK:      builtin.unrealized_conversion_cast %[[A]] : index to memref<64xf16, "L1">
// CHECK:      %[[B:.*]] = arith.constant 0 : index
// CHECK:      builtin.unrealized_conversion_cast %[[B]] : index to memref<64xf16, "DDR">
module {
  func.func @resident(%x: index, %y: index, %w: index) attributes {grid = [1]} {
    %vx = ktdp.construct_memory_view %x, sizes: [50], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 49 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<50xf16>
    %vy = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %vw = ktdp.construct_memory_view %w, sizes: [32, 2], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<32x2xf32>
    %a = memref.alloc() : memref<64xf16, "L1">
    %d = memref.alloc() : memref<64xf16, "DDR">
    return
  }
}

// -----

// A view into the middle of a resident argument (argument + a constant) reaches that much
// further: 256 + 64 f16 = 384 bytes.

// CHECK-LABEL: func.func @offset(
// CHECK:      %[[C:.*]] = arith.constant 384 : index
// CHECK:      builtin.unrealized_conversion_cast %[[C]] : index to memref<8xf16, "L1">
module {
  func.func @offset(%x: index) attributes {grid = [1]} {
    %c256 = arith.constant 256 : index
    %at = arith.addi %x, %c256 : index
    %vx = ktdp.construct_memory_view %at, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
    %a = memref.alloc() : memref<8xf16, "L1">
    return
  }
}
