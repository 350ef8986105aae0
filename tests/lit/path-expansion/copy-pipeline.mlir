// RUN: dfsched-opt %s -split-input-file -verify-diagnostics --path-expansion --device=sample | filecheck %s

// A pipeline without a compute stage whose every stage names its unit (the scratchpad copy
// construct-three-stage-pipeline makes of a load several compute ops read) is left alone.

// CHECK-LABEL: func.func @copy(
// CHECK-NEXT:    ktdf.pipeline {
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[0, 0] size [4, 64] to %{{.*}}[0, 0] size [4, 64] : memref<4x64xf16, "DDR">, memref<4x64xf16, "L1">
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK:         }
// CHECK:         return
func.func @copy(%a: memref<4x64xf16, "DDR">, %b: memref<4x64xf16, "L1">) {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[0, 0] size [4, 64] to %b[0, 0] size [4, 64] : memref<4x64xf16, "DDR">, memref<4x64xf16, "L1">
    } {applicable_units = ["MNILU"]}
  }
  return
}

// -----

// Without the unit, it is a pipeline path expansion cannot plan: there is no compute stage
// to route from or to.
func.func @untagged_copy(%a: memref<4x64xf16, "DDR">, %b: memref<4x64xf16, "L1">) {
  // expected-error @below {{no stage runs on a compute unit (a stage whose applicable_units names the device's compute resource)}}
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      ktdf.data_transfer from %a[0, 0] size [4, 64] to %b[0, 0] size [4, 64] : memref<4x64xf16, "DDR">, memref<4x64xf16, "L1">
    }
  }
  return
}
