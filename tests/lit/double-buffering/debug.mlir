// RUN: env DFSCHED_DEBUG_ONLY=double-buffering dfsched-opt %s --device=sample -double-buffering 2>&1 >/dev/null | filecheck %s
// RUN: dfsched-opt %s --device=sample -double-buffering 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// Upstream's debug lines (`--debug-only=double-buffering`): the start, then why each slot
// or pipeline is skipped. Here the FIFO and token slots are not memrefs, the "DDR" buffer is
// not in the scratchpad, and the pipeline keeps its one candidate. Nothing is printed
// unless asked for.

// CHECK:      [double-buffering {{.*}}] starting
// CHECK-NEXT: [double-buffering {{.*}}] slot 1 skipped : memory space ineligible
// CHECK-NEXT: [double-buffering {{.*}}] slot 2 skipped : not a memref
// CHECK-NEXT: [double-buffering {{.*}}] slot 3 skipped : not a memref
// CHECK-NEXT: [double-buffering {{.*}}] pipeline at loc("{{.*}}debug.mlir":23:5) has 1 shape-eligible buffer(s)
// CHECK-NEXT: [double-buffering {{.*}}] pipeline at loc("{{.*}}debug.mlir":23:5) has 1 candidate(s)

// QUIET-NOT: double-buffering

func.func @logged(%in: memref<64xf16, "DDR">, %out: memref<64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %l1, %ddr, %q, %t = ktdf.private -> (memref<64xf16, "L1">, memref<64xf16, "DDR">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
        %a = memref.alloc() : memref<64xf16, "L1">
        %b = memref.alloc() : memref<64xf16, "DDR">
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %b, %f, %k : memref<64xf16, "L1">, memref<64xf16, "DDR">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %in[0] size [64] to %l1[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
      }
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l1[0] size [64] to %ddr[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
      }
    }
  }
  return
}
