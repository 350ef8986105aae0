// RUN: dfsched-opt %s --split-input-file --device=sample -p "ktdf-to-ktdflowering{uniform-grid-cores=2}" | filecheck %s

// No op reads the tile id: every core runs the same program, so the grid of 5 is lowered on
// its first 2 cores (Decision 121). The function keeps its real grid and the index constants
// that number a core it was not lowered on (3 here) for `wrap-program-dfir` to replicate.

// CHECK-LABEL: func.func @uniform
// CHECK-SAME:  attributes {dfsched.uniform_grid = [5], dfsched.uniform_grid_keys = [3 : index], grid = [2]}
// CHECK-NEXT:  dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
// CHECK-NEXT:  dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
// CHECK-NEXT:  ktdp.get_compute_tile_id : index
// CHECK-NOT:   C2-l1lu
func.func @uniform(%src: memref<4x64xf16, "L1">, %slot: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) attributes {grid = [5]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  scf.for %i = %c0 to %c3 step %c1 {
    ktdf.pipeline {
      %tok = ktdf.private -> (!ktdf.token) {
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %k : !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%tok) {
        ktdf.data_transfer from %src[%i, 0] size [1, 64] to %slot size [64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// -----

// A tile id makes the cores' programs differ: every core is lowered.

// CHECK-LABEL: func.func @per_tile
// CHECK-SAME:  attributes {grid = [3]}
// CHECK:       name = "C2-l1lu"
func.func @per_tile(%src: memref<3x64xf16, "L1">, %slot: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) attributes {grid = [3]} {
  %t = ktdp.get_compute_tile_id : index
  ktdf.pipeline {
    %tok = ktdf.private -> (!ktdf.token) {
      %k = ktdf.create_token : !ktdf.token
      ktdf.private_yield %k : !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%tok) {
      ktdf.data_transfer from %src[%t, 0] size [1, 64] to %slot size [64] : memref<3x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
    } {applicable_units = ["L1LU"]}
  }
  return
}
