// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect > %t.before
// RUN: dfsched-opt %s -split-input-file --allow-unregistered-dialect -broadcast-promotion > %t.after
// RUN: diff %t.before %t.after
// RUN: filecheck %s < %t.after

// Nothing to hoist: the IR comes out as it went in. No device is needed.

// No pipeline at all.
// CHECK-LABEL: func.func @nothing(
func.func @nothing() {
  return
}

// -----

// A pipeline outside any loop: its transfers run once already.
// CHECK-LABEL: func.func @no_loop(
func.func @no_loop(%x: memref<64xf16, "DDR">) {
  ktdf.pipeline {
    %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
      %a = memref.alloc() : memref<64xf16, "L1">
      %k = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%t) {
      ktdf.data_transfer from %x[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
    } {applicable_units = ["MNILU"]}
    ktdf.stage depends_in(%t) depends_out(none) {
      "test.use"(%l) : (memref<64xf16, "L1">) -> ()
    } {applicable_units = ["L1LU"]}
  }
  return
}

// -----

// A pipeline with a private and no stage.
// CHECK-LABEL: func.func @no_stage(
func.func @no_stage(%n_end: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %n = %c0 to %n_end step %c1 {
    ktdf.pipeline {
      %l, %t = ktdf.private -> (memref<64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<64xf16, "L1">, !ktdf.token
      }
    }
  }
  return
}

// -----

// The add example after path expansion: every scratchpad transfer is indexed by the row
// loop's IV, the others have FIFO ends.
// CHECK-LABEL: func.func @add_rows(
func.func @add_rows(%a: memref<3x64xf16, "DDR">, %b: memref<3x64xf16, "DDR">, %c: memref<3x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    ktdf.pipeline {
      %la, %lb, %fa, %fb, %fc, %lc, %t0, %t1, %t2, %t3 = ktdf.private -> (memref<1x64xf16, "L1">, memref<1x64xf16, "L1">,
          !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
          memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %ba = memref.alloc() : memref<1x64xf16, "L1">
        %bb = memref.alloc() : memref<1x64xf16, "L1">
        %f:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %g = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %bc = memref.alloc() : memref<1x64xf16, "L1">
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        %k2 = ktdf.create_token : !ktdf.token
        %k3 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %ba, %bb, %f#0, %f#1, %g, %bc, %k0, %k1, %k2, %k3 : memref<1x64xf16, "L1">, memref<1x64xf16, "L1">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %a[%i, 0] size [1, 64] to %la[0, 0] size [1, 64] : memref<3x64xf16, "DDR">, memref<1x64xf16, "L1">
        ktdf.data_transfer from %b[%i, 0] size [1, 64] to %lb[0, 0] size [1, 64] : memref<3x64xf16, "DDR">, memref<1x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        ktdf.data_transfer from %la[0, 0] size [1, 64] to %fa size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        ktdf.data_transfer from %lb[0, 0] size [1, 64] to %fb size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t1) depends_out(%t2) {
        "test.add"(%fa, %fb, %fc) : (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>) -> ()
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%t2) depends_out(%t3) {
        ktdf.data_transfer from %fc size [64] to %lc[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%t3) depends_out(none) {
        ktdf.data_transfer from %lc[0, 0] size [1, 64] to %c[%i, 0] size [1, 64] : memref<1x64xf16, "L1">, memref<3x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
