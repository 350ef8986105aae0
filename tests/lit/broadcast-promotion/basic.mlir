// RUN: dfsched-opt %s -broadcast-promotion | filecheck %s
// RUN: dfsched-opt %s -broadcast-promotion --disable-broadcast-promotion | filecheck %s --check-prefix=OFF

// Row scaling Y[r][c] = X[r][c] * s[r] over 8 rows of 256 columns, 64 columns per step.
// The row factor s[r] depends on %r only, so the MNILU stage fetched it again for each of
// the 4 column steps. It now has its own pipeline, once per row, before the %c loop; the
// fresh L1 buffer is allocated there and the L1LU stage reads it. The row slice of X
// depends on both IVs and stays. The old buffer stays in the private (upstream leaves it).

// CHECK-LABEL: func.func @row_scale(
// CHECK-SAME:      %[[X:[^:]+]]: memref<8x256xf16, "DDR">, %[[S:[^:]+]]: memref<8xf16, "DDR">
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[C64:.+]] = arith.constant 64 : index
// CHECK:         %[[C256:.+]] = arith.constant 256 : index
// CHECK-NEXT:    scf.for %[[R:.+]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK:           %[[NEW:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline {
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[S]][%[[R]]] size [1] to %[[NEW]][0] size [1] : memref<8xf16, "DDR">, memref<1xf16, "L1">
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK:           }
// CHECK-NEXT:      scf.for %[[C:.+]] = %[[C0]] to %[[C256]] step %[[C64]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK:               %[[P:.+]]:5 = ktdf.private -> (memref<64xf16, "L1">, memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.token) {
// CHECK:                 %[[LX:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK:                 %[[LS:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1xf16, "L1">
// CHECK:                 %[[F:.+]]:2 = ktdf.fifo.allocate()
// CHECK:                 %[[T:.+]] = ktdf.create_token : !ktdf.token
// CHECK:                 ktdf.private_yield %[[LX]], %[[LS]], %[[F]]#0, %[[F]]#1, %[[T]] :
// CHECK:               }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[P]]#4) {
// CHECK-NEXT:            ktdf.data_transfer from %[[X]][%[[R]], %[[C]]] size [1, 64] to %[[P]]#0[0] size [64] : memref<8x256xf16, "DDR">, memref<64xf16, "L1">
// CHECK:               } {applicable_units = ["MNILU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[P]]#4) depends_out(none) {
// CHECK-NEXT:            ktdf.data_transfer from %[[P]]#0[0] size [64] to %[[P]]#2 size [64]
// CHECK-NEXT:            ktdf.data_transfer from %[[NEW]][0] size [1] to %[[P]]#3 size [1] : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
// CHECK:               } {applicable_units = ["L1LU"]}
// CHECK:             }
// CHECK:           } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         return

// OFF-LABEL: func.func @row_scale(
// OFF:         arith.constant
// OFF-NOT:     memref.alloc
// OFF:         scf.for
// OFF-NEXT:      scf.for
// OFF-NEXT:        ktdf.pipeline {
// OFF:             ktdf.data_transfer from %{{.+}}[%{{.+}}] size [1] to %{{.+}}#1[0] size [1]

func.func @row_scale(%x: memref<8x256xf16, "DDR">, %s: memref<8xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c256 step %c64 {
      ktdf.pipeline {
        %lx, %ls, %fx, %fs, %t = ktdf.private -> (memref<64xf16, "L1">, memref<1xf16, "L1">,
            !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.token) {
          %bx = memref.alloc() : memref<64xf16, "L1">
          %bs = memref.alloc() {alignment = 64 : i64} : memref<1xf16, "L1">
          %f:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %bx, %bs, %f#0, %f#1, %k : memref<64xf16, "L1">, memref<1xf16, "L1">,
              !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %x[%r, %c] size [1, 64] to %lx[0] size [64] : memref<8x256xf16, "DDR">, memref<64xf16, "L1">
          ktdf.data_transfer from %s[%r] size [1] to %ls[0] size [1] : memref<8xf16, "DDR">, memref<1xf16, "L1">
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %lx[0] size [64] to %fx size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %ls[0] size [1] to %fs size [1] : memref<1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        } {applicable_units = ["L1LU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
