// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics

// Verifier rules and syntax errors of the fifo ops.

func.func @too_few_dynamic_sizes() {
  // expected-error @+1 {{number of dynamic size operands (0) must match number of dynamic sizes in result types (1)}}
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
  return
}

// -----

func.func @too_many_dynamic_sizes(%n: index) {
  // expected-error @+1 {{number of dynamic size operands (2) must match number of dynamic sizes in result types (1)}}
  %s:2 = ktdf.fifo.allocate(%n, %n) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 4xf16>
  return
}

// -----

func.func @allocate_non_slot() {
  // expected-error @+1 {{ktdf.fifo.slot}}
  %s = ktdf.fifo.allocate() -> memref<4xf16>
  return
}

// -----

func.func @read_other_element_type() {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  // expected-error @+1 {{failed to verify that all of {fifo_slot, result} have same element type}}
  %t = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf32>
  return
}

// -----

func.func @read_dynamic_into_static() {
  %c = arith.constant 8 : index
  %s = ktdf.fifo.allocate(%c) -> !ktdf.fifo.slot<"L1LU" -> "SFU", ?xf16>
  // expected-error @+1 {{FIFO slot and data must both be dynamic or both be static}}
  %t = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", ?xf16> -> tensor<8xf16>
  return
}

// -----

func.func @read_wrong_count() {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  // expected-error @+1 {{data total elements (32) must match FIFO slot size (64)}}
  %t = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> memref<2x16xf16>
  return
}

// -----

func.func @read_into_vector() {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  // expected-error @+1 {{Unexpected attribute vector<64xf16>}}
  %t = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> vector<64xf16>
  return
}

// -----

func.func @write_other_element_type(%d: tensor<64xi8>) {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  // expected-error @+1 {{failed to verify that all of {data, fifo_slot} have same element type}}
  ktdf.write_to_fifo %d, %s : tensor<64xi8>, <"SFU" -> "L1SU", 64xf16>
  return
}

// -----

func.func @write_static_into_dynamic(%d: tensor<64xf16>, %n: index) {
  %s = ktdf.fifo.allocate(%n) -> !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf16>
  // expected-error @+1 {{FIFO slot and data must both be dynamic or both be static}}
  ktdf.write_to_fifo %d, %s : tensor<64xf16>, <"SFU" -> "L1SU", ?xf16>
  return
}

// -----

func.func @write_wrong_count(%d: tensor<4x4xf16>) {
  %s = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  // expected-error @+1 {{data total elements (16) must match FIFO slot size (64)}}
  ktdf.write_to_fifo %d, %s : tensor<4x4xf16>, <"SFU" -> "L1SU", 64xf16>
  return
}

// -----

func.func @slot_type_is_not_a_slot(%d: tensor<4xf16>, %s: memref<4xf16>) {
  // expected-error @+1 {{expected '!ktdf.fifo.slot' type, but got 'memref<4xf16>'}}
  ktdf.write_to_fifo %d, %s : tensor<4xf16>, memref<4xf16>
  return
}
