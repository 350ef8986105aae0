// RUN: dfsched-opt %s --split-input-file --allow-unregistered-dialect --tile-size-selection | filecheck %s

// Without scratchpad buffers nothing limits a tile: each placeholder becomes the largest size
// that meets its constraints, as an arith.constant in its place (no device needed). The size
// divides the loop's total, so every tile is full: the tile's derive_size is the size itself.
// A derive_size of another index, or with earlier pairs, stays.

// CHECK-LABEL: func.func @whole_loop(
// CHECK-SAME:      %[[K:[^:]*]]: index) {
// CHECK:         %[[C12:.*]] = arith.constant 12 : index
// CHECK:         %[[SIZE:.*]] = arith.constant 12 : index
// CHECK-NEXT:    %[[N:.*]] = arith.ceildivui %[[C12]], %[[SIZE]] : index
// CHECK-NEXT:    scf.for %[[T:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:      %[[OTHER:.*]] = ktdf.tiling.derive_size [%[[K]] : %[[SIZE]]], total_size = %[[C12]] : index
// CHECK-NEXT:      %[[NESTED:.*]] = ktdf.tiling.derive_size [%[[K]] : %[[C12]]], [%[[T]] : %[[SIZE]]], total_size = %[[C12]] : index
// CHECK-NEXT:      "test.use"(%[[SIZE]], %[[OTHER]], %[[NESTED]]) : (index, index, index) -> ()
// CHECK-NOT:     ktdf.tiling.reserve_size
func.func @whole_loop(%k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c12, %ts : index
  scf.for %t = %c0 to %n step %c1 {
    %s = ktdf.tiling.derive_size [%t : %ts], total_size = %c12 : index
    %o = ktdf.tiling.derive_size [%k : %ts], total_size = %c12 : index
    %a = ktdf.tiling.derive_size [%k : %c12], [%t : %ts], total_size = %c12 : index
    "test.use"(%s, %o, %a) : (index, index, index) -> ()
  }
  return
}

// -----

// The size must divide every loop the placeholder tiles (24 and 36: 12 at most), be at least
// its min_value and a multiple of its divisibility.

// CHECK-LABEL: func.func @constraints(
// CHECK:         %[[SIZE:.*]] = arith.constant 12 : index
// CHECK-NEXT:    arith.ceildivui %{{.*}}, %[[SIZE]] : index
// CHECK-NEXT:    arith.ceildivui %{{.*}}, %[[SIZE]] : index
func.func @constraints() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %c36 = arith.constant 36 : index
  %ts = ktdf.tiling.reserve_size {divisibility = 2 : index, min_value = 3 : index} : index
  %n = arith.ceildivui %c24, %ts : index
  %m = arith.ceildivui %c36, %ts : index
  scf.for %t = %c0 to %n step %c1 {
    "test.a"() : () -> ()
  }
  scf.for %t = %c0 to %m step %c1 {
    "test.b"() : () -> ()
  }
  return
}

// A prime total has no size between 1 and itself.

// CHECK-LABEL: func.func @prime(
// CHECK:         %[[C23:.*]] = arith.constant 23 : index
// CHECK:         %[[SIZE:.*]] = arith.constant 23 : index
// CHECK-NEXT:    arith.ceildivui %[[C23]], %[[SIZE]] : index
func.func @prime() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c23 = arith.constant 23 : index
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c23, %ts : index
  scf.for %t = %c0 to %n step %c1 {
    "test.a"() : () -> ()
  }
  return
}

// -----

// Placeholders that cannot be resolved stay, as upstream leaves them: not the divisor of a
// ceildivui, a total that is not a constant, a ceildivui that bounds no loop, no ceildivui.

// CHECK-LABEL: func.func @unresolved(
// CHECK-COUNT-4: ktdf.tiling.reserve_size
// CHECK-NOT:     arith.constant
// CHECK:         return
func.func @unresolved(%total: index) {
  %c12 = arith.constant 12 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %b = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %c = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %d = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %na = arith.ceildivui %a, %c12 : index
  %nb = arith.ceildivui %total, %b : index
  %nc = arith.ceildivui %c12, %c : index
  scf.for %t = %c0 to %na step %c1 {
    "test.a"() : () -> ()
  }
  scf.for %t = %c0 to %nb step %c1 {
    "test.b"(%nc, %d) : (index, index) -> ()
  }
  return
}

// -----

// A loop that parallelize-loops-across-instances turned into ktdf.parallel still ties the
// placeholder to its total.

// CHECK-LABEL: func.func @parallel_loop(
// CHECK:         %[[C96:.*]] = arith.constant 96 : index
// CHECK:         %[[SIZE:.*]] = arith.constant 96 : index
// CHECK-NEXT:    %[[N:.*]] = arith.ceildivui %[[C96]], %[[SIZE]] : index
// CHECK-NEXT:    ktdf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}) to (%[[N]]) step (%{{.*}}) distribute(num_instances = 2) {
func.func @parallel_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %ts = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %n = arith.ceildivui %c96, %ts : index
  ktdf.parallel (%t, %inst) = (%c0) to (%n) step (%c1) distribute(num_instances = 2) {
    "test.a"(%t) : (index) -> ()
    ktdf.parallel_yield
  }
  return
}
