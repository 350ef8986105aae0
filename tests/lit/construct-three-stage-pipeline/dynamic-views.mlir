// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --construct-three-stage-pipeline --device=sample

// An access tile over a view whose memref type has a dynamic size is refused (README
// Decision 91): the transfers move every position of the tile and cannot mask the tail past
// the run-time size (Triton's n_elements), and the simulator cannot address the view.
// Binding the size (--bind) makes the view static and clips an element-wise kernel's tiles to it
// (Decision 103, tests/lit/clip-bound-access-tiles).
#row = affine_map<(d0) -> (d0)>
#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
func.func @run_time_size(%x: index, %out: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %vx = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  // expected-error @below {{access tile over a memory view of dynamic shape memref<?xf16>: the scheduler moves all positions of the tile and cannot mask those past a size its type does not give}}
  %tx = ktdp.construct_access_tile %vx[%c0] {access_tile_order = #row, access_tile_set = #tile} : memref<?xf16> -> !ktdp.access_tile<128xindex>
  %a = ktdp.load %tx : <128xindex> -> tensor<128xf16>
  %b = arith.addf %a, %a : tensor<128xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %to = ktdp.construct_access_tile %vo[%c0] {access_tile_order = #row, access_tile_set = #tile} : memref<?xf16> -> !ktdp.access_tile<128xindex>
  ktdp.store %b, %to : tensor<128xf16>, <128xindex>
  return
}
