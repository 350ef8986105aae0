// RUN: dfsched-opt %s --allow-unregistered-dialect --ktdf-to-ktdflowering | filecheck %s

// The module layout after compute-group extraction: a declaration module with the kernel,
// one module per program. Every function with stages is lowered on its own (units, tile id
// and maps at the start of its own entry block, its own grid); the kernel has no stages and
// is left alone. The device comes from the declaration in the top module.

// CHECK-LABEL: func.func @kernel
// CHECK-NEXT:  call @local_schedule_0
// CHECK-NEXT:  call @"local-schedule-1"
// CHECK:       return

// CHECK-LABEL: module @local_schedule_0
// CHECK:       func.func @local_schedule_0() attributes {grid = [2]} {
// CHECK-NEXT:    name = "C0-mnilu"
// CHECK-NEXT:    name = "C1-mnilu"
// CHECK-NEXT:    ktdp.get_compute_tile_id
// CHECK:         %[[Q0:.*]] = uniform.query_map
// CHECK-NEXT:    ktdf_lowering.execute_on %[[Q0]] {

// CHECK-LABEL: module @"local-schedule-1"
// CHECK:       func.func @"local-schedule-1"() attributes {grid = [1]} {
// CHECK-NEXT:    name = "C0-mnisu"
// CHECK-NEXT:    ktdp.get_compute_tile_id
// CHECK:         %[[Q1:.*]] = uniform.query_map
// CHECK-NEXT:    ktdf_lowering.execute_on %[[Q1]] {
module {
  ktdf_arch.device @sample_device import("../../../arch/devices/sample_device.mlir")
  module {
    func.func @kernel() attributes {grid = [2]} {
      call @local_schedule_0() : () -> ()
      call @"local-schedule-1"() : () -> ()
      return
    }
    func.func private @local_schedule_0()
    func.func private @"local-schedule-1"()
  }
  module @local_schedule_0 {
    func.func @local_schedule_0() attributes {grid = [2]} {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "test.load"() : () -> ()
        } {applicable_units = ["MNILU"]}
      }
      return
    }
  }
  module @"local-schedule-1" {
    func.func @"local-schedule-1"() attributes {grid = [1]} {
      ktdf.pipeline {
        ktdf.stage depends_in(none) depends_out(none) {
          "test.store"() : () -> ()
        } {applicable_units = ["MNISU"]}
      }
      return
    }
  }
}
