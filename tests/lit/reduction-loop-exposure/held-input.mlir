// RUN: dfsched-opt %s --split-input-file --reduction-loop-exposure -verify-diagnostics | filecheck %s

// A row sum of exp(x - max) (Decision 101): the row maxima are indexed by no reduction dim, so
// they are read once and held. Their transfer stays before the steps in the load stage, their
// read before the reduction loop in the compute stage; only x steps, one column of the 64
// rows per step, and only its slot shrinks.

// CHECK-LABEL: func.func @sum_of_exps(
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"LXLU" -> "PE", 64xf16>, !ktdf.fifo.slot<"LXLU" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}}[0, 0] size [64, 1] to %{{.*}} size [64, 1] : memref<64x1xf16, "LX">
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[0, %[[J]]] size [64, 1] to %{{.*}} size [64, 1] : memref<64x1024xf16, "LX">
// CHECK:         ktdf.stage
// CHECK-NEXT:      %[[MAX:.*]] = ktdf.read_from_fifo %{{.*}} -> tensor<64x1xf16>
// CHECK:           scf.for
// CHECK-NEXT:        %[[X:.*]] = ktdf.read_from_fifo %{{.*}} -> tensor<64x1xf16>
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<64x1xf16>, tensor<64x1xf16>)

func.func @sum_of_exps(%in: memref<64x1024xf16, "LX">, %maxima: memref<64x1xf16, "LX">, %out: memref<64x1xf16, "LX">) {
  ktdf.pipeline {
    %f:5 = ktdf.private -> (!ktdf.fifo.slot<"LXLU" -> "PE", 65536xf16>, !ktdf.fifo.slot<"LXLU" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, !ktdf.token, !ktdf.token) {
      %x:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LXLU" -> "PE", 65536xf16>, !ktdf.fifo.slot<"LXLU" -> "PE", 64xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x#0, %x#1, %y, %u0, %u1 : !ktdf.fifo.slot<"LXLU" -> "PE", 65536xf16>, !ktdf.fifo.slot<"LXLU" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#3) {
      ktdf.data_transfer from %in[0, 0] size [64, 1024] to %f#0 size [64, 1024] : memref<64x1024xf16, "LX">, !ktdf.fifo.slot<"LXLU" -> "PE", 65536xf16>
      ktdf.data_transfer from %maxima[0, 0] size [64, 1] to %f#1 size [64, 1] : memref<64x1xf16, "LX">, !ktdf.fifo.slot<"LXLU" -> "PE", 64xf16>
    } {applicable_units = ["LXLU"]}
    ktdf.stage depends_in(%f#3) depends_out(%f#4) {
      %v = ktdf.read_from_fifo %f#0 : <"LXLU" -> "PE", 65536xf16> -> tensor<64x1024xf16>
      %m = ktdf.read_from_fifo %f#1 : <"LXLU" -> "PE", 64xf16> -> tensor<64x1xf16>
      %e = tensor.empty() : tensor<64xf16>
      %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v, %m : tensor<64x1024xf16>, tensor<64x1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %b: f16, %acc: f16):
        %d = arith.subf %a, %b : f16
        %x = math.exp %d : f16
        %n = arith.addf %acc, %x : f16
        linalg.yield %n : f16
      } -> tensor<64xf16>
      ktdf.write_to_fifo %s, %f#2 : tensor<64xf16>, <"PE" -> "LXSU", 64xf16>
    } {applicable_units = ["PE"]}
    ktdf.stage depends_in(%f#4) depends_out(none) {
      ktdf.data_transfer from %f#2 size [64, 1] to %out[0, 0] size [64, 1] : !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, memref<64x1xf16, "LX">
    } {applicable_units = ["LXSU"]}
  }
  return
}

// -----

// A held input that no FIFO of the stage brings (a constant made in the compute stage): the
// pass cannot send it once before the steps, so it refuses, before any change.
func.func @held_not_from_a_fifo(%in: memref<64x64xf16, "LX">, %out: memref<64x1xf16, "LX">) {
  ktdf.pipeline {
    %f:4 = ktdf.private -> (!ktdf.fifo.slot<"LXLU" -> "PE", 4096xf16>, !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, !ktdf.token, !ktdf.token) {
      %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"LXLU" -> "PE", 4096xf16>
      %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>
      %u0 = ktdf.create_token : !ktdf.token
      %u1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"LXLU" -> "PE", 4096xf16>, !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%f#2) {
      ktdf.data_transfer from %in[0, 0] size [64, 64] to %f#0 size [64, 64] : memref<64x64xf16, "LX">, !ktdf.fifo.slot<"LXLU" -> "PE", 4096xf16>
    } {applicable_units = ["LXLU"]}
    ktdf.stage depends_in(%f#2) depends_out(%f#3) {
      %v = ktdf.read_from_fifo %f#0 : <"LXLU" -> "PE", 4096xf16> -> tensor<64x64xf16>
      %m = arith.constant dense<1.0> : tensor<64x1xf16>
      %e = tensor.empty() : tensor<64xf16>
      // expected-error @below {{reduction-loop-exposure: input 1, one value per row held over the steps, must be read from a FIFO in its stage}}
      %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v, %m : tensor<64x64xf16>, tensor<64x1xf16>) outs(%e : tensor<64xf16>) {
      ^bb0(%a: f16, %b: f16, %acc: f16):
        %d = arith.subf %a, %b : f16
        %n = arith.addf %acc, %d : f16
        linalg.yield %n : f16
      } -> tensor<64xf16>
      ktdf.write_to_fifo %s, %f#1 : tensor<64xf16>, <"PE" -> "LXSU", 64xf16>
    } {applicable_units = ["PE"]}
    ktdf.stage depends_in(%f#3) depends_out(none) {
      ktdf.data_transfer from %f#1 size [64, 1] to %out[0, 0] size [64, 1] : !ktdf.fifo.slot<"PE" -> "LXSU", 64xf16>, memref<64x1xf16, "LX">
    } {applicable_units = ["LXSU"]}
  }
  return
}
