// RUN: dfsched-opt %s --address-assignment | filecheck %s

// Two programs (compute groups). A core's memories (L1, and SFU_REG below it) belong to the
// program running on the core: each program numbers them from 0. DDR is shared by every
// core and every program: its numbering runs on across programs, so the buffer one program
// writes does not overlap the buffers of the next. KTIR memory spaces are resolved through
// the device's mem_space_mapping and share the numbering of the memory they map to.

module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  module {
    func.func @kernel() attributes {grid = [1]} {
      call @local_schedule_0() : () -> ()
      call @local_schedule_1() : () -> ()
      return
    }
    func.func private @local_schedule_0()
    func.func private @local_schedule_1()
  }
  // CHECK-LABEL: module @local_schedule_0
  module @local_schedule_0 {
    func.func @local_schedule_0() attributes {grid = [1]} {
      // CHECK:      %[[D0:.*]] = arith.constant 0 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[D0]] : index to memref<256xf16, "DDR">
      // CHECK:      %[[L0:.*]] = arith.constant 0 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[L0]] : index to memref<64xf16, "L1">
      // CHECK:      %[[L1:.*]] = arith.constant 128 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[L1]] : index to memref<32xf32, #ktdp.memory_space<ct_local>>
      // CHECK:      %[[R0:.*]] = arith.constant 0 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[R0]] : index to memref<64xf16, "SFU_REG">
      // CHECK:      %[[D1:.*]] = arith.constant 512 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[D1]] : index to memref<16xf32, #ktdp.memory_space<global>>
      %result = memref.alloc() : memref<256xf16, "DDR">
      %a = memref.alloc() : memref<64xf16, "L1">
      %b = memref.alloc() : memref<32xf32, #ktdp.memory_space<ct_local>>
      %r = memref.alloc() : memref<64xf16, "SFU_REG">
      %g = memref.alloc() : memref<16xf32, #ktdp.memory_space<global>>
      return
    }
  }
  // CHECK-LABEL: module @local_schedule_1
  module @local_schedule_1 {
    func.func @local_schedule_1() attributes {grid = [1]} {
      // CHECK:      %[[L2:.*]] = arith.constant 0 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[L2]] : index to memref<8xf16, "L1">
      // CHECK:      %[[D2:.*]] = arith.constant 576 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[D2]] : index to memref<4xf16, "DDR">
      // CHECK:      %[[R1:.*]] = arith.constant 0 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[R1]] : index to memref<64xf16, "SFU_REG">
      // CHECK:      %[[L3:.*]] = arith.constant 16 : index
      // CHECK:      builtin.unrealized_conversion_cast %[[L3]] : index to memref<8xf16, #ktdp.memory_space<ct_local>>
      %a = memref.alloc() : memref<8xf16, "L1">
      %d = memref.alloc() : memref<4xf16, "DDR">
      %r = memref.alloc() : memref<64xf16, "SFU_REG">
      %b = memref.alloc() : memref<8xf16, #ktdp.memory_space<ct_local>>
      return
    }
  }
}
