// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect --device=sample --ktdf-to-ktdflowering --verify-diagnostics

// Each error is found before the function changes.

func.func @missing_units() attributes {grid = [1]} {
  ktdf.pipeline {
    // expected-error @below {{ktdf.stage is missing required 'applicable_units' attribute}}
    ktdf.stage depends_in(none) depends_out(none) {
      "test.work"() : () -> ()
    }
  }
  return
}

// -----

func.func @empty_units() attributes {grid = [1]} {
  ktdf.pipeline {
    // expected-error @below {{Stage has empty unit list}}
    ktdf.stage depends_in(none) depends_out(none) {
      "test.work"() : () -> ()
    } {applicable_units = []}
  }
  return
}

// -----

func.func @not_a_kind() attributes {grid = [1]} {
  ktdf.pipeline {
    // expected-error @below {{'applicable_units' entries must be strings naming exec_unit kinds (got 3 : i64)}}
    ktdf.stage depends_in(none) depends_out(none) {
      "test.work"() : () -> ()
    } {applicable_units = ["SFU", 3]}
  }
  return
}

// -----

// A unit type the device does not have (here a kind of another device).
func.func @unresolvable_unit() attributes {grid = [2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
      "test.work"() : () -> ()
    } {applicable_units = ["SFU"]}
    // expected-error @below {{cannot resolve unit type 'VPU': device 'sample_device' has no exec_unit of that kind (it has L1LU, L1SU, MNILU, MNISU, SFU)}}
    ktdf.stage depends_in(none) depends_out(none) {
      "test.work"() : () -> ()
    } {applicable_units = ["VPU"]}
  }
  return
}

// -----

// Memories are not units.
func.func @memory_as_unit() attributes {grid = [1]} {
  ktdf.pipeline {
    // expected-error @below {{cannot resolve unit type 'L1'}}
    ktdf.stage depends_in(none) depends_out(none) {
      "test.work"() : () -> ()
    } {applicable_units = ["L1"]}
  }
  return
}

// -----

// expected-error @below {{Function missing 'grid' attribute}}
func.func @no_grid() {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

// expected-error @below {{Function 'grid' attribute must be an array of integers}}
func.func @grid_not_an_array() attributes {grid = 4 : index} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

// The grid must have been normalized (normalize-grid-to-1d).
// expected-error @below {{Only 1D grids supported in Phase 1 (got 2D grid)}}
func.func @two_d_grid() attributes {grid = [2, 2]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

// expected-error @below {{Grid size must be integer attribute}}
func.func @grid_not_integer() attributes {grid = ["two"]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

// expected-error @below {{Grid size must be positive (got 0)}}
func.func @empty_grid() attributes {grid = [0]} {
  ktdf.pipeline {
    ktdf.stage depends_in(none) depends_out(none) {
    } {applicable_units = ["SFU"]}
  }
  return
}

// -----

// The sample device has two copies of the SFU per core: four instances cannot be bound to
// corelets.
func.func @too_many_instances() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @below {{ktdf.parallel distributes over 4 instances but device 'sample_device' has 2 instance(s) of SFU}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c8) step (%c1) distribute(num_instances = 4) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.work"(%i) : (index) -> ()
      } {applicable_units = ["SFU"]}
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// DMA units are shared by the whole core: they have a single instance.
func.func @dma_in_parallel() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @below {{ktdf.parallel distributes over 2 instances but device 'sample_device' has 1 instance(s) of MNILU, L1LU}}
  ktdf.parallel (%i, %inst) = (%c0) to (%c8) step (%c1) distribute(num_instances = 2) {
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(none) {
        "test.load"(%i) : (index) -> ()
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(none) depends_out(none) {
        "test.to_fifo"(%i) : (index) -> ()
      } {applicable_units = ["L1LU"]}
    }
    ktdf.parallel_yield
  }
  return
}

// -----

// Stages waiting for each other.
func.func @cycle() attributes {grid = [1]} {
  // expected-note @-1 {{failed to build global stage DAG}}
  ktdf.pipeline {
    %t:2 = ktdf.private -> (!ktdf.token, !ktdf.token) {
      %a = ktdf.create_token : !ktdf.token
      %b = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %b : !ktdf.token, !ktdf.token
    }
    // expected-error @below {{Circular token dependency detected in pipeline}}
    ktdf.stage depends_in(%t#1) depends_out(%t#0) {
      "test.load"() : () -> ()
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t#0) depends_out(%t#1) {
      "test.to_fifo"() : () -> ()
    } {applicable_units = ["L1LU"]}
  }
  return
}
