// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --normalize-grid-to-1d | filecheck %s

// A 2-D grid [3, 5]: the flat id f gives row f / 5 and column f % 5; every tile-id op of the
// function is rewritten in place, with its own constants.
// CHECK-LABEL: func.func @rows_and_columns
// CHECK-SAME:  attributes {grid = [15 : index]}
// CHECK-NEXT:  %[[F:.*]] = ktdp.get_compute_tile_id : index
// CHECK:       %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:  %[[ROW:.*]] = arith.divui %[[F]], %[[C5]] : index
// CHECK:       %[[C5B:.*]] = arith.constant 5 : index
// CHECK-NEXT:  %[[COL:.*]] = arith.remui %[[F]], %[[C5B]] : index
// CHECK:       %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:  %[[OFF:.*]] = arith.muli %[[ROW]], %[[C64]] : index
// CHECK-NEXT:  %[[SUM:.*]] = arith.addi %[[OFF]], %[[COL]] : index
// CHECK:       scf.for
// CHECK-NEXT:    %[[F2:.*]] = ktdp.get_compute_tile_id : index
// CHECK:         %[[D:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[ROW2:.*]] = arith.divui %[[F2]], %[[D]] : index
// CHECK:         %[[M:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[COL2:.*]] = arith.remui %[[F2]], %[[M]] : index
// CHECK-NEXT:    "test.use"(%[[SUM]], %[[COL2]], %[[ROW2]])
func.func @rows_and_columns() attributes {grid = [3 : index, 5 : index]} {
  %t:2 = ktdp.get_compute_tile_id : index, index
  %c64 = arith.constant 64 : index
  %off = arith.muli %t#0, %c64 : index
  %sum = arith.addi %off, %t#1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %u:2 = ktdp.get_compute_tile_id : index, index
    "test.use"(%sum, %u#1, %u#0) : (index, index, index) -> ()
  }
  return
}

// -----

// A 4-D grid [2, 1, 3, 2] (i64 entries): suffix products 6, 6, 2, 1. The size-1 dimension
// still gets its (always zero) coordinate; the innermost needs no division, the outermost no
// remainder.
// CHECK-LABEL: func.func @four_d
// CHECK-SAME:  attributes {grid = [12 : index]}
// CHECK-NEXT:  %[[F:.*]] = ktdp.get_compute_tile_id : index
// CHECK:       %[[S0:.*]] = arith.constant 6 : index
// CHECK-NEXT:  %[[X0:.*]] = arith.divui %[[F]], %[[S0]] : index
// CHECK:       %[[S1:.*]] = arith.constant 6 : index
// CHECK-NEXT:  %[[Q1:.*]] = arith.divui %[[F]], %[[S1]] : index
// CHECK:       %[[D1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[X1:.*]] = arith.remui %[[Q1]], %[[D1]] : index
// CHECK:       %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[Q2:.*]] = arith.divui %[[F]], %[[S2]] : index
// CHECK:       %[[D2:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[X2:.*]] = arith.remui %[[Q2]], %[[D2]] : index
// CHECK:       %[[D3:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[X3:.*]] = arith.remui %[[F]], %[[D3]] : index
// CHECK-NEXT:  "test.use"(%[[X0]], %[[X1]], %[[X2]], %[[X3]])
func.func @four_d() attributes {grid = [2, 1, 3, 2]} {
  %t:4 = ktdp.get_compute_tile_id : index, index, index, index
  "test.use"(%t#0, %t#1, %t#2, %t#3) : (index, index, index, index) -> ()
  return
}

// -----

// Already 1-D, or no grid at all: nothing changes (the grid keeps its integer type).
// CHECK-LABEL: func.func @one_d
// CHECK-SAME:  attributes {grid = [7]}
// CHECK-NEXT:  %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:  "test.use"(%[[T]])
// CHECK-LABEL: func.func @helper
// CHECK-NEXT:  ktdp.get_compute_tile_id : index, index
// CHECK-NOT:   arith.divui
func.func @one_d() attributes {grid = [7]} {
  %t = ktdp.get_compute_tile_id : index
  "test.use"(%t) : (index) -> ()
  return
}
func.func @helper() {
  %t:2 = ktdp.get_compute_tile_id : index, index
  "test.use"(%t#0, %t#1) : (index, index) -> ()
  return
}

// -----

// Each function with a grid is normalized on its own, inside nested modules too.
// CHECK-LABEL: module @program
// CHECK:       func.func @a() attributes {grid = [4 : index]}
// CHECK:       arith.constant 2 : index
// CHECK:       func.func @b() attributes {grid = [6 : index]}
// CHECK:       arith.constant 3 : index
module {
  module @program {
    func.func @a() attributes {grid = [2, 2]} {
      %t:2 = ktdp.get_compute_tile_id : index, index
      "test.use"(%t#0, %t#1) : (index, index) -> ()
      return
    }
    func.func @b() attributes {grid = [2, 3]} {
      %t:2 = ktdp.get_compute_tile_id : index, index
      "test.use"(%t#0, %t#1) : (index, index) -> ()
      return
    }
  }
}

// -----

// Trailing unit dimensions may be left out of the tile id (Triton declares grid = [N, 1] and
// asks for one id): the one id is the flat id. With [2, 3, 1] and two ids, the ids are the
// row-major coordinates of the leading [2, 3].
// CHECK-LABEL: func.func @triton_grid
// CHECK-SAME:  attributes {grid = [8 : index]}
// CHECK-NEXT:  %[[F:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:  "test.use"(%[[F]])
func.func @triton_grid() attributes {grid = [8, 1]} {
  %t = ktdp.get_compute_tile_id : index
  "test.use"(%t) : (index) -> ()
  return
}

// CHECK-LABEL: func.func @two_of_three
// CHECK-SAME:  attributes {grid = [6 : index]}
// CHECK-NEXT:  %[[F:.*]] = ktdp.get_compute_tile_id : index
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[ROW:.*]] = arith.divui %[[F]], %[[C3]] : index
// CHECK:       %[[C3B:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[COL:.*]] = arith.remui %[[F]], %[[C3B]] : index
// CHECK-NEXT:  "test.use"(%[[ROW]], %[[COL]])
func.func @two_of_three() attributes {grid = [2, 3, 1]} {
  %t:2 = ktdp.get_compute_tile_id : index, index
  "test.use"(%t#0, %t#1) : (index, index) -> ()
  return
}
