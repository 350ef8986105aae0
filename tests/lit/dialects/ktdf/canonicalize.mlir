// RUN: dfsched-opt %s -split-input-file -canonicalize | filecheck %s

// The folds of ktdf.buffer_phase, ktdf.select_memref and ktdf.tiling.derive_size, as
// canonicalization patterns. (Consumers are func.call so that nothing else folds.)

func.func private @use_index(index)
func.func private @use_buffer(memref<8xf32>)

// A constant operand (the IV of a folded single-trip loop) is dropped; live IVs stay.
// CHECK-LABEL: func.func @phase_drops_constants
// CHECK:         scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:      %[[P:.*]] = ktdf.buffer_phase(%[[I]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:      call @use_index(%[[P]])
func.func @phase_drops_constants(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %c0 to %n step %c1 {
    %p = ktdf.buffer_phase(%c5, %i, %c0) {num_phases = 2 : i64} : index
    func.call @use_index(%p) : (index) -> ()
  }
  return
}

// -----

func.func private @use_index(index)

// All operands constant: the phase never changes, it is 0.
// CHECK-LABEL: func.func @phase_all_constant
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    call @use_index(%[[Z]])
func.func @phase_all_constant() {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %p = ktdf.buffer_phase(%c3, %c7) {num_phases = 4 : i64} : index
  func.call @use_index(%p) : (index) -> ()
  return
}

// -----

func.func private @use_buffer(memref<8xf32>)

// A constant phase within range selects that candidate; out of range, nothing folds.
// CHECK-LABEL: func.func @select_constant_phase
// CHECK-SAME:    (%[[A:[^:]*]]: memref<8xf32>, %[[B:[^:]*]]: memref<8xf32>, %[[C:[^:]*]]: memref<8xf32>)
// CHECK:         call @use_buffer(%[[C]])
// CHECK-NEXT:    call @use_buffer(%[[A]])
// CHECK-NEXT:    %[[S:.*]] = ktdf.select_memref %{{.*}}[%[[A]], %[[B]], %[[C]]] : memref<8xf32>
// CHECK-NEXT:    call @use_buffer(%[[S]])
func.func @select_constant_phase(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %s2 = ktdf.select_memref %c2[%a, %b, %c] : memref<8xf32>
  func.call @use_buffer(%s2) : (memref<8xf32>) -> ()
  %s0 = ktdf.select_memref %c0[%a, %b, %c] : memref<8xf32>
  func.call @use_buffer(%s0) : (memref<8xf32>) -> ()
  %s3 = ktdf.select_memref %c3[%a, %b, %c] : memref<8xf32>
  func.call @use_buffer(%s3) : (memref<8xf32>) -> ()
  return
}

// -----

func.func private @use_buffer(memref<8xf32>)

// The two folds compose: an all-constant phase selects the first buffer.
// CHECK-LABEL: func.func @phase_then_select
// CHECK-SAME:    (%[[A:[^:]*]]: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK-NOT:     ktdf.
// CHECK:         call @use_buffer(%[[A]])
func.func @phase_then_select(%a: memref<8xf32>, %b: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %p = ktdf.buffer_phase(%c1) {num_phases = 2 : i64} : index
  %s = ktdf.select_memref %p[%a, %b] : memref<8xf32>
  func.call @use_buffer(%s) : (memref<8xf32>) -> ()
  return
}

// -----

func.func private @use_index(index)

// derive_size with one level at iv 0 folds to min(tile, total), both ways round.
// CHECK-LABEL: func.func @derive_single_trip
// CHECK-NOT:     ktdf.tiling.derive_size
// CHECK:         call @use_index(%c5)
// CHECK-NOT:     ktdf.tiling.derive_size
// CHECK:         call @use_index(%c3)
func.func @derive_single_trip() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %x = ktdf.tiling.derive_size [%c0 : %c5], total_size = %c9 : index
  func.call @use_index(%x) : (index) -> ()
  %y = ktdf.tiling.derive_size [%c0 : %c5], total_size = %c3 : index
  func.call @use_index(%y) : (index) -> ()
  return
}

// -----

func.func private @use_index(index)

// Not folded: a non-zero constant iv, a live iv, a non-constant size, two levels.
// CHECK-LABEL: func.func @derive_not_folded
// CHECK-COUNT-4: ktdf.tiling.derive_size
func.func @derive_not_folded(%t: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a = ktdf.tiling.derive_size [%c1 : %c4], total_size = %c8 : index
  func.call @use_index(%a) : (index) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %b = ktdf.tiling.derive_size [%i : %c4], total_size = %c8 : index
    func.call @use_index(%b) : (index) -> ()
  }
  %c = ktdf.tiling.derive_size [%c0 : %t], total_size = %c8 : index
  func.call @use_index(%c) : (index) -> ()
  %d = ktdf.tiling.derive_size [%c0 : %c4], [%c0 : %c4], total_size = %c8 : index
  func.call @use_index(%d) : (index) -> ()
  return
}
