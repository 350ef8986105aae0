// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect --device=quad_corelet -parallelize-loops-across-instances | filecheck %s

// The quad_corelet device has four corelet groups per core, each with a VLD -> VPU -> VST
// vector pipeline, so a pipeline on those units is spread over 4 instances (Decision 3).

// 8 rows: two per corelet.
// CHECK-LABEL: func.func @eight_rows(
// CHECK:         ktdf.parallel (%[[R:[^,]+]], %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 4) {
// CHECK:             "kernel.step"(%[[R]])
// CHECK:         } {applicable_units = ["VPU"]}
func.func @eight_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.load"(%r) : (index) -> ()
      } {applicable_units = ["VLD"]}
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%r) : (index) -> ()
      } {applicable_units = ["VPU"]}
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.store"(%r) : (index) -> ()
      } {applicable_units = ["VST"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// 6 rows do not split evenly over 4: chunks of 2, 2, 2 and 0 (the imbalanced fallback).
// CHECK-LABEL: func.func @six_rows(
// CHECK:         ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 4) {
func.func @six_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %r = %c0 to %c6 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%r) : (index) -> ()
      } {applicable_units = ["VPU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// 3 rows are fewer than the 4 instances: the loop stays (on the sample device's 2
// sub-cores it would be spread).
// CHECK-LABEL: func.func @three_rows(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
func.func @three_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %r = %c0 to %c3 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%r) : (index) -> ()
      } {applicable_units = ["VPU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A DMA pipeline uses units the whole core shares. This device has two core groups, but
// they are not instances of the pipeline: each core runs its own program (the grid), so
// the loop stays. (Upstream counts the two "core" groups and would spread it over them.)
// CHECK-LABEL: func.func @dma_rows(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
func.func @dma_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.load"(%r) : (index) -> ()
      } {applicable_units = ["DMARD"]}
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.store"(%r) : (index) -> ()
      } {applicable_units = ["DMAWR"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// The sample device's unit names mean nothing here.
// CHECK-LABEL: func.func @foreign_units(
// CHECK-NOT:     ktdf.parallel
// CHECK:         scf.for
func.func @foreign_units() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%r) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
