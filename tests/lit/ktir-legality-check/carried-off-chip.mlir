// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --device=sample --ktir-legality-check
// RUN: not dfsched-opt %s --device=sample --ktir-legality-check 2>&1 | filecheck %s --check-prefix=LOC
// RUN: dfsched-opt %s --device=spyre --ktir-legality-check | filecheck %s --check-prefix=SPYRE

// A folding loop whose range, loaded at once, does not fit the scratchpad: its carried value
// cannot stay on chip (sample's L1 holds 1 MiB; one row of 1048576 f16 needs 2 MiB).
func.func @carried_off_chip() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1m = arith.constant 1048576 : index
  %zero = arith.constant 0.0 : f16
  %a = ktdp.construct_memory_view %c0, sizes: [1, 1048576], strides: [1048576, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1048575 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x1048576xf16>
  %empty = tensor.empty() : tensor<1xf16>
  %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<1xf16>) -> tensor<1xf16>
  // expected-error @below {{loop-carried value #0 (tensor<1xf16>, 2 bytes) cannot stay on chip: it accumulates over the loop's whole range, which folding loads at once, so each of its elements needs 1048576 elements along the stepped dimension of each of its 1 streamed tile(s) in the scratchpad (2097152 bytes), but 'L1' of device 'sample_device' holds 1048576 bytes per core (a range too long for the scratchpad is not split into DMA chunks yet)}}
  %sums = scf.for %k = %c0 to %c1m step %c64 iter_args(%acc = %init) -> (tensor<1xf16>) {
    %t = ktdp.construct_access_tile %a[%c0, %k] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x1048576xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
    %next = linalg.reduce { arith.addf } ins(%x : tensor<1x64xf16>) outs(%acc : tensor<1xf16>) dimensions = [1]
    scf.yield %next : tensor<1xf16>
  }
  %s = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
  %st = ktdp.construct_access_tile %s[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %sums, %st : tensor<1xf16>, <1xindex>
  return
}
// LOC: carried-off-chip.mlir:[[# @LINE - 11]]:11: error: loop-carried value #0 (tensor<1xf16>, 2 bytes) cannot stay on chip
// spyre's 2 MiB LX holds the row: the check passes it on.
// SPYRE-LABEL: func.func @carried_off_chip
// SPYRE: scf.for
