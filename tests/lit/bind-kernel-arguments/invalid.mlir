// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --bind-kernel-arguments

// A loop bound the schedule needs and nothing bound: the error names the argument and the
// flag, the note the op that needs the value.
// expected-error @below {{kernel argument %n (index) is a scalar the schedule needs: bind it with --bind n=VALUE}}
func.func @needs_n(%x_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{'scf.for' needs its value to be known}}
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}

// -----

// A block size multiplied by the tile id: no run-time symbol can stand for the product.
#all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>
// expected-error @below {{kernel argument %block (index) is a scalar the schedule needs: bind it with --bind block=VALUE}}
func.func @tile_times_block(%x_ptr: index, %block: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  // expected-note @below {{'arith.muli' needs its value to be known}}
  %off = arith.muli %t, %block : index
  %x = ktdp.construct_memory_view %x_ptr, sizes: [256], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %a = ktdp.construct_access_tile %x[%off] {access_tile_set = #blk, access_tile_order = #id} : memref<256xf16> -> !ktdp.access_tile<128xindex>
  return
}

// -----

// A run-time index added to a tile's anchor (upstream's own kernels do this) and scaled by a
// constant: a run-time symbol, no binding needed.
#all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @runtime_anchor(%x_ptr: index, %i: index) attributes {grid = [2]} {
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c128 : index
  %i2 = arith.muli %i, %c2 : index
  %off = arith.addi %row, %i2 : index
  %x = ktdp.construct_memory_view %x_ptr, sizes: [256], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %a = ktdp.construct_access_tile %x[%off] {access_tile_set = #blk, access_tile_order = #id} : memref<256xf16> -> !ktdp.access_tile<128xindex>
  return
}
