// RUN: dfsched-opt %s -split-input-file --device=sample --address-assignment --verify-diagnostics
// RUN: not dfsched-opt %s -split-input-file --device=sample --address-assignment 2>&1 | filecheck %s

// A buffer larger than what is left of its memory: the error names the memory, its
// capacity, what is already taken and what was requested.
module {
  // CHECK: error: Failed to allocate "L1" memory: Allocation of 1048576 bytes (aligned to 1) exceeds "L1" capacity (1048576 bytes available, 2 bytes already allocated)
  // CHECK: note: AddressAssignment: failed to assign addresses for 1 allocation(s)
  // expected-note @-3 {{AddressAssignment: failed to assign addresses for 1 allocation(s)}}
  func.func @overflow() {
    %small = memref.alloc() : memref<1xf16, "L1">
    // expected-error @below {{Failed to allocate "L1" memory: Allocation of 1048576 bytes (aligned to 1) exceeds "L1" capacity (1048576 bytes available, 2 bytes already allocated)}}
    %big = memref.alloc() : memref<512x1024xf16, "L1">
    return
  }
}

// -----

// The first failure is reported; the note counts them all (a failed allocation takes no
// space, so the next one still fits).
module {
  // expected-note @-1 {{AddressAssignment: failed to assign addresses for 2 allocation(s)}}
  func.func @several() {
    // expected-error @below {{Failed to allocate "SFU_REG" memory: Allocation of 4096 bytes (aligned to 1) exceeds "SFU_REG" capacity (2048 bytes available, 0 bytes already allocated)}}
    %a = memref.alloc() : memref<2048xf16, "SFU_REG">
    %b = memref.alloc() : memref<1024xf16, "SFU_REG">
    %c = memref.alloc() : memref<2048xf16, "SFU_REG">
    return
  }
}

// -----

// A memory space the device does not know.
// CHECK: error: Failed to allocate "HBM2" memory: Memory resource "HBM2" does not have capacity information
func.func @unknown_space() {
  // expected-error @below {{Failed to allocate "HBM2" memory: Memory resource "HBM2" does not have capacity information}}
  %a = memref.alloc() : memref<4xf16, "HBM2">
  // expected-note @unknown {{AddressAssignment: failed to assign addresses for 1 allocation(s)}}
  return
}

// -----

// A dynamic size with no constant upper bound.
func.func @unbounded(%n: index) {
  // expected-error @below {{Failed to allocate "L1" memory: the size of dynamic dimension 1 has no constant upper bound}}
  %a = memref.alloc(%n) : memref<4x?xf16, "L1">
  // expected-note @unknown {{failed to assign addresses for 1 allocation(s)}}
  return
}

// -----

// An element type without a size.
func.func @no_bit_width() {
  // expected-error @below {{Failed to allocate "L1" memory: element type !ktdf.token has no bit width}}
  %a = memref.alloc() : memref<4x!ktdf.token, "L1">
  // expected-note @unknown {{failed to assign addresses for 1 allocation(s)}}
  return
}

// -----

// A scratchpad-resident argument whose view starts an unbounded distance into it: the pass
// cannot tell how much of the scratchpad to keep free.
func.func @resident_unbounded(%x: index, %n: index) {
  // expected-error @below {{cannot reserve the scratchpad data of a resident argument: the view's offset from the argument has no constant upper bound}}
  %at = arith.addi %x, %n : index
  %vx = ktdp.construct_memory_view %at, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<8xf16>
  %a = memref.alloc() : memref<4xf16, "L1">
  return
}

// -----

// A resident argument's view with an unbounded size.
func.func @resident_unbounded_size(%x: index, %n: index) {
  // expected-error @below {{cannot reserve the scratchpad data of this view: a size or stride of it has no constant upper bound}}
  %vx = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<?xf16>
  %a = memref.alloc() : memref<4xf16, "L1">
  return
}
