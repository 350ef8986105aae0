// RUN: dfsched-opt %s --split-input-file --verify-diagnostics --tile-scf-for-loops="tile-sizes=4,4"
// RUN: not dfsched-opt %s --split-input-file --tile-scf-for-loops="tile-sizes=4,4" 2>&1 | filecheck %s --check-prefix=LOC

// Static sizes must match the depth of every outermost perfect nest; the error sits on the
// outermost loop of the nest, with its location.

func.func @too_shallow(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{Number of tile sizes (2) does not match nest depth (1)}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  }
  return
}
// LOC: invalid.mlir:[[# @LINE - 5]]:3: error: Number of tile sizes (2) does not match nest depth (1)

// -----

func.func @too_deep(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{Number of tile sizes (2) does not match nest depth (3)}}
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

func.func @carried(%n: index, %x: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile-scf-for-loops: loops with iter_args cannot be tiled}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (index) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> (index) {
      %t = arith.addi %b, %j : index
      scf.yield %t : index
    }
    scf.yield %s : index
  }
  return %r : index
}

// -----

func.func @integer_loops(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{tile-scf-for-loops: loops over i32 cannot be tiled}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %n step %c1 : i32 {
    }
  }
  return
}
