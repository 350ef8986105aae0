// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics

// Malformed ktdf types and attributes are parse errors at the offending token.

func.func @slot_without_count() {
  // expected-error @+1 {{Expected integer literal in shape dimension}}
  %a = "probe.make"() : () -> !ktdf.fifo.slot<"L1LU" -> "SFU", f16>
  return
}

// -----

func.func @slot_without_arrow() {
  // expected-error @+1 {{Expected '->'}}
  %a = "probe.make"() : () -> !ktdf.fifo.slot<"L1LU", "SFU", 4xf16>
  return
}

// -----

func.func @slot_with_two_dims() {
  // expected-error @+1 {{a fifo slot has exactly one dimension}}
  %a = "probe.make"() : () -> !ktdf.fifo.slot<"L1LU" -> "SFU", 4x4xf16>
  return
}

// -----

func.func @slot_with_negative_count() {
  // expected-error @+1 {{Expected integer literal in shape dimension}}
  %a = "probe.make"() : () -> !ktdf.fifo.slot<"L1LU" -> "SFU", -4xf16>
  return
}

// -----

func.func @unknown_loop_type() {
  // expected-error @+1 {{Expected `parallel_loop`, or `reduction_loop`}}
  "probe.mark"() {kind = #ktdf.loop_type<vector_loop>} : () -> ()
  return
}
