// RUN: dfsched-opt %s --device=sample -p stage-coarsening | filecheck %s

// Row bias Z[m][n] = X[m][n] + B[n] without FIFOs: the L1 -> SFU_REG, add and
// SFU_REG -> L1 stages share the SFU registers (a memory below the scratchpad), which is
// what groups them. The bias load depends on %n only, so its buffer gains only the %n dim
// (3 vectors) while X's and Z's gain both (8 rows x 3 vectors).

func.func @row_bias(%x: memref<8x192xf16, "DDR">, %b: memref<192xf16, "DDR">, %z: memref<8x192xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  scf.for %m = %c0 to %c8 step %c1 {
    scf.for %n = %c0 to %c192 step %c64 {
      ktdf.pipeline {
        %lx, %lb, %lz, %rx, %rb, %rz, %t0, %t1, %t2, %t3 = ktdf.private -> (
            memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
            memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">,
            !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %a0 = memref.alloc() : memref<64xf16, "L1">
          %a1 = memref.alloc() : memref<64xf16, "L1">
          %a2 = memref.alloc() : memref<64xf16, "L1">
          %r0 = memref.alloc() : memref<64xf16, "SFU_REG">
          %r1 = memref.alloc() : memref<64xf16, "SFU_REG">
          %r2 = memref.alloc() : memref<64xf16, "SFU_REG">
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          %k2 = ktdf.create_token : !ktdf.token
          %k3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a0, %a1, %a2, %r0, %r1, %r2, %k0, %k1, %k2, %k3 :
              memref<64xf16, "L1">, memref<64xf16, "L1">, memref<64xf16, "L1">,
              memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">,
              !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %x[%m, %n] size [1, 64] to %lx[0] size [64] : memref<8x192xf16, "DDR">, memref<64xf16, "L1">
          ktdf.data_transfer from %b[%n] size [64] to %lb[0] size [64] : memref<192xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          ktdf.data_transfer from %lx[0] size [64] to %rx[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
          ktdf.data_transfer from %lb[0] size [64] to %rb[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%t1) depends_out(%t2) {
          linalg.add ins(%rx, %rb : memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">) outs(%rz : memref<64xf16, "SFU_REG">)
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%t2) depends_out(%t3) {
          ktdf.data_transfer from %rz[0] size [64] to %lz[0] size [64] : memref<64xf16, "SFU_REG">, memref<64xf16, "L1">
        } {applicable_units = ["L1SU"]}
        ktdf.stage depends_in(%t3) depends_out(none) {
          ktdf.data_transfer from %lz[0] size [64] to %z[%m, %n] size [1, 64] : memref<64xf16, "L1">, memref<8x192xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// CHECK-LABEL: func.func @row_bias(
// CHECK-SAME:      %[[X:[^:]+]]: memref<8x192xf16, "DDR">, %[[B:[^:]+]]: memref<192xf16, "DDR">
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:5 = ktdf.private -> (memref<8x3x64xf16, "L1">, memref<3x64xf16, "L1">, memref<8x3x64xf16, "L1">, !ktdf.token, !ktdf.token) {
// CHECK:             memref.alloc() : memref<8x3x64xf16, "L1">
// CHECK:             memref.alloc() : memref<3x64xf16, "L1">
// CHECK:             memref.alloc() : memref<8x3x64xf16, "L1">
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for %[[M:.+]] = %[[C0:.+]] to %{{.+}} step %{{.+}} {
// CHECK-NEXT:          scf.for %[[N:.+]] = %[[C0]] to %{{.+}} step %[[C64:[^ ]+]] {
// CHECK-COUNT-4:         arith.
// CHECK-NEXT:            ktdf.data_transfer from %[[X]][%[[M]], %[[N]]] size [1, 64] to %[[P]]#0[%{{.+}}, %{{.+}}, 0] size [1, 1, 64]
// CHECK-NEXT:            %[[S:.+]] = arith.subi %[[N]], %[[C0]] : index
// CHECK-NEXT:            %[[J:.+]] = arith.divsi %[[S]], %[[C64]] : index
// CHECK-NEXT:            ktdf.data_transfer from %[[B]][%[[N]]] size [64] to %[[P]]#1[%[[J]], 0] size [1, 64] : memref<192xf16, "DDR">, memref<3x64xf16, "L1">
// CHECK:           ktdf.stage depends_in(%[[P]]#3) depends_out(%[[P]]#4) {
// CHECK-NEXT:        scf.for %[[M1:.+]] = %[[C0]]
// CHECK-NEXT:          scf.for %[[N1:.+]] = %[[C0]]
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   %[[Q:.+]]:5 = ktdf.private -> (memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, memref<64xf16, "SFU_REG">, !ktdf.token, !ktdf.token)
// CHECK:                 ktdf.stage depends_in(none) depends_out(%[[Q]]#3) {
// CHECK-COUNT-4:           arith.
// CHECK-NEXT:              ktdf.data_transfer from %[[P]]#0[%{{.+}}, %{{.+}}, 0] size [1, 1, 64] to %[[Q]]#0[0] size [64] : memref<8x3x64xf16, "L1">, memref<64xf16, "SFU_REG">
// CHECK-NEXT:              arith.subi %[[N1]], %[[C0]]
// CHECK-NEXT:              %[[J1:.+]] = arith.divsi
// CHECK-NEXT:              ktdf.data_transfer from %[[P]]#1[%[[J1]], 0] size [1, 64] to %[[Q]]#1[0] size [64] : memref<3x64xf16, "L1">, memref<64xf16, "SFU_REG">
// CHECK:                 } {applicable_units = ["L1LU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#3) depends_out(%[[Q]]#4) {
// CHECK-NEXT:              linalg.add ins(%[[Q]]#0, %[[Q]]#1 : {{.+}}) outs(%[[Q]]#2 : memref<64xf16, "SFU_REG">)
// CHECK:                 } {applicable_units = ["SFU"]}
// CHECK-NEXT:            ktdf.stage depends_in(%[[Q]]#4) depends_out(none) {
// CHECK-COUNT-4:           arith.
// CHECK-NEXT:              ktdf.data_transfer from %[[Q]]#2[0] size [64] to %[[P]]#2[%{{.+}}, %{{.+}}, 0] size [1, 1, 64]
// CHECK:           } {applicable_units = ["L1LU", "SFU", "L1SU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
