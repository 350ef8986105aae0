// RUN: dfsched-opt %s -allow-unregistered-dialect > %t.1.mlir
// RUN: dfsched-opt %t.1.mlir -allow-unregistered-dialect > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: filecheck %s < %t.1.mlir
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | dfsched-opt -allow-unregistered-dialect | filecheck %s
// RUN: dfsched-opt %s -allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: dfsched-opt %s -allow-unregistered-dialect -canonicalize -cse | filecheck %s --check-prefix=KEPT

// ktdf_lowering.execute_on and ktdf_lowering.signal, as ktdf-to-ktdflowering leaves a
// pipeline: an outer execute_on over all units, one nested execute_on per former stage,
// and signals between the units of dependent stages.

// CHECK-LABEL: func.func @lowered_pipeline
// CHECK-SAME:    (%[[LU:[^:]*]]: index, %[[SFU:[^:]*]]: index, %[[SU:[^:]*]]: index)
// CHECK-NEXT:    ktdf_lowering.execute_on %[[LU]], %[[SFU]], %[[SU]] {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:      ktdf_lowering.execute_on %[[LU]] {
// CHECK-NEXT:        "probe.load"(%[[BUF]]) : (memref<64xf16, "L1">) -> ()
// CHECK-NEXT:      } {stage = 0 : i64}
// CHECK-NEXT:      ktdf_lowering.signal %[[LU]], %[[SFU]]
// CHECK-NEXT:      ktdf_lowering.execute_on %[[SFU]] {
// CHECK-NEXT:        "probe.compute"() : () -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:      ktdf_lowering.signal %[[SFU]], %[[SU]] {reason = "token"}
// CHECK-NEXT:      ktdf_lowering.execute_on %[[SU]] {
// CHECK-NEXT:      }
// CHECK-NEXT:    } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// GENERIC-LABEL: sym_name = "lowered_pipeline"
// GENERIC:         "ktdf_lowering.execute_on"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC:         "ktdf_lowering.signal"(%{{.*}}, %{{.*}}) : (index, index) -> ()
// Signals have side effects: neither CSE nor DCE may remove the second one.
// KEPT-LABEL: func.func @lowered_pipeline
// KEPT-COUNT-2: ktdf_lowering.signal
func.func @lowered_pipeline(%lu: index, %sfu: index, %su: index) {
  ktdf_lowering.execute_on %lu, %sfu, %su {
    %buf = memref.alloc() : memref<64xf16, "L1">
    ktdf_lowering.execute_on %lu {
      "probe.load"(%buf) : (memref<64xf16, "L1">) -> ()
    } {stage = 0}
    ktdf_lowering.signal %lu, %sfu
    ktdf_lowering.execute_on %sfu {
      "probe.compute"() : () -> ()
    }
    ktdf_lowering.signal %sfu, %su {reason = "token"}
    ktdf_lowering.execute_on %su {
    }
  } {applicable_units = ["L1LU", "SFU", "L1SU"]}
  return
}

// Without units both ops still print; the empty operand list leaves only the dictionary.
// CHECK-LABEL: func.func @no_units
// CHECK-NEXT:    ktdf_lowering.execute_on {
// CHECK-NEXT:      ktdf_lowering.signal {applicable_units = ["MNILU", "L1LU"]}
// CHECK-NEXT:    } {applicable_units = ["SFU"]}
func.func @no_units() {
  ktdf_lowering.execute_on {
    ktdf_lowering.signal {applicable_units = ["MNILU", "L1LU"]}
  } {applicable_units = ["SFU"]}
  return
}
