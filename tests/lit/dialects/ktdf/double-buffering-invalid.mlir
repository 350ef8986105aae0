// RUN: dfsched-opt %s -split-input-file -verify-diagnostics

// Verifier rules and syntax errors of ktdf.buffer_phase and ktdf.select_memref.

func.func @one_phase(%i: index) {
  // expected-error @+1 {{'ktdf.buffer_phase' op attribute 'num_phases' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2}}
  %p = ktdf.buffer_phase(%i) {num_phases = 1 : i64} : index
  return
}

// -----

func.func @phases_not_i64(%i: index) {
  // expected-error @+1 {{attribute 'num_phases' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2}}
  %p = ktdf.buffer_phase(%i) {num_phases = 2 : i32} : index
  return
}

// -----

func.func @no_phases(%i: index) {
  // expected-error @+1 {{property 'num_phases' expected}}
  %p = ktdf.buffer_phase(%i) : index
  return
}

// -----

func.func @no_induction_variable() {
  // expected-error @+1 {{requires at least one induction variable operand}}
  %p = ktdf.buffer_phase() {num_phases = 2 : i64} : index
  return
}

// -----

func.func @one_candidate(%p: index, %a: memref<4xf16>) {
  // expected-error @+1 {{requires at least 2 candidate memrefs, got 1}}
  %s = ktdf.select_memref %p[%a] : memref<4xf16>
  return
}

// -----

func.func @phase_count_mismatch(%i: index, %a: memref<4xf16>, %b: memref<4xf16>, %c: memref<4xf16>) {
  %p = ktdf.buffer_phase(%i) {num_phases = 2 : i64} : index
  // expected-error @+1 {{phase op num_phases (2) must equal candidate count (3)}}
  %s = ktdf.select_memref %p[%a, %b, %c] : memref<4xf16>
  return
}

// -----

// A phase that is not (or no longer) a buffer_phase result is not checked against the
// candidate count: canonicalization may have replaced it by a constant.
func.func @phase_from_block_argument(%p: index, %a: memref<4xf16>, %b: memref<4xf16>, %c: memref<4xf16>) -> memref<4xf16> {
  %s = ktdf.select_memref %p[%a, %b, %c] : memref<4xf16>
  return %s : memref<4xf16>
}

// -----

func.func @candidate_of_other_type() {
  %x0 = memref.alloc() : memref<64xf16, "L1">
  // expected-note @+1 {{prior use here}}
  %x1 = memref.alloc() : memref<32xf16, "L1">
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{use of value '%x1' expects different type than prior uses: 'memref<64xf16, "L1">' vs 'memref<32xf16, "L1">'}}
  %s = ktdf.select_memref %c0[%x0, %x1] : memref<64xf16, "L1">
  return
}

// -----

func.func @generic_candidate_of_other_type(%p: index, %a: memref<4xf16>, %b: memref<8xf16>) {
  // expected-error @+1 {{attribute memref<4xf16> expected from variable 'T', but got memref<8xf16>}}
  %s = "ktdf.select_memref"(%p, %a, %b) : (index, memref<4xf16>, memref<8xf16>) -> memref<4xf16>
  return
}
