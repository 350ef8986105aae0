// RUN: dfsched-opt %s --verify-diagnostics --tile-scf-for-loops="tile-sizes=4,0"
// RUN: dfsched-opt %s --verify-diagnostics --tile-scf-for-loops="tile-sizes=-3,8"

// Every static size must be positive; the error names the first bad one and its index.

func.func @bad_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error-re @below {{Tile size at index {{(1 is non-positive: 0|0 is non-positive: -3)}}}}
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
    }
  }
  return
}
