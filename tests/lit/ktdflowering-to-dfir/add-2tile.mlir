// RUN: dfsched-opt %s --device=sample --ktdflowering-to-dfir --wrap-program-dfir | filecheck %s

// The 2-tile element-wise add of examples/add_2tile.mlir as dfsched's own pipeline leaves it
// after ktdf-to-ktdflowering (2 cores; A, B, C at DDR bytes 0, 4096, 8192; L1 buffers at
// bytes 0, 128, 256): five program units, one per unit kind, each with only its own work.
// Each core reads its own row: the DDR views start one row (64 f16 = 128 bytes) further on
// core 1 (Decision 8). The program is then wrapped: it declares no symbols (every address
// is a constant), so the outer function only calls the DataflowIR.

// CHECK-LABEL: module @local_schedule_0 {
// CHECK:         func.func private @local_schedule_0_body()
// CHECK:         func.func @local_schedule_0() {
// CHECK-NEXT:      call @local_schedule_0_body() : () -> ()
// CHECK:           return
// CHECK:         }
// CHECK-NEXT:    module {
// CHECK:           func.func @local_schedule_0_body() attributes {grid = [2]} {
// CHECK-DAG:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:         %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:         %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:         %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG:         %[[C4224:.*]] = arith.constant 4224 : index
// CHECK-DAG:         %[[C8192:.*]] = arith.constant 8192 : index
// CHECK-DAG:         %[[C8320:.*]] = arith.constant 8320 : index
// CHECK:             %[[MN0:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
// CHECK:             %[[MN1:.*]] = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnilu", type = "mnilu"} : index
// CHECK:             %[[LU0:.*]] = dataflow.get_unit {{.*}}name = "C0-l1lu"
// CHECK:             %[[LU1:.*]] = dataflow.get_unit {{.*}}name = "C1-l1lu"
// CHECK:             %[[SF0:.*]] = dataflow.get_unit {{.*}}name = "C0-sfu"
// CHECK:             %[[SF1:.*]] = dataflow.get_unit {{.*}}name = "C1-sfu"
// CHECK:             %[[SU0:.*]] = dataflow.get_unit {{.*}}name = "C0-l1su"
// CHECK:             %[[SU1:.*]] = dataflow.get_unit {{.*}}name = "C1-l1su"
// CHECK:             %[[MS0:.*]] = dataflow.get_unit {{.*}}name = "C0-mnisu"
// CHECK:             %[[MS1:.*]] = dataflow.get_unit {{.*}}name = "C1-mnisu"
// CHECK:             %[[DDR:.*]] = dataflow.get_unit {name = "ddr", type = "ddr"} : index
// CHECK:             %[[L10:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-l1", type = "l1"} : index
// CHECK:             %[[L11:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-l1", type = "l1"} : index

// MNILU: both operands DDR -> L1, then releases L1LU.
// CHECK-NEXT:        dataflow.program_unit iter_arg : %[[I0:.*]] -> (%[[MN0]], %[[MN1]]) : {
// CHECK:               %[[LM:.*]] = uniform.def_immutable_mapping([%[[MN0]] -> %[[L10]]], [%[[MN1]] -> %[[L11]]]):index
// CHECK:               %[[L:.*]] = uniform.query_map(map:%[[LM]], key:%[[I0]]) : index
// CHECK:               %[[AM:.*]] = uniform.def_immutable_mapping([%[[MN0]] -> %[[C0]]], [%[[MN1]] -> %[[C128]]]):index
// CHECK:               %[[AQ:.*]] = uniform.query_map(map:%[[AM]], key:%[[I0]]) : index
// CHECK-NEXT:          %[[A:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[AQ]] {layout_map = #{{.*}}} : index, index, memref<2x64xf16>
// CHECK:               %[[BM:.*]] = uniform.def_immutable_mapping([%[[MN0]] -> %[[C4096]]], [%[[MN1]] -> %[[C4224]]]):index
// CHECK:               %[[BQ:.*]] = uniform.query_map(map:%[[BM]], key:%[[I0]]) : index
// CHECK-NEXT:          %[[B:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[BQ]] {layout_map = #{{.*}}} : index, index, memref<2x64xf16>
// CHECK:               %[[LA:.*]] = dataflow.get_logical_memory_view %[[L]], %[[C0]] {layout_map = #{{.*}}} : index, index, memref<1x64xf16>
// CHECK:               %[[LB:.*]] = dataflow.get_logical_memory_view %[[L]], %[[C128]] {layout_map = #{{.*}}} : index, index, memref<1x64xf16>
// CHECK-NEXT:          agen.composite_load_and_store src:%[[A]][{{.*}}] dst:%[[LA]][0, 0]
// CHECK:               } : memref<2x64xf16>, memref<1x64xf16>
// CHECK-NEXT:          agen.composite_load_and_store src:%[[B]][{{.*}}] dst:%[[LB]][0, 0]
// CHECK:               } : memref<2x64xf16>, memref<1x64xf16>
// CHECK:               %[[PM:.*]] = uniform.def_immutable_mapping([%[[MN0]] -> %[[LU0]]], [%[[MN1]] -> %[[LU1]]]):index
// CHECK-NEXT:          %[[P:.*]] = uniform.query_map(map:%[[PM]], key:%[[I0]]) : index
// CHECK-NEXT:          dataflow.sync_send %[[P]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:          dataflow.sync_recv %[[P]] : index
// CHECK:             }

// L1LU: waits for MNILU, then loads both buffers into the SFU's FIFOs.
// CHECK-NEXT:        dataflow.program_unit iter_arg : %{{.*}} -> (%[[LU0]], %[[LU1]]) : {
// CHECK:               dataflow.sync_send
// CHECK-NEXT:          dataflow.sync_recv
// CHECK-NEXT:          agen.vector_load
// CHECK:               dataflow.send
// CHECK:               agen.vector_load
// CHECK:               dataflow.send
// CHECK:             }

// SFU: two receives, the add, a send.
// CHECK-NEXT:        dataflow.program_unit iter_arg : %{{.*}} -> (%[[SF0]], %[[SF1]]) : {
// CHECK:               %[[X:.*]] = dataflow.receive
// CHECK:               %[[Y:.*]] = dataflow.receive
// CHECK-NEXT:          %[[S:.*]] = vectorchain.binary %[[X]], %[[Y]] {binary_op = #vectorchain<binary_operator add>
// CHECK:               dataflow.send %{{.*}}, %[[S]] : vector<64xf16>
// CHECK:             }

// L1SU: receive, store into L1 at byte 256, release MNISU.
// CHECK-NEXT:        dataflow.program_unit iter_arg : %{{.*}} -> (%[[SU0]], %[[SU1]]) : {
// CHECK:               dataflow.get_logical_memory_view %{{.*}}, %[[C256]]
// CHECK:               dataflow.receive
// CHECK-NEXT:          agen.vector_store
// CHECK:               dataflow.sync_send
// CHECK-NEXT:          dataflow.sync_recv
// CHECK:             }

// MNISU: waits, then L1 -> DDR row of C.
// CHECK-NEXT:        dataflow.program_unit iter_arg : %{{.*}} -> (%[[MS0]], %[[MS1]]) : {
// CHECK:               uniform.def_immutable_mapping([%[[MS0]] -> %[[C8192]]], [%[[MS1]] -> %[[C8320]]]):index
// CHECK:               dataflow.sync_send
// CHECK-NEXT:          dataflow.sync_recv
// CHECK-NEXT:          agen.composite_load_and_store
// CHECK:               } : memref<1x64xf16>, memref<2x64xf16>
// CHECK:             }
// CHECK:             return
// CHECK-NOT:     ktdf_lowering
// CHECK-NOT:     ktdf.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  module {
    func.func @add2() attributes {grid = [2]} {
      call @local_schedule_0() : () -> ()
      return
    }
    func.func private @local_schedule_0() -> ()
  }
  module @local_schedule_0 {
    func.func @local_schedule_0() attributes {grid = [2]} {
      %0 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnilu", type = "mnilu"} : index
      %1 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnilu", type = "mnilu"} : index
      %2 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1lu", type = "l1lu"} : index
      %3 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1lu", type = "l1lu"} : index
      %4 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-sfu", type = "sfu"} : index
      %5 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-sfu", type = "sfu"} : index
      %6 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-l1su", type = "l1su"} : index
      %7 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-l1su", type = "l1su"} : index
      %8 = dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-mnisu", type = "mnisu"} : index
      %9 = dataflow.get_unit {core = 1 : i32, corelet = 0 : i32, name = "C1-mnisu", type = "mnisu"} : index
      %10 = ktdp.get_compute_tile_id : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %11 = uniform.def_immutable_mapping([%c0 -> %0], [%c1 -> %1]):index
      %12 = uniform.query_map(map:%11, key:%10) : index
      %c0_0 = arith.constant 0 : index
      %c1_1 = arith.constant 1 : index
      %13 = uniform.def_immutable_mapping([%c0_0 -> %2], [%c1_1 -> %3]):index
      %14 = uniform.query_map(map:%13, key:%10) : index
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      %15 = uniform.def_immutable_mapping([%c0_2 -> %4], [%c1_3 -> %5]):index
      %16 = uniform.query_map(map:%15, key:%10) : index
      %c0_4 = arith.constant 0 : index
      %c1_5 = arith.constant 1 : index
      %17 = uniform.def_immutable_mapping([%c0_4 -> %6], [%c1_5 -> %7]):index
      %18 = uniform.query_map(map:%17, key:%10) : index
      %c0_6 = arith.constant 0 : index
      %c1_7 = arith.constant 1 : index
      %19 = uniform.def_immutable_mapping([%c0_6 -> %8], [%c1_7 -> %9]):index
      %20 = uniform.query_map(map:%19, key:%10) : index
      %c0_8 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c8192 = arith.constant 8192 : index
      %c4096 = arith.constant 4096 : index
      %21 = ktdp.get_compute_tile_id : index
      %22 = ktdp.construct_memory_view %c0_8, sizes: [2, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %23 = ktdp.construct_memory_view %c4096, sizes: [2, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %24 = ktdp.construct_memory_view %c8192, sizes: [2, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
      %25 = arith.muli %21, %c64 : index
      %memspacecast = memref.memory_space_cast %22 : memref<2x64xf16> to memref<2x64xf16, "DDR">
      %reinterpret_cast = memref.reinterpret_cast %memspacecast to offset: [%25], sizes: [1, 64], strides: [64, 1] : memref<2x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
      %26 = arith.muli %21, %c64 : index
      %memspacecast_9 = memref.memory_space_cast %23 : memref<2x64xf16> to memref<2x64xf16, "DDR">
      %reinterpret_cast_10 = memref.reinterpret_cast %memspacecast_9 to offset: [%26], sizes: [1, 64], strides: [64, 1] : memref<2x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
      %27 = arith.muli %21, %c64 : index
      %memspacecast_11 = memref.memory_space_cast %24 : memref<2x64xf16> to memref<2x64xf16, "DDR">
      %reinterpret_cast_12 = memref.reinterpret_cast %memspacecast_11 to offset: [%27], sizes: [1, 64], strides: [64, 1] : memref<2x64xf16, "DDR"> to memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
      ktdf_lowering.execute_on %12, %14, %16, %18, %20 {
        %c0_13 = arith.constant 0 : index
        %28 = builtin.unrealized_conversion_cast %c0_13 : index to memref<1x64xf16, "L1">
        %c128 = arith.constant 128 : index
        %29 = builtin.unrealized_conversion_cast %c128 : index to memref<1x64xf16, "L1">
        %30:2 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %31 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        %c256 = arith.constant 256 : index
        %32 = builtin.unrealized_conversion_cast %c256 : index to memref<1x64xf16, "L1">
        %33 = ktdf.create_token : !ktdf.token
        %34 = ktdf.create_token : !ktdf.token
        %35 = ktdf.create_token : !ktdf.token
        %36 = ktdf.create_token : !ktdf.token
        ktdf_lowering.execute_on %12 {
          ktdf.data_transfer from %reinterpret_cast[%c0_8, %c0_8 * 64] size [1, 64] to %28[0, 0] size [1, 64] : memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">, memref<1x64xf16, "L1">
          ktdf.data_transfer from %reinterpret_cast_10[%c0_8, %c0_8 * 64] size [1, 64] to %29[0, 0] size [1, 64] : memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">, memref<1x64xf16, "L1">
        }
        ktdf_lowering.signal %12, %14
        ktdf_lowering.execute_on %14 {
          ktdf.data_transfer from %28[0, 0] size [1, 64] to %30#0 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          ktdf.data_transfer from %29[0, 0] size [1, 64] to %30#1 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        }
        ktdf_lowering.execute_on %16 {
          %37 = ktdf.read_from_fifo %30#0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %38 = ktdf.read_from_fifo %30#1 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %39 = tensor.empty() : tensor<1x64xf16>
          %40 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%37, %38 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%39 : tensor<1x64xf16>) {
          ^bb0(%in: f16, %in_14: f16, %out: f16):
            %41 = arith.addf %in, %in_14 : f16
            linalg.yield %41 : f16
          } -> tensor<1x64xf16>
          ktdf.write_to_fifo %40, %31 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
        }
        ktdf_lowering.execute_on %18 {
          ktdf.data_transfer from %31 size [64] to %32[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
        }
        ktdf_lowering.signal %18, %20
        ktdf_lowering.execute_on %20 {
          ktdf.data_transfer from %32[0, 0] size [1, 64] to %reinterpret_cast_12[%c0_8, %c0_8 * 64] size [1, 64] : memref<1x64xf16, "L1">, memref<1x64xf16, strided<[64, 1], offset: ?>, "DDR">
        }
      }
      return
    }
  }
}
