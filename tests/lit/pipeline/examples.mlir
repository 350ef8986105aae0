// Every example kernel compiles through -ktir-to-dfir as far as it has landed: one program
// per compute group, each with a pipeline routed over the device (one stage per hop) and
// FIFOs as wide as the device's SIMD lanes.
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=ADD
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/loop_nest.mlir | filecheck %s --check-prefix=NEST
// RUN: dfsched-opt --device=%devices/test_patterns.mlir -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=LANES16
// RUN: dfsched-opt --device=quad_corelet -ktir-to-dfir %examples/add.mlir | filecheck %s --check-prefix=QUAD
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/add_2tile.mlir -o /dev/null
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/fused_chain.mlir -o /dev/null
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/intrinsic.mlir -o /dev/null
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_bias.mlir -o /dev/null
// RUN: dfsched-opt --device=sample -ktir-to-dfir %examples/row_sum.mlir -o /dev/null

// The kernel becomes an orchestrator that calls the program.
// ADD:     func.func @add()
// ADD:       call @local_schedule_0()
// ADD:     module @local_schedule_0
// ADD:       ktdf.pipeline
// ADD:         } {applicable_units = ["MNILU"]}
// ADD:         } {applicable_units = ["L1LU"]}
// ADD:         } {applicable_units = ["SFU"]}
// ADD:         } {applicable_units = ["L1SU"]}
// ADD:         } {applicable_units = ["MNISU"]}
// ADD-NOT: module @local_schedule_1

// NEST-DAG: module @local_schedule_0
// NEST-DAG: module @local_schedule_1
// NEST-DAG: module @local_schedule_2
// NEST-NOT: module @local_schedule_3

// LANES16: ktdf.fifo.allocate() -> {{.*}}16xf16

// On another device the stages are that device's units.
// QUAD: } {applicable_units = ["DMARD"]}
// QUAD: } {applicable_units = ["VLD"]}
// QUAD: } {applicable_units = ["VPU"]}
// QUAD: } {applicable_units = ["VST"]}
// QUAD: } {applicable_units = ["DMAWR"]}
