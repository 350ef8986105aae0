// RUN: dfsched-opt %s --device=sample -p stage-coarsening | filecheck %s

// Row sums of a 4x256 matrix: a parallel row loop around a reduction loop over four
// 64-wide chunks. Both loops are sunk like any others (their loop_type is kept). A buffer
// grows only by the loops its transfers' indices depend on: the input chunks by both
// (4 rows x 4 chunks), the row sums by the row loop only.

// CHECK-LABEL: func.func @row_sums(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[P:.+]]:4 = ktdf.private -> (memref<4x4x64xf16, "L1">, memref<4x1xf16, "L1">, !ktdf.token, !ktdf.token)
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[P]]#2) {
// CHECK-NEXT:        scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:          scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-COUNT-4:         arith.
// CHECK-NEXT:            ktdf.data_transfer from %{{.+}}[%[[R]], %[[K]]] size [1, 64] to %[[P]]#0[%{{.+}}, %{{.+}}, 0] size [1, 1, 64]
// CHECK:               } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:             } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[P]]#2) depends_out(%[[P]]#3) {
// CHECK-NEXT:        scf.for %[[R1:.+]] = %[[C0:.+]] to %{{.+}} step %[[C1:[^ ]+]] {
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            ktdf.pipeline {
// CHECK:                   linalg.generic
// CHECK:                 ktdf.stage depends_in(%{{.+}}) depends_out(none) {
// CHECK-NEXT:              %[[S:.+]] = arith.subi %[[R1]], %[[C0]] : index
// CHECK-NEXT:              %[[I:.+]] = arith.divsi %[[S]], %[[C1]] : index
// CHECK-NEXT:              ktdf.data_transfer from %{{.+}} size [1] to %[[P]]#1[%[[I]], 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<4x1xf16, "L1">
// CHECK:                 } {applicable_units = ["L1SU"]}
// CHECK:               }
// CHECK:             } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:           ktdf.stage depends_in(%[[P]]#3) depends_out(none) {
// CHECK-NEXT:        scf.for %[[R2:.+]] = %[[C0]]
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            %[[S2:.+]] = arith.subi %[[R2]], %[[C0]] : index
// CHECK-NEXT:            %[[I2:.+]] = arith.divsi %[[S2]], %[[C1]] : index
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#1[%[[I2]], 0] size [1, 1] to %{{.+}}[%[[R2]]] size [1] : memref<4x1xf16, "L1">, memref<4xf16, "DDR">

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_sums(%x: memref<4x256xf16, "DDR">, %z: memref<4xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %lx, %qx, %qs, %ls, %t0, %t1, %t2, %t3 = ktdf.private -> (
            memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>,
            memref<1xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
          %a0 = memref.alloc() : memref<64xf16, "L1">
          %f0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %f1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
          %a1 = memref.alloc() : memref<1xf16, "L1">
          %k0 = ktdf.create_token : !ktdf.token
          %k1 = ktdf.create_token : !ktdf.token
          %k2 = ktdf.create_token : !ktdf.token
          %k3 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a0, %f0, %f1, %a1, %k0, %k1, %k2, %k3 :
              memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>,
              memref<1xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t0) {
          ktdf.data_transfer from %x[%r, %k] size [1, 64] to %lx[0] size [64] : memref<4x256xf16, "DDR">, memref<64xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t0) depends_out(%t1) {
          ktdf.data_transfer from %lx[0] size [64] to %qx size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%t1) depends_out(%t2) {
          %v = ktdf.read_from_fifo %qx : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %e = tensor.empty() : tensor<1xf16>
          %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
          ^bb0(%a: f16, %acc: f16):
            %n = arith.addf %acc, %a : f16
            linalg.yield %n : f16
          } -> tensor<1xf16>
          ktdf.write_to_fifo %s, %qs : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%t2) depends_out(%t3) {
          ktdf.data_transfer from %qs size [1] to %ls[0] size [1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<1xf16, "L1">
        } {applicable_units = ["L1SU"]}
        ktdf.stage depends_in(%t3) depends_out(none) {
          ktdf.data_transfer from %ls[0] size [1] to %z[%r] size [1] : memref<1xf16, "L1">, memref<4xf16, "DDR">
        } {applicable_units = ["MNISU"]}
      }
    } {loop_type = #ktdf.loop_type<reduction_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
