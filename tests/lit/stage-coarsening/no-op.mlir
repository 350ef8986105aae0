// RUN: dfsched-opt %s -split-input-file -p stage-coarsening | filecheck %s

// Pipelines without a perfectly nested loop right around them are left alone. No device is
// needed then (none is declared here and no --device is given).

// No loop at all (the loops canonicalized away).
// CHECK-LABEL: func.func @no_loop(
// CHECK:         %{{.+}} = arith.constant 0 : index
// CHECK-NEXT:    ktdf.pipeline {
// CHECK:           ktdf.private -> (memref<64xf16, "L1">, !ktdf.token)
func.func @no_loop(%x: memref<64xf16, "DDR">, %z: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  ktdf.pipeline {
    %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
      %a = memref.alloc() : memref<64xf16, "L1">
      %k = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t) {
      ktdf.data_transfer from %x[%c0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t) depends_out(none) {
      ktdf.data_transfer from %l[0] size [64] to %z[%c0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
    } {applicable_units = ["MNISU"]}
  }
  return
}

// -----

// The loop also computes something else next to the pipeline.
// CHECK-LABEL: func.func @busy_loop(
// CHECK:         scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      arith.addi %[[N]]
// CHECK-NEXT:      ktdf.pipeline {
// CHECK:             ktdf.private -> (memref<64xf16, "L1">, !ktdf.token)
func.func @busy_loop(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c64 {
    %m = arith.addi %n, %c0 : index
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%m] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%m] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// A second loop next to the pipeline: sinking the loop into the pipeline would drop that
// loop's work, so the loop does not qualify.
// CHECK-LABEL: func.func @sibling_loop(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        memref.store
// CHECK:           }
// CHECK-NEXT:      ktdf.pipeline {
func.func @sibling_loop(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">, %w: memref<4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f16
  scf.for %n = %c0 to %c128 step %c64 {
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %zero, %w[%i] : memref<4xf16>
    }
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// A loop carrying a value from one iteration to the next cannot be split over stages.
// CHECK-LABEL: func.func @carried(
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(
// CHECK-NEXT:      ktdf.pipeline {
func.func @carried(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) -> index {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %r = scf.for %n = %c0 to %c128 step %c64 iter_args(%acc = %c0) -> (index) {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %x[%n] size [64] to %l[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
    scf.yield %acc : index
  }
  return %r : index
}
