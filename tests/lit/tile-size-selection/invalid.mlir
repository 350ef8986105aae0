// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --device=sample --tile-size-selection
// RUN: not dfsched-opt %s --split-input-file --allow-unregistered-dialect --device=sample --tile-size-selection 2>&1 | filecheck %s --check-prefix=LOC

// No size meets the constraints: it must divide 12, be at least 5 and a multiple of 5.

func.func @constraints() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  // expected-error @below {{tile-size-selection: no tile size satisfies the constraints min_value = 5, divisibility = 5 and divides the tiled loop totals (12)}}
  %ts = ktdf.tiling.reserve_size {divisibility = 5 : index, min_value = 5 : index} : index
  %n = arith.ceildivui %c12, %ts : index
  scf.for %t = %c0 to %n step %c1 {
    "test.use"() : () -> ()
  }
  return
}
// LOC: invalid.mlir:[[# @LINE - 7]]:9: error: tile-size-selection: no tile size satisfies the constraints

// -----

// Even one row of each of three 1 MiB-wide operands needs 3 MiB of the 1 MiB L1: the error
// lists every size tried, what the smallest needs and the largest buffer (its type, bytes and
// copies at that size).

func.func @too_wide() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{tile-size-selection: no tile size fits the scratchpad: tried 4, 2, 1; with 1 the program's buffers need 3145728 bytes of "L1", which holds 1048576 bytes; the largest is memref<?x524288xf16, "L1"> (1048576 bytes, 1 copy)}}
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c4, %rows : index
  %a = memref.alloc(%rows) : memref<?x524288xf16, "L1">
  %b = memref.alloc(%rows) : memref<?x524288xf16, "L1">
  %c = memref.alloc(%rows) : memref<?x524288xf16, "L1">
  scf.for %t = %c0 to %n step %c1 {
    "test.use"(%a, %b, %c) : (memref<?x524288xf16, "L1">, memref<?x524288xf16, "L1">, memref<?x524288xf16, "L1">) -> ()
  }
  return
}

// -----

// A fixed buffer filling the whole L1 leaves no room for even one row of the double-buffered
// copies on the two corelets (2 copies x 2 instances x 128 bytes).

func.func @full() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  // expected-error @below {{tried 96, 48, 32, 24, 16, 12, 8, 6, 4, 3, 2, 1; with 1 the program's buffers need 1049088 bytes of "L1", which holds 1048576 bytes}}
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c96, %rows : index
  %fixed = memref.alloc() : memref<524288xf16, "L1">
  ktdf.parallel (%p, %inst) = (%c0) to (%n) step (%c1) distribute(num_instances = 2) {
    %a0 = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %a1 = memref.alloc(%rows) : memref<?x64xf16, "L1">
    %ph = ktdf.buffer_phase(%p) {num_phases = 2 : i64} : index
    %a = ktdf.select_memref %ph[%a0, %a1] : memref<?x64xf16, "L1">
    "test.use"(%a, %fixed) : (memref<?x64xf16, "L1">, memref<524288xf16, "L1">) -> ()
    ktdf.parallel_yield
  }
  return
}

// -----

// A scratchpad buffer whose size depends on a value with no known bound cannot be checked.

func.func @unbounded(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %rows = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %tiles = arith.ceildivui %c16, %rows : index
  // expected-error @below {{tile-size-selection: cannot bound the size of this scratchpad buffer in "L1" (a dynamic dimension has no known upper bound)}}
  %buf = memref.alloc(%rows, %n) : memref<?x?xf16, "L1">
  scf.for %t = %c0 to %tiles step %c1 {
    "test.use"(%buf) : (memref<?x?xf16, "L1">) -> ()
  }
  return
}
