// RUN: dfsched-opt %s -split-input-file --canonicalize --allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -split-input-file --canonicalize --cse --allow-unregistered-dialect | filecheck %s --check-prefix=CSE

// Once a single-trip tile loop is inlined, its IV is the constant 0: derive_size folds to
// min(tile, total), buffer_phase to 0, and select_memref picks the first candidate.
// CHECK-LABEL: func.func @folded_tile_loop
// CHECK-SAME:    (%[[A:[^:]*]]: memref<64xf16>, %[[B:[^:]*]]: memref<64xf16>)
// CHECK-NEXT:    %[[C12:.*]] = arith.constant 12 : index
// CHECK-NEXT:    "test.use"(%[[C12]], %[[A]]) : (index, memref<64xf16>) -> ()
// CHECK-NEXT:    return
func.func @folded_tile_loop(%a: memref<64xf16>, %b: memref<64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c12 = arith.constant 12 : index
  scf.for %t = %c0 to %c1 step %c1 {
    %s = ktdf.tiling.derive_size [%t : %c16], total_size = %c12 : index
    %p = ktdf.buffer_phase(%t) {num_phases = 2 : i64} : index
    %m = ktdf.select_memref %p[%a, %b] : memref<64xf16>
    "test.use"(%s, %m) : (index, memref<64xf16>) -> ()
  }
  return
}

// -----

// canonicalize never merges equal non-constant ops. After cse, the pure derive_size ops are
// one, while each create_token and reserve_size keeps its own identity.
// CHECK-LABEL: func.func @identities
// CHECK-COUNT-2: ktdf.create_token
// CHECK-COUNT-2: ktdf.tiling.reserve_size
// CHECK-COUNT-2: ktdf.tiling.derive_size
// CSE-LABEL:   func.func @identities
// CSE-COUNT-2:   ktdf.create_token
// CSE-COUNT-2:   ktdf.tiling.reserve_size
// CSE:           ktdf.tiling.derive_size
// CSE-NOT:       ktdf.tiling.derive_size
// CSE:           return
func.func @identities(%i: index, %n: index) {
  %t0 = ktdf.create_token : !ktdf.token
  %t1 = ktdf.create_token : !ktdf.token
  %r0 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %r1 = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  %d0 = ktdf.tiling.derive_size [%i : %r0], total_size = %n : index
  %d1 = ktdf.tiling.derive_size [%i : %r0], total_size = %n : index
  "test.use"(%t0, %t1, %r1, %d0, %d1) : (!ktdf.token, !ktdf.token, index, index, index) -> ()
  return
}
