// RUN: dfsched-opt %s --split-input-file -p "bind-kernel-arguments{bind=n=256},clip-bound-access-tiles" | filecheck %s
// RUN: dfsched-opt %S/Inputs/reduce_past_view.mlir -p "bind-kernel-arguments{bind=n=256},clip-bound-access-tiles" | filecheck %s --check-prefix=KEPT
// RUN: not dfsched-opt %S/Inputs/reduce_past_view.mlir --device=quad_corelet -ktir-to-dfir --bind n=256 -o %t 2>&1 | filecheck %s --check-prefix=PAST
// RUN: test ! -e %t
// RUN: dfsched-run %s --check --device=sample --bind n=256 | filecheck %s --check-prefix=RUNS

// Decision 103: Triton's view sized by n_elements, read and written through a 1024-element tile.
// With n bound to 256 the view is static (its coordinate set's symbol replaced by 256), and the
// kernel is element-wise over its tiles, so the tiles, the loaded tensors and the add are cut
// to the 256 positions inside the view: those past it are what a masked load reads as 0 and a
// masked store drops.

// CHECK-LABEL: func.func @add(
// CHECK:         %[[VX:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [256], strides: [1] {{.*}} : memref<256xf16>
// CHECK-NEXT:    %[[TX:.*]] = ktdp.construct_access_tile %[[VX]][%{{.*}}] {{.*}} : memref<256xf16> -> !ktdp.access_tile<256xindex>
// CHECK-NEXT:    %[[A:.*]] = ktdp.load %[[TX]] : <256xindex> -> tensor<256xf16>
// CHECK-NEXT:    %[[B:.*]] = arith.addf %[[A]], %[[A]] : tensor<256xf16>
// CHECK:         ktdp.store %[[B]], %{{.*}} : tensor<256xf16>, <256xindex>
// The clipped kernel's schedule checks against the reference at every pass (2 s of CPU):
// RUNS: OK: 28 of 29 point(s)
#row = affine_map<(d0) -> (d0)>
#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#tile = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
func.func @add(%x: index, %out: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %vx = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %tx = ktdp.construct_access_tile %vx[%c0] {access_tile_order = #row, access_tile_set = #tile} : memref<?xf16> -> !ktdp.access_tile<1024xindex>
  %a = ktdp.load %tx : <1024xindex> -> tensor<1024xf16>
  %b = arith.addf %a, %a : tensor<1024xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %to = ktdp.construct_access_tile %vo[%c0] {access_tile_order = #row, access_tile_set = #tile} : memref<?xf16> -> !ktdp.access_tile<1024xindex>
  ktdp.store %b, %to : tensor<1024xf16>, <1024xindex>
  return
}

// Not element-wise (Inputs/reduce_past_view.mlir sums the tile: a masked load's zeros count in
// the sum, and so would a position past the view): the view becomes static but the tile keeps
// its 1024 positions, and -ktir-to-dfir refuses it (ktir-legality-check, Decision 92), located on
// the tile, with no output.

// KEPT:          ktdp.construct_memory_view {{.*}} : memref<1x256xf16>
// KEPT-NEXT:     ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<1x1024xindex>
// PAST: reduce_past_view.mlir:11:9: error: this access tile reaches outside its view on compute tile 0 of grid [1]: dimension 1 reaches 0 to 1023, the view holds 0 to 255
