// RUN: dfsched-opt %s --device=sample --ktdf-to-ktdflowering | filecheck %s

// One L1LU stage in a pipeline inside a loop, on a grid of three cores. At the start of the
// function: one unit per core, a fresh tile id, then core keys 0..2, the core -> unit map and
// its query. The pipeline and its stage become nested execute_ons on that query; the private
// region is inlined into the outer one; there is nothing to signal; loop_type is dropped.

// CHECK-LABEL: func.func @single_stage
// CHECK-SAME:  (%[[SRC:.*]]: memref<3x4x64xf16, "L1">, %[[SLOT:.*]]: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>)
// CHECK-NEXT:  %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
// CHECK:       %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
// CHECK:       %[[U2:.*]] = dataflow.get_unit {core = 2 : i32, corelet = 0 : i32, name = "C2-l1lu", type = "l1lu"} : index
// CHECK-NEXT:  %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:       %[[K0:.*]] = arith.constant 0 : index
// CHECK:       %[[K1:.*]] = arith.constant 1 : index
// CHECK:       %[[K2:.*]] = arith.constant 2 : index
// CHECK:       %[[MAP:.*]] = uniform.def_immutable_mapping([%[[K0]] -> %[[U0]]], [%[[K1]] -> %[[U1]]], [%[[K2]] -> %[[U2]]]):index
// CHECK-NEXT:  %[[Q:.*]] = uniform.query_map(map:%[[MAP]], key:%[[TID]]) : index
// CHECK-NEXT:  %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:  scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:    ktdf_lowering.execute_on %[[Q]] {
// CHECK:           %[[TOK:.*]] = ktdf.create_token : !ktdf.token
// CHECK-NEXT:      ktdf_lowering.execute_on %[[Q]] {
// CHECK-NEXT:        ktdf.data_transfer from %[[SRC]][%[[T]], %[[I]], 0] size [1, 1, 64] to %[[SLOT]] size [64]
// CHECK:           }
// CHECK:         }
// CHECK:       }{{$}}
// CHECK:       return
// CHECK-NOT:   loop_type
func.func @single_stage(%src: memref<3x4x64xf16, "L1">, %slot: !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>) attributes {grid = [3]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %tok = ktdf.private -> (!ktdf.token) {
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %k : !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%tok) {
        ktdf.data_transfer from %src[%t, %i, 0] size [1, 1, 64] to %slot size [64] : memref<3x4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      } {applicable_units = ["L1LU"]}
    }
  } {loop_type = #ktdf.loop_type<parallel_loop>}
  return
}

// A function without stages is left alone: no units, no tile id.
// CHECK-LABEL: func.func @no_stages
// CHECK:       return
func.func @no_stages() attributes {grid = [3]} {
  return
}
