// RUN: dfsched-opt %s -split-input-file --map-reduction-partials --device=sample | filecheck %s
// RUN: dfsched-opt %s -split-input-file --map-reduction-partials --map-reduction-partials --device=sample | filecheck %s

// Reductions after reduction-loop-exposure, with different inits and element types. The
// SFU's group-local memory on the sample device is SFU_REG: the accumulator lives there,
// the init is written into it before the loop, each step reduces in place, and the loop
// carries nothing. A second run finds no reduction on tensors and changes nothing.

// An f16 row sum from an empty init: a zero fill.
// CHECK-LABEL: func.func @row_sum_f16(
// CHECK-SAME:      %[[IN:.*]]: memref<2x1x64xf16, "L1">, %[[OUT:.*]]: memref<2x1xf16, "L1">)
// CHECK:         ktdf.stage depends_in(%[[P:.*]]#2) depends_out(%[[P]]#3) {
// CHECK:           %[[ACC:.*]] = memref.alloc() : memref<1xf16, "SFU_REG">
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:      linalg.fill ins(%[[ZERO]] : f16) outs(%[[ACC]] : memref<1xf16, "SFU_REG">)
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[X:.*]] = ktdf.read_from_fifo %[[P]]#0 : <"L1LU" -> "SFU", 1xf16> -> memref<1x1xf16>
// CHECK-NEXT:        linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : memref<1x1xf16>) outs(%[[ACC]] : memref<1xf16, "SFU_REG">) {
// CHECK:             ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16):
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[B]], %[[A]] : f16
// CHECK:               linalg.yield %[[S]] : f16
// CHECK:             }
// CHECK-NEXT:        %[[LAST:.*]] = arith.cmpi eq, %[[J]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[LAST]] {
// CHECK-NEXT:          ktdf.write_to_fifo %[[ACC]], %[[P]]#1 : memref<1xf16, "SFU_REG">, <"SFU" -> "L1SU", 1xf16>
// CHECK:             }
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         } {applicable_units = ["SFU"]}
// CHECK-NOT:     tensor

// An i32 sum: the zero is an integer.
// CHECK-LABEL: func.func @row_sum_i32(
// CHECK:         %[[ACC:.*]] = memref.alloc() : memref<1xi32, "SFU_REG">
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : i32) outs(%[[ACC]] : memref<1xi32, "SFU_REG">)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : memref<1x1xi32>) outs(%[[ACC]] : memref<1xi32, "SFU_REG">)
// CHECK:           arith.addi
// CHECK:         ktdf.write_to_fifo %[[ACC]], %{{.*}}#1 : memref<1xi32, "SFU_REG">
// CHECK-NOT:     tensor

// A running maximum seeded by a fill of -inf: the same fill, into the buffer.
// CHECK-LABEL: func.func @row_max(
// CHECK:         ktdf.stage depends_in(%[[P:.*]]#2) depends_out(%[[P]]#3) {
// CHECK:           %[[ACC:.*]] = memref.alloc() : memref<1xf16, "SFU_REG">
// CHECK:           %[[LOW:.*]] = arith.constant 0xFC00 : f16
// CHECK-NEXT:      linalg.fill ins(%[[LOW]] : f16) outs(%[[ACC]] : memref<1xf16, "SFU_REG">)
// CHECK-NEXT:      scf.for
// CHECK:             arith.maximumf
// CHECK-NOT:     tensor

func.func @row_sum_f16(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
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

func.func @row_sum_i32(%in: memref<2x1x64xi32, "L1">, %out: memref<2x1xi32, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 1xi32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xi32>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xi32>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xi32>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 1xi32>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xi32>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        scf.for %j = %c0 to %c64 step %c1 {
          ktdf.data_transfer from %in[%r, 0, %j] size [1, 1, 1] to %f#0 size [1] : memref<2x1x64xi32, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xi32>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %e = tensor.empty() : tensor<1xi32>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xi32>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xi32> -> tensor<1x1xi32>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xi32>) outs(%acc : tensor<1xi32>) {
          ^bb0(%a: i32, %b: i32):
            %n = arith.addi %b, %a : i32
            linalg.yield %n : i32
          } -> tensor<1xi32>
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.write_to_fifo %s, %f#1 : tensor<1xi32>, <"SFU" -> "L1SU", 1xi32>
          }
          scf.yield %s : tensor<1xi32>
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        scf.for %j = %c0 to %c64 step %c1 {
          %last = arith.cmpi eq, %j, %c63 : index
          scf.if %last {
            ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xi32>, memref<2x1xi32, "L1">
          }
        } {loop_type = #ktdf.loop_type<reduction_loop>}
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}

// -----

func.func @row_max(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
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
        %low = arith.constant 0xFC00 : f16
        %e0 = tensor.empty() : tensor<1xf16>
        %e = linalg.fill ins(%low : f16) outs(%e0 : tensor<1xf16>) -> tensor<1xf16>
        %sum = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %e) -> (tensor<1xf16>) {
          %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x1xf16>) outs(%acc : tensor<1xf16>) {
          ^bb0(%a: f16, %b: f16):
            %n = arith.maximumf %b, %a : f16
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
