// RUN: dfsched-opt %s --device=sample -double-buffering -o %t.once.mlir
// RUN: dfsched-opt %t.once.mlir --device=sample -double-buffering -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: filecheck %s < %t.once.mlir
// RUN: dfsched-opt %s --device=sample -double-buffering -double-buffering | diff %t.once.mlir -

// A second run finds the pipeline already rolling over two resource sets and changes
// nothing, whether it runs in another invocation or right after the first. (The device
// comes from --device, so the output of the first run is valid input anywhere.)

// CHECK:     ktdf.buffer_phase
// CHECK-NOT: ktdf.buffer_phase
// CHECK:     ktdf.pipeline modulo(size : 2)

func.func @twice(%src: memref<32x64xf16, "DDR">, %dst: memref<32x64xf16, "DDR">) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.for %r = %c0 to %c32 step %c2 {
    ktdf.pipeline {
      %tile, %done = ktdf.private -> (memref<2x64xf16, "L1">, !ktdf.token) {
        %a = memref.alloc() : memref<2x64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<2x64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%done) {
        ktdf.data_transfer from %src[%r, 0] size [2, 64] to %tile[0, 0] size [2, 64] : memref<32x64xf16, "DDR">, memref<2x64xf16, "L1">
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%done) depends_out(none) {
        ktdf.data_transfer from %tile[0, 0] size [2, 64] to %dst[%r, 0] size [2, 64] : memref<2x64xf16, "L1">, memref<32x64xf16, "DDR">
      } {applicable_units = ["MNISU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
