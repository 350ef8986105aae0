// RUN: dfsched-opt %s --device=quad_corelet --address-assignment | filecheck %s

// The same kind of program on the quad_corelet device, given with --device alone: its
// memories are GMEM (shared, 4 GiB) and SPAD (per core, 512 KiB); without a
// mem_space_mapping, ct_local is the core's private memory and global the shared one
// (Decision 6).

// CHECK-LABEL: func.func @spad_buffers
// CHECK:       %[[A:.*]] = arith.constant 0 : index
// CHECK:       builtin.unrealized_conversion_cast %[[A]] : index to memref<2x32xf16, "SPAD">
// CHECK:       %[[B:.*]] = arith.constant 128 : index
// CHECK:       builtin.unrealized_conversion_cast %[[B]] : index to memref<32xf32, #ktdp.memory_space<ct_local>>
// CHECK:       %[[C:.*]] = arith.constant 256 : index
// CHECK:       builtin.unrealized_conversion_cast %[[C]] : index to memref<512x255xf32, "SPAD">
// CHECK:       %[[G:.*]] = arith.constant 0 : index
// CHECK:       builtin.unrealized_conversion_cast %[[G]] : index to memref<1024xf16, #ktdp.memory_space<global>>
// CHECK:       %[[R:.*]] = arith.constant 0 : index
// CHECK:       builtin.unrealized_conversion_cast %[[R]] : index to memref<512xf16, "VREG">
// CHECK:       return
func.func @spad_buffers() attributes {grid = [2]} {
  %a = memref.alloc() : memref<2x32xf16, "SPAD">
  %b = memref.alloc() : memref<32xf32, #ktdp.memory_space<ct_local>>
  // 256 + 522240 = 522496 of 524288 bytes: still fits.
  %c = memref.alloc() : memref<512x255xf32, "SPAD">
  %g = memref.alloc() : memref<1024xf16, #ktdp.memory_space<global>>
  %r = memref.alloc() : memref<512xf16, "VREG">
  return
}
