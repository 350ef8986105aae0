// RUN: dfsched-opt %s -split-input-file --reduction-loop-exposure -verify-diagnostics

// Reductions the pass cannot expose. Each case starts from the same row sum (two rows of
// 64 f16, one per batch iteration) and breaks one thing; the error comes before any change.

// The inner pipeline has no private: its slots and tokens come from outside.
func.func @no_private(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
  %u0 = ktdf.create_token : !ktdf.token
  %u1 = ktdf.create_token : !ktdf.token
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: no ktdf.private in pipeline}}
    ktdf.pipeline {
      ktdf.stage depends_in(none) depends_out(%u0) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %x size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%u0) depends_out(%u1) {
        %v = ktdf.read_from_fifo %x : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %y : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%u1) depends_out(none) {
        ktdf.data_transfer from %y size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// No stage signals the compute stage.
func.func @no_load_stage(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: cannot find load stage upstream of compute stage}}
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(none) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The load stage fills no FIFO slot.
func.func @no_fifo_load(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: no FIFO-dest data_transfer in load stage}}
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %in[%r, 0, 0] size [1, 1, 64] : memref<2x1x64xf16, "L1">, memref<2x1x64xf16, "L1">
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// Two slots are filled and the reduction's input is no FIFO read.
func.func @ambiguous_load(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: multiple FIFO-dest transfers in load stage and cannot identify which feeds linalg.generic ins()}}
    ktdf.pipeline {
      %f:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        %z0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.private_yield %x, %y, %u0, %u1, %z0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#4 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %t = tensor.empty() : tensor<1x64xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// Two slots are filled, neither the one the reduction reads.
func.func @unrelated_loads(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: none of the FIFO-dest transfers feeds linalg.generic ins()}}
    ktdf.pipeline {
      %f:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        %z0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %z1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.private_yield %x, %y, %u0, %u1, %z0, %z1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#4 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#5 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The input slot is allocated by the load stage itself, not the private.
func.func @slot_in_stage(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: fifo_in is not a ktdf.private result}}
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        %z = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %z size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The private forwards a slot allocated outside it.
func.func @slot_from_outside(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: fifo_in is not allocated by a ktdf.fifo.allocate in the private}}
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %w, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The slot the load stage fills holds 100 elements: 64 steps do not divide it.
func.func @indivisible(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: input FIFO element count not divisible by reduction_size}}
    ktdf.pipeline {
      %f:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 100xf16>) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        %z0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 100xf16>
        ktdf.private_yield %x, %y, %u0, %u1, %z0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 100xf16>
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#4 size [100] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 100xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// A second slot is filled on every chunk: no scf.if says which chunk is the first.
func.func @unguarded_partial(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: found partial FIFO but no scf.if condition in load stage}}
    ktdf.pipeline {
      %f:5 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        %z0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        ktdf.private_yield %x, %y, %u0, %u1, %z0 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %out[%r, 0] size [1, 1] to %f#4 size [1] : memref<2x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The compute stage never writes its result.
func.func @no_write(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    // expected-error @below {{reduction-loop-exposure: no write_to_fifo in compute stage}}
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// A contraction whose two inputs are two reads of one FIFO slot: stepping both would read
// the slot twice per step. (One read used twice, x * x, is fine.)
func.func @two_reads_of_one_slot(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %w = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        // expected-error @below {{reduction-loop-exposure: contraction inputs 0 and 1 are different reads of one FIFO slot}}
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v, %w : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %a2: f16, %b: f16):
          %m = arith.mulf %a, %a2 : f16
          %n = arith.addf %b, %m : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The input is read through a permutation: steps are cut along input dims.
func.func @transposed_input(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        // expected-error @below {{reduction-loop-exposure: expected the reduction's input to be indexed by the identity map}}
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The transfer into the input slot has a dynamic size: it cannot be divided.
func.func @dynamic_size(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        // expected-error @below {{reduction-loop-exposure: cannot shrink a dynamic transfer size of fifo_in}}
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [%len] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The reduction sits in a region inside the compute stage.
func.func @nested_generic(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = scf.execute_region -> (tensor<1xf16>) {
        // expected-error @below {{reduction-loop-exposure: the reduction linalg.generic must be directly in its ktdf.stage}}
        %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        scf.yield %g : tensor<1xf16>
        }
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// A reduction outside every stage (KTIR, not ScheduleIR).
func.func @not_scheduled(%x: tensor<4x8xf16>, %e: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @below {{reduction-loop-exposure: reduction linalg.generic is not inside a ktdf.stage}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4xf16>) {
  ^bb0(%a: f16, %b: f16):
    %n = arith.addf %b, %a : f16
    linalg.yield %n : f16
  } -> tensor<4xf16>
  return %s : tensor<4xf16>
}
