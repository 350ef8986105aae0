// RUN: dfsched-opt %s --scalar-broadcast-legalization --device=sample | filecheck %s

// A row of 8 elements on the sample device's 64 lanes (reduce_multiop's shape): the broadcast
// element is splatted to the row's 8 elements, not to 64, so the compute op's operands keep
// one shape (a 64-wide read would not fit the 1x8 generic).

// CHECK-LABEL: func.func @narrow_row(
// CHECK:         ktdf.data_transfer from %{{.*}}[0, 0] size [1, 1] to %{{.*}} size [8] {transfer_mode = "splat"} : memref<1x1xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
// CHECK:         %[[S:.*]] = ktdf.read_from_fifo %{{.*}}#1 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
// CHECK:         linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[S]] : tensor<1x8xf16>, tensor<1x8xf16>)

!in = !ktdf.fifo.slot<"L1LU" -> "SFU", 8xf16>
!one = !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
!out = !ktdf.fifo.slot<"SFU" -> "L1SU", 8xf16>
func.func @narrow_row(%x: memref<1x8xf16, "L1">, %s: memref<1x1xf16, "L1">, %y: memref<1x8xf16, "L1">) {
  ktdf.pipeline {
    %p:5 = ktdf.private -> (!in, !one, !out, !ktdf.token, !ktdf.token) {
      %a:2 = ktdf.fifo.allocate() -> !in, !one
      %b = ktdf.fifo.allocate() -> !out
      %t0 = ktdf.create_token : !ktdf.token
      %t1 = ktdf.create_token : !ktdf.token
      ktdf.private_yield %a#0, %a#1, %b, %t0, %t1 : !in, !one, !out, !ktdf.token, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#3) {
      ktdf.data_transfer from %x[0, 0] size [1, 8] to %p#0 size [8] : memref<1x8xf16, "L1">, !in
      ktdf.data_transfer from %s[0, 0] size [1, 1] to %p#1 size [1] : memref<1x1xf16, "L1">, !one
    } {applicable_units = ["L1LU"]}
    ktdf.stage depends_in(%p#3) depends_out(%p#4) {
      %v = ktdf.read_from_fifo %p#0 : <"L1LU" -> "SFU", 8xf16> -> tensor<1x8xf16>
      %w = ktdf.read_from_fifo %p#1 : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
      %e = tensor.empty() : tensor<1x8xf16>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v, %w : tensor<1x8xf16>, tensor<1x1xf16>) outs(%e : tensor<1x8xf16>) {
      ^bb0(%i: f16, %j: f16, %o: f16):
        %d = arith.subf %i, %j : f16
        linalg.yield %d : f16
      } -> tensor<1x8xf16>
      ktdf.write_to_fifo %r, %p#2 : tensor<1x8xf16>, <"SFU" -> "L1SU", 8xf16>
    } {applicable_units = ["SFU"]}
    ktdf.stage depends_in(%p#4) depends_out(none) {
      ktdf.data_transfer from %p#2 size [8] to %y[0, 0] size [1, 8] : !out, memref<1x8xf16, "L1">
    } {applicable_units = ["L1SU"]}
  }
  return
}
