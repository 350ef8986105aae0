// RUN: dfsched-opt %s -split-input-file --device=sample -double-buffering | filecheck %s

// Which memory spaces are the per-core scratchpad (Decision 1): whatever the device
// resolves to the memory at depth 1 of its memory tree, however the space is spelled.

// The KTIR space, mapped to "L1" by the declaration's mem_space_mapping.
// CHECK-LABEL: func.func @mapped_ct_local(
// CHECK:         %[[A:.+]] = memref.alloc() : memref<8x64xf16, #ktdp.memory_space<ct_local>>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<8x64xf16, #ktdp.memory_space<ct_local>>
// CHECK-NEXT:    scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:      %[[P:.+]] = ktdf.buffer_phase(%[[I]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:      ktdf.select_memref %[[P]][%[[A]], %[[B]]] : memref<8x64xf16, #ktdp.memory_space<ct_local>>
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
module {
  ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("../../../arch/devices/sample_device.mlir")
  func.func @mapped_ct_local(%in: memref<64x64xf16, #ktdp.memory_space<global>>, %out: memref<64x64xf16, #ktdp.memory_space<global>>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c8 {
      ktdf.pipeline {
        %buf, %t = ktdf.private -> (memref<8x64xf16, #ktdp.memory_space<ct_local>>, !ktdf.token) {
          %a = memref.alloc() : memref<8x64xf16, #ktdp.memory_space<ct_local>>
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<8x64xf16, #ktdp.memory_space<ct_local>>, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %in[%i, 0] size [8, 64] to %buf[0, 0] size [8, 64] : memref<64x64xf16, #ktdp.memory_space<global>>, memref<8x64xf16, #ktdp.memory_space<ct_local>>
        } {applicable_units = ["MNILU"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %buf[0, 0] size [8, 64] to %out[%i, 0] size [8, 64] : memref<8x64xf16, #ktdp.memory_space<ct_local>>, memref<64x64xf16, #ktdp.memory_space<global>>
        } {applicable_units = ["MNISU"]}
      }
    }
    return
  }
}

// -----

// The same space with the device from --device alone, which has no mapping: ct_local is
// the core's private memory (Decision 6), the scratchpad.
// CHECK-LABEL: func.func @default_ct_local(
// CHECK:         memref.alloc() : memref<8x64xf16, #ktdp.memory_space<ct_local>>
// CHECK:         memref.alloc() : memref<8x64xf16, #ktdp.memory_space<ct_local>>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      ktdf.buffer_phase
// CHECK-NEXT:      ktdf.select_memref
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
func.func @default_ct_local(%in: memref<64x64xf16, #ktdp.memory_space<global>>, %out: memref<64x64xf16, #ktdp.memory_space<global>>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c8 {
    ktdf.pipeline {
      %buf, %t = ktdf.private -> (memref<8x64xf16, #ktdp.memory_space<ct_local>>, !ktdf.token) {
        %a = memref.alloc() : memref<8x64xf16, #ktdp.memory_space<ct_local>>
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a, %k : memref<8x64xf16, #ktdp.memory_space<ct_local>>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %in[%i, 0] size [8, 64] to %buf[0, 0] size [8, 64] : memref<64x64xf16, #ktdp.memory_space<global>>, memref<8x64xf16, #ktdp.memory_space<ct_local>>
      } {applicable_units = ["MNILU"]}
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %buf[0, 0] size [8, 64] to %out[%i, 0] size [8, 64] : memref<8x64xf16, #ktdp.memory_space<ct_local>>, memref<64x64xf16, #ktdp.memory_space<global>>
      } {applicable_units = ["MNISU"]}
    }
  }
  return
}

// -----

// Another device's scratchpad: "SPAD" on quad_corelet (the module's device wins over
// --device).
// CHECK-LABEL: func.func @quad_spad(
// CHECK:         memref.alloc() : memref<8x32xf16, "SPAD">
// CHECK:         memref.alloc() : memref<8x32xf16, "SPAD">
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      ktdf.buffer_phase
// CHECK-NEXT:      ktdf.select_memref {{.+}} : memref<8x32xf16, "SPAD">
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
module {
  ktdf_arch.device @quad_corelet import("../../../arch/devices/quad_corelet.mlir")
  func.func @quad_spad(%in: memref<64x32xf16, "GMEM">, %out: memref<64x32xf16, "GMEM">) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c8 {
      ktdf.pipeline {
        %buf, %t = ktdf.private -> (memref<8x32xf16, "SPAD">, !ktdf.token) {
          %a = memref.alloc() : memref<8x32xf16, "SPAD">
          %k = ktdf.create_token : !ktdf.token
          ktdf.private_yield %a, %k : memref<8x32xf16, "SPAD">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%t) {
          ktdf.data_transfer from %in[%i, 0] size [8, 32] to %buf[0, 0] size [8, 32] : memref<64x32xf16, "GMEM">, memref<8x32xf16, "SPAD">
        } {applicable_units = ["DMARD"]}
        ktdf.stage depends_in(%t) depends_out(none) {
          ktdf.data_transfer from %buf[0, 0] size [8, 32] to %out[%i, 0] size [8, 32] : memref<8x32xf16, "SPAD">, memref<64x32xf16, "GMEM">
        } {applicable_units = ["DMAWR"]}
      }
    }
    return
  }
}

// -----

// Only the scratchpad slots of a private change; the others keep their order. Global
// memory ("DDR"), memory below the scratchpad ("SFU_REG"), a space the device does not
// have ("HBM"), a memref without a space and a FIFO slot stay in the private.
// CHECK-LABEL: func.func @mixed_slots(
// CHECK:         %[[L0:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK:         %[[L1:.+]] = memref.alloc() : memref<64xf16, "L1">
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %[[P:.+]] = ktdf.buffer_phase
// CHECK-NEXT:      %[[L:.+]] = ktdf.select_memref %[[P]][%[[L0]], %[[L1]]] : memref<64xf16, "L1">
// CHECK-NEXT:      ktdf.pipeline modulo(size : 2) {
// CHECK:             %[[R:.+]]:6 = ktdf.private -> (memref<64xf16, "DDR">, memref<64xf16, "SFU_REG">, memref<64xf16, "HBM">, memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.token) {
// CHECK:               memref.alloc() : memref<64xf16, "DDR">
// CHECK:               memref.alloc() : memref<64xf16, "SFU_REG">
// CHECK:               memref.alloc() : memref<64xf16, "HBM">
// CHECK:               memref.alloc() : memref<64xf16>
// CHECK:               ktdf.fifo.allocate
// CHECK:               ktdf.create_token
// CHECK:               ktdf.private_yield
// CHECK:             }
// CHECK-NEXT:        ktdf.stage depends_in(none) depends_out(%[[R]]#5) {
// CHECK-NEXT:          ktdf.data_transfer from %[[R]]#0[0] size [64] to %[[L]][0] size [64]
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} to %[[R]]#1[0]
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} to %[[R]]#2[0]
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} to %[[R]]#3[0]
// CHECK-NEXT:          ktdf.data_transfer from %{{.+}} to %[[R]]#4 size [64]
// CHECK:             }
// CHECK-NEXT:        ktdf.stage depends_in(%[[R]]#5) depends_out(none) {
// CHECK-NEXT:          ktdf.data_transfer from %[[L]][0] size [64] to
func.func @mixed_slots(%ddr: memref<64xf16, "DDR">, %src: memref<64xf16, "L1">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ktdf.pipeline {
      %d, %r, %h, %n, %q, %l, %t = ktdf.private -> (memref<64xf16, "DDR">, memref<64xf16, "SFU_REG">, memref<64xf16, "HBM">, memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "L1">, !ktdf.token) {
        %a0 = memref.alloc() : memref<64xf16, "DDR">
        %a1 = memref.alloc() : memref<64xf16, "SFU_REG">
        %a2 = memref.alloc() : memref<64xf16, "HBM">
        %a3 = memref.alloc() : memref<64xf16>
        %f = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %a4 = memref.alloc() : memref<64xf16, "L1">
        %k = ktdf.create_token : !ktdf.token
        ktdf.private_yield %a0, %a1, %a2, %a3, %f, %a4, %k : memref<64xf16, "DDR">, memref<64xf16, "SFU_REG">, memref<64xf16, "HBM">, memref<64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, memref<64xf16, "L1">, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%t) {
        ktdf.data_transfer from %d[0] size [64] to %l[0] size [64] : memref<64xf16, "DDR">, memref<64xf16, "L1">
        ktdf.data_transfer from %src[0] size [64] to %r[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "SFU_REG">
        ktdf.data_transfer from %src[0] size [64] to %h[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "HBM">
        ktdf.data_transfer from %src[0] size [64] to %n[0] size [64] : memref<64xf16, "L1">, memref<64xf16>
        ktdf.data_transfer from %src[0] size [64] to %q size [64] : memref<64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
      }
      ktdf.stage depends_in(%t) depends_out(none) {
        ktdf.data_transfer from %l[0] size [64] to %ddr[0] size [64] : memref<64xf16, "L1">, memref<64xf16, "DDR">
        ktdf.data_transfer from %r[0] size [64] to %ddr[0] size [64] : memref<64xf16, "SFU_REG">, memref<64xf16, "DDR">
        ktdf.data_transfer from %h[0] size [64] to %ddr[0] size [64] : memref<64xf16, "HBM">, memref<64xf16, "DDR">
        ktdf.data_transfer from %n[0] size [64] to %ddr[0] size [64] : memref<64xf16>, memref<64xf16, "DDR">
      }
    }
  }
  return
}
