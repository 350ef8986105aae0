// Running the pass twice is the same as running it once, and an expanded pipeline is
// left exactly as it is (upstream would expand it again).
// RUN: dfsched-opt %s --path-expansion --device=sample > %t.once
// RUN: dfsched-opt %s -p path-expansion,path-expansion --device=sample > %t.twice
// RUN: diff %t.once %t.twice
// RUN: dfsched-opt %t.once --path-expansion --device=sample > %t.again
// RUN: diff %t.once %t.again
// The first run did expand the pipeline (so the comparisons above are not vacuous).
// RUN: filecheck %s < %t.once

// CHECK-COUNT-5: } {applicable_units = ["{{MNILU|L1LU|SFU|L1SU|MNISU}}"]}
// CHECK-NOT:     ktdf.stage

!row = memref<512xf32, "DDR">
module {
  func.func @negate(%src: !row, %dst: !row) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    scf.for %i = %c0 to %c512 step %c1 {
      ktdf.pipeline {
        %p:5 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 1xf32>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf32>, !ktdf.token, !ktdf.token, !ktdf.token) {
          %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 1xf32>
          %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 1xf32>
          %t0 = ktdf.create_token : !ktdf.token
          %t1 = ktdf.create_token : !ktdf.token
          %t2 = ktdf.create_token : !ktdf.token
          ktdf.private_yield %in, %out, %t0, %t1, %t2 : !ktdf.fifo.slot<"DDR" -> "SFU", 1xf32>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf32>, !ktdf.token, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%p#2) {
          ktdf.data_transfer from %src[%i] size [1] to %p#0 size [1] : !row, !ktdf.fifo.slot<"DDR" -> "SFU", 1xf32>
        }
        ktdf.stage depends_in(%p#2) depends_out(%p#3) {
          %x = ktdf.read_from_fifo %p#0 : <"DDR" -> "SFU", 1xf32> -> tensor<1xf32>
          %y = arith.negf %x : tensor<1xf32>
          ktdf.write_to_fifo %y, %p#1 : tensor<1xf32>, <"SFU" -> "DDR", 1xf32>
        } {applicable_units = ["SFU"]}
        ktdf.stage depends_in(%p#3) depends_out(%p#4) {
          ktdf.data_transfer from %p#1 size [1] to %dst[%i] size [1] : !ktdf.fifo.slot<"SFU" -> "DDR", 1xf32>, !row
        }
      }
    }
    return
  }
}
