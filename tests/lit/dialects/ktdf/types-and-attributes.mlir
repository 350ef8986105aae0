// RUN: dfsched-opt %s -allow-unregistered-dialect > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -allow-unregistered-dialect > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | dfsched-opt -allow-unregistered-dialect | filecheck %s

// Types and attributes of ktdf, seen through unregistered ops so that only their own
// syntax is exercised.

// CHECK-LABEL: func.func @tokens
// CHECK-NEXT:    %[[A:.*]] = "probe.make"() : () -> !ktdf.token
// CHECK-NEXT:    "probe.take"(%[[A]], %[[A]]) : (!ktdf.token, !ktdf.token) -> ()
func.func @tokens() {
  %tok = "probe.make"() : () -> !ktdf.token
  "probe.take"(%tok, %tok) : (!ktdf.token, !ktdf.token) -> ()
  return
}

// Fifo slots: string endpoints, static and dynamic counts, any element type, and
// non-string endpoint attributes. Spacing in the input is free; output is canonical.
// CHECK-LABEL: func.func @fifo_slots
// CHECK-NEXT:    "probe.make"() : () -> !ktdf.fifo.slot<"MNILU" -> "L1", 128xbf16>
// CHECK-NEXT:    "probe.make"() : () -> !ktdf.fifo.slot<"SFU" -> "L1SU", ?xf32>
// CHECK-NEXT:    "probe.make"() : () -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xi8>
// CHECK-NEXT:    "probe.make"() : () -> !ktdf.fifo.slot<0 : i64 -> ["a", "b"], 16xf16>
// CHECK-NEXT:    "probe.make"() : () -> !ktdf.fifo.slot<"A" -> "B", 4xvector<8xf16>>
func.func @fifo_slots() {
  %a = "probe.make"() : () -> !ktdf.fifo.slot<"MNILU" -> "L1", 128xbf16>
  %b = "probe.make"() : () -> !ktdf.fifo.slot< "SFU"->"L1SU" , ?xf32 >
  %c = "probe.make"() : () -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xi8>
  %d = "probe.make"() : () -> !ktdf.fifo.slot<0 -> ["a", "b"], 16xf16>
  %e = "probe.make"() : () -> !ktdf.fifo.slot<"A" -> "B", 4xvector<8xf16>>
  return
}

// The loop classification attribute, in its pretty `<value>` form.
// CHECK-LABEL: func.func @loop_types
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         "probe.mark"() {kinds = [#ktdf.loop_type<reduction_loop>, #ktdf.loop_type<parallel_loop>]} : () -> ()
func.func @loop_types(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
    } {loop_type = #ktdf.loop_type<reduction_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  "probe.mark"() {kinds = [#ktdf.loop_type<reduction_loop>, #ktdf.loop_type<parallel_loop>]} : () -> ()
  return
}
