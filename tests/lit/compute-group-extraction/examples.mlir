// The frontend on the kernels of examples/: legal V1, one program per compute group, the
// device declared from --device and kept at the top level.

// RUN: dfsched-opt %examples/add.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/add_2tile.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/fused_chain.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/intrinsic.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/row_bias.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/row_sum.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/matmul_kloop.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/row_sum_chunked.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,ONE
// RUN: dfsched-opt %examples/loop_nest.mlir --ensure-device-declaration --device=sample --ktir-legality-check --compute-group-extraction | filecheck %s --check-prefixes=CHECK,NEST

// CHECK:      module {
// CHECK-NEXT:   module {
// CHECK-NOT:      ktdp.

// Straight-line kernels: the orchestrator only calls program 0.
// ONE:            call @local_schedule_0() : () -> ()
// ONE:            return
// ONE:            func.func private @local_schedule_0()
// ONE:          }
// ONE-NEXT:     ktdf_arch.device @sample_device
// ONE-NEXT:     module @local_schedule_0 {
// ONE:            ktdp.load
// ONE:            ktdp.store
// ONE-NOT:      module @local_schedule_1

// The loop nest: a group before an inner loop, one in it, one after it.
// NEST:           scf.for %[[I:[a-zA-Z0-9_]+]] =
// NEST-NEXT:        func.call @local_schedule_1(%[[I]]) : (index) -> ()
// NEST-NEXT:        scf.for %[[J:[a-zA-Z0-9_]+]] =
// NEST-NEXT:          func.call @local_schedule_0(%[[I]], %[[J]]) : (index, index) -> ()
// NEST:             }
// NEST-NEXT:        func.call @local_schedule_2(%[[I]]) : (index) -> ()
// NEST:           }
// NEST:         ktdf_arch.device @sample_device
// NEST-NEXT:    module @local_schedule_0 {
// NEST:         module @local_schedule_1 {
// NEST:         module @local_schedule_2 {
// NEST-NOT:     module @local_schedule_3
