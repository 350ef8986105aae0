// RUN: dfsched-opt %s --reduction-loop-exposure | filecheck %s

// A stage of the reduction's pipeline that is neither its load nor its store (here an
// unrelated scratchpad copy) runs its whole body at every step of the reduction loop, as
// upstream does; only the store stage is guarded by "last step".

// CHECK-LABEL: func.func @row_sums
// CHECK:         ktdf.stage depends_in(none) depends_out(none) {
// CHECK:           %[[N:.*]] = arith.constant 64 : index
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:             %[[K:.*]] = arith.constant 1 : index
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}}[%[[K]], 0] size [1, 1] to %{{.*}}[%[[K]], 0] size [1, 1]
// CHECK:           } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK:         } {applicable_units = ["L1SU"]}
// CHECK-NEXT:    ktdf.stage depends_in(%{{.*}}#3) depends_out(none) {
// CHECK:           %[[N:.*]] = arith.constant 64 : index
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        %[[IS_LAST:.*]] = arith.cmpi eq, %[[J]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[IS_LAST]] {
// CHECK-NEXT:          ktdf.data_transfer from %{{.*}}#1 size [1]

func.func @row_sums(%in: memref<2x1x64xf16, "L1">, %out: memref<2x1xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    ktdf.pipeline {
      %f:4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token) {
        %x = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %y = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>
        %u0 = ktdf.create_token : !ktdf.token
        %u1 = ktdf.create_token : !ktdf.token
        ktdf.private_yield %x, %y, %u0, %u1 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%f#2) {
        ktdf.data_transfer from %in[%r, 0, 0] size [1, 1, 64] to %f#0 size [64] : memref<2x1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
      ktdf.stage depends_in(%f#2) depends_out(%f#3) {
        %v = ktdf.read_from_fifo %f#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
        %e = tensor.empty() : tensor<1xf16>
        %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<1x64xf16>) outs(%e : tensor<1xf16>) {
        ^bb0(%a: f16, %b: f16):
          %n = arith.addf %b, %a : f16
          linalg.yield %n : f16
        } -> tensor<1xf16>
        ktdf.write_to_fifo %s, %f#1 : tensor<1xf16>, <"SFU" -> "L1SU", 1xf16>
      } {applicable_units = ["SFU"]}
      ktdf.stage depends_in(none) depends_out(none) {
        %k = arith.constant 1 : index
        ktdf.data_transfer from %out[%k, 0] size [1, 1] to %out[%k, 0] size [1, 1] : memref<2x1xf16, "L1">, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
      ktdf.stage depends_in(%f#3) depends_out(none) {
        ktdf.data_transfer from %f#1 size [1] to %out[%r, 0] size [1, 1] : !ktdf.fifo.slot<"SFU" -> "L1SU", 1xf16>, memref<2x1xf16, "L1">
      } {applicable_units = ["L1SU"]}
    }
  }
  return
}
