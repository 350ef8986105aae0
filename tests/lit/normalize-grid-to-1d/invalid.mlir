// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --normalize-grid-to-1d --verify-diagnostics

// expected-error @below {{Grid must have at least one dimension}}
func.func @empty() attributes {grid = []} {
  return
}

// -----

// expected-error @below {{Grid size must be integer attribute}}
func.func @not_an_integer() attributes {grid = [2, "4"]} {
  return
}

// -----

// expected-error @below {{Grid size must be positive (got 0)}}
func.func @zero() attributes {grid = [0 : index]} {
  return
}

// -----

// expected-error @below {{Grid size must be positive (got -3)}}
func.func @negative() attributes {grid = [2, -3]} {
  return
}

// -----

// A tile id with fewer results than the grid has dimensions.
func.func @rank_mismatch() attributes {grid = [2, 3, 4]} {
  %a:3 = ktdp.get_compute_tile_id : index, index, index
  // expected-error @below {{get_compute_tile_id result count (2) does not match grid rank (3)}}
  %b:2 = ktdp.get_compute_tile_id : index, index
  "test.use"(%a#0, %b#1) : (index, index) -> ()
  return
}

// -----

// Only trailing unit dimensions may be left out: [4, 2] needs both ids.
func.func @non_unit_left_out() attributes {grid = [4, 2]} {
  // expected-error @below {{get_compute_tile_id result count (1) does not match grid rank (2)}}
  %t = ktdp.get_compute_tile_id : index
  "test.use"(%t) : (index) -> ()
  return
}
