// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules and syntax errors of the tiling ops.

func.func @derive_without_pairs(%n: index) {
  // expected-error @+1 {{must have at least one [iv : tile_size] pair}}
  %x = ktdf.tiling.derive_size total_size = %n : index
  return
}

// -----

func.func @derive_pairs_unbalanced(%i: index, %n: index) {
  // expected-error @+1 {{Operation has 3 operands for 2 variadic operands marked as having the same size}}
  %x = "ktdf.tiling.derive_size"(%i, %i, %n, %n) : (index, index, index, index) -> index
  return
}

// -----

func.func @derive_needs_total_size(%i: index, %t: index) {
  // expected-error @+1 {{Expected 'total_size'}}
  %x = ktdf.tiling.derive_size [%i : %t] : index
  return
}

// -----

func.func @derive_result_not_index(%i: index, %t: index, %n: index) {
  // expected-error @+1 {{'ktdf.tiling.derive_size' op constraint not satisfied: i64 should be of base attribute index}}
  %x = ktdf.tiling.derive_size [%i : %t], total_size = %n : i64
  return
}

// -----

func.func @linearize_without_pairs() {
  // expected-error @+1 {{must have at least one [iv : stride] pair}}
  %x = ktdf.tiling.linearize_index : index
  return
}

// -----

func.func @linearize_pair_needs_colon(%i: index, %s: index) {
  // expected-error @+1 {{Expected ':'}}
  %x = ktdf.tiling.linearize_index [%i, %s] : index
  return
}

// -----

func.func @reserve_without_divisibility() {
  // expected-error @+1 {{property 'divisibility' expected}}
  %x = ktdf.tiling.reserve_size {min_value = 8 : index} : index
  return
}

// -----

func.func @reserve_with_i64_attribute() {
  // expected-error @+1 {{attribute 'min_value' failed to satisfy constraint: index attribute}}
  %x = ktdf.tiling.reserve_size {min_value = 8 : i64, divisibility = 1 : index} : index
  return
}
