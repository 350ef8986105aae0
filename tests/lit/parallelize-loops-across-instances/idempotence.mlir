// RUN: dfsched-opt %s --device=sample -parallelize-loops-across-instances -o %t.once.mlir
// RUN: dfsched-opt %s --device=sample -parallelize-loops-across-instances -parallelize-loops-across-instances | diff %t.once.mlir -
// RUN: dfsched-opt %t.once.mlir | diff %t.once.mlir -
// RUN: filecheck %s < %t.once.mlir

// A second run finds no scf.for to spread (the ktdf.parallel is not one, and the inner
// loop is not a scope loop of a pipeline it could spread any more than before: the outer
// one was taken). The output also reads back as it was printed.

// CHECK:     ktdf.parallel (%{{[^,]+}}, %{{[^)]+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) distribute(num_instances = 2) {
// CHECK-NOT: ktdf.parallel
// CHECK:     scf.for

func.func @spread_once(%a: memref<4x4x64xf16, "L1">, %b: memref<4x4x64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      ktdf.pipeline {
        %q, %t = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
          %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %f, %k : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %a[%i, %j, 0] size [1, 1, 64] to %q size [64] : memref<4x4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          %v = ktdf.read_from_fifo %q : <"L1LU" -> "SFU", 64xf16> -> memref<64xf16, "SFU_REG">
        } {applicable_units = ["SFU"]}
      }
    } {loop_type = #ktdf.loop_type<parallel_loop>}
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}
