// RUN: dfsched-opt %s -split-input-file --device=sample -p stage-coarsening | filecheck %s

// Stage edges are rebuilt with fresh tokens once the stages are regrouped: an edge from an
// outer stage into the nested pipeline now ends at the coarse stage holding it, and an edge
// out of the nested pipeline now starts there.

// Each operand has its own load stage: both wait-free loads must finish before the coarse
// stage starts, so it waits on two tokens; inside, the two FIFO loads start at once.
// CHECK-LABEL: func.func @two_loads(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:6 = ktdf.private -> (memref<2x64xf16, "L1">, memref<2x64xf16, "L1">, memref<2x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#3, %[[P]]#4) depends_out(%[[P]]#5) {
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          ktdf.pipeline {
// CHECK:                 %[[Q:.+]]:8 = ktdf.private -> ({{.*}}, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[Q]]#5) {
// CHECK:                 } {applicable_units = ["L1LU"]}
// CHECK-NEXT:            ktdf.stage depends_in(none) depends_out(%[[Q]]#6) {
// CHECK:                 } {applicable_units = ["L1LU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#5, %[[Q]]#6) depends_out(%[[Q]]#7) {
// CHECK:                 } {applicable_units = ["SFU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#7) depends_out(none) {
// CHECK:                 } {applicable_units = ["L1SU"]}
// CHECK:               }
// CHECK:           } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#5) depends_out(none) {
// CHECK:           } {applicable_units = ["MNISU"]}

func.func @two_loads(%x: memref<128xf16, "DDR">, %y: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c64 {
    ktdf.pipeline {
      %lx, %ly, %lz, %rx, %ry, %qx, %qy, %qz, %tx, %ty, %ta, %tb, %tc, %td = ktdf.private -> (
          memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
          memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">,
          !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
          !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %a0 = memref.alloc() : memref<64xf16, "L1">
        %a1 = memref.alloc() : memref<64xf16, "L1">
        %a2 = memref.alloc() : memref<64xf16, "L1">
        %r0 = memref.alloc() : memref<64xf16, "SFU_REG">
        %r1 = memref.alloc() : memref<64xf16, "SFU_REG">
        %f0, %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %f2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        %k2 = ktdf.create_token : !ktdf.token
        %k3 = ktdf.create_token : !ktdf.token
        %k4 = ktdf.create_token : !ktdf.token
        %k5 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a0, %a1, %a2, %r0, %r1, %f0, %f1, %f2, %k0, %k1, %k2, %k3, %k4, %k5 :
            memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
            memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%tx) {
        ktdf.data_transfer from %x[%n] size [64] to %lx[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(none) depends_out(%ty) {
        ktdf.data_transfer from %y[%n] size [64] to %ly[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%tx) depends_out(%ta) {
        ktdf.data_transfer from %lx[0] size [64] to %qx size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%ty) depends_out(%tb) {
        ktdf.data_transfer from %ly[0] size [64] to %qy size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%ta, %tb) depends_out(%tc) {
        ktdf.data_transfer from %qx to %rx[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
        ktdf.data_transfer from %qy to %ry[0] size [64] : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "SFU_REG">
        linalg.max ins(%rx, %ry : memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">) outs(%rx : memref<64xf16, "SFU_REG">)
        ktdf.data_transfer from %rx[0] size [64] to %qz size [64] : memref<64xf16, "SFU_REG">, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%tc) depends_out(%td) {
        ktdf.data_transfer from %qz size [64] to %lz[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%td) depends_out(none) {
        ktdf.data_transfer from %lz[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// One load stage feeds both FIFO loads: its two edges into the nested pipeline become one
// edge to the coarse stage (one token, waited on once).
// CHECK-LABEL: func.func @shared_load(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:4 = ktdf.private -> (memref<2x64xf16, "L1">, memref<2x64xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK:             ktdf.pipeline {
// CHECK:               %[[Q:.+]]:6 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[Q]]#3) {
// CHECK:               ktdf.stage depends_in(none) depends_out(%[[Q]]#4) {
// CHECK:               ktdf.stage depends_in(%[[Q]]#3, %[[Q]]#4) depends_out(%[[Q]]#5) {
// CHECK:               ktdf.stage depends_in(%[[Q]]#5) depends_out(none) {
// CHECK:           ktdf.stage depends_in(%[[P]]#3) depends_out(none) {

func.func @shared_load(%x: memref<128xf16, "DDR">, %z: memref<128xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c64 {
    ktdf.pipeline {
      %lx, %lz, %qa, %qb, %qz, %t0, %t1, %t2, %t3, %t4 = ktdf.private -> (
          memref<64xf16, "L1">, memref<64xf16, "L1">,
          !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
          !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
        %a0 = memref.alloc() : memref<64xf16, "L1">
        %a1 = memref.alloc() : memref<64xf16, "L1">
        %f0, %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %f2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %k0 = ktdf.create_token : !ktdf.token
        %k1 = ktdf.create_token : !ktdf.token
        %k2 = ktdf.create_token : !ktdf.token
        %k3 = ktdf.create_token : !ktdf.token
        %k4 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a0, %a1, %f0, %f1, %f2, %k0, %k1, %k2, %k3, %k4 :
            memref<64xf16, "L1">, memref<64xf16, "L1">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t0) {
        ktdf.data_transfer from %x[%n] size [64] to %lx[0] size [64] : memref<128xf16, "DDR">, memref<64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t0) depends_out(%t1) {
        ktdf.data_transfer from %lx[0] size [64] to %qa size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t0) depends_out(%t2) {
        ktdf.data_transfer from %lx[0] size [64] to %qb size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%t1, %t2) depends_out(%t3) {
        %a = ktdf.read_from_fifo %qa : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        %b = ktdf.read_from_fifo %qb : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>
        %e = tensor.empty() : tensor<64xf16>
        %s = linalg.mul ins(%a, %b : tensor<64xf16>, tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
        ktdf.write_to_fifo %s, %qz : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(%t3) depends_out(%t4) {
        ktdf.data_transfer from %qz size [64] to %lz[0] size [64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<64xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%t4) depends_out(none) {
        ktdf.data_transfer from %lz[0] size [64] to %z[%n] size [64] : memref<64xf16, "L1">, memref<128xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}
