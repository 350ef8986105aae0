// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --ktir-legality-check
// An access tile that some compute tile of the grid places outside its view (issue 19): KTIR
// masks those accesses (Decision 23), the scheduled transfers cannot yet, so the kernel is
// refused on the access tile, naming the grid, the compute tiles, the dimension and the
// coordinates reached, with a note on the view. Bounds are per compute tile (row-major).

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @grid_past_the_rows() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  // expected-note @below {{the view}}
  %v = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  // expected-error @below {{this access tile reaches outside its view on compute tiles 2 to 3 of grid [4]: dimension 0 reaches 2 to 3, the view holds 0 to 1; KTIR masks such accesses, the scheduled transfers cannot yet (they would read and write past the view)}}
  %a = ktdp.construct_access_tile %v[%t, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %a : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// The grid the views cover: accepted.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @grid_covered() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %a = ktdp.construct_access_tile %v[%t, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %a : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Each tile's own id: `t mod 2` stays in the two rows on a grid of 8 (accepted), and a
// loop stepping by 32 ends at column 32, so its 32-column tiles stay in the 64 (accepted).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @wrapped_and_stepped() attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.remui %t, %c2 : index
  %v = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  scf.for %j = %c0 to %c64 step %c32 {
    %a = ktdp.construct_access_tile %v[%r, %j] {access_tile_set = #half, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x32xindex>
    %x = ktdp.load %a : <1x32xindex> -> tensor<1x32xf16>
    ktdp.store %x, %a : tensor<1x32xf16>, <1x32xindex>
  }
  return
}

// -----

// A loop that runs one column block too far, whatever the tile: every compute tile is named.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @loop_past_the_columns() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %t = ktdp.get_compute_tile_id : index
  // expected-note @below {{the view}}
  %v = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  scf.for %j = %c0 to %c96 step %c32 {
    // expected-error @below {{this access tile reaches outside its view on compute tiles 0 to 1 of grid [2]: dimension 1 reaches 0 to 95, the view holds 0 to 63}}
    %a = ktdp.construct_access_tile %v[%t, %j] {access_tile_set = #half, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x32xindex>
    %x = ktdp.load %a : <1x32xindex> -> tensor<1x32xf16>
    ktdp.store %x, %a : tensor<1x32xf16>, <1x32xindex>
  }
  return
}

// -----

// A two-dimensional grid (tiles numbered row-major), and a coordinate_set narrower than the
// sizes: the view holds rows 0 to 2 of its 4, so tiles with a first coordinate of 3 reach past it.
#three = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_dimensional_grid() attributes {grid = [4, 2]} {
  %c0 = arith.constant 0 : index
  %i, %j = ktdp.get_compute_tile_id : index, index
  // expected-note @below {{the view}}
  %v = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #three, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  // expected-error @below {{this access tile reaches outside its view on compute tiles 6 (3, 0) to 7 (3, 1) of grid [4, 2]: dimension 0 reaches 3 to 3, the view holds 0 to 2}}
  %a = ktdp.construct_access_tile %v[%i, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %a : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Bounds per tile are exact: `t mod 4` is 3 on tiles 3 and 7 only, past the 3 rows; the error
// names the first and the last such tile and the rows they reach.
#three = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @wrapped_past_the_rows() attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.remui %t, %c4 : index
  // expected-note @below {{the view}}
  %v = ktdp.construct_memory_view %c0, sizes: [3, 64], strides: [64, 1] {coordinate_set = #three, memory_space = #ktdp.memory_space<global>} : memref<3x64xf16>
  // expected-error @below {{this access tile reaches outside its view on compute tiles 3 to 7 of grid [8]: dimension 0 reaches 3 to 3, the view holds 0 to 2}}
  %a = ktdp.construct_access_tile %v[%r, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<3x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %a : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// DataflowIR numbers cores with i32, one per compute tile: a grid of more than 2^31 tiles cannot
// be written, and is refused on the function before any per-tile work (2^31 itself is accepted).
// expected-error @below {{grid [65536, 65537] has 4295032832 compute tiles, but DataflowIR numbers cores with i32 (`dataflow.get_unit {core = c : i32}`, a core per tile): at most 2147483648}}
func.func @too_many_tiles() attributes {grid = [65536, 65537]} {
  return
}

// -----

func.func @most_tiles() attributes {grid = [65536, 32768]} {
  return
}

// -----

// Without a grid, an anchor that does not depend on the tile is checked all the same.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_grid() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-note @below {{the view}}
  %v = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  // expected-error @below {{this access tile reaches outside its view on every compute tile: dimension 0 reaches 2 to 2, the view holds 0 to 1}}
  %a = ktdp.construct_access_tile %v[%c2, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
  return
}

// -----

// An access tile in a loop that runs no iteration is never placed: accepted, whether the bounds
// are constants or read the tile id (`for row = tile + 2 to 2`), the row past the view.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @loops_of_no_iteration() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %c0, sizes: [2, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  scf.for %r = %c4 to %c4 step %c2 {
    %a = ktdp.construct_access_tile %v[%r, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %x, %a : tensor<1x64xf16>, <1x64xindex>
  }
  %past = arith.addi %t, %c2 : index
  scf.for %r = %past to %c2 step %c4 {
    %a = ktdp.construct_access_tile %v[%r, %c0] {access_tile_set = #row, access_tile_order = #rm} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %a : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %x, %a : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
