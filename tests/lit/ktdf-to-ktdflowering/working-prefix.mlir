// RUN: dfsched-opt %s --split-input-file --device=sample -p ktdf-to-ktdflowering | filecheck %s
// RUN: dfsched-opt %s --split-input-file --device=sample -p "ktdf-to-ktdflowering{working-prefix=false}" | filecheck %s --check-prefix=EVERY

// The host launches @first_two only where `tile < 2`: of a grid of 8, only cores 0 and 1 run
// it, so its function is lowered on those two (Decision 122); the real grid waits in
// `dfsched.working_prefix_grid` for `wrap-program-dfir`. @everywhere is launched by every tile
// and keeps its 8 cores. With `working-prefix=false` every core is lowered, as the spec says.

// CHECK-LABEL: module @first_two
// CHECK:       func.func @first_two
// CHECK-SAME:  attributes {dfsched.working_prefix_grid = [8], grid = [2]}
// CHECK-NEXT:  dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
// CHECK-NEXT:  dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
// CHECK-NEXT:  ktdp.get_compute_tile_id : index
// CHECK-LABEL: module @everywhere
// CHECK:       func.func @everywhere
// CHECK-SAME:  attributes {grid = [8]}
// CHECK:       name = "C7-l1lu"
// EVERY-LABEL: module @first_two
// EVERY:       func.func @first_two
// EVERY-SAME:  attributes {grid = [8]}
// EVERY:       name = "C7-l1lu"
module {
  module {
    func.func @host() attributes {grid = [8]} {
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %first = arith.cmpi slt, %t, %c2 : index
      scf.if %first {
        func.call @first_two() : () -> ()
      }
      func.call @everywhere() : () -> ()
      return
    }
    func.func private @first_two()
    func.func private @everywhere()
  }
  module @first_two {
    func.func @first_two(%src: memref<8x64xf16, "L1">, %slot: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) attributes {grid = [8]} {
      %t = ktdp.get_compute_tile_id : index
      ktdf.pipeline {
        %tok = ktdf.private -> (!ktdf.token) {
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %k : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%tok) {
          ktdf.data_transfer from %src[%t, 0] size [1, 64] to %slot size [64] : memref<8x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
      }
      return
    }
  }
  module @everywhere {
    func.func @everywhere(%src: memref<8x64xf16, "L1">, %slot: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) attributes {grid = [8]} {
      %t = ktdp.get_compute_tile_id : index
      ktdf.pipeline {
        %tok = ktdf.private -> (!ktdf.token) {
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %k : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%tok) {
          ktdf.data_transfer from %src[%t, 0] size [1, 64] to %slot size [64] : memref<8x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
      }
      return
    }
  }
}

// -----

// A tile that reads another tile's scratchpad (ct_id = 5, Decision 93) may need a core the
// prefix would drop: every core is lowered.

// CHECK-LABEL: module @reads_tile_five
// CHECK:       func.func @reads_tile_five
// CHECK-SAME:  attributes {grid = [8]}
// CHECK:       name = "C7-l1lu"
module {
  module {
    func.func @host() attributes {grid = [8]} {
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %first = arith.cmpi slt, %t, %c2 : index
      scf.if %first {
        func.call @reads_tile_five() : () -> ()
      }
      return
    }
    func.func private @reads_tile_five()
  }
  module @reads_tile_five {
    func.func @reads_tile_five(%src: memref<8x64xf16, "L1">, %slot: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) attributes {grid = [8]} {
      %t = ktdp.get_compute_tile_id : index
      %c0 = arith.constant 0 : index
      %remote = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 5>} : memref<1x64xf16>
      ktdf.pipeline {
        %tok = ktdf.private -> (!ktdf.token) {
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %k : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%tok) {
          ktdf.data_transfer from %src[%t, 0] size [1, 64] to %slot size [64] : memref<8x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        } {applicable_units = ["L1LU"]}
      }
      return
    }
  }
}
