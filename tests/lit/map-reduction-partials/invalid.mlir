// RUN: dfsched-opt %s -split-input-file --map-reduction-partials --device=sample -verify-diagnostics

// Reductions the pass cannot map. Each case starts from the same exposed row sum (two rows
// of 64 f16, one element per step) and breaks one thing; the error comes before any change.

// The compute stage may run on two units: which local memory?
func.func @two_units(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      // expected-error @below {{expected exactly one applicable exec_unit on ktdf.stage}}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU", "L1LU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The accumulator starts from a function argument: no form to lower.
func.func @init_argument(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">, %seed: tensor<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %seed) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          // expected-error @below {{lowerIterArgInitializer: unrecognised initializer form}}
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The accumulator starts from a computed tensor: no form to lower.
func.func @init_computed(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">, %seed: tensor<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        // expected-error @below {{lowerIterArgInitializer: unrecognised initializer form}}
        %e = arith.addf %seed, %seed : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// The reduction's input is no FIFO read.
func.func @input_not_from_fifo(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %t = tensor.empty() : tensor<1x1xf16>
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          // expected-error @below {{map-reduction-partials: the reduction's input must be a tensor ktdf.read_from_fifo}}
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.addf %b, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// A contraction whose second input is not read from a FIFO.
func.func @second_input_not_from_fifo(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %k = arith.constant dense<1.000000e+00> : tensor<1x1xf16>
          // expected-error @below {{map-reduction-partials: the reduction's input must be a tensor ktdf.read_from_fifo}}
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v, %k : tensor<1x1xf16>, tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %a2: f16, %b: f16):
            %m = arith.mulf %a, %a2 : f16
            %n = arith.addf %b, %m : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
          }
          scf.yield %s : tensor<1xf16>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

// reduction-loop-exposure has not run: the accumulator is no loop-carried value.
func.func @not_exposed(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
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
        // expected-error @below {{map-reduction-partials: the reduction's accumulator is not an scf.for iter_arg (run reduction-loop-exposure first)}}
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

// A reduction outside every stage (KTIR, not ScheduleIR).
func.func @not_scheduled(%x: tensor<4x8xf16>, %e: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @below {{map-reduction-partials: reduction linalg.generic is not inside a ktdf.stage}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4xf16>) {
  ^bb0(%a: f16, %b: f16):
    %n = arith.addf %b, %a : f16
    linalg.yield %n : f16
  } -> tensor<4xf16>
  return %s : tensor<4xf16>
}
