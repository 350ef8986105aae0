// The frontend up to this pass on the kernels of examples/: one program per compute
// group, one fused linalg.generic per program, and a three-stage pipeline whose FIFOs
// carry one SIMD vector of the device (64 f16 on the sample SFU, 32 on quad_corelet's VPU).

// RUN: dfsched-opt %examples/add.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,SAMPLE
// RUN: dfsched-opt %examples/add.mlir --device=quad_corelet -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,QUAD
// RUN: dfsched-opt %examples/add_2tile.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,SAMPLE
// RUN: dfsched-opt %examples/fused_chain.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,SAMPLE
// RUN: dfsched-opt %examples/fused_chain.mlir --device=quad_corelet -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,QUAD
// RUN: dfsched-opt %examples/intrinsic.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,SAMPLE
// RUN: dfsched-opt %examples/row_bias.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,SAMPLE
// RUN: dfsched-opt %examples/row_sum.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,ONE,REDUCE
// RUN: dfsched-opt %examples/loop_nest.mlir --device=sample -p ensure-device-declaration,ktir-legality-check,compute-group-extraction,construct-three-stage-pipeline | filecheck %s --check-prefixes=CHECK,NEST

// The orchestrator keeps no KTIR memory ops and no compute.
// CHECK:      module {
// CHECK-NEXT:   module {
// CHECK-NOT:      ktdp.load
// CHECK-NOT:      linalg.

// ONE:          module @local_schedule_0 {
// ONE-NOT:        ktdp.load
// ONE-NOT:        ktdp.store
// ONE-NOT:        ktdp.construct_access_tile
// ONE:            ktdf.pipeline {
// SAMPLE:           ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// QUAD:             ktdf.private -> (!ktdf.fifo.slot<"GMEM" -> "VPU", 32xf16>
// REDUCE:           ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 1xf16>
// ONE:              ktdf.stage depends_in(none)
// ONE:              linalg.generic
// REDUCE-SAME:        iterator_types = ["parallel", "reduction"]
// ONE-NOT:          linalg.generic
// SAMPLE:         } {applicable_units = ["SFU"]}
// QUAD:           } {applicable_units = ["VPU"]}
// ONE-NOT:      linalg.generic
// ONE-NOT:      module @local_schedule_1

// NEST-COUNT-3: func.call @local_schedule_
// NEST:         module @local_schedule_0 {
// NEST:           ktdf.pipeline {
// NEST:             ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// NEST-COUNT-1:     linalg.generic
// NEST-NOT:         linalg.generic
// NEST:         module @local_schedule_1 {
// NEST:           ktdf.pipeline {
// NEST-COUNT-1:     linalg.generic
// NEST-NOT:         linalg.generic
// NEST:         module @local_schedule_2 {
// NEST:           ktdf.pipeline {
// NEST-COUNT-1:     linalg.generic
// NEST-NOT:         linalg.generic
