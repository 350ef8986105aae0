// Every example kernel compiles through -ktir-to-dfir (as far as the pipeline has landed) on
// two devices with different unit names and corelet counts.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=ADD
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/loop_nest.mlir | filecheck %s --check-prefix=NEST
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/add_2tile.mlir -o /dev/null
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/fused_chain.mlir -o /dev/null
// A Spyre intrinsic inside a linalg.generic (upstream rejects it): vectorchain has no op for
// it, so it stays as itself in a one-op element-wise linalg.generic over the SFU's vector,
// between the receives and the vectorchain multiply.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/intrinsic.mlir | filecheck %s --check-prefix=INTRINSIC
// INTRINSIC:     dataflow.program_unit iter_arg : %{{.*}} -> (%{{[0-9]+}}, {{.*}}) : {
// INTRINSIC:       %[[X:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// INTRINSIC:       %[[Y:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// INTRINSIC:       %[[XT:.*]] = builtin.unrealized_conversion_cast %[[X]] : vector<64xf16> to tensor<64xf16>
// INTRINSIC:       linalg.generic {{.*}} ins(%[[XT]] : tensor<64xf16>)
// INTRINSIC:       ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// INTRINSIC-NEXT:    spyreop.sigmoid %[[IN]] : f16
// INTRINSIC:       %[[G:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64xf16> to vector<64xf16>
// INTRINSIC-NEXT:  %[[P:.*]] = vectorchain.binary %[[G]], %[[Y]] {binary_op = #vectorchain<binary_operator mul>
// INTRINSIC:       dataflow.send %{{.*}}, %[[P]] : vector<64xf16>
// INTRINSIC-NOT:   ktdf.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_bias.mlir -o /dev/null
// Addresses passed as kernel arguments become symbols: the outer function of the program
// declares each argument and each per-tile start address derived from it (symbol.create_id),
// and the DMA units read them (symbol.create_symbol), picking their tile's by a uniform map.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/mul_args.mlir | filecheck %s --check-prefix=ARGS
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %examples/mul_args.mlir | filecheck %s --check-prefix=ARGS
// ARGS:       func.func @local_schedule_0(%[[X:.*]]: index, %[[Y:.*]]: index, %[[Z:.*]]: index) {
// ARGS:         symbol.create_id %[[X]] {symbol_id = -1 : si64} : index
// ARGS:         %[[X1:.*]] = arith.addi %[[X]], %c128 : index
// ARGS-NEXT:    symbol.create_id %[[X1]] {symbol_id = -4 : si64} : index
// ARGS:         call @local_schedule_0_body() : () -> ()
// ARGS:       dataflow.program_unit
// ARGS:         %[[S0:.*]] = symbol.create_symbol {SymbolId = -1 : i64} : index
// ARGS-NEXT:    %[[S1:.*]] = symbol.create_symbol {SymbolId = -4 : i64} : index
// ARGS:         uniform.def_immutable_mapping({{.*}}%[[S0]]{{.*}}%[[S1]]
// ARGS-NOT:     ktdf.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_sum.mlir -o /dev/null
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %examples/loop_nest.mlir -o /dev/null
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %examples/row_sum.mlir -o /dev/null

// The routed schedule, one stage per hop of the device's shortest routes:
// RUN: dfsched-opt --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline,path-expansion %examples/add.mlir | filecheck %s --check-prefix=ROUTE
// ROUTE: } {applicable_units = ["MNILU"]}
// ROUTE: } {applicable_units = ["L1LU"]}
// ROUTE: } {applicable_units = ["SFU"]}
// ROUTE: } {applicable_units = ["L1SU"]}
// ROUTE: } {applicable_units = ["MNISU"]}

// The kernel becomes an orchestrator calling the program; the program ends as DataflowIR:
// units materialised per core of the 32-tile grid and one program unit per engine kind (five
// on the sample device), with no ScheduleIR op left.
// ADD:     func.func @add()
// ADD:       call @local_schedule_0()
// ADD:     module @local_schedule_0
// ADD:       dataflow.get_unit {core = 31 : i32, corelet = 0 : i32, name = "C31-mnilu", type = "mnilu"}
// ADD-COUNT-5: dataflow.program_unit
// ADD-NOT: dataflow.program_unit
// ADD-NOT: {{ktdf(_lowering)?\.[a-z_.]+ }}
// ADD-NOT: module @local_schedule_1

// QUAD: dataflow.get_unit {core = 0 : i32, corelet = 0 : i32, name = "C0-dmard", type = "dmard"}
// QUAD: dataflow.get_unit {{.*}}type = "vpu"
// QUAD: dataflow.program_unit

// NEST-DAG: module @local_schedule_0
// NEST-DAG: module @local_schedule_1
// NEST-DAG: module @local_schedule_2
// NEST-NOT: module @local_schedule_3
