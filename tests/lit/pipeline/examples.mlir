// Every example kernel compiles through -ktir-to-dfir (as far as the pipeline has landed) on
// two devices with different unit names and corelet counts.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=ADD
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/loop_nest.mlir | filecheck %s --check-prefix=NEST
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/add_2tile.mlir -o /dev/null
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/fused_chain.mlir -o /dev/null
// Spyre intrinsics inside a linalg.generic do not lower to DataflowIR yet (nor upstream): a
// located diagnostic, no traceback.
// RUN: not dfsched-opt --device=sample -ktir-to-dfir %examples/intrinsic.mlir 2>&1 | filecheck %s --check-prefix=INTRINSIC
// INTRINSIC: intrinsic.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unsupported operation type in linalg.generic body
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_bias.mlir -o /dev/null
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
