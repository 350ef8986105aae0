// RUN: dfsched-opt %s -allow-unregistered-dialect > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -allow-unregistered-dialect > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | dfsched-opt -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// ktdf.pipeline, ktdf.stage, ktdf.private and ktdf.private_yield.

// An empty pipeline and an empty stage print as `{` / `}` with no block label.
// CHECK-LABEL: func.func @empty_bodies
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:    }
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "empty_bodies"
// GENERIC:         "ktdf.pipeline"() ({
// GENERIC:         "ktdf.stage"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
func.func @empty_bodies() {
  ktdf.pipeline {}
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {}
  }
  return
}

// Tokens from create_token, listed without types; `modulo(size: N)` is reprinted with a
// space before the colon; the trailing dictionary of a stage holds applicable_units and
// any discardable attribute, sorted by name.
// CHECK-LABEL: func.func @tokens_and_units
// CHECK-NEXT:    %[[T0:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    %[[T1:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:    ktdf.pipeline modulo(size : 2) {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[T0]], %[[T1]]) {
// CHECK-NEXT:        "probe.work"() : () -> ()
// CHECK-NEXT:      } {applicable_units = ["MNILU", "L1LU"], priority = 3 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T1]], %[[T0]]) depends_out(none) {
// CHECK-NEXT:      } {applicable_units = ["SFU"]}
// CHECK-NEXT:    } {pipeline.tag = "p0"}
// GENERIC-LABEL: sym_name = "tokens_and_units"
// GENERIC:         "ktdf.pipeline"() <{modulo = 2 : i64}> ({
// GENERIC:         "ktdf.stage"(%{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 0, 2>{{.*}}}> ({
func.func @tokens_and_units() {
  %a = ktdf.create_token : !ktdf.token
  // The stripped spelling of `!ktdf.token` is empty (accepted, as MLIR does).
  %b = ktdf.create_token {} :
  ktdf.pipeline modulo(size: 2) {
    ktdf.stage depends_in(none) depends_out(%a, %b) {
      "probe.work"() : () -> ()
    } {priority = 3, applicable_units = ["MNILU", "L1LU"]}
    ktdf.stage depends_in(%b, %a) depends_out(none) {
    } {applicable_units = ["SFU"]}
  } {pipeline.tag = "p0"}
  return
}

// A private region: results typed after `->`, an explicit yield that is printed because
// it has operands, tokens flowing out to the stages, and attributes after `attributes`.
// CHECK-LABEL: func.func @private_resources
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      %{{.*}} = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
// CHECK-NEXT:        %[[BUF:.*]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:        %[[TOK:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:        %[[SLOT:.*]] = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:        ktdf.private_yield %[[BUF]], %[[TOK]], %[[SLOT]] : memref<64xf16, "L1">, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:      } attributes {scope = "tile"}
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[R1:[^)]+]]) {
// CHECK-NEXT:        "probe.fill"(%[[R0:[^)]+]]) : (memref<64xf16, "L1">) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf.stage depends_in(%[[R1]]) depends_out(none) {
// CHECK-NEXT:        "probe.use"(%[[R0]], %{{.*}}) : (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @private_resources() {
  ktdf.pipeline {
    %res:3 = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
      %buf = memref.alloc() : memref<64xf16, "L1">
      %tok = ktdf.create_token : !ktdf.token
      %slot = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      ktdf.private_yield %buf, %tok, %slot : memref<64xf16, "L1">, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    } attributes {scope = "tile"}
    ktdf.stage depends_in(none) depends_out(%res#1) {
      "probe.fill"(%res#0) : (memref<64xf16, "L1">) -> ()
    }
    ktdf.stage depends_in(%res#1) depends_out(none) {
      "probe.use"(%res#0, %res#2) : (memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) -> ()
    }
  }
  return
}

// Without results the yield is implicit: the parser adds it, the printer leaves it out
// (also when it was written explicitly). A yield with attributes stays visible.
// CHECK-LABEL: func.func @implicit_yield
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.private {
// CHECK-NEXT:        "probe.side_effect"() : () -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.private {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.private {
// CHECK-NEXT:        ktdf.private_yield {note = "kept"}
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "implicit_yield"
// GENERIC:         "ktdf.private_yield"() : () -> ()
func.func @implicit_yield() {
  ktdf.pipeline {
    ktdf.private {
      "probe.side_effect"() : () -> ()
    }
  }
  ktdf.pipeline {
    ktdf.private {
      ktdf.private_yield
    }
  }
  ktdf.pipeline {
    ktdf.private {
      ktdf.private_yield {note = "kept"}
    }
  }
  return
}

// Token chains through a private region of an enclosing pipeline are valid sources, as
// are tokens created outside the pipeline; a pipeline nests inside a stage.
// CHECK-LABEL: func.func @nested_pipelines
// CHECK:         ktdf.stage depends_in(none) depends_out(%[[OUTER:[^)]+]]) {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               ktdf.stage depends_in(%[[OUTER]]) depends_out(%{{[^)]+}}) {
func.func @nested_pipelines(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  ktdf.pipeline {
    %t = ktdf.private -> (!ktdf.token) {
      %k = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t) {
      scf.for %i = %c0 to %n step %c1 {
        ktdf.pipeline {
          %inner = ktdf.private -> (!ktdf.token) {
            %k = ktdf.create_token : !ktdf.token
            ktdf.private_yield %k : !ktdf.token
          }
          ktdf.stage depends_in(%t) depends_out(%inner) {
          }
        }
      }
    }
  }
  return
}
