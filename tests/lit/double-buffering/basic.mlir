// RUN: dfsched-opt %s --device=sample -double-buffering | filecheck %s
// RUN: dfsched-opt %s --device=sample -double-buffering --disable-double-buffering | filecheck %s --check-prefix=OFF

// Rows of a 16x64 matrix stream through the sample device's scratchpad four at a time: the
// MNILU stage fills an L1 buffer, the MNISU stage writes it back. The buffer is in the plain
// "L1" space, as path expansion allocates scratchpad buffers (Decision 1: upstream only
// accepts #ktdp.memory_space spaces). Two copies are allocated before the loop and freed
// after it; each iteration picks one by the phase of its IV, so the next block of rows can
// be loaded while the current one is stored.

// CHECK-LABEL: func.func @stream_rows(
// CHECK-SAME:      %[[SRC:[^:]+]]: memref<16x64xf16, "DDR">, %[[DST:[^:]+]]: memref<16x64xf16, "DDR">)
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[C16:.+]] = arith.constant 16 : index
// CHECK:         %[[B0:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xf16, "L1">
// CHECK:         %[[B1:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4x64xf16, "L1">
// CHECK-NEXT:    scf.for %[[ROW:.+]] = %[[C0]] to %[[C16]] step %[[C4]] {
// CHECK-NEXT:      %[[PHASE:.+]] = ktdf.buffer_phase(%[[ROW]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:      %[[BUF:.+]] = ktdf.select_memref %[[PHASE]][%[[B0]], %[[B1]]] : memref<4x64xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
// CHECK:             %[[TOK:.+]] = ktdf.private -> (!ktdf.token) {
// CHECK:               %[[T:.+]] = ktdf.create_token : !ktdf.token
// CHECK:               ktdf.private_yield %[[T]] : !ktdf.token
// CHECK:             }
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(%[[TOK]]) {
// CHECK-NEXT:          ktdf.data_transfer from %[[SRC]][%[[ROW]], 0] size [4, 64] to %[[BUF]][0, 0] size [4, 64] : memref<16x64xf16, "DDR">, memref<4x64xf16, "L1">
// CHECK:             } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf.stage depends_in(%[[TOK]]) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[BUF]][0, 0] size [4, 64] to %[[DST]][%[[ROW]], 0] size [4, 64] : memref<4x64xf16, "L1">, memref<16x64xf16, "DDR">
// CHECK:             } {applicable_units = ["MNISU"]}
// CHECK:           }
// CHECK:         } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    memref.dealloc %[[B0]] : memref<4x64xf16, "L1">
// CHECK-NEXT:    memref.dealloc %[[B1]] : memref<4x64xf16, "L1">
// CHECK:         return

// OFF-LABEL: func.func @stream_rows(
// OFF-NOT:     ktdf.buffer_phase
// OFF:         ktdf.pipeline {
// OFF:           %{{.+}}:2 = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
// OFF-NOT:     memref.dealloc

func.func @stream_rows(%src: memref<16x64xf16, "DDR">, %dst: memref<16x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %row = %c0 to %c16 step %c4 {
    ktdf.pipeline {
      %rows, %loaded = ktdf.private -> (memref<4x64xf16, "L1">, !ktdf.token) {
        %buffer = memref.alloc() {alignment = 64 : i64} : memref<4x64xf16, "L1">
        %t = ktdf.create_token : !ktdf.token
        ktdf.private_yield %buffer, %t : memref<4x64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%loaded) {
        ktdf.data_transfer from %src[%row, 0] size [4, 64] to %rows[0, 0] size [4, 64] : memref<16x64xf16, "DDR">, memref<4x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%loaded) depends_out(none) {
        ktdf.data_transfer from %rows[0, 0] size [4, 64] to %dst[%row, 0] size [4, 64] : memref<4x64xf16, "L1">, memref<16x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
