// RUN: dfsched-opt %s -split-input-file -allow-unregistered-dialect --device=sample -parallelize-loops-across-instances | filecheck %s

// Pipelines that are not spread over the sample device's sub-cores: each function keeps its
// scf.for loops and gets no ktdf.parallel.

// No loop around the pipeline.
// CHECK-LABEL: func.func @no_loop(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @no_loop() {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      "kernel.step"(%c0) : (index) -> ()
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

// A DMA engine belongs to the whole core: there is only one of it.
// CHECK-LABEL: func.func @dma_unit(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @dma_unit() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["MNILU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A sub-core unit and a core unit: the group holding both is the core, of which there is one.
// CHECK-LABEL: func.func @mixed_units(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @mixed_units() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A unit kind the device does not have.
// CHECK-LABEL: func.func @unknown_unit(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @unknown_unit() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["TPU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// Stages that name no unit at all.
// CHECK-LABEL: func.func @no_units(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @no_units() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = []}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A pipeline without stages runs on no unit.
// CHECK-LABEL: func.func @no_stages(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @no_stages() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %t = ktdf.private -> (!ktdf.token) {
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %k : !ktdf.token
      }
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// The SFU pipeline sits directly in a stage: its scope ends there, and the outer pipeline
// uses a DMA engine.
// CHECK-LABEL: func.func @pipeline_in_stage(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @pipeline_in_stage() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        ktdf.pipeline {
          ktdf.stage depends_in(none) depends_out(none) {
            "kernel.step"(%i) : (index) -> ()
          } {applicable_units = ["SFU"]}
        }
      } {applicable_units = ["MNILU", "SFU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// The loop holds two pipelines, so it is neither one's scope.
// CHECK-LABEL: func.func @two_pipelines(
// CHECK-NOT:     ktdf.parallel
// CHECK:         return
func.func @two_pipelines() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "kernel.step"(%i) : (index) -> ()
      } {applicable_units = ["L1LU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
