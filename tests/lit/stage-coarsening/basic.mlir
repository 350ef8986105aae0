// RUN: dfsched-opt %s --device=sample -p stage-coarsening | filecheck %s
// RUN: dfsched-opt %s --device=sample -p stage-coarsening --disable-stage-coarsening | filecheck %s --check-prefix=OFF

// A 4x128 f16 multiply, one row m in [0, 4) and one 64-wide vector n in [0, 128) at a
// time, routed on the sample device: DDR -> L1 (MNILU), L1 -> SFU (L1LU), multiply in the
// SFU registers, SFU -> L1 (L1SU), L1 -> DDR (MNISU).
//
// The L1LU, SFU and L1SU stages talk through FIFOs, so they move in lockstep and become one
// coarse stage whose loops hold a nested vector pipeline. The DMA stages each run the whole
// loop nest, so each moves the whole 4x2x64 tile; the L1 buffers grow to hold it. The
// FIFOs and SFU registers only the nested pipeline uses move into its private.

func.func @mul_tile(%x: memref<4x128xf16, "DDR">, %y: memref<4x128xf16, "DDR">, %z: memref<4x128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %m = %c0 to %c4 step %c1 {
    scf.for %n = %c0 to %c128 step %c64 {
      ktdf.pipeline {
        %lx, %ly, %lz, %rx, %ry, %rz, %qx, %qy, %qz, %t0, %t1, %t2, %t3 = ktdf.private -> (
            memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
            memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>,
            !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %a0 = memref.alloc() : memref<64xf16, "L1">
          %a1 = memref.alloc() : memref<64xf16, "L1">
          %a2 = memref.alloc() : memref<64xf16, "L1">
          %r0 = memref.alloc() : memref<64xf16, "SFU_REG">
          %r1 = memref.alloc() : memref<64xf16, "SFU_REG">
          %r2 = memref.alloc() : memref<64xf16, "SFU_REG">
          %f0, %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %f2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          %k2 = ktdf.create_token : !ktdf.token
          %k3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a0, %a1, %a2, %r0, %r1, %r2, %f0, %f1, %f2, %k0, %k1, %k2, %k3 :
              memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
              memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">,
              !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>,
              !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
              !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %x[%m, %n] size [1, 64] to %lx[0] size [64] : memref<4x128xf16, "DDR">, memref<64xf16, "L1">
          ktdf.data_transfer from %y[%m, %n] size [1, 64] to %ly[0] size [64] : memref<4x128xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          ktdf.data_transfer from %lx[0] size [64] to %qx size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %ly[0] size [64] to %qy size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%t1) depends_out(%t2) {
          ktdf.data_transfer from %qx to %rx[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
          ktdf.data_transfer from %qy to %ry[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
          linalg.mul ins(%rx, %ry : memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">) outs(%rz : memref<64xf16, "SFU_REG">)
          ktdf.data_transfer from %rz[0] size [64] to %qz size [64] : memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%t2) depends_out(%t3) {
          ktdf.data_transfer from %qz size [64] to %lz[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
        } {applicable_units = ["L1SU"]}
        ktdf.stage depends_in(%t3) depends_out(none) {
          ktdf.data_transfer from %lz[0] size [64] to %z[%m, %n] size [1, 64] : memref<64xf16, "L1">, memref<4x128xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// The loop nest is gone from the function: the new outer pipeline took its place.
// CHECK-LABEL: func.func @mul_tile(
// CHECK-SAME:      %[[X:[^:]+]]: memref<4x128xf16, "DDR">, %[[Y:[^:]+]]: memref<4x128xf16, "DDR">, %[[Z:[^:]+]]: memref<4x128xf16, "DDR">)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-NOT:     scf.for
// CHECK:         ktdf.pipeline {

// Outer private: the three L1 buffers, 4 rows x 2 vectors x 64, and one token per
// outer stage that another outer stage waits for (the old tokens are gone).
// CHECK:           %[[P:.+]]:5 = ktdf.private -> (memref<4x2x64xf16, "L1">, memref<4x2x64xf16, "L1">, memref<4x2x64xf16, "L1">, !ktdf.token, !ktdf.token) {

// The load DMA stage runs the whole nest: one bulk tile load per operand, at the tile's
// (m - 0) / 1, (n - 0) / 64 position in the grown buffer.
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for %[[M0:[^ ]+]] =
// CHECK-NEXT:          scf.for %[[N0:[^ ]+]] =
// CHECK-NEXT:            %[[S0:.+]] = arith.subi %[[M0]], %[[C0]] : index
// CHECK-NEXT:            %[[I0:.+]] = arith.divsi %[[S0]], %[[C1]] : index
// CHECK-NEXT:            %[[S1:.+]] = arith.subi %[[N0]], %[[C0]] : index
// CHECK-NEXT:            %[[J0:.+]] = arith.divsi %[[S1]], %[[C64]] : index
// CHECK-NEXT:            ktdf.data_transfer from %[[X]][%[[M0]], %[[N0]]] size [1, 64] to %[[P]]#0[%[[I0]], %[[J0]], 0] size [1, 1, 64]
// CHECK:                 ktdf.data_transfer from %[[Y]][%[[M0]], %[[N0]]] size [1, 64] to %[[P]]#1[{{.+}}] size [1, 1, 64]
// CHECK:           } {applicable_units = ["MNILU"]}

// The coarse stage: the same nest around the vector pipeline, units the union of its stages'.
// The FIFOs and SFU registers moved into the nested pipeline's private.
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   %[[Q:.+]]:8 = ktdf.private -> (memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token) {
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[Q]]#6) {
// CHECK:                   ktdf.data_transfer from %[[P]]#0[{{.+}}] size [1, 1, 64] to %[[Q]]#3 size [64]
// CHECK:                   ktdf.data_transfer from %[[P]]#1[{{.+}}] size [1, 1, 64] to %[[Q]]#4 size [64]
// CHECK:                   } {applicable_units = ["L1LU"]}
// CHECK-NEXT:              ktdf.stage depends_in(%[[Q]]#6) depends_out(%[[Q]]#7) {
// CHECK:                   linalg.mul ins(%[[Q]]#0, %[[Q]]#1 : memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">) outs(%[[Q]]#2 : memref<64xf16, "SFU_REG">)
// CHECK:                 } {applicable_units = ["SFU"]}
// CHECK-NEXT:              ktdf.stage depends_in(%[[Q]]#7) depends_out(none) {
// CHECK:                   ktdf.data_transfer from %[[Q]]#5 size [64] to %[[P]]#2[{{.+}}] size [1, 1, 64]
// CHECK:                   } {applicable_units = ["L1SU"]}
// CHECK:           } {applicable_units = ["L1LU", "SFU", "L1SU"]}

// The store DMA stage: one bulk tile store.
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK-NEXT:        scf.for %[[M2:[^ ]+]] =
// CHECK-NEXT:          scf.for %[[N2:[^ ]+]] =
// CHECK:                 ktdf.data_transfer from %[[P]]#2[{{.+}}] size [1, 1, 64] to %[[Z]][%[[M2]], %[[N2]]] size [1, 64]
// CHECK:           } {applicable_units = ["MNISU"]}
// CHECK:         }
// CHECK:         return

// With the pass disabled, nothing moves.
// OFF:       scf.for
// OFF-NEXT:    scf.for
// OFF-NEXT:      ktdf.pipeline {
// OFF:             ktdf.private_yield {{.*}} : memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
