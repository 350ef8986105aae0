// RUN: dfsched-opt %s -verify-diagnostics --ktir-legality-check --device=quad_corelet
// RUN: not dfsched-opt %s --ktir-legality-check --device=sample 2>&1 | filecheck %s --check-prefix=ONE-CORE
// RUN: sed 's/grid = \[2\]/grid = [8]/' %s | not dfsched-opt --ktir-legality-check --device=ring4 2>&1 | filecheck %s --check-prefix=TOO-MANY
// RUN: dfsched-opt %s --ktir-legality-check --device=ring4 | filecheck %s --check-prefix=RING4

// A view of compute tile 1's scratchpad (ct_id = 1) in a grid of two tiles: tile 0 reads it
// over the core links, from tile 1's own core (README Decision 93). A device without core
// links (quad_corelet: 2 cores) gets an error naming them, one with fewer cores than tiles
// (sample: 1; ring4: 4 for 8 tiles) an error naming both numbers; ring4 accepts 2 tiles.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// RING4-LABEL: func.func @other_tiles_scratchpad
func.func @other_tiles_scratchpad() attributes {grid = [2]} {
  %lx = arith.constant 4096 : index
  // expected-error @below {{the view is compute tile 1's scratchpad (ct_id = 1), which the other tiles read over the core-to-core links, but device 'quad_corelet' declares none ('ktdf_arch.core_links')}}
  %a = ktdp.construct_memory_view %lx, sizes: [2, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<2x64xf16>
  return
}

// TOO-MANY: <stdin>:{{[0-9]+}}:8: error: the view is compute tile 1's scratchpad (ct_id = 1), which the other tiles read from its core, so the kernel's 8 compute tiles need as many cores, but device 'ring4' has 4 core(s)
// ONE-CORE: tile-scratchpads.mlir:{{[0-9]+}}:8: error: the view is compute tile 1's scratchpad (ct_id = 1), which the other tiles read from its core, so the kernel's 2 compute tiles need as many cores, but device 'sample_device' has 1 core(s)
