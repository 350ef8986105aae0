// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --ktir-legality-check --device=sample
// Views the device cannot hold are rejected on the view (dfsched only; issue 19, item 11):
// negative sizes or strides, and, with the device known (here sample: a 1 GiB DDR for the
// global space), bytes past the end of the memory the view's space maps to.

#m = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @negative_size() attributes {grid = [1]} {
  %at = arith.constant 0 : index
  // expected-error @below {{memory view size must not be negative (got -96)}}
  %v = ktdp.construct_memory_view %at, sizes: [-96, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  return
}

// -----

#m = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @negative_stride() attributes {grid = [1]} {
  %at = arith.constant 0 : index
  // expected-error @below {{memory view stride must not be negative (got -64)}}
  %v = ktdp.construct_memory_view %at, sizes: [96, 64], strides: [-64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  return
}

// -----

#m = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @offset_beyond_memory() attributes {grid = [1]} {
  %at = arith.constant 1099511627776 : index
  // expected-error @below {{memory view ends at byte 1099511640064 but memory 'DDR' of the device holds 1073741824 bytes}}
  %v = ktdp.construct_memory_view %at, sizes: [96, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  return
}

// -----

#m = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
func.func @absurd_size() attributes {grid = [1]} {
  %at = arith.constant 0 : index
  // expected-error @below {{memory view ends at byte 2199023255552 but memory 'DDR' of the device holds 1073741824 bytes}}
  %v = ktdp.construct_memory_view %at, sizes: [1048576, 1048576], strides: [1048576, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<1048576x1048576xf16>
  return
}

// -----

// The last byte of the memory is still inside: accepted (1 GiB = 536870912 f16 elements).
#m = affine_set<(d0) : (d0 >= 0)>
func.func @fits_exactly() attributes {grid = [1]} {
  %at = arith.constant 1073741822 : index
  %v = ktdp.construct_memory_view %at, sizes: [1], strides: [1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
  return
}
